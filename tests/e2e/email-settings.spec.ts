// Issue 22, the people's side of the e-mails: the school turns "Sentimos sua falta" off in
// Settings → E-mails and previews its messages; a student stops a kind on the profile page. Both stick
// after a reload (the database holds them).
import { expect, signInAndWaitHome, test } from './helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config';
import { api, freshSchoolAdmin, freshStudent, SCHOOL_ID } from './learning-helpers';

test('Settings → E-mails: turn a kind off, name the sender, preview a message with the school branding', async ({ page }) => {
  const admin = await freshSchoolAdmin('Admin E-mails');
  await signInAndWaitHome(page, admin.email);
  await page.goto('/admin/settings');
  const card = page.getByRole('region', { name: 'E-mails' });
  await expect(card.getByRole('switch', { name: 'Sentimos sua falta' })).toBeChecked();
  // On means on: a month from now the school's students are away and their courses unfinished, so the
  // daily run writes "Sentimos sua falta" for them. Days far from today keep these runs apart from
  // the real 09:00 run (pg_cron on the server's clock) and its once-in-30-days rule.
  expect(await weMissYouQueued(31)).not.toEqual([]);
  // A switch saves the moment it is flipped and says so (docs/conventions.md, "Settings"); the
  // sender's fields wait for "Salvar".
  const weMissYou = card.getByRole('switch', { name: 'Sentimos sua falta' });
  await weMissYou.click();
  await expect(weMissYou.locator('..').getByRole('status')).toHaveText('Salvo');
  await card.getByLabel('Responder para').fill('nao-e-email');
  await card.getByRole('button', { name: 'Salvar' }).click();
  await expect(card.getByText('Informe um e-mail válido')).toBeVisible();
  await card.getByLabel('Responder para').fill('contato@escola-demo.com.br');
  await card.getByLabel('Nome do remetente').fill('Equipe Escola Demo');
  await card.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Remetente atualizado!')).toBeVisible();
  // A second save of the same row (it failed once with a database error, issue 46).
  const certificate = card.getByRole('switch', { name: 'Certificado disponível' });
  await certificate.click();
  await expect(certificate.locator('..').getByRole('status')).toHaveText('Salvo');
  await certificate.click();
  await expect(certificate).toBeChecked();
  await expect(certificate.locator('..').getByRole('status')).toHaveText('Salvo');
  await page.reload();
  await expect(card.getByRole('switch', { name: 'Sentimos sua falta' })).not.toBeChecked();
  await expect(card.getByRole('switch', { name: 'Nova matrícula' })).toBeChecked();
  await expect(card.getByLabel('Nome do remetente')).toHaveValue('Equipe Escola Demo');

  // Off means off: the same run a month later writes none for this school.
  expect(await weMissYouQueued(62)).toEqual([]);

  await card.getByRole('button', { name: 'Pré-visualizar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pré-visualizar e-mail' });
  await expect(dialog.getByText('Escola Demo: seu acesso foi liberado')).toBeVisible();
  const frame = page.frameLocator('iframe[title^="Pré-visualização"]');
  await expect(frame.getByRole('link', { name: 'Criar minha senha' })).toBeVisible();
  await dialog.getByLabel('E-mail').selectOption('payment_pending');
  await expect(dialog.getByText('Pagamento pendente: Curso de exemplo')).toBeVisible();
  await expect(frame.getByText('PIX copia e cola')).toBeVisible();
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: test.info().outputPath('emails-preview-360.png') });
});

/** Runs the daily e-mails as of `days` from now and lists the school's "Sentimos sua falta" of that day. */
async function weMissYouQueued(days: number) {
  const at = new Date(Date.now() + days * 86_400_000);
  await api('/rest/v1/rpc/queue_daily_emails', { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify({ p_now: at.toISOString() }) });
  const day = at.toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
  return api(`/rest/v1/email_outbox?select=id&kind=eq.we_miss_you&school_id=eq.${SCHOOL_ID}&idempotency_key=like.*:${day}`, { key: LOCAL_SERVICE_ROLE_KEY });
}

test('Profile → Preferências de e-mail: a student stops a kind and it stays stopped', async ({ page }) => {
  const { email } = await freshStudent('Paula Preferências');
  await signInAndWaitHome(page, email);
  await page.goto('/profile');
  const card = page.getByRole('region', { name: 'Preferências de e-mail' });
  const certificate = card.getByRole('switch', { name: 'Certificado disponível' });
  await expect(certificate).toBeChecked();
  await certificate.click();
  await expect(certificate).not.toBeChecked();
  await expect(certificate.locator('..').getByRole('status')).toHaveText('Salvo');
  await page.reload();
  await expect(certificate).not.toBeChecked();
  await expect(card.getByRole('switch', { name: 'Nova matrícula' })).toBeChecked();
  await page.setViewportSize({ width: 360, height: 800 });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('profile-emails-360.png') });
});
