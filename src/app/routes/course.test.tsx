// The course page as a student meets it, the network mocked at the features' api/queries.ts.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import CoursePage from './course';

const courses = vi.hoisted(() => ({ fetchCourseDetail: vi.fn() }));
const checkout = vi.hoisted(() => ({ fetchLatestPayment: vi.fn() }));
const quizzes = vi.hoisted(() => ({ fetchQuizStates: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/features/courses/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...courses }));
vi.mock('@/features/checkout/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...checkout }));
vi.mock('@/features/quizzes/api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...quizzes }));

const lesson = (id: string, title: string, order: number, is_preview = false) => ({ id, module_id: 'm1', title, order_index: order, duration_sec: 600, is_preview, video_type: 'none' as const });
const module = (id: string, title: string, order: number, lessons: ReturnType<typeof lesson>[], release: object = {}) => ({
  id,
  title,
  description: null,
  thumbnail_url: null,
  order_index: order,
  release_mode: 'IMMEDIATE',
  release_after_days: null,
  release_on: null,
  lessons,
  ...release,
});
const detail = ({ enrollment = null as { status: string; expires_at: string | null; created_at?: string } | null, completed = [] as string[], price = 0 } = {}) => ({
  id: 'c1',
  school_id: 's1',
  slug: 'excel',
  title: 'Excel Essencial',
  description: 'Do zero às tabelas dinâmicas.',
  thumbnail_url: null,
  thumbnail_position: '50% 50%',
  banner_url: null,
  banner_position: '50% 50%',
  purchase_url: null,
  price,
  status: 'PUBLISHED',
  certificate_enabled: true,
  modules: [
    module('m1', 'Primeiros passos', 0, [lesson('l1', 'Boas-vindas', 0, true), lesson('l2', 'Fórmulas', 1)]),
    module('m2', 'Tabelas dinâmicas', 1, [lesson('l3', 'Criando a primeira', 0)], { release_mode: 'AFTER_ENROLLMENT', release_after_days: 30 }),
  ],
  enrollments: enrollment ? [{ created_at: new Date().toISOString(), ...enrollment }] : [],
  progress: completed.map((id) => ({ lesson_id: id, completed_at: '2026-11-01T00:00:00Z', last_position_sec: 0, updated_at: '2026-11-01T00:00:00Z' })),
});
const open = () => renderScreen(<CoursePage />, { route: '/course/c1', path: '/course/:courseId', session: signedIn() });

describe('CoursePage', () => {
  beforeEach(() => {
    courses.fetchCourseDetail.mockReset();
    checkout.fetchLatestPayment.mockReset().mockResolvedValue(null);
    quizzes.fetchQuizStates.mockReset().mockResolvedValue([]);
  });

  it('an enrolled student sees the progress, continues at the next lesson, and a module not yet released says when it opens', async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail({ enrollment: { status: 'ACTIVE', expires_at: null }, completed: ['l1'] }));
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Excel Essencial' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Continuar curso/ })).toHaveAttribute('href', '/course/c1/lesson/l2');
    expect(screen.queryByTestId('not-enrolled')).not.toBeInTheDocument();
    const [released, locked] = screen.getAllByTestId('module-card');
    expect(released).toHaveAttribute('href', '/course/c1/lesson/l1');
    expect(locked).toHaveTextContent('Tabelas dinâmicas');
    expect(within(locked!).getByTestId('module-release')).toHaveTextContent(/^Disponível em \d{2}\/\d{2}\/\d{4}$/);
    expect(locked!.closest('a')).toBeNull();
  });

  it('a student not enrolled in a course for sale is offered the free lessons and the checkout', async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail({ price: 197 }));
    open();
    const card = await screen.findByTestId('not-enrolled');
    expect(within(card).getByText('Você ainda não está matriculado neste curso')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /Ver Aulas Gratuitas/ })).toHaveAttribute('href', '/course/c1/lesson/l1');
    expect(within(card).getByRole('link', { name: /Comprar Agora/ })).toHaveAttribute('href', '/checkout/excel');
    expect(screen.queryByRole('link', { name: /Começar curso|Continuar curso/ })).not.toBeInTheDocument();
  });

  it('a paused enrollment says so and opens no lesson', async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail({ enrollment: { status: 'PAUSED', expires_at: null } }));
    open();
    expect(await screen.findByText(/Sua matrícula neste curso está pausada/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Começar curso|Continuar curso/ })).not.toBeInTheDocument();
  });

  it("a course of another school, or one that does not exist, is 'Curso não encontrado'", async () => {
    courses.fetchCourseDetail.mockResolvedValue(null);
    open();
    expect(await screen.findByRole('heading', { name: 'Curso não encontrado' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar' })).toHaveAttribute('href', '/');
  });

  it('a failed read offers a retry', async () => {
    courses.fetchCourseDetail.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 503 })).mockResolvedValue(detail({ enrollment: { status: 'ACTIVE', expires_at: null } }));
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('link', { name: /Começar curso/ })).toHaveAttribute('href', '/course/c1/lesson/l1');
  });

  it("an enrolled student sees the course's quizzes with their states, each leading to its lesson", async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail({ enrollment: { status: 'ACTIVE', expires_at: null }, completed: ['l1'] }));
    const row = { course_id: 'c1', quiz_id: 'q1', attempts_used: 0, max_attempts: 2, best_score: null, next_attempt_at: null };
    quizzes.fetchQuizStates.mockResolvedValue([
      { ...row, lesson_id: 'l1', state: 'passed', attempts_used: 1, best_score: 100 },
      { ...row, lesson_id: 'l2', quiz_id: 'q2', state: 'failed', attempts_used: 2, best_score: 20 },
    ]);
    open();
    const section = await screen.findByTestId('course-quizzes');
    expect(quizzes.fetchQuizStates).toHaveBeenCalledWith(expect.anything(), 'c1');
    expect(within(section).getByText(/1 de 2 aprovadas/)).toBeInTheDocument();
    const [first, second] = within(section).getAllByTestId('course-quiz');
    expect(within(first!).getByRole('link')).toHaveAttribute('href', '/course/c1/lesson/l1');
    expect(first).toHaveTextContent('Avaliação: Aprovado');
    expect(second).toHaveTextContent('Fórmulas');
    expect(second).toHaveTextContent('Avaliação: Reprovado — sem tentativas');
  });

  it('a course without quizzes has no Avaliações section', async () => {
    courses.fetchCourseDetail.mockResolvedValue(detail({ enrollment: { status: 'ACTIVE', expires_at: null } }));
    open();
    expect(await screen.findByRole('link', { name: /Começar curso/ })).toBeInTheDocument();
    await waitFor(() => expect(quizzes.fetchQuizStates).toHaveBeenCalled());
    expect(screen.queryByTestId('course-quizzes')).toBeNull();
  });
});
