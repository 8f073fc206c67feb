// Adding, editing and importing questions in the Avaliação tab, the network mocked at api/admin-queries.ts.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import type { AdminQuestion, LessonQuiz } from '../../api/admin-queries';
import { QuizEditor } from './quiz-editor';

const api = vi.hoisted(() => ({
  fetchLessonQuiz: vi.fn(),
  saveQuestion: vi.fn(),
  importQuestions: vi.fn(),
  fetchQuizResults: vi.fn(),
  questionImageUrl: vi.fn(),
  uploadQuestionImage: vi.fn(),
  removeQuestionImage: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../../api/admin-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const lesson = { schoolId: 's1', courseId: 'c1', lessonId: 'l1' };
const quiz = {
  id: 'q1',
  lesson_id: 'l1',
  course_id: 'c1',
  pass_mark: 70,
  max_attempts: 2,
  wait_hours: 1,
  time_limit_minutes: null,
  late_policy: 'grade_at_deadline',
  shuffle_questions: false,
  shuffle_options: false,
  show_answers: 'after_each_attempt',
  published_version_id: null,
  published_at: null,
  questions_updated_at: '2026-11-26T10:00:00+00:00',
  created_at: '2026-11-26T10:00:00+00:00',
  updated_at: '2026-11-26T10:00:00+00:00',
} as const;
const existing: AdminQuestion = {
  id: 'a',
  quiz_id: 'q1',
  position: 4,
  kind: 'multiple',
  scoring: 'partial',
  statement: 'Quais são funções de texto?',
  image_path: 's1/c1/l1/quiz-old.png',
  explanation: 'ESQUERDA e DIREITA recortam texto.',
  options: [
    { id: 'o1', text: 'ESQUERDA', correct: true },
    { id: 'o2', text: 'SOMA', correct: false },
    { id: 'o3', text: 'DIREITA', correct: true },
  ],
};

/** No pause between keystrokes: the statements are long and two cores are shared. */
const user = userEvent.setup({ delay: null });
let state: LessonQuiz;
const lessonSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
const open = () =>
  renderScreen(
    <form aria-label="Editar Aula" onSubmit={lessonSubmit}>
      <QuizEditor {...lesson} />
    </form>,
  );
const csv = (text: string) => new File([text], 'perguntas.csv', { type: 'text/csv' });

describe('QuizEditor questions', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    vi.mocked(toast.success).mockReset();
    lessonSubmit.mockClear();
    state = { quiz, questions: [existing] };
    api.fetchLessonQuiz.mockImplementation(async () => state);
    api.fetchQuizResults.mockResolvedValue({ attempts: 0, students: 0, students_passed: 0, average_score: null, pass_rate: null, most_missed: [] });
    api.questionImageUrl.mockResolvedValue('https://signed.example/quiz-old.png');
    URL.createObjectURL = vi.fn(() => 'blob:nova-imagem');
    URL.revokeObjectURL = vi.fn();
  });

  it('a new question: statement with its preview, two options, the correct one chosen, saved after the last question', async () => {
    api.saveQuestion.mockResolvedValue(undefined);
    open();
    await user.click(await screen.findByRole('button', { name: 'Adicionar pergunta' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova pergunta' });
    await user.click(within(dialog).getByRole('button', { name: 'Salvar pergunta' }));
    expect(await within(dialog).findByText('Escreva o enunciado da pergunta')).toBeInTheDocument();
    expect(within(dialog).getAllByText('Escreva o texto da opção')).toHaveLength(2);
    expect(within(dialog).getByText('Marque a opção correta')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/Enunciado/), 'Qual função **soma**?');
    expect(within(dialog).getByLabelText('Pré-visualização').querySelector('strong')).toHaveTextContent('soma');
    await user.type(within(dialog).getByLabelText('Opção 1'), 'MÉDIA');
    await user.type(within(dialog).getByLabelText('Opção 2'), 'SOMA');
    await user.click(within(dialog).getByRole('button', { name: 'Adicionar opção' }));
    await user.type(within(dialog).getByLabelText('Opção 3'), 'PROCV');
    await user.click(within(dialog).getAllByRole('radio', { name: 'Correta' })[1]!);
    await user.type(within(dialog).getByLabelText('Explicação (opcional)'), 'SOMA soma.');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar pergunta' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nova pergunta' })).not.toBeInTheDocument());
    expect(api.saveQuestion).toHaveBeenCalledWith(expect.anything(), {
      id: undefined,
      quizId: 'q1',
      position: 5,
      values: {
        kind: 'single',
        scoring: 'all_or_nothing',
        statement: 'Qual função **soma**?',
        options: [
          { id: expect.any(String), text: 'MÉDIA', correct: false },
          { id: expect.any(String), text: 'SOMA', correct: true },
          { id: expect.any(String), text: 'PROCV', correct: false },
        ],
        explanation: 'SOMA soma.',
        image_path: null,
      },
    });
    expect(api.uploadQuestionImage).not.toHaveBeenCalled();
    expect(lessonSubmit).not.toHaveBeenCalled();
    expect(toast.success).toHaveBeenCalledWith('Pergunta adicionada!');
  });

  it('true or false gives the Verdadeiro and Falso options', async () => {
    api.saveQuestion.mockResolvedValue(undefined);
    open();
    await user.click(await screen.findByRole('button', { name: 'Adicionar pergunta' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova pergunta' });
    await user.selectOptions(within(dialog).getByLabelText('Tipo de pergunta'), 'Verdadeiro ou falso');
    expect(within(dialog).getByLabelText('Opção 1')).toHaveValue('Verdadeiro');
    expect(within(dialog).getByLabelText('Opção 2')).toHaveValue('Falso');
    expect(within(dialog).queryByRole('button', { name: 'Adicionar opção' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Enunciado/), 'O Excel guarda datas como números.');
    await user.click(within(dialog).getAllByRole('radio', { name: 'Correta' })[0]!);
    await user.click(within(dialog).getByRole('button', { name: 'Salvar pergunta' }));
    await waitFor(() => expect(api.saveQuestion).toHaveBeenCalled());
    expect(api.saveQuestion.mock.calls[0]![1].values).toMatchObject({
      kind: 'true_false',
      options: [
        { text: 'Verdadeiro', correct: true },
        { text: 'Falso', correct: false },
      ],
    });
  });

  it('editing a multiple-choice question keeps its option ids, and a new image is stored before the question', async () => {
    api.uploadQuestionImage.mockResolvedValue('s1/c1/l1/quiz-new.png');
    api.saveQuestion.mockResolvedValue(undefined);
    open();
    await user.click(await screen.findByRole('button', { name: 'Ações da pergunta 1' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar pergunta 1' });
    expect(within(dialog).getByLabelText('Pontuação')).toHaveValue('partial');
    expect(await within(dialog).findByRole('img', { name: 'Imagem da pergunta' })).toHaveAttribute('src', 'https://signed.example/quiz-old.png');
    const boxes = within(dialog).getAllByRole('checkbox', { name: 'Correta' });
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([true, false, true]);
    await user.click(boxes[0]!);
    await user.click(boxes[0]!);
    await user.click(boxes[2]!);

    const image = new File(['png'], 'grafico.png', { type: 'image/png' });
    await user.upload(within(dialog).getByLabelText('Imagem (opcional)'), image);
    expect(within(dialog).getByRole('img', { name: 'Nova imagem da pergunta' })).toHaveAttribute('src', 'blob:nova-imagem');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar pergunta' }));
    await waitFor(() => expect(api.saveQuestion).toHaveBeenCalled());
    expect(api.uploadQuestionImage).toHaveBeenCalledWith(expect.anything(), lesson, image);
    expect(api.saveQuestion).toHaveBeenCalledWith(expect.anything(), {
      id: 'a',
      quizId: 'q1',
      position: 4,
      values: expect.objectContaining({
        kind: 'multiple',
        scoring: 'partial',
        image_path: 's1/c1/l1/quiz-new.png',
        options: [
          { id: 'o1', text: 'ESQUERDA', correct: true },
          { id: 'o2', text: 'SOMA', correct: false },
          { id: 'o3', text: 'DIREITA', correct: false },
        ],
      }),
    });
    expect(lessonSubmit).not.toHaveBeenCalled();
  });

  it('a refused save removes the image it had just stored', async () => {
    api.uploadQuestionImage.mockResolvedValue('s1/c1/l1/quiz-new.png');
    api.saveQuestion.mockRejectedValue({ message: 'violates check constraint', code: '23514' });
    open();
    await user.click(await screen.findByRole('button', { name: 'Ações da pergunta 1' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar pergunta 1' });
    await user.upload(within(dialog).getByLabelText('Imagem (opcional)'), new File(['png'], 'g.png', { type: 'image/png' }));
    await user.click(within(dialog).getByRole('button', { name: 'Salvar pergunta' }));
    await waitFor(() => expect(api.removeQuestionImage).toHaveBeenCalledWith(expect.anything(), 's1/c1/l1/quiz-new.png'));
    expect(screen.getByRole('dialog', { name: 'Editar pergunta 1' })).toBeInTheDocument();
  });

  it('Importar CSV: per-row errors before importing, and only a valid file imports, after the existing questions', async () => {
    api.importQuestions.mockResolvedValue(2);
    open();
    await user.click(await screen.findByRole('button', { name: 'Importar CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar perguntas' });
    const input = within(dialog).getByLabelText('Arquivo CSV');
    await user.upload(input, csv('pergunta;opção 1;opção 2;corretas\nOk?;Sim;Não;1\nSó uma;A;;1\nFora;A;B;5\n'));
    const errors = await within(dialog).findByRole('list', { name: 'Erros do arquivo' });
    expect(within(errors).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Linha 3: informe ao menos duas opções.',
      'Linha 4: a opção 5 indicada em corretas não existe.',
    ]);
    expect(within(dialog).getByRole('button', { name: 'Importar perguntas' })).toBeDisabled();

    await user.upload(input, csv('pergunta;opção 1;opção 2;opção 3;corretas\nQuais?;A;B;C;1,3\nExcel é planilha?;Verdadeiro;Falso;;1\n'));
    const table = await within(dialog).findByRole('table', { name: 'Prévia da importação' });
    expect(within(table).getByText('Múltipla escolha')).toBeInTheDocument();
    expect(within(table).getByText('Verdadeiro ou falso')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Importar 2 perguntas' }));
    await waitFor(() => expect(api.importQuestions).toHaveBeenCalled());
    expect(api.importQuestions).toHaveBeenCalledWith(expect.anything(), {
      quizId: 'q1',
      startPosition: 5,
      rows: [
        expect.objectContaining({ statement: 'Quais?', kind: 'multiple' }),
        expect.objectContaining({ statement: 'Excel é planilha?', kind: 'true_false' }),
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Importar perguntas' })).not.toBeInTheDocument());
    expect(toast.success).toHaveBeenCalledWith('2 perguntas importadas!');
  });
});
