import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { ReportsPage } from './reports-page';

const api = vi.hoisted(() => ({ fetchReportSummary: vi.fn(), fetchReportStudents: vi.fn(), fetchIssuedCertificates: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
const turmasApi = vi.hoisted(() => ({ fetchCourseTurmas: vi.fn() }));
// A course's turmas (the Turma filter, issue 40) come through the shared concept's read.
vi.mock('@/concepts/turma-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...turmasApi }));

const summary = { total_students: 1234, active_last_7_days: 5, average_progress: 42, courses_completed: 3, average_rating: 4.5, comments_last_30_days: 7 };
const student = (i: number) => ({
  user_id: `u${i}`,
  name: `Aluno ${i}`,
  email: `aluno${i}@escola.com.br`,
  enrolled_courses: 2,
  active_enrollments: 1,
  completed_lessons: 3,
  total_lessons: 10,
  progress: 30,
  last_access: null,
});
const certificate = (i: number) => ({
  id: `cert${i}`,
  code: `CODE-${i}`,
  student_name: `Aluno ${i}`,
  course_title: 'Excel do zero',
  completed_at: '2026-01-05T12:00:00Z',
  workload_hours: 8,
  issued_at: '2026-01-05T12:00:00Z',
});
const courses = [
  { id: 'c1', title: 'Excel do zero' },
  { id: 'c2', title: 'Marketing' },
];
const open = (route = '/admin/reports') => renderScreen(<ReportsPage schoolId="s1" courses={courses} />, { route });

describe('ReportsPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    turmasApi.fetchCourseTurmas.mockReset().mockImplementation(async (_c: unknown, courseId: string) =>
      courseId === 'c2' ? [{ id: 't1', course_id: 'c2', name: 'Turma de março', starts_on: '2026-03-10', ends_on: null, enroll_from: null, enroll_until: null, seats: null, waitlist_enabled: false, status: 'em andamento', students: 3, seats_taken: 3, waiting: 0 }] : [],
    );
    api.fetchReportSummary.mockResolvedValue(summary);
    api.fetchReportStudents.mockImplementation(async (_c, _s, _tab, _course, page: number) => ({ rows: [student(page * 25 + 1)], total: 60 }));
  });

  it('shows the six numbers and the page of the URL, and moves the page in the URL', async () => {
    const view = open('/admin/reports?pagina=2');
    expect(await screen.findByText('Aluno 26')).toBeInTheDocument();
    expect(api.fetchReportStudents).toHaveBeenCalledWith(expect.anything(), 's1', 'all', null, 1, 25, null);
    expect(within(screen.getByRole('list', { name: 'Resumo' })).getByLabelText('Total de alunos')).toHaveTextContent('1.234');
    expect(screen.getByLabelText('Avaliação média')).toHaveTextContent('4,5 / 5');
    expect(screen.getByText('60 alunos')).toBeInTheDocument();
    expect(screen.getByText('Página 2 de 3')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Próxima/ }));
    expect(await screen.findByText('Aluno 51')).toBeInTheDocument();
    expect(currentLocation(view)).toBe('/admin/reports?pagina=3');
  });

  it('the course and the tab go in the URL and start again at the first page', async () => {
    const view = open('/admin/reports?pagina=2');
    await screen.findByText('Aluno 26');
    await userEvent.selectOptions(screen.getByLabelText('Curso'), 'c2');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/reports?curso=c2'));
    await waitFor(() => expect(api.fetchReportStudents).toHaveBeenLastCalledWith(expect.anything(), 's1', 'all', 'c2', 0, 25, null));
    expect(api.fetchReportSummary).toHaveBeenLastCalledWith(expect.anything(), 's1', 'c2', null);
    await userEvent.click(screen.getByRole('tab', { name: 'Inativos' }));
    expect(currentLocation(view)).toBe('/admin/reports?curso=c2&aba=inativos');
    await waitFor(() => expect(api.fetchReportStudents).toHaveBeenLastCalledWith(expect.anything(), 's1', 'inactive', 'c2', 0, 25, null));
    await userEvent.click(screen.getByRole('tab', { name: 'Todos os alunos' }));
    expect(currentLocation(view)).toBe('/admin/reports?curso=c2');

    // Issue 40: a turma of the course narrows the numbers and the students; a new course clears it.
    await userEvent.selectOptions(await screen.findByLabelText('Turma'), 't1');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/reports?curso=c2&turma=t1'));
    await waitFor(() => expect(api.fetchReportSummary).toHaveBeenLastCalledWith(expect.anything(), 's1', 'c2', 't1'));
    await waitFor(() => expect(api.fetchReportStudents).toHaveBeenLastCalledWith(expect.anything(), 's1', 'all', 'c2', 0, 25, 't1'));
    await userEvent.selectOptions(screen.getByLabelText('Curso'), 'c1');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/reports?curso=c1'));
    expect(screen.queryByLabelText('Turma')).toBeNull();
  });

  it('the issued certificates: each with its verification link, paged in the URL', async () => {
    api.fetchIssuedCertificates.mockImplementation(async (_c, { page }: { page: number }) => ({ rows: [certificate(page * 25 + 1)], total: 30 }));
    const view = open('/admin/reports?aba=certificados');
    const table = await screen.findByRole('table', { name: 'Certificados emitidos' });
    expect(await within(table).findByText('Aluno 1')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Verificar certificado CODE-1 (abre em nova aba)' })).toHaveAttribute('href', `${window.location.origin}/certificado/CODE-1`);
    expect(screen.getByText('30 certificados emitidos')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Próxima/ }));
    expect(await screen.findByText('Aluno 26')).toBeInTheDocument();
    expect(currentLocation(view)).toBe('/admin/reports?aba=certificados&pagina=2');
    expect(api.fetchIssuedCertificates).toHaveBeenLastCalledWith(expect.anything(), { schoolId: 's1', courseId: null, page: 1 });
  });

  it('a failed read of a tab shows LoadError, and the retry loads it', async () => {
    api.fetchReportStudents.mockReset().mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ rows: [student(1)], total: 1 });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    open();
    expect(await screen.findByText('Não foi possível carregar o relatório')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Aluno 1')).toBeInTheDocument();
  });
});
