// Issue 6 "Done when": students without access. A new student is not enrolled (aluna may have
// bought a course in the checkout journey meanwhile); pausado's enrollment is PAUSED; expirado's
// expired yesterday. All read-only.
import { expect, test } from '@playwright/test';
import { COURSE, LESSON, freshStudent, signInAs } from './learning-helpers';

// The first requests to a freshly started backend can be slow: allow more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

test('a non-enrolled student sees locked cards, plays a preview lesson and is refused a paid one', async ({ page }) => {
  const { email } = await freshStudent('Sem Matrícula', { enrollIn: [] });
  await signInAs(page, email);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Meus Cursos' })).toHaveCount(0);
  const excel = page.getByTestId('course-card').filter({ hasText: 'Excel Essencial para o Trabalho' });
  await expect(excel.getByText('Curso Bloqueado')).toBeVisible();
  await expect(excel.getByRole('link', { name: 'Comprar Curso' })).toHaveAttribute('target', '_blank');

  await excel.getByRole('link', { name: 'Ver Aulas Gratuitas' }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.excel}/lesson/${LESSON.welcome}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Boas-vindas ao curso' })).toBeVisible();
  await expect(page.getByTestId('video-frame')).toHaveAttribute('data-video-kind', 'youtube');
  await expect(page.getByTestId('lesson-content')).toContainText('Seja bem-vindo!');
  await expect(page.getByText('Acesso Restrito')).toHaveCount(0);

  await page.goto(`/course/${COURSE.excel}/lesson/${LESSON.interface}`);
  await expect(page.getByRole('heading', { name: 'Acesso Restrito' })).toBeVisible();
  await expect(page.getByText('Você precisa estar matriculado neste curso para acessar esta aula.')).toBeVisible();
  await expect(page.getByTestId('video-frame')).toHaveCount(0);
  await page.getByRole('link', { name: 'Voltar ao Curso', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${COURSE.excel}$`));
  await expect(page.getByText('Você ainda não está matriculado neste curso')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Comprar Agora' })).toHaveAttribute('href', 'https://pay.exemplo.com.br/escola-demo/excel-essencial');
  await expect(page.getByRole('link', { name: 'Comprar Agora' })).toHaveAttribute('target', '_blank');
});

for (const who of [
  { email: 'pausado@escola-demo.com.br', badge: 'Matrícula pausada' },
  { email: 'expirado@escola-demo.com.br', badge: 'Matrícula expirada' },
]) {
  test(`${who.email.split('@')[0]} is locked out of the course`, async ({ page }) => {
    await signInAs(page, who.email);
    await page.goto('/');
    const excel = page.getByTestId('course-card').filter({ hasText: 'Excel Essencial para o Trabalho' });
    await expect(excel.getByText('Curso Bloqueado')).toBeVisible();
    await expect(excel.getByText(who.badge)).toBeVisible();
    await expect(excel.getByText(/aulas completas/)).toHaveCount(0);
    for (const lesson of [LESSON.interface, LESSON.formulas]) {
      await page.goto(`/course/${COURSE.excel}/lesson/${lesson}`);
      await expect(page.getByRole('heading', { name: 'Acesso Restrito' })).toBeVisible();
      await expect(page.getByTestId('lesson-video')).toHaveCount(0);
    }
  });
}

test('the announcement pops up once a day: Entendi closes it and it stays closed', async ({ page }) => {
  await signInAs(page, 'aluna@escola-demo.com.br', { announcementSeen: false });
  await page.goto('/');
  const popup = page.getByRole('dialog');
  await expect(popup.getByRole('heading', { name: 'Bem-vindo à nova Área de Membros!' })).toBeVisible();
  await expect(popup.getByTestId('announcement-body').locator('strong')).toHaveText('progresso');
  await popup.getByRole('button', { name: 'Entendi' }).click();
  await expect(popup).toHaveCount(0);
  await page.reload();
  // Mariana has not started anything: greeted as a newcomer (issue 46), not "de volta".
  await expect(page.getByRole('heading', { name: 'Boas-vindas, Mariana!' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Cursos Disponíveis' })).toBeVisible();
  await page.waitForTimeout(500);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The bell lists the school's active announcements, highest priority first (under "Comunicados",
  // after the account's notifications: issue 26).
  await page.getByRole('button', { name: /Notificações/ }).click();
  const items = page.getByRole('dialog', { name: 'Notificações' }).getByRole('region', { name: 'Comunicados' }).getByRole('button');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText('Bem-vindo à nova Área de Membros!');
  await expect(items.nth(1)).toContainText('Aula ao vivo de Marketing Digital');
  await items.nth(1).click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'Aula ao vivo de Marketing Digital' })).toBeVisible();
});
