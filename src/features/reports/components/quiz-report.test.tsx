// Reports → Avaliações (issue 23), mounted as the app mounts the reports screen, the network mocked at
// api/queries.ts.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@/test/render';
import type { QuizReportRow } from '../api/queries';
import { ReportsPage } from './reports-page';

const api = vi.hoisted(() => ({ fetchReportSummary: vi.fn(), fetchQuizReport: vi.fn(), fetchAllQuizReport: vi.fn() }));
const downloadBlob = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('@/utils/download', () => ({ downloadBlob }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));

const summary = { total_students: 3, active_last_7_days: 1, average_progress: 10, courses_completed: 0, average_rating: null, comments_last_30_days: 0 };
const result = (i: number, over: Partial<QuizReportRow> = {}): QuizReportRow => ({
  user_id: `u${i}`,
  name: `Aluno ${i}`,
  email: `aluno${i}@escola.com.br`,
  course_id: 'c1',
  course_title: 'Excel do zero',
  quiz_id: 'q1',
  lesson_title: 'Avaliação final',
  best_score: 80,
  attempts: 2,
  passed: true,
  // 02:30 UTC on the 6th is still the 5th in São Paulo.
  last_attempt_at: '2026-01-06T02:30:00Z',
  ...over,
});
const courses = [
  { id: 'c1', title: 'Excel do zero' },
  { id: 'c2', title: 'Marketing' },
];
const open = (route = '/admin/reports?aba=avaliacoes') => renderScreen(<ReportsPage schoolId="s1" courses={courses} />, { route });

describe('Reports → Avaliações', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    downloadBlob.mockReset();
    api.fetchReportSummary.mockResolvedValue(summary);
    api.fetchQuizReport.mockImplementation(async (_c, { page }: { page: number }) => ({ rows: [result(page * 25 + 1)], total: 30 }));
  });

  it('shows each result (student, quiz and course, best score, attempts, passed, date) and the total', async () => {
    api.fetchQuizReport.mockResolvedValue({
      rows: [result(1), result(2, { best_score: 66.67, attempts: 3, passed: false, lesson_title: 'Quiz de PROCV', course_title: 'Marketing', email: null })],
      total: 2,
    });
    open();
    const table = await screen.findByRole('table', { name: 'Resultados das avaliações' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Aluno', 'Avaliação', 'Melhor nota', 'Tentativas', 'Aprovado', 'Data']);
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Aluno 1aluno1@escola.com.br',
      'Avaliação finalExcel do zero',
      '80%',
      '2',
      'Sim',
      '05/01/2026',
    ]);
    expect(within(second!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Aluno 2', 'Quiz de PROCVMarketing', '66,67%', '3', 'Não', '05/01/2026']);
    expect(screen.getByText('2 resultados')).toBeInTheDocument();
    expect(api.fetchQuizReport).toHaveBeenCalledWith(expect.anything(), { schoolId: 's1', courseId: null, page: 0 });
  });

  it('the page and the course filter go in the URL; the course starts again at the first page', async () => {
    const view = open('/admin/reports?aba=avaliacoes&pagina=2');
    expect(await screen.findByText('Aluno 26')).toBeInTheDocument();
    expect(api.fetchQuizReport).toHaveBeenLastCalledWith(expect.anything(), { schoolId: 's1', courseId: null, page: 1 });
    expect(screen.getByText('30 resultados')).toBeInTheDocument();
    expect(screen.getByText('Página 2 de 2')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Anterior/ }));
    expect(await screen.findByText('Aluno 1')).toBeInTheDocument();
    expect(currentLocation(view)).toBe('/admin/reports?aba=avaliacoes');

    await userEvent.selectOptions(screen.getByLabelText('Curso'), 'c2');
    await waitFor(() => expect(currentLocation(view)).toBe('/admin/reports?aba=avaliacoes&curso=c2'));
    await waitFor(() => expect(api.fetchQuizReport).toHaveBeenLastCalledWith(expect.anything(), { schoolId: 's1', courseId: 'c2', page: 0 }));
    expect(screen.getByRole('tab', { name: 'Avaliações', selected: true })).toBeInTheDocument();
  });

  it('the tab is reached from the other tabs and its page is in the URL', async () => {
    api.fetchQuizReport.mockResolvedValue({ rows: [result(1)], total: 1 });
    const view = renderScreen(<ReportsPage schoolId="s1" courses={courses} />, { route: '/admin/reports?aba=certificados' });
    await userEvent.click(screen.getByRole('tab', { name: 'Avaliações' }));
    expect(currentLocation(view)).toBe('/admin/reports?aba=avaliacoes');
    expect(await screen.findByText('Aluno 1')).toBeInTheDocument();
    expect(screen.getByText('1 resultado')).toBeInTheDocument();
  });

  it('no attempt yet: the empty state, and nothing to export', async () => {
    api.fetchQuizReport.mockResolvedValue({ rows: [], total: 0 });
    open();
    expect(await screen.findByText('Nenhuma tentativa de avaliação ainda.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeDisabled();
  });

  it('Exportar CSV writes every row of the filter with pt-BR columns, formulas neutralised', async () => {
    api.fetchAllQuizReport.mockResolvedValue([
      result(1),
      result(2, { name: '=HYPERLINK("https://mal.example")', best_score: 66.67, attempts: 3, passed: false, lesson_title: '+SOMA(1;2)' }),
    ]);
    open('/admin/reports?aba=avaliacoes&curso=c1');
    await screen.findByText('Aluno 1');
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith(expect.stringMatching(/^avaliacoes-\d{4}-\d{2}-\d{2}\.csv$/), expect.any(Blob)));
    expect(api.fetchAllQuizReport).toHaveBeenCalledWith(expect.anything(), { kind: 'quizzes', schoolId: 's1', courseId: 'c1' });
    const text = await (downloadBlob.mock.calls[0]![1] as Blob).text();
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual([
      'Aluno;E-mail;Avaliação;Curso;Melhor nota;Tentativas;Aprovado;Última tentativa',
      'Aluno 1;aluno1@escola.com.br;Avaliação final;Excel do zero;80%;2;Sim;05/01/2026',
      `"'=HYPERLINK(""https://mal.example"")";aluno2@escola.com.br;"'+SOMA(1;2)";Excel do zero;66,67%;3;Não;05/01/2026`,
    ]);
  });

  it('a failed read shows LoadError, and the retry loads it', async () => {
    api.fetchQuizReport.mockReset().mockRejectedValueOnce(new Error('falhou')).mockResolvedValue({ rows: [result(1)], total: 1 });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    open();
    expect(await screen.findByText('Não foi possível carregar as avaliações')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Aluno 1')).toBeInTheDocument();
  });
});
