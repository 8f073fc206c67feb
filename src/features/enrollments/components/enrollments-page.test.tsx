import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { EnrollmentsPage } from './enrollments-page';

const api = vi.hoisted(() => ({ fetchEnrollments: vi.fn(), searchActiveStudents: vi.fn(), moveEnrollmentToTurma: vi.fn() }));
const turmasApi = vi.hoisted(() => ({ fetchCourseTurmas: vi.fn() }));
// The one enrolling path (src/concepts/enrollment.ts) runs for real over this insert.
const enrollmentInsert = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({
  supabase: { from: (table: string) => ({ insert: (row: object) => ({ select: () => ({ single: async () => (enrollmentInsert(table, row), { data: { status: 'ACTIVE' }, error: null }) }) }) }) },
}));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
// A course's turmas (admin_turmas) come through the shared concept's read.
vi.mock('@/concepts/turma-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...turmasApi }));

const courses = [
  { id: 'c1', title: 'Excel do zero' },
  { id: 'c2', title: 'Marketing' },
];
const enrollment = (i: number, status = 'ACTIVE') => ({
  id: `e${i}`,
  status,
  expires_at: null,
  created_at: '2026-01-01T00:00:00Z',
  user_id: `u${i}`,
  course_id: 'c1',
  student: { name: `Aluno ${i}`, cpf: null, email: `aluno${i}@escola.com.br` },
  course: { title: 'Excel do zero' },
  turma_id: null as string | null,
  turma: null as { name: string } | null,
});
const turma = (id: string, name: string) => ({ id, course_id: 'c1', name, starts_on: '2026-03-10', ends_on: null, enroll_from: null, enroll_until: null, seats: null, waitlist_enabled: false, status: 'em andamento', students: 1, seats_taken: 1, held: 0, waiting: 0 });
const open = (route = '/admin/enrollments') => renderScreen(<EnrollmentsPage schoolId="s1" courses={courses} />, { route });

describe('EnrollmentsPage', () => {
  beforeEach(() => {
    [api.fetchEnrollments, api.searchActiveStudents, api.moveEnrollmentToTurma, enrollmentInsert].forEach((f) => f.mockReset());
    turmasApi.fetchCourseTurmas.mockReset().mockImplementation(async (_c: unknown, courseId: string) => (courseId === 'c1' ? [turma('t1', 'Turma de março'), turma('t2', 'Turma de abril')] : []));
  });

  it('the filters and the page live in the URL and reach the query; the total is shown', async () => {
    api.fetchEnrollments.mockImplementation(async (_c, _s, f: { status: string }, page: number) => ({ rows: [enrollment(page * 24 + 1, f.status || 'ACTIVE')], total: 30 }));
    const view = open('/admin/enrollments?curso=c1&pagina=2');
    expect(await screen.findByText('Aluno 25')).toBeInTheDocument();
    expect(api.fetchEnrollments).toHaveBeenCalledWith(expect.anything(), 's1', { courseId: 'c1', status: '', turmaId: '' }, 1);
    expect(screen.getByText('30 matrículas')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Status')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Todos', 'Ativo', 'Pausado', 'Aguardando confirmação']);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'PAUSED');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/enrollments?curso=c1&status=PAUSED'));
    await waitFor(() => expect(api.fetchEnrollments).toHaveBeenLastCalledWith(expect.anything(), 's1', { courseId: 'c1', status: 'PAUSED', turmaId: '' }, 0));
  });

  it('Nova Matrícula needs a student and a course, then enrolls through the one enrolling path', async () => {
    api.fetchEnrollments.mockResolvedValue({ rows: [], total: 0 });
    api.searchActiveStudents.mockResolvedValue([{ id: 'u7', name: 'Bruna Lima', email: 'bruna@escola.com.br', cpf: null }]);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Nova Matrícula' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova Matrícula' });
    const submit = within(dialog).getByRole('button', { name: 'Matricular' });
    expect(submit).toBeDisabled();
    await userEvent.click(await within(dialog).findByRole('radio', { name: /Bruna Lima/ }));
    expect(submit).toBeDisabled();
    await userEvent.selectOptions(within(dialog).getByLabelText('Curso'), 'c2');
    await userEvent.click(submit);
    await waitFor(() => expect(enrollmentInsert).toHaveBeenCalledWith('enrollments', { user_id: 'u7', course_id: 'c2', turma_id: null, expires_at: null, status: 'ACTIVE' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nova Matrícula' })).toBeNull());
  });

  it('the turma: a filter for the chosen course (in the URL), shown on each card, chosen when enrolling, and "Mover de turma"', async () => {
    api.fetchEnrollments.mockResolvedValue({ rows: [{ ...enrollment(1), turma_id: 't1', turma: { name: 'Turma de março' } }, enrollment(2)], total: 2 });
    api.searchActiveStudents.mockResolvedValue([{ id: 'u7', name: 'Bruna Lima', email: 'bruna@escola.com.br', cpf: null }]);
    api.moveEnrollmentToTurma.mockResolvedValue(undefined);
    const view = open('/admin/enrollments?curso=c1');
    expect(await screen.findByText('Turma: Turma de março')).toBeInTheDocument();
    expect(screen.getByText('Sem turma')).toBeInTheDocument();
    await userEvent.selectOptions(await screen.findByLabelText('Turma'), 't2');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/enrollments?curso=c1&turma=t2'));
    await waitFor(() => expect(api.fetchEnrollments).toHaveBeenLastCalledWith(expect.anything(), 's1', { courseId: 'c1', status: '', turmaId: 't2' }, 0));

    await userEvent.click(screen.getByRole('button', { name: 'Mover Aluno 1 de turma' }));
    const move = await screen.findByRole('dialog', { name: 'Mover de turma' });
    expect(move).toHaveTextContent('O progresso, as avaliações, os comentários e os certificados continuam com o aluno.');
    await userEvent.selectOptions(within(move).getByLabelText('Turma'), 't2');
    await userEvent.click(within(move).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(api.moveEnrollmentToTurma).toHaveBeenCalledWith(expect.anything(), { id: 'e1', turmaId: 't2' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Mover de turma' })).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Nova Matrícula' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova Matrícula' });
    await userEvent.click(await within(dialog).findByRole('radio', { name: /Bruna Lima/ }));
    await userEvent.selectOptions(within(dialog).getByLabelText('Curso'), 'c1');
    await userEvent.selectOptions(await within(dialog).findByLabelText('Turma'), 't1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Matricular' }));
    await waitFor(() => expect(enrollmentInsert).toHaveBeenCalledWith('enrollments', { user_id: 'u7', course_id: 'c1', turma_id: 't1', expires_at: null, status: 'ACTIVE' }));
  });

  it('a failed read offers a retry', async () => {
    api.fetchEnrollments.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 })).mockResolvedValue({ rows: [enrollment(1)], total: 1 });
    open();
    expect(await screen.findByText('Não foi possível carregar as matrículas')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Aluno 1')).toBeInTheDocument();
  });
});
