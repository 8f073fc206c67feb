// Reports → Aulas do curso (issue 25), mounted as the app mounts the reports screen, the network mocked
// at api/queries.ts: the funnel, the video retention and the ratings per lesson of the chosen course.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import type { EngagementRow, FunnelRow, RetentionRow } from '../api/queries';
import { ReportsPage } from './reports-page';

const api = vi.hoisted(() => ({ fetchReportSummary: vi.fn(), fetchReportStudents: vi.fn(), fetchCourseFunnel: vi.fn(), fetchVideoRetention: vi.fn(), fetchLessonEngagement: vi.fn() }));
const downloadBlob = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/utils/download', () => ({ downloadBlob }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
const turmasApi = vi.hoisted(() => ({ fetchCourseTurmas: vi.fn() }));
vi.mock('@/concepts/turma-queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...turmasApi }));

const summary = { total_students: 3, active_last_7_days: 1, average_progress: 10, courses_completed: 0, average_rating: null, comments_last_30_days: 0 };
const courses = [
  { id: 'c1', title: 'Excel do Zero' },
  { id: 'c2', title: 'Marketing' },
];
const funnel: FunnelRow[] = [
  { lesson_id: 'l1', position: 1, module_title: 'Começo', lesson_title: 'Boas-vindas', enrolled: 40, started: 36, completed: 30 },
  { lesson_id: 'l2', position: 2, module_title: '=HYPERLINK("https://mal.example")', lesson_title: 'Atalhos', enrolled: 40, started: 28, completed: 12 },
  { lesson_id: 'l3', position: 3, module_title: 'Fórmulas', lesson_title: 'PROCV', enrolled: 40, started: 10, completed: 9 },
];
const retention: RetentionRow[] = [
  { lesson_id: 'l1', position: 1, lesson_title: 'Boas-vindas', duration_sec: 125, viewers: 20, reached_25: 18, reached_50: 15, reached_75: 10, reached_90: 5 },
  { lesson_id: 'l3', position: 3, lesson_title: 'PROCV', duration_sec: 600, viewers: 0, reached_25: 0, reached_50: 0, reached_75: 0, reached_90: 0 },
];
const engagement: EngagementRow[] = [
  { lesson_id: 'l1', position: 1, lesson_title: 'Boas-vindas', average_rating: 4.5, ratings: 12, comments: 3 },
  { lesson_id: 'l2', position: 2, lesson_title: 'Fórmulas', average_rating: null, ratings: 0, comments: 1234 },
];
const open = (route: string) => renderScreen(<ReportsPage schoolId="s1" courses={courses} />, { route });
const section = (name: string) => screen.getByRole('region', { name });
const cells = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));

describe('Reports → Aulas do curso', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    turmasApi.fetchCourseTurmas.mockReset().mockImplementation(async (_c: unknown, courseId: string) =>
      courseId === 'c1' ? [{ id: 't1', course_id: 'c1', name: 'Turma de março', starts_on: '2026-03-10', ends_on: null, enroll_from: null, enroll_until: null, seats: null, waitlist_enabled: false, status: 'em andamento', students: 3, seats_taken: 3, waiting: 0 }] : [],
    );
    downloadBlob.mockReset();
    api.fetchReportSummary.mockResolvedValue(summary);
    api.fetchCourseFunnel.mockResolvedValue(funnel);
    api.fetchVideoRetention.mockResolvedValue(retention);
    api.fetchLessonEngagement.mockResolvedValue(engagement);
  });

  it('without a course: a hint to choose one, and nothing is asked', async () => {
    const view = open('/admin/reports');
    await userEvent.click(screen.getByRole('tab', { name: 'Aulas do curso' }));
    expect(currentLocation(view)).toBe('/admin/reports?aba=aulas');
    expect(screen.getByText('Escolha um curso')).toBeInTheDocument();
    expect(api.fetchCourseFunnel).not.toHaveBeenCalled();
    await userEvent.selectOptions(screen.getByLabelText('Curso'), 'c1');
    expect(currentLocation(view)).toBe('/admin/reports?aba=aulas&curso=c1');
    expect(await screen.findByRole('region', { name: 'Funil de conclusão' })).toBeInTheDocument();
    expect(api.fetchCourseFunnel).toHaveBeenCalledWith(expect.anything(), 'c1', null);
    // Issue 40: a turma of the course narrows the funnel to its students.
    await userEvent.selectOptions(await screen.findByLabelText('Turma'), 't1');
    await waitFor(() => expect(api.fetchCourseFunnel).toHaveBeenLastCalledWith(expect.anything(), 'c1', 't1'));
  });

  it('the funnel: per lesson in order, who started and who completed, in bars and in the table', async () => {
    open('/admin/reports?aba=aulas&curso=c1');
    const list = await within(await screen.findByRole('region', { name: 'Funil de conclusão' })).findByRole('list', { name: 'Funil de conclusão por aula' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '1. Boas-vindasIniciaram36Concluíram30',
      '2. AtalhosIniciaram28Concluíram12',
      '3. PROCVIniciaram10Concluíram9',
    ]);
    const funnelCard = section('Funil de conclusão');
    expect(within(funnelCard).getByText('Dos 40 alunos matriculados, quantos iniciaram e quantos concluíram cada aula')).toBeInTheDocument();
    expect(
      within(funnelCard).getByText(
        'Funil de conclusão: 3 aulas e 40 alunos matriculados; a primeira aula foi iniciada por 36 (90%) e concluída por 30 (75%); a última, 3. PROCV, foi concluída por 9 (23%); a maior queda de conclusões é da aula 1 para a aula 2, 2. Atalhos: de 30 para 12.',
      ),
    ).toHaveClass('sr-only');
    await userEvent.hover(within(list).getAllByRole('listitem')[2]!);
    expect(screen.getByText('Fórmulas · Iniciaram: 10 de 40 (25%) · Concluíram: 9 (23%)')).toBeInTheDocument();

    await userEvent.click(within(funnelCard).getByRole('button', { name: 'Ver tabela' }));
    const table = within(funnelCard).getByRole('table', { name: 'Funil de conclusão' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Aula', 'Iniciaram', 'Concluíram']);
    expect(cells(table)).toEqual([
      ['1. Boas-vindas', '36 (90%)', '30 (75%)'],
      ['2. Atalhos', '28 (70%)', '12 (30%)'],
      ['3. PROCV', '10 (25%)', '9 (23%)'],
    ]);
  });

  it('the funnel\'s CSV: counts and shares apart, a module title that is a formula neutralised', async () => {
    open('/admin/reports?aba=aulas&curso=c1');
    await within(await screen.findByRole('region', { name: 'Funil de conclusão' })).findByRole('list');
    await userEvent.click(within(section('Funil de conclusão')).getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith(expect.stringMatching(/^excel-do-zero-funil-\d{4}-\d{2}-\d{2}\.csv$/), expect.any(Blob)));
    const text = await (downloadBlob.mock.calls[0]![1] as Blob).text();
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual([
      'Aula;Módulo;Matriculados;Iniciaram;Concluíram;Iniciaram (%);Concluíram (%)',
      '1. Boas-vindas;Começo;40;36;30;90,0;75,0',
      `2. Atalhos;"'=HYPERLINK(""https://mal.example"")";40;28;12;70,0;30,0`,
      '3. PROCV;Fórmulas;40;10;9;25,0;22,5',
    ]);
  });

  it('the video retention: the share of viewers at 25 / 50 / 75 / 90%, in bars and in the table', async () => {
    open('/admin/reports?aba=aulas&curso=c1');
    const card = await screen.findByRole('region', { name: 'Retenção de vídeo' });
    const list = await within(card).findByRole('list', { name: 'Retenção de vídeo por aula' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '1. Boas-vindas20 assistiram25%90%50%75%75%50%90%25%',
      '3. PROCV0 assistiram25%—50%—75%—90%—',
    ]);
    await userEvent.click(within(list).getAllByRole('listitem')[0]!);
    expect(screen.getByText('Vídeo de 2:05 · 25%: 18 de 20 · 50%: 15 de 20 · 75%: 10 de 20 · 90%: 5 de 20')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Ver tabela' }));
    const table = within(card).getByRole('table', { name: 'Retenção de vídeo' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Aula', '25%', '50%', '75%', '90%']);
    expect(cells(table)).toEqual([
      ['1. Boas-vindas (20 assistiram)', '90%', '75%', '50%', '25%'],
      ['3. PROCV (0 assistiram)', '—', '—', '—', '—'],
    ]);
    await userEvent.click(within(card).getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalled());
    const text = await (downloadBlob.mock.calls[0]![1] as Blob).text();
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual([
      'Aula;Duração (s);Assistiram;Chegaram a 25%;Chegaram a 50%;Chegaram a 75%;Chegaram a 90%;Chegaram a 25% (%);Chegaram a 50% (%);Chegaram a 75% (%);Chegaram a 90% (%)',
      '1. Boas-vindas;125;20;18;15;10;5;90,0;75,0;50,0;25,0',
      '3. PROCV;600;0;0;0;0;0;0,0;0,0;0,0;0,0',
    ]);
  });

  it('the ratings and comments per lesson, as a table with its CSV', async () => {
    open('/admin/reports?aba=aulas&curso=c1');
    const card = await screen.findByRole('region', { name: 'Avaliação média e comentários por aula' });
    const table = await within(card).findByRole('table', { name: 'Avaliação média e comentários por aula' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Aula', 'Média', 'Notas', 'Comentários']);
    expect(cells(table)).toEqual([
      ['1. Boas-vindas', '4,5 / 5', '12', '3'],
      ['2. Fórmulas', '—', '0', '1.234'],
    ]);
    await userEvent.click(within(card).getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalled());
    const text = await (downloadBlob.mock.calls[0]![1] as Blob).text();
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual(['Aula;Avaliação média (1 a 5);Avaliações;Comentários', '1. Boas-vindas;4,5;12;3', '2. Fórmulas;;0;1234']);
  });

  it('a course without students, without watched videos or without lessons says so', async () => {
    api.fetchCourseFunnel.mockResolvedValue(funnel.map((r) => ({ ...r, enrolled: 0, started: 0, completed: 0 })));
    api.fetchVideoRetention.mockResolvedValue(retention.map((r) => ({ ...r, viewers: 0 })));
    api.fetchLessonEngagement.mockResolvedValue([]);
    open('/admin/reports?aba=aulas&curso=c2');
    expect(await screen.findByText('Ainda não há alunos matriculados neste curso.')).toBeInTheDocument();
    expect(await screen.findByText('Ainda ninguém assistiu aos vídeos deste curso.')).toBeInTheDocument();
    expect(await screen.findByText('Este curso ainda não tem aulas.')).toBeInTheDocument();
    expect(api.fetchLessonEngagement).toHaveBeenCalledWith(expect.anything(), 'c2');
  });

  it('a failed read shows LoadError in its section, and the retry loads it', async () => {
    api.fetchVideoRetention.mockReset().mockRejectedValueOnce(new Error('falhou')).mockResolvedValue(retention);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    open('/admin/reports?aba=aulas&curso=c1');
    const card = await screen.findByRole('region', { name: 'Retenção de vídeo' });
    expect(await within(card).findByText('Não foi possível carregar a retenção de vídeo')).toBeInTheDocument();
    expect(within(section('Funil de conclusão')).queryByText(/Não foi possível/)).not.toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Tentar novamente' }));
    expect(await within(card).findByRole('list', { name: 'Retenção de vídeo por aula' })).toBeInTheDocument();
  });
});
