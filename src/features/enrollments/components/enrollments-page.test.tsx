import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import { EnrollmentsPage } from './enrollments-page';

const api = vi.hoisted(() => ({ fetchEnrollments: vi.fn(), searchActiveStudents: vi.fn() }));
// The one enrolling path (src/concepts/enrollment.ts) runs for real over this insert.
const enrollmentInsert = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({
  supabase: { from: (table: string) => ({ insert: (row: object) => ({ select: () => ({ single: async () => (enrollmentInsert(table, row), { data: { status: 'ACTIVE' }, error: null }) }) }) }) },
}));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

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
});
const open = (route = '/admin/enrollments') => renderScreen(<EnrollmentsPage schoolId="s1" courses={courses} />, { route });

describe('EnrollmentsPage', () => {
  beforeEach(() => [api.fetchEnrollments, api.searchActiveStudents, enrollmentInsert].forEach((f) => f.mockReset()));

  it('the filters and the page live in the URL and reach the query; the total is shown', async () => {
    api.fetchEnrollments.mockImplementation(async (_c, _s, f: { status: string }, page: number) => ({ rows: [enrollment(page * 24 + 1, f.status || 'ACTIVE')], total: 30 }));
    const view = open('/admin/enrollments?curso=c1&pagina=2');
    expect(await screen.findByText('Aluno 25')).toBeInTheDocument();
    expect(api.fetchEnrollments).toHaveBeenCalledWith(expect.anything(), 's1', { courseId: 'c1', status: '' }, 1);
    expect(screen.getByText('30 matrículas')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Status')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Todos', 'Ativo', 'Pausado', 'Aguardando confirmação']);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'PAUSED');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/enrollments?curso=c1&status=PAUSED'));
    await waitFor(() => expect(api.fetchEnrollments).toHaveBeenLastCalledWith(expect.anything(), 's1', { courseId: 'c1', status: 'PAUSED' }, 0));
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
    await waitFor(() => expect(enrollmentInsert).toHaveBeenCalledWith('enrollments', { user_id: 'u7', course_id: 'c2', expires_at: null, status: 'ACTIVE' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nova Matrícula' })).toBeNull());
  });

  it('a failed read offers a retry', async () => {
    api.fetchEnrollments.mockRejectedValueOnce(Object.assign(new Error('falhou'), { status: 400 })).mockResolvedValue({ rows: [enrollment(1)], total: 1 });
    open();
    expect(await screen.findByText('Não foi possível carregar as matrículas')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Aluno 1')).toBeInTheDocument();
  });
});
