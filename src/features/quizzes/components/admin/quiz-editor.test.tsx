// The Avaliação tab as the lesson dialog mounts it (inside the lesson's own <form>), the network mocked
// at api/admin-queries.ts. Dragging is a browser journey: jsdom lays nothing out for dnd-kit.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/platform/toast';
import { renderScreen } from '@/test/render';
import type { AdminQuestion, AdminQuiz, LessonQuiz } from '../../api/admin-queries';
import { QuizEditor } from './quiz-editor';

const api = vi.hoisted(() => ({
  fetchLessonQuiz: vi.fn(),
  createQuiz: vi.fn(),
  saveQuizSettings: vi.fn(),
  publishQuiz: vi.fn(),
  unpublishQuiz: vi.fn(),
  deleteQuiz: vi.fn(),
  saveQuestion: vi.fn(),
  deleteQuestion: vi.fn(),
  duplicateQuestion: vi.fn(),
  reorderQuestions: vi.fn(),
  fetchQuizResults: vi.fn(),
  questionImageUrl: vi.fn(),
  uploadQuestionImage: vi.fn(),
  removeQuestionImage: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../../api/admin-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const lesson = { schoolId: 's1', courseId: 'c1', lessonId: 'l1' };
const quiz = (over: Partial<AdminQuiz> = {}): AdminQuiz => ({
  id: 'q1',
  lesson_id: 'l1',
  course_id: 'c1',
  pass_mark: 70,
  max_attempts: null,
  wait_hours: 0,
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
  ...over,
});
const question = (id: string, position: number, over: Partial<AdminQuestion> = {}): AdminQuestion => ({
  id,
  quiz_id: 'q1',
  position,
  kind: 'single',
  scoring: 'all_or_nothing',
  statement: `Qual função **soma** (${id})?`,
  image_path: null,
  explanation: null,
  options: [
    { id: `${id}-a`, text: 'SOMA', correct: true },
    { id: `${id}-b`, text: 'MÉDIA', correct: false },
  ],
  ...over,
});
const noResults = { attempts: 0, students: 0, students_passed: 0, average_score: null, pass_rate: null, most_missed: [] };

/** No pause between keystrokes: the statements are long and two cores are shared. */
const user = userEvent.setup({ delay: null });
let state: LessonQuiz;
const lessonSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
/** The tab inside a stand-in for the lesson dialog's form: nothing in it may submit that form. */
const open = () =>
  renderScreen(
    <form aria-label="Editar Aula" onSubmit={lessonSubmit}>
      <QuizEditor {...lesson} />
    </form>,
  );

describe('QuizEditor (Avaliação tab)', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    vi.mocked(toast.error).mockReset();
    vi.mocked(toast.success).mockReset();
    lessonSubmit.mockClear();
    state = { quiz: quiz(), questions: [question('a', 0), question('b', 1)] };
    api.fetchLessonQuiz.mockImplementation(async () => state);
    api.fetchQuizResults.mockResolvedValue(noResults);
  });

  it('a lesson without a quiz offers "Criar avaliação", which inserts the quiz of this lesson', async () => {
    state = { quiz: null, questions: [] };
    api.createQuiz.mockImplementation(async () => {
      state = { quiz: quiz(), questions: [] };
      return state.quiz;
    });
    open();
    await user.click(await screen.findByRole('button', { name: 'Criar avaliação' }));
    expect(api.createQuiz).toHaveBeenCalledWith(expect.anything(), 'l1');
    expect(await screen.findByTestId('quiz-status')).toHaveTextContent('Rascunho');
    expect(screen.getByText('Nenhuma pergunta ainda')).toBeInTheDocument();
    expect(screen.getByLabelText(/Nota mínima para aprovação/)).toHaveValue(70);
  });

  it('saves the settings with their limits, and Enter in a field saves them instead of the lesson', async () => {
    open();
    const passMark = await screen.findByLabelText(/Nota mínima para aprovação/);
    await user.clear(passMark);
    await user.type(passMark, '0');
    await user.click(screen.getByRole('button', { name: 'Salvar configurações' }));
    expect(await screen.findByText('Use um valor entre 1 e 100')).toBeInTheDocument();
    expect(api.saveQuizSettings).not.toHaveBeenCalled();

    api.saveQuizSettings.mockResolvedValue(quiz());
    await user.clear(passMark);
    await user.type(passMark, '60');
    await user.selectOptions(screen.getByLabelText('Tentativas permitidas'), '2');
    const wait = screen.getByLabelText('Intervalo entre tentativas (horas)');
    await user.clear(wait);
    await user.type(wait, '1');
    await user.type(screen.getByLabelText('Tempo limite (minutos)'), '30');
    await user.click(screen.getByLabelText('Recusar o envio'));
    await user.click(screen.getByLabelText('Embaralhar opções'));
    await user.selectOptions(screen.getByLabelText('Mostrar respostas corretas'), 'Somente após aprovação');
    await user.type(wait, '{Enter}');
    await waitFor(() => expect(api.saveQuizSettings).toHaveBeenCalledTimes(1));
    expect(api.saveQuizSettings).toHaveBeenCalledWith(expect.anything(), 'q1', {
      pass_mark: 60,
      max_attempts: 2,
      wait_hours: 1,
      time_limit_minutes: 30,
      late_policy: 'refuse',
      shuffle_questions: false,
      shuffle_options: true,
      show_answers: 'after_passing',
    });
    expect(lessonSubmit).not.toHaveBeenCalled();
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Configurações salvas!'));
  });

  it('shows the questions in order with the sanitised statement and the correct option marked', async () => {
    state.questions = [question('a', 0, { statement: 'Veja <img src=x onerror=alert(1)> **isto**' }), question('b', 1)];
    open();
    const items = await screen.findAllByTestId('quiz-question');
    expect(items[0]).toHaveTextContent('Pergunta 1');
    expect(items[0]!.querySelector('strong')).toHaveTextContent('isto');
    expect(items[0]!.innerHTML).not.toContain('onerror');
    expect(within(items[0]!).getByRole('list', { name: 'Opções da pergunta 1' })).toHaveTextContent('SOMA (correta)');
    expect(screen.getByRole('button', { name: 'Arrastar pergunta 2' })).toBeInTheDocument();
  });

  it('publish state: the badge follows the quiz, and a refusal of publish_quiz is the one error toast', async () => {
    api.publishQuiz.mockRejectedValueOnce({ message: 'A pergunta 2 não tem opção correta.', code: '22023' });
    open();
    expect(await screen.findByTestId('quiz-status')).toHaveTextContent('Rascunho');
    await user.click(screen.getByRole('button', { name: 'Publicar avaliação' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Não foi possível publicar a avaliação', {
        description: 'A pergunta 2 não tem opção correta.',
      }),
    );

    api.publishQuiz.mockImplementation(async () => {
      state = { ...state, quiz: quiz({ published_version_id: 'v1', published_at: '2026-11-26T11:00:00+00:00' }) };
      return state.quiz;
    });
    await user.click(screen.getByRole('button', { name: 'Publicar avaliação' }));
    await waitFor(() => expect(screen.getByTestId('quiz-status')).toHaveTextContent('Publicada'));
    expect(screen.queryByRole('button', { name: 'Publicar avaliação' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Despublicar' })).toBeInTheDocument();
  });

  it('"Alterações não publicadas" when the questions changed after publishing', async () => {
    state.quiz = quiz({ published_version_id: 'v1', published_at: '2026-11-26T11:00:00+00:00', questions_updated_at: '2026-11-26T11:05:00+00:00' });
    open();
    expect(await screen.findByTestId('quiz-status')).toHaveTextContent('Alterações não publicadas');
    expect(screen.getByRole('button', { name: 'Publicar avaliação' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Despublicar' })).toBeInTheDocument();
  });

  it('deleting the quiz warns that the students’ attempts go with it', async () => {
    api.deleteQuiz.mockResolvedValue(undefined);
    open();
    await user.click(await screen.findByRole('button', { name: 'Excluir avaliação' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Excluir avaliação?' });
    expect(confirm).toHaveTextContent('as tentativas e notas de todos os alunos serão excluídas');
    await user.click(within(confirm).getByRole('button', { name: 'Excluir avaliação' }));
    await waitFor(() => expect(api.deleteQuiz).toHaveBeenCalledWith(expect.anything(), 'q1'));
  });

  it('duplicates and deletes (after confirming) a question', async () => {
    api.duplicateQuestion.mockResolvedValue(undefined);
    api.deleteQuestion.mockResolvedValue(undefined);
    open();
    await user.click(await screen.findByRole('button', { name: 'Ações da pergunta 2' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Duplicar' }));
    await waitFor(() => expect(api.duplicateQuestion).toHaveBeenCalledWith(expect.anything(), 'b'));

    await user.click(screen.getByRole('button', { name: 'Ações da pergunta 1' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Excluir' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Excluir a pergunta 1?' });
    await user.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(api.deleteQuestion).toHaveBeenCalledWith(expect.anything(), 'a'));
    expect(lessonSubmit).not.toHaveBeenCalled();
  });

  it('shows the results: attempts, students passed, average, pass rate and the most missed questions', async () => {
    api.fetchQuizResults.mockResolvedValue({
      attempts: 7,
      students: 4,
      students_passed: 3,
      average_score: 68.57,
      pass_rate: 75,
      most_missed: [{ question_id: 'b', statement: 'Qual é o **PROCV**?', answered: 7, missed: 5, miss_rate: 71.43 }],
    });
    open();
    const card = (await screen.findByText('Resultados')).closest('div')!.parentElement!;
    expect(await within(card).findByText('7')).toBeInTheDocument();
    expect(within(card).getByText('3 de 4')).toBeInTheDocument();
    expect(within(card).getByText('68,6%')).toBeInTheDocument();
    expect(within(card).getByText('75%')).toBeInTheDocument();
    expect(within(card).getByText('Errada em 5 de 7 respostas (71,4%)')).toBeInTheDocument();
  });
});
