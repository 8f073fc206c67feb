// The student's quiz as the lesson page mounts it, the network mocked at the feature's api/queries.ts.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import type { QuizAttemptSummary, QuizForStudent, QuizOpenAttempt } from '../../api/queries';
import QuizSection from './quiz-section';

const api = vi.hoisted(() => ({
  fetchQuizForStudent: vi.fn(),
  startQuizAttempt: vi.fn(),
  saveQuizAnswers: vi.fn(),
  submitQuizAttempt: vi.fn(),
  signQuizImage: vi.fn(),
}));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const settings: QuizForStudent['settings'] = {
  pass_mark: 60,
  max_attempts: 2,
  wait_hours: 1,
  time_limit_minutes: null,
  show_answers: 'after_each_attempt',
  late_policy: 'grade_at_deadline',
  question_count: 3,
};
const quiz = (over: Partial<QuizForStudent> = {}): QuizForStudent => ({
  quiz_id: 'q1',
  lesson_id: 'l1',
  settings,
  state: 'not_started',
  attempts_used: 0,
  attempts_left: 2,
  next_attempt_at: null,
  best_score: null,
  notice: null,
  open_attempt: null,
  attempts: [],
  received_at: Date.now(),
  ...over,
});
const questions: QuizOpenAttempt['questions'] = [
  { id: 'a', kind: 'single', statement: 'Qual função **soma** valores?', image_path: 'school/c1/l1/quiz-1.png', options: [{ id: 'a1', text: 'SOMA' }, { id: 'a2', text: 'MÉDIA' }] },
  { id: 'b', kind: 'multiple', statement: 'Quais são funções de texto?', image_path: null, options: [{ id: 'b1', text: 'ESQUERDA' }, { id: 'b2', text: 'DIREITA' }, { id: 'b3', text: 'SOMA' }] },
  { id: 'c', kind: 'true_false', statement: 'PROCV procura na vertical.', image_path: null, options: [{ id: 'c1', text: 'Verdadeiro' }, { id: 'c2', text: 'Falso' }] },
];
const open = (over: Partial<QuizOpenAttempt> = {}): QuizOpenAttempt => ({
  id: 'at1',
  number: 1,
  started_at: new Date().toISOString(),
  deadline_at: null,
  now: new Date().toISOString(),
  answers: {},
  questions,
  ...over,
});
const graded = (over: Partial<QuizAttemptSummary> = {}): QuizAttemptSummary => ({
  id: 'at1',
  number: 1,
  started_at: '2026-11-26T12:00:00Z',
  submitted_at: '2026-11-26T12:10:00Z',
  status: 'graded',
  score: 33.33,
  passed: false,
  review: null,
  ...over,
});

const show = () => renderScreen(<QuizSection lessonId="l1" userId="u1" />, { session: signedIn() });

describe('QuizSection', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    api.signQuizImage.mockResolvedValue('https://files.test/quiz-1.png');
    api.saveQuizAnswers.mockResolvedValue(new Date().toISOString());
  });

  it('a lesson without a published quiz shows nothing', async () => {
    api.fetchQuizForStudent.mockResolvedValue(null);
    const { container } = show();
    await waitFor(() => expect(api.fetchQuizForStudent).toHaveBeenCalled());
    await waitFor(() => expect(container.querySelector('[data-testid="quiz-section"]')).toBeNull());
  });

  it('before starting: the questions, pass mark and attempts, then one question per screen with autosave', async () => {
    api.fetchQuizForStudent.mockResolvedValue(quiz());
    api.startQuizAttempt.mockResolvedValue(quiz({ state: 'in_progress', open_attempt: open() }));
    show();
    const facts = await screen.findByTestId('quiz-facts');
    expect(facts).toHaveTextContent('Perguntas3');
    expect(facts).toHaveTextContent('Nota mínima60%');
    expect(facts).toHaveTextContent('Tentativas0 de 2 usadas');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar avaliação' }));
    expect(api.startQuizAttempt).toHaveBeenCalledWith(expect.anything(), 'q1');

    // jsdom has no matchMedia: the phone's default, one question at a time.
    expect(await screen.findByRole('heading', { name: /Pergunta 1 de 3/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Uma por vez' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('soma', { selector: 'strong' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Imagem da pergunta 1' })).toHaveAttribute('src', 'https://files.test/quiz-1.png');
    expect(api.signQuizImage).toHaveBeenCalledWith(expect.anything(), 'school/c1/l1/quiz-1.png', expect.any(Number));
    expect(screen.getByRole('button', { name: 'Anterior' })).toBeDisabled();

    await userEvent.click(screen.getByRole('radio', { name: 'SOMA' }));
    expect(screen.getByTestId('quiz-answered')).toHaveTextContent('1 de 3 perguntas respondidas');
    await waitFor(() => expect(api.saveQuizAnswers).toHaveBeenCalledWith(expect.anything(), 'at1', { a: ['a1'] }), { timeout: 2000 });

    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(screen.getByRole('heading', { name: /Pergunta 2 de 3/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'ESQUERDA' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'DIREITA' }));
    await waitFor(() => expect(api.saveQuizAnswers).toHaveBeenLastCalledWith(expect.anything(), 'at1', { a: ['a1'], b: ['b1', 'b2'] }), { timeout: 2000 });

    // 'Todas': every question on one page.
    await userEvent.click(screen.getByRole('button', { name: 'Todas' }));
    expect(screen.getAllByTestId('quiz-question')).toHaveLength(3);
  });

  it('a reload restores the saved answers; blanks ask for a confirmation; the result shows the review', async () => {
    api.fetchQuizForStudent.mockResolvedValue(quiz({ state: 'in_progress', open_attempt: open({ answers: { a: ['a1'] } }) }));
    const review = [
      { question_id: 'a', kind: 'single', statement: 'Qual função soma?', image_path: null, options: [{ id: 'a1', text: 'SOMA', correct: true }, { id: 'a2', text: 'MÉDIA', correct: false }], chosen: ['a1'], is_correct: true, earned: 1, explanation: 'SOMA soma.' },
      { question_id: 'b', kind: 'multiple', statement: 'Texto?', image_path: null, options: [{ id: 'b1', text: 'ESQUERDA', correct: true }], chosen: [], is_correct: false, earned: 0, explanation: null },
      { question_id: 'c', kind: 'true_false', statement: 'PROCV?', image_path: null, options: [{ id: 'c1', text: 'Verdadeiro', correct: true }], chosen: [], is_correct: false, earned: 0, explanation: null },
    ] satisfies QuizAttemptSummary['review'];
    api.submitQuizAttempt.mockResolvedValue(
      quiz({ state: 'failed', attempts_used: 1, attempts_left: 1, next_attempt_at: '2099-01-01T15:00:00Z', best_score: 33.33, attempts: [graded({ review })] }),
    );
    const { queryClient } = show();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    // The first blank question is where the student resumes.
    expect(await screen.findByRole('heading', { name: /Pergunta 2 de 3/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ir para a pergunta 1 (respondida)' }));
    expect(screen.getByRole('radio', { name: 'SOMA' })).toBeChecked();

    await userEvent.click(screen.getByRole('button', { name: 'Enviar respostas' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Você deixou 2 perguntas em branco. Enviar mesmo assim?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar respostas' }));
    expect(api.submitQuizAttempt).toHaveBeenCalledWith(expect.anything(), 'at1', { a: ['a1'] });

    expect(await screen.findByRole('heading', { name: 'Sua nota: 33,33%' })).toBeInTheDocument();
    expect(screen.getByTestId('quiz-verdict')).toHaveTextContent('Reprovado');
    expect(screen.getAllByTestId('quiz-review-item')).toHaveLength(3);
    expect(screen.getByText('SOMA soma.')).toBeInTheDocument();
    expect(screen.getByTestId('quiz-refusal')).toHaveTextContent('Nova tentativa liberada em 01/01/2099 às 12:00.');
    expect(screen.queryByRole('button', { name: 'Iniciar avaliação' })).toBeNull();
    // Said once (issue 46): the verdict; no header badge, no list of the one attempt.
    expect(screen.getAllByText(/Reprovado/)).toHaveLength(1);
    expect(screen.queryByTestId('quiz-attempts')).toBeNull();
    // Not passed: the lesson is not complete, the course's caches stay.
    expect(invalidate.mock.calls.map(([f]) => f?.queryKey?.[0])).not.toContain('courses');
  });

  it('passing refreshes the course, the lesson and the certificate', async () => {
    api.fetchQuizForStudent.mockResolvedValue(quiz({ state: 'in_progress', open_attempt: open({ answers: { a: ['a1'], b: ['b1'], c: ['c1'] } }) }));
    api.submitQuizAttempt.mockResolvedValue(quiz({ state: 'passed', attempts_used: 1, attempts_left: 1, best_score: 100, attempts: [graded({ score: 100, passed: true })], settings: { ...settings, show_answers: 'never' } }));
    const { queryClient } = show();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await userEvent.click(await screen.findByRole('button', { name: 'Enviar respostas' }));
    expect(await screen.findByRole('heading', { name: 'Sua nota: 100%' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByTestId('quiz-refusal')).toHaveTextContent('Aprovado — aula concluída, com nota 100%.');
    expect(screen.getByText('As respostas corretas desta avaliação não são divulgadas.')).toBeInTheDocument();
    const roots = invalidate.mock.calls.map(([f]) => f?.queryKey?.[0]);
    expect(roots).toEqual(expect.arrayContaining(['quizzes', 'courses', 'lessons', 'certificates']));
  });

  it('at the end of the time the answers go by themselves, and a late submission says how it was graded', async () => {
    const now = new Date();
    api.fetchQuizForStudent.mockResolvedValue(
      quiz({
        state: 'in_progress',
        settings: { ...settings, time_limit_minutes: 10 },
        open_attempt: open({ answers: { a: ['a2'] }, now: now.toISOString(), deadline_at: new Date(now.getTime() + 1500).toISOString() }),
      }),
    );
    api.submitQuizAttempt.mockResolvedValue(quiz({ state: 'failed', attempts_used: 1, attempts_left: 1, notice: 'late_graded', attempts: [graded({ score: 0 })] }));
    show();
    expect(await screen.findByRole('timer')).toHaveTextContent(/^00:0[12]$/);
    await waitFor(() => expect(api.submitQuizAttempt).toHaveBeenCalledWith(expect.anything(), 'at1', { a: ['a2'] }), { timeout: 4000 });
    expect(await screen.findByText('O tempo acabou: corrigimos as respostas salvas até o fim do tempo.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Iniciar avaliação' })).toBeInTheDocument();
  });

  it('says why there is no start button: no attempts left, or the wait', async () => {
    api.fetchQuizForStudent.mockResolvedValue(quiz({ state: 'failed', attempts_used: 2, attempts_left: 0, attempts: [graded({ number: 2, id: 'at2' }), graded()] }));
    show();
    expect(await screen.findByTestId('quiz-refusal')).toHaveTextContent('Você não tem mais tentativas.');
    expect(screen.getByTestId('quiz-verdict')).toHaveTextContent('Reprovado');
    expect(screen.getByTestId('quiz-attempts')).toHaveTextContent('Tentativa 2');
    expect(screen.queryByRole('button', { name: 'Iniciar avaliação' })).toBeNull();
  });

  it('the wait ends while the page is open: the start button comes back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const at = new Date(Date.now() + 60_000).toISOString();
      api.fetchQuizForStudent.mockResolvedValue(quiz({ state: 'failed', attempts_used: 1, attempts_left: 1, next_attempt_at: at, attempts: [graded()] }));
      show();
      expect(await screen.findByTestId('quiz-refusal')).toHaveTextContent(/^Nova tentativa liberada em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}\.$/);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(61_000);
      });
      expect(screen.getByRole('button', { name: 'Iniciar avaliação' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failed read offers a retry', async () => {
    api.fetchQuizForStudent.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 500 })).mockResolvedValue(quiz());
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('button', { name: 'Iniciar avaliação' })).toBeInTheDocument();
  });
});
