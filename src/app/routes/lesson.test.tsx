// The lesson player as a student meets it, the network mocked at the features' api/queries.ts.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import LessonPage from './lesson';

const courses = vi.hoisted(() => ({ fetchCourseDetail: vi.fn(), completeLesson: vi.fn(), saveLessonPosition: vi.fn() }));
const lessons = vi.hoisted(() => ({ fetchLessonBundle: vi.fn() }));
const quizzes = vi.hoisted(() => ({ fetchQuizForStudent: vi.fn(), fetchQuizStates: vi.fn() }));
const discussions = vi.hoisted(() => ({ fetchLessonComments: vi.fn(async () => []) }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/features/courses/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...courses }));
vi.mock('@/features/lessons/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...lessons }));
vi.mock('@/features/quizzes/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...quizzes }));
vi.mock('@/features/discussions/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...discussions }));

const lesson = (id: string, title: string, order: number) => ({ id, module_id: 'm1', title, order_index: order, duration_sec: 600, is_preview: false, video_type: 'none' as const });
const detail = (enrollment: { status: string; expires_at: string | null } | null, completed: string[] = []) => ({
  id: 'c1',
  school_id: 's1',
  slug: 'excel',
  title: 'Excel Essencial',
  description: null,
  thumbnail_url: null,
  thumbnail_position: '50% 50%',
  banner_url: null,
  banner_position: '50% 50%',
  purchase_url: null,
  price: 0,
  status: 'PUBLISHED',
  certificate_enabled: true,
  modules: [
    { id: 'm1', title: 'Primeiros passos', description: null, thumbnail_url: null, order_index: 0, release_mode: 'IMMEDIATE', release_after_days: null, release_on: null, lessons: [lesson('l1', 'Boas-vindas', 0), lesson('l2', 'Fórmulas', 1)] },
  ],
  enrollments: enrollment ? [{ ...enrollment, created_at: '2026-01-01T00:00:00Z' }] : [],
  progress: completed.map((id) => ({ lesson_id: id, completed_at: '2026-11-01T00:00:00Z', last_position_sec: 0, updated_at: '2026-11-01T00:00:00Z' })),
});
const bundle = (withContents: boolean) => ({ id: 'l1', course_id: 'c1', contents: withContents ? { content: 'Bem-vindo ao **curso**.', video_url: null } : null, materials: [], myRating: 0 });

const route = { route: '/course/c1/lesson/l1', path: '/course/:courseId/lesson/:lessonId', session: signedIn() };

describe('LessonPage', () => {
  beforeEach(() => {
    [...Object.values(courses), ...Object.values(lessons), ...Object.values(quizzes)].forEach((f) => f.mockReset());
    quizzes.fetchQuizForStudent.mockResolvedValue(null);
    quizzes.fetchQuizStates.mockResolvedValue([]);
  });

  it('an enrolled student sees the lesson, where it sits in the course, and completes it', async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail({ status: 'ACTIVE', expires_at: null }));
    lessons.fetchLessonBundle.mockResolvedValue(bundle(true));
    courses.completeLesson.mockResolvedValue({ lesson_id: 'l1', completed_at: '2026-11-24T00:00:00Z', last_position_sec: 0, updated_at: '2026-11-24T00:00:00Z' });
    renderScreen(<LessonPage />, route);
    expect(await screen.findByRole('heading', { level: 1, name: 'Boas-vindas' })).toBeInTheDocument();
    expect(screen.getByText('Aula 1 de 2 · Módulo 1')).toBeInTheDocument();
    expect(await screen.findByText('curso', { selector: 'strong' })).toBeInTheDocument();
    // The discussion: requested with the page, drawn by its lazy chunk.
    expect(await screen.findByText('Seja o primeiro a comentar.')).toBeInTheDocument();
    expect(discussions.fetchLessonComments).toHaveBeenCalledWith(expect.anything(), 'l1');
    await userEvent.click(screen.getByRole('button', { name: 'Marcar como concluída' }));
    await waitFor(() => expect(courses.completeLesson).toHaveBeenCalledWith(expect.anything(), 'u1', 'l1'));
    expect(await screen.findByRole('button', { name: 'Aula concluída' })).toBeInTheDocument();
  });

  it('without access the backend returns no content: Acesso Restrito, and no lesson text', async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail(null));
    lessons.fetchLessonBundle.mockResolvedValue(bundle(false));
    renderScreen(<LessonPage />, route);
    expect(await screen.findByRole('heading', { name: 'Acesso Restrito' })).toBeInTheDocument();
    expect(screen.queryByText('curso', { selector: 'strong' })).toBeNull();
  });

  it('an unknown lesson is not found', async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail({ status: 'ACTIVE', expires_at: null }));
    lessons.fetchLessonBundle.mockResolvedValue(null);
    renderScreen(<LessonPage />, route);
    expect(await screen.findByRole('heading', { name: 'Aula não encontrada' })).toBeInTheDocument();
  });

  it('a failed read offers a retry that loads the lesson', async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail({ status: 'ACTIVE', expires_at: null }));
    lessons.fetchLessonBundle.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 })).mockResolvedValue(bundle(true));
    renderScreen(<LessonPage />, route);
    expect(await screen.findByText('Não foi possível carregar a aula.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Boas-vindas' })).toBeInTheDocument();
  });

  it('a lesson with a quiz completes only when the quiz is passed: no "mark complete", the quiz after the content, its state in the side panel', async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail({ status: 'ACTIVE', expires_at: null }));
    lessons.fetchLessonBundle.mockResolvedValue(bundle(true));
    const state = { course_id: 'c1', quiz_id: 'q1', attempts_used: 1, max_attempts: 2, best_score: 40, next_attempt_at: '2099-01-01T15:00:00Z' };
    quizzes.fetchQuizStates.mockResolvedValue([
      { ...state, lesson_id: 'l1', state: 'failed' },
      { ...state, lesson_id: 'l2', quiz_id: 'q2', state: 'not_started', attempts_used: 0, best_score: null, next_attempt_at: null },
    ]);
    quizzes.fetchQuizForStudent.mockResolvedValue({
      quiz_id: 'q1',
      lesson_id: 'l1',
      settings: { pass_mark: 60, max_attempts: 2, wait_hours: 1, time_limit_minutes: 15, show_answers: 'never', late_policy: 'refuse', question_count: 5 },
      state: 'failed',
      attempts_used: 1,
      attempts_left: 1,
      next_attempt_at: '2099-01-01T15:00:00Z',
      best_score: 40,
      notice: null,
      open_attempt: null,
      attempts: [{ id: 'a1', number: 1, started_at: '2026-11-25T12:00:00Z', submitted_at: '2026-11-25T12:10:00Z', status: 'graded', score: 40, passed: false, review: null }],
      received_at: Date.now(),
    });
    renderScreen(<LessonPage />, route);
    const section = await screen.findByTestId('quiz-section');
    expect(within(section).getByRole('heading', { name: 'Avaliação' })).toBeInTheDocument();
    expect(within(section).getByTestId('quiz-facts')).toHaveTextContent('Tempo limite15 minutos');
    expect(within(section).getByTestId('quiz-refusal')).toHaveTextContent('Nova tentativa liberada em 01/01/2099 às 12:00.');
    // Said once, where it belongs (issue 46): the result's verdict; not again in the section's header,
    // the lesson's row of the outline, the wait or a list of the one attempt.
    expect(within(section).getByTestId('quiz-verdict')).toHaveTextContent('Reprovado');
    expect(screen.getAllByText(/Reprovado/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Seja aprovado na avaliação para concluir esta aula.' })).toHaveAttribute('href', '#avaliacao');
    expect(screen.queryByRole('button', { name: 'Marcar como concluída' })).toBeNull();
    const sidebar = screen.getByTestId('lesson-sidebar');
    expect(within(sidebar).getByRole('img', { name: 'Avaliação: Reprovado — tente novamente em 01/01/2099 às 12:00' })).toBeInTheDocument();
    expect(within(sidebar).getByRole('img', { name: 'Avaliação: Não iniciada' })).toBeInTheDocument();
    expect(within(sidebar).queryByRole('checkbox', { name: /Fórmulas/ })).toBeNull();
    expect(courses.completeLesson).not.toHaveBeenCalled();
  });
});
