// Issue 46, item 9, in Chromium: the bell's announcement preview reads its HTML a block a line
// ("Novidades", then "Agora você…", not "NovidadesAgora você…") and stays inside the bell at 360 px;
// "Marcar todas como lidas", pressed from the keyboard, leaves the focus in the bell (on the first
// notification), not on the page's body.
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { expect, test } from './helpers';
import { api, freshSchoolAdmin, freshStudent, LESSON, passwordSession, signInAs } from './learning-helpers';

test('the bell: readable announcement previews inside the bell at 360 px; the focus stays in it after "Marcar todas como lidas"', async ({ page }) => {
  const student = await freshStudent('Aluna Sino');
  const staff = await freshSchoolAdmin('Prof. Sino');
  const [studentToken, staffToken] = await Promise.all([student, staff].map(async (u) => (await passwordSession(u.email)).access_token as string));
  const [question] = await api('/rest/v1/lesson_comments?select=id', {
    method: 'POST',
    token: studentToken,
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify({ user_id: student.id, lesson_id: LESSON.formulas, comment: 'Como fixo uma célula?' }),
  });
  await api('/rest/v1/lesson_comments', { method: 'POST', token: staffToken, body: JSON.stringify({ user_id: staff.id, lesson_id: LESSON.formulas, parent_id: question.id, comment: 'Use $A$1.' }) });

  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, student.email);
  await page.goto('/');
  await page.getByRole('button', { name: 'Notificações, 1 não lida' }).click();
  const panel = page.getByRole('dialog', { name: 'Notificações' });
  const welcome = panel.getByRole('region', { name: 'Comunicados' }).getByRole('button', { name: /Bem-vindo à nova Área de Membros/ });
  await expect(welcome).toBeVisible();
  // The seeded body is '<h2>Novidades</h2><p>Agora você acompanha…</p>': a line each.
  expect(await welcome.getByText(/Agora você acompanha/).innerText()).toMatch(/^Novidades\nAgora você acompanha/);
  const panelBox = (await panel.boundingBox())!;
  for (const part of [welcome, welcome.getByText('Bem-vindo à nova Área de Membros!')]) {
    const box = (await part.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(panelBox.x + panelBox.width);
  }
  // Nothing to scroll sideways in the bell: a long title is cut with "…".
  expect(await panel.locator('div.overflow-y-auto').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('bell-360.png') });

  const markAll = panel.getByRole('button', { name: 'Marcar todas como lidas' });
  await markAll.focus();
  await page.keyboard.press('Enter');
  await expect(markAll).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Notificações', exact: true })).toBeVisible();
  await expect(panel.getByTestId('notification-item').first()).toBeFocused();
  const rows = await api(`/rest/v1/notifications?select=read_at&recipient_id=eq.${student.id}`, { key: LOCAL_SERVICE_ROLE_KEY });
  expect(rows.every((n: { read_at: string | null }) => n.read_at !== null)).toBe(true);
});
