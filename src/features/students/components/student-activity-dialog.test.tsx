// 'Ver atividade' of a student card (issue 25), opened from the Students screen as staff open it, the
// network mocked at api/queries.ts.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import type { StudentActivityWeek, StudentCourseProgress } from '../api/queries';
import { StudentsPage } from './students-page';

const api = vi.hoisted(() => ({ fetchStudents: vi.fn(), fetchStudentActivity: vi.fn(), fetchStudentCourseProgress: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const student = { id: 'u7', name: 'Maria Souza', email: 'maria@escola.com.br', cpf: null, phone: null, address: null, avatar_url: null, is_active: true, must_change_password: false, created_at: '2026-01-01T00:00:00Z' };
/** 12 Mondays up to 23/11/2026; lessons completed in three of them. */
const weeks: StudentActivityWeek[] = Array.from({ length: 12 }, (_, i) => {
  const d = new Date(Date.UTC(2026, 10, 23 - 7 * (11 - i)));
  return { start: d.toISOString().slice(0, 10), value: { 9: 2, 10: 0, 11: 5 }[i] ?? (i === 0 ? 1 : 0) };
});
const progress: StudentCourseProgress[] = [
  { course_id: 'c1', course_title: 'Excel do Zero', status: 'ACTIVE', completed: 3, total: 4, percent: 75, last_activity: '2026-11-24T02:00:00Z' },
  { course_id: 'c2', course_title: 'Marketing', status: 'PAUSED', completed: 0, total: 1, percent: 0, last_activity: null },
];

async function openActivity() {
  renderScreen(<StudentsPage schoolId="s1" courses={[]} />, { route: '/admin/students' });
  await userEvent.click(await screen.findByRole('button', { name: 'Ver atividade de Maria Souza' }));
  return screen.findByRole('dialog', { name: 'Atividade de Maria Souza' });
}

describe('Students → Ver atividade', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    api.fetchStudents.mockResolvedValue({ rows: [student], total: 1 });
    api.fetchStudentActivity.mockResolvedValue(weeks);
    api.fetchStudentCourseProgress.mockResolvedValue(progress);
  });

  it('opens a dialog with the lessons completed per week of the last 12 weeks, as bars and as a table', async () => {
    const dialog = await openActivity();
    expect(api.fetchStudentActivity).toHaveBeenCalledWith(expect.anything(), 'u7');
    const card = within(dialog).getByRole('region', { name: 'Aulas concluídas por semana' });
    await waitFor(() => expect(card).toHaveTextContent('Últimas 12 semanas8'));
    const chart = await within(card).findByRole('group', { name: /12 barras/ });
    const bars = within(chart).getAllByRole('img').map((b) => b.getAttribute('aria-label'));
    expect(bars[0]).toBe('semana de 07/09: 1 aula concluída');
    expect(bars.slice(-3)).toEqual(['semana de 09/11: 2 aulas concluídas', 'semana de 16/11: 0 aulas concluídas', 'semana de 23/11: 5 aulas concluídas']);
    expect(within(card).getByText('Aulas concluídas por Maria Souza: 8 nas últimas 12 semanas; maior valor em semana de 23/11: 5 aulas concluídas.')).toHaveClass('sr-only');
    await userEvent.click(within(card).getByRole('button', { name: 'Ver tabela' }));
    const rows = within(within(card).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(rows.at(-1)).toHaveTextContent('semana de 23/115');
  });

  it('shows the progress in each course with its percentage, and a paused enrollment as such', async () => {
    const dialog = await openActivity();
    const list = await within(dialog).findByRole('list', { name: 'Cursos do aluno' });
    const [excel, marketing] = within(list).getAllByRole('listitem');
    expect(within(excel!).getByRole('progressbar', { name: 'Progresso em Excel do Zero' })).toHaveAttribute('aria-valuenow', '75');
    expect(excel).toHaveTextContent('Excel do Zero75%3 de 4 aulas · última atividade em 23/11/2026');
    expect(marketing).toHaveTextContent('Marketing0%0 de 1 aula · nunca estudouPausado');
  });

  it('a student with nothing yet: the empty states', async () => {
    api.fetchStudentActivity.mockResolvedValue(weeks.map((w) => ({ ...w, value: 0 })));
    api.fetchStudentCourseProgress.mockResolvedValue([]);
    const dialog = await openActivity();
    expect(await within(dialog).findByText('Ainda não há dados neste período')).toBeInTheDocument();
    expect(await within(dialog).findByText('Nenhuma matrícula')).toBeInTheDocument();
  });
});
