import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchoolRow } from '@/platform/session';
import { currentLocation, renderScreen } from '@/test/render';
import { signedIn } from '@/test/session';
import type { ChartPeriod, ChartSeries, DashboardChart } from '../api/queries';
import { Dashboard } from './dashboard';

const fetchDashboardCounts = vi.hoisted(() => vi.fn());
const fetchDashboardChart = vi.hoisted(() => vi.fn());
const fetchRecoveredRevenue = vi.hoisted(() => vi.fn());
const downloadBlob = vi.hoisted(() => vi.fn());
const fetchCourseTurmas = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/utils/download', () => ({ downloadBlob }));
// A course's turmas (the Turma filter) come through the shared concept's read.
vi.mock('@/concepts/turma-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), fetchCourseTurmas }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), fetchDashboardCounts, fetchDashboardChart, fetchRecoveredRevenue }));

const school = { id: 's1', name: 'Escola Demo', member_area_name: 'Área Demo' } as SchoolRow;
const session = signedIn({ isAdmin: true, school });

/** What the database answers for a chart: a few buckets of the period, with the chart's own numbers. */
function series(chart: DashboardChart, period: ChartPeriod): ChartSeries {
  const seed = { new_students: 1, new_enrollments: 2, active_students: 3, lessons_completed: 4, revenue: 5 }[chart];
  if (period === '90d')
    return { unit: 'week', from: '2026-08-29', to: '2026-11-26', points: [{ start: '2026-11-17', value: seed }, { start: '2026-11-24', value: 2 * seed }], total: 3 * seed, previous_total: 0 };
  if (period === '12m')
    return { unit: 'month', from: '2025-12-01', to: '2026-11-26', points: [{ start: '2026-10-01', value: 0 }, { start: '2026-11-01', value: 1234.5 }], total: 1234.5, previous_total: 1000 };
  const days = period === '7d' ? ['2026-11-25', '2026-11-26'] : ['2026-11-24', '2026-11-25', '2026-11-26'];
  const points = days.map((start, i) => ({ start, value: seed * (i + 1) }));
  const total = points.reduce((s, p) => s + p.value, 0);
  return { unit: 'day', from: days[0]!, to: '2026-11-26', points, total, previous_total: period === '7d' ? total * 2 : 100 };
}

/** The route's parts, as stand-ins: the Curso filter (the school's courses) and Relatórios' numbers. */
const parts = {
  renderCourseFilter: ({ id, value, onChange }: { id: string; value: string; onChange: (v: string) => void }) => (
    <select id={id} aria-label="Curso" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Todos os cursos</option>
      <option value="c1">Excel Essencial</option>
    </select>
  ),
  renderCourseSummary: ({ courseId, turmaId }: { courseId: string; turmaId: string | null }) => <p>{`Resumo de ${courseId} / ${turmaId ?? 'todas'}`}</p>,
};

const card = (title: string) => screen.getByRole('region', { name: title });

describe('Dashboard', () => {
  beforeEach(() => {
    fetchDashboardCounts.mockReset();
    fetchDashboardChart.mockReset().mockImplementation(async (_client, chart: DashboardChart, _school: string, period: ChartPeriod) => series(chart, period));
    downloadBlob.mockReset();
    fetchRecoveredRevenue.mockReset().mockResolvedValue(0);
    fetchCourseTurmas.mockReset().mockImplementation(async (_c: unknown, courseId: string) =>
      courseId === 'c1' ? [{ id: 't1', course_id: 'c1', name: 'Turma de março' }, { id: 't2', course_id: 'c1', name: 'Turma de abril' }] : [],
    );
  });

  it('Filtrar por curso (issue 40): the course, then its turma, in the URL; their numbers replace the counters; without a filter nothing more is asked', async () => {
    fetchDashboardCounts.mockResolvedValue({ courses: 1, students: 2, materials: 3, active_enrollments: 4 });
    const view = renderScreen(<Dashboard {...parts} />, { route: '/admin', session });
    await waitFor(() => expect(screen.getByLabelText('Total de Alunos')).toHaveTextContent('2'));
    // No filter: the course list (the route's filter) is not even mounted, no turma is read.
    expect(screen.queryByRole('combobox', { name: 'Curso' })).not.toBeInTheDocument();
    expect(fetchCourseTurmas).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar por curso' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Curso' }), 'c1');
    expect(currentLocation(view)).toBe('/admin?curso=c1');
    expect(await screen.findByText('Resumo de c1 / todas')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Alunos do curso' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Total de Alunos')).not.toBeInTheDocument();
    expect(screen.getByText('As tendências abaixo são da escola toda.')).toBeInTheDocument();
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Turma' }), 't2');
    expect(currentLocation(view)).toBe('/admin?curso=c1&turma=t2');
    expect(await screen.findByText('Resumo de c1 / t2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Alunos da turma' })).toBeInTheDocument();
    // Back to every course: the turma goes with it and the school's counters return.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Curso' }), '');
    expect(currentLocation(view)).toBe('/admin');
    await waitFor(() => expect(screen.getByLabelText('Total de Alunos')).toHaveTextContent('2'));
  });

  it('opens on the course and turma of the URL; a turma of another course is ignored', async () => {
    renderScreen(<Dashboard {...parts} />, { route: '/admin?curso=c1&turma=t1', session });
    expect(await screen.findByText('Resumo de c1 / t1')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Turma' })).toHaveValue('t1');
    expect(fetchDashboardCounts).not.toHaveBeenCalled();
  });

  it('Receita says beside the revenue what Recuperação recovered in the same period (issue 41)', async () => {
    fetchDashboardCounts.mockResolvedValue({ courses: 1, students: 2, materials: 3, active_enrollments: 4 });
    fetchRecoveredRevenue.mockResolvedValue(237.6);
    renderScreen(<Dashboard {...parts} />, { route: '/admin?periodo=12m', session });
    await waitFor(() => expect(card('Receita')).toHaveTextContent('Recuperado: R$ 237,60 em vendas recuperadas (Recuperação)'));
    expect(fetchRecoveredRevenue).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', from: '2025-12-01', to: '2026-11-26' });
    // Only the revenue chart asks.
    expect(fetchRecoveredRevenue).toHaveBeenCalledTimes(1);
  });

  it("shows the school's four counters", async () => {
    fetchDashboardCounts.mockResolvedValue({ courses: 2001, students: 35, materials: 4, active_enrollments: 12 });
    renderScreen(<Dashboard {...parts} />, { route: '/admin', session });
    expect(screen.getByText('Visão geral de Área Demo')).toBeInTheDocument();
    expect(await screen.findByText('2.001')).toBeInTheDocument();
    expect(screen.getByLabelText('Total de Alunos')).toHaveTextContent('35');
    expect(screen.getByLabelText('Materiais')).toHaveTextContent('4');
    expect(screen.getByLabelText('Matrículas Ativas')).toHaveTextContent('12');
    expect(fetchDashboardCounts).toHaveBeenCalledWith(expect.anything(), 's1');
  });

  it('a failed read shows "—" and LoadError, and the retry shows the counters', async () => {
    fetchDashboardCounts.mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ courses: 1, students: 2, materials: 3, active_enrollments: 4 });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderScreen(<Dashboard {...parts} />, { route: '/admin', session });
    expect(await screen.findByText('Não foi possível carregar os contadores')).toBeInTheDocument();
    expect(screen.getByLabelText('Total de Cursos')).toHaveTextContent('—');
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() => expect(screen.getByLabelText('Matrículas Ativas')).toHaveTextContent('4'));
    expect(screen.queryByText('Não foi possível carregar os contadores')).not.toBeInTheDocument();
  });

  it('the five trends of the last 30 days: each total, its change against the previous period, R$ for revenue', async () => {
    fetchDashboardCounts.mockResolvedValue({ courses: 1, students: 2, materials: 3, active_enrollments: 4 });
    renderScreen(<Dashboard {...parts} />, { route: '/admin', session });
    await waitFor(() => expect(card('Receita')).toHaveTextContent('R$ 30,00'));
    expect(await screen.findByRole('radio', { name: '30 dias' })).toBeChecked();
    for (const chart of ['new_students', 'new_enrollments', 'active_students', 'lessons_completed', 'revenue'] as const)
      expect(fetchDashboardChart).toHaveBeenCalledWith(expect.anything(), chart, 's1', '30d');
    // 1+2+3 = 6 against 100 before: -94%.
    expect(within(card('Novos alunos')).getByText('6')).toBeInTheDocument();
    expect(within(card('Novos alunos')).getByText('-94% vs. período anterior')).toBeInTheDocument();
    expect(within(card('Aulas concluídas')).getByText('24')).toBeInTheDocument();
    expect(within(card('Alunos ativos')).getByText('entraram ou estudaram; o total conta cada aluno uma vez')).toBeInTheDocument();
    expect(within(card('Novos alunos')).getByText('Novos alunos: 6 nos últimos 30 dias; -94% vs. período anterior, que teve 100; maior valor em 26/11: 3 novos alunos.')).toHaveClass('sr-only');
    const bars = await within(card('Novas matrículas')).findByRole('group', { name: /gráfico de barras/ });
    expect(within(bars).getAllByRole('img').map((b) => b.getAttribute('aria-label'))).toEqual(['24/11: 2 novas matrículas', '25/11: 4 novas matrículas', '26/11: 6 novas matrículas']);
  });

  it('"Ver tabela" of a trend shows the same numbers as its bars', async () => {
    renderScreen(<Dashboard {...parts} />, { route: '/admin', session });
    const chart = await within(await screen.findByRole('region', { name: 'Receita' })).findByRole('group', { name: /gráfico de barras/ });
    const bars = within(chart).getAllByRole('img').map((b) => b.getAttribute('aria-label'));
    await userEvent.click(within(card('Receita')).getByRole('button', { name: 'Ver tabela' }));
    const table = within(card('Receita')).getByRole('table', { name: 'Receita' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent).join(': '));
    expect(rows).toEqual(['24/11: R$ 5,00', '25/11: R$ 10,00', '26/11: R$ 15,00']);
    expect(rows).toEqual(bars);
  });

  it('the period picker asks for the period, keeps it in the URL and labels weeks and months in pt-BR', async () => {
    const view = renderScreen(<Dashboard {...parts} />, { route: '/admin', session });
    await waitFor(() => expect(within(card('Novos alunos')).getByText('6')).toBeInTheDocument());
    expect(within(screen.getByRole('group', { name: 'Período' })).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['7 dias', '30 dias', '90 dias', '12 meses']);

    await userEvent.click(screen.getByRole('radio', { name: '7 dias' }));
    expect(currentLocation(view)).toBe('/admin?periodo=7d');
    await waitFor(() => expect(fetchDashboardChart).toHaveBeenCalledWith(expect.anything(), 'new_students', 's1', '7d'));
    // 1+2 = 3 against 6 before.
    await waitFor(() => expect(within(card('Novos alunos')).getByText('-50% vs. período anterior')).toBeInTheDocument());
    expect(within(card('Novos alunos')).getByText('3')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: '90 dias' }));
    expect(currentLocation(view)).toBe('/admin?periodo=90d');
    await waitFor(() => expect(within(card('Novos alunos')).getByText('— vs. período anterior')).toBeInTheDocument());
    await userEvent.click(within(card('Novos alunos')).getByRole('button', { name: 'Ver tabela' }));
    expect(within(card('Novos alunos')).getAllByRole('rowheader').map((c) => c.textContent)).toEqual(['semana de 17/11', 'semana de 24/11']);
    expect(within(card('Novos alunos')).getByRole('columnheader', { name: 'Semana' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: '12 meses' }));
    expect(currentLocation(view)).toBe('/admin?periodo=12m');
    await waitFor(() => expect(within(card('Receita')).getByText('R$ 1.234,50')).toBeInTheDocument());
    expect(within(card('Receita')).getByText('+23% vs. período anterior')).toBeInTheDocument();

    // Back to the default: the URL drops it.
    await userEvent.click(screen.getByRole('radio', { name: '30 dias' }));
    expect(currentLocation(view)).toBe('/admin');
  });

  it('opens on the period of the URL', async () => {
    renderScreen(<Dashboard {...parts} />, { route: '/admin?periodo=12m', session });
    expect(await screen.findByRole('radio', { name: '12 meses' })).toBeChecked();
    await waitFor(() => expect(fetchDashboardChart).toHaveBeenCalledWith(expect.anything(), 'revenue', 's1', '12m'));
    await userEvent.click(await within(card('Receita')).findByRole('button', { name: 'Ver tabela' }));
    expect(within(card('Receita')).getAllByRole('rowheader').map((c) => c.textContent)).toEqual(['out/2026', 'nov/2026']);
  });

  it('a trend with nothing in the period says so; a failed one offers a retry', async () => {
    fetchDashboardChart.mockImplementation(async (_c, chart: DashboardChart, _s, period: ChartPeriod) => {
      if (chart === 'revenue') throw new Error('falhou');
      const s = series(chart, period);
      return chart === 'new_students' ? { ...s, points: s.points.map((p) => ({ ...p, value: 0 })), total: 0 } : s;
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderScreen(<Dashboard {...parts} />, { route: '/admin', session });
    expect(await within(card('Novos alunos')).findByText('Ainda não há dados neste período')).toBeInTheDocument();
    expect(within(card('Novos alunos')).getByText('-100% vs. período anterior')).toBeInTheDocument();
    expect(within(card('Novos alunos')).getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
    expect(await within(card('Receita')).findByText('Não foi possível carregar o gráfico')).toBeInTheDocument();
    fetchDashboardChart.mockImplementation(async (_c, chart: DashboardChart, _s, period: ChartPeriod) => series(chart, period));
    await userEvent.click(within(card('Receita')).getByRole('button', { name: 'Tentar novamente' }));
    expect(await within(card('Receita')).findByText('R$ 30,00')).toBeInTheDocument();
  });

  it('"Exportar CSV" of a trend: the day with its year and the amount for a spreadsheet', async () => {
    renderScreen(<Dashboard {...parts} />, { route: '/admin', session });
    await waitFor(() => expect(card('Receita')).toHaveTextContent('R$ 30,00'));
    await userEvent.click(within(card('Receita')).getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith(expect.stringMatching(/^receita-30d-\d{4}-\d{2}-\d{2}\.csv$/), expect.any(Blob)));
    const text = await (downloadBlob.mock.calls[0]![1] as Blob).text();
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual(['Dia;Receita (R$)', '24/11/2026;5,00', '25/11/2026;10,00', '26/11/2026;15,00']);
  });
});
