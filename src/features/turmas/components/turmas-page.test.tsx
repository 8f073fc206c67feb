import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { TurmasPage } from './turmas-page';

const api = vi.hoisted(() => ({ saveTurma: vi.fn(), deleteTurma: vi.fn(), fetchTurmaCalendar: vi.fn(), fetchTurmasProgress: vi.fn() }));
const turmasApi = vi.hoisted(() => ({ fetchCourseTurmas: vi.fn() }));
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
// admin_turmas is read through the shared concept (Matrículas and Comunicados pick a turma from it).
vi.mock('@/concepts/turma-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...turmasApi }));

const courses = [
  { id: 'c1', title: 'Excel Essencial' },
  { id: 'c2', title: 'Marketing Digital' },
];
const turma = (extra: object = {}) => ({
  id: 't1',
  course_id: 'c1',
  name: 'Turma de março',
  starts_on: '2026-03-10',
  ends_on: '2026-06-10',
  enroll_from: null,
  enroll_until: null,
  seats: 30,
  waitlist_enabled: true,
  status: 'em andamento',
  students: 12,
  seats_taken: 13,
  held: 1,
  waiting: 2,
  ...extra,
});
const open = (route = '/admin/turmas') => renderScreen(<TurmasPage schoolId="s1" courses={courses} />, { route });

describe('TurmasPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((f) => f.mockReset());
    turmasApi.fetchCourseTurmas.mockReset();
    api.fetchTurmasProgress.mockResolvedValue({ t1: 42, t2: 0 });
  });

  it("lists the course's turmas with dates, status, seats taken of the total and the waiting list; the course is in the URL", async () => {
    turmasApi.fetchCourseTurmas.mockImplementation(async (_c: unknown, courseId: string) =>
      courseId === 'c1' ? [turma(), turma({ id: 't2', name: 'Turma 7', starts_on: '2026-12-10', ends_on: null, seats: null, status: 'aberta', students: 0, seats_taken: 0, held: 0, waitlist_enabled: false })] : [],
    );
    open();
    const table = await screen.findByRole('table', { name: 'Turmas do curso' });
    const march = within(table).getByRole('row', { name: /Turma de março/ });
    expect(march).toHaveTextContent('10/03/2026 a 10/06/2026');
    expect(march).toHaveTextContent('Em andamento');
    expect(march).toHaveTextContent('13 de 30 · 1 reservada');
    expect(march).toHaveTextContent('2 pessoas');
    expect(march).toHaveTextContent('42%');
    expect(within(march).getByRole('link', { name: 'Turma de março' })).toHaveAttribute('href', '/admin/turmas/t1');
    const seven = within(table).getByRole('row', { name: /Turma 7/ });
    expect(seven).toHaveTextContent('A partir de 10/12/2026 (sem término)');
    expect(seven).toHaveTextContent('Aberta');
    expect(seven).toHaveTextContent('0 (sem limite)');
    expect(seven).toHaveTextContent('Desligada');

    await userEvent.selectOptions(screen.getByLabelText('Curso'), 'c2');
    expect(await screen.findByText('Nenhuma turma neste curso')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/turmas?curso=c2');
  });

  it('creates a turma "Sem término" with seats and a waiting list; a missing start is said under its field', async () => {
    turmasApi.fetchCourseTurmas.mockResolvedValue([]);
    api.saveTurma.mockResolvedValue(undefined);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Nova Turma' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova Turma' });
    await userEvent.type(within(dialog).getByLabelText(/Nome/), 'Turma de abril');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe a data de início')).toBeInTheDocument();
    expect(api.saveTurma).not.toHaveBeenCalled();

    await userEvent.type(within(dialog).getByLabelText(/Início/), '2026-04-10');
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Sem término' }));
    expect(within(dialog).getByLabelText('Término')).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Vagas'), '30');
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Lista de espera quando esgotar' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(api.saveTurma).toHaveBeenCalledTimes(1));
    expect(api.saveTurma.mock.calls[0]![1]).toMatchObject({
      schoolId: 's1',
      courseId: 'c1',
      values: { name: 'Turma de abril', starts_on: '2026-04-10', no_end: true, seats: '30', waitlist_enabled: true },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('deletes a turma after saying its students stay enrolled without a turma', async () => {
    turmasApi.fetchCourseTurmas.mockResolvedValue([turma()]);
    api.deleteTurma.mockResolvedValue(undefined);
    open('/admin/turmas?curso=c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir Turma de março' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('12 alunos: eles continuam matriculados no curso, sem turma (o progresso fica)');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(api.deleteTurma).toHaveBeenCalledWith(expect.anything(), 't1'));
  });

  it("edits a turma's calendar: a date per module, optional", async () => {
    turmasApi.fetchCourseTurmas.mockResolvedValue([turma()]);
    api.fetchTurmaCalendar.mockResolvedValue([
      { id: 'm1', title: 'Fundamentos', opens_on: '' },
      { id: 'm2', title: 'Fórmulas', opens_on: '2026-03-24' },
    ]);
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Calendário da Turma de março' }));
    const dialog = await screen.findByRole('dialog', { name: 'Calendário da Turma de março' });
    expect(await within(dialog).findByLabelText('Fórmulas')).toHaveValue('2026-03-24');
    expect(within(dialog).getByLabelText('Fundamentos')).toHaveValue('');
  });
});
