// Issue 10, Reports: six cards, the tabs, the course filter, and a CSV export of a tab.
import { readFile } from 'node:fs/promises';
import { expect, signInAndWaitHome, test } from './helpers';

test('reports show the six cards and the three tabs; the course filter and the CSV export work', async ({ page }) => {
  await signInAndWaitHome(page, 'admin@escola-demo.com.br');
  await page.goto('/admin/reports');
  const summary = page.getByRole('list', { name: 'Resumo' });
  for (const label of ['Total de alunos', 'Ativos nos últimos 7 dias', 'Progresso médio', 'Cursos concluídos', 'Avaliação média', 'Comentários (30 dias)']) {
    await expect(summary.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(summary.getByLabel('Avaliação média')).toHaveText(/^\d,\d \/ 5$|^—$/);
  await expect(summary.getByLabel('Progresso médio')).toHaveText(/^\d+%$/);

  // Other journeys add students to this school while this one runs: assert on a seeded student.
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('row', { name: /Lucas Aluno/ })).toBeVisible();
  await page.getByLabel('Curso', { exact: true }).selectOption({ label: 'Marketing Digital para Pequenos Negócios' });
  await expect(panel.getByRole('row', { name: /Lucas Aluno/ })).toHaveCount(0);
  await page.getByLabel('Curso', { exact: true }).selectOption('');
  await expect(panel.getByRole('row', { name: /Lucas Aluno/ })).toBeVisible();

  for (const tab of ['Vários cursos', 'Inativos', 'Todos os alunos']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
  }
  // Avaliações (issue 23): the quiz results, or its empty state (the quiz journey may be submitting meanwhile).
  await page.getByRole('tab', { name: 'Avaliações' }).click();
  await expect(page).toHaveURL(/[?&]aba=avaliacoes/);
  await expect(panel.getByRole('table', { name: 'Resultados das avaliações' }).or(panel.getByText('Nenhuma tentativa de avaliação ainda.'))).toBeVisible();
  await page.getByRole('tab', { name: 'Todos os alunos' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^alunos-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.replace(/^\ufeff/, '').trim().split(/\r\n/);
  expect(lines[0]).toBe('Nome;E-mail;Cursos matriculados;Matrículas ativas;Aulas concluídas;Total de aulas;Progresso (%);Último acesso');
  expect(lines.some((l) => l.startsWith('Lucas Aluno;aluno@escola-demo.com.br;'))).toBe(true);
});
