// Issue 19, two-factor sign-in for staff, in Chromium: a staff member turns it on in the profile (the
// test plays the authenticator app, computing the TOTP codes from the secret the dialog shows), signs
// out, signs in with the password and then the code; until the code is given, the app shows only the
// code step and the database hands out no secret of Settings.
import type { Page } from '@playwright/test';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { totpCode, totpStep } from '../../local-supabase/auth/totp.ts';
import { expect, PASSWORD, signIn, signInAndWaitHome, signOut, test, uniqueEmail } from './helpers';
import { api, API_URL, SCHOOL_ID } from './learning-helpers';

/** A new staff account (the seeded admins stay password-only for the other journeys). */
async function freshStaff(schoolId = SCHOOL_ID, role: 'SCHOOL_ADMIN' | 'STAFF' = 'SCHOOL_ADMIN', name = 'Marta Fatores'): Promise<string> {
  const email = uniqueEmail('e2e.mfa');
  const user = await api('/auth/v1/admin/users', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: schoolId } }),
  });
  await api('/rest/v1/user_roles', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({ user_id: user.id, school_id: schoolId, role }),
  });
  return email;
}

/** Turns two-factor on from the profile page, returning the app's next code. */
async function turnOnTwoFactor(page: Page, dialogOpener: () => Promise<void>) {
  await dialogOpener();
  const dialog = page.getByRole('dialog', { name: 'Ativar verificação em duas etapas' });
  const secret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
  const nextCode = authenticator(secret);
  await dialog.getByLabel('Código de 6 dígitos').fill(await nextCode());
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Verificação em duas etapas ativada!')).toBeVisible();
  await expect(dialog).toBeHidden();
  return nextCode;
}

/**
 * The authenticator app: each code of a later 30 s step than the last (a code is accepted once). It
 * starts at the current step, not the one before: the server accepts one step either side, so a code
 * of the current step still passes when a step boundary falls between typing and verifying (one of the
 * previous step then failed a loaded CI run).
 */
function authenticator(secret: string) {
  let last = -Infinity;
  return async () => {
    for (;;) {
      const now = totpStep(Date.now());
      const step = Math.max(last + 1, now);
      if (step <= now + 1) {
        last = step;
        return totpCode(secret, step);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
}

const SHOTS = process.env.E2E_SCREENSHOTS_DIR;

/** At 1280 and 360 px, when E2E_SCREENSHOTS_DIR is set (to look at the screens). */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 800 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/mfa-${name}-${width}.png`, fullPage: width === 360 });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** What the API gives the page's current session (its stored access token) for the secrets. */
async function secretsSeenByPage(page: Page) {
  return page.evaluate(async (apiUrl) => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!;
    const token = (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
    const headers = { apikey: token, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const reveal = await fetch(`${apiUrl}/rest/v1/rpc/reveal_school_webhook_secret`, { method: 'POST', headers, body: '{}' });
    const integrations = await fetch(`${apiUrl}/rest/v1/integration_settings?select=id`, { headers });
    return { reveal: { status: reveal.status, body: await reveal.text() }, integrations: await integrations.json() };
  }, API_URL);
}

test('a staff member turns two-factor on, and the next sign-in needs the code before anything (Settings secrets included)', async ({ page }) => {
  test.setTimeout(90_000);
  const email = await freshStaff();
  await signInAndWaitHome(page, email);

  // Profile: the card, "Ativar", the dialog with the QR code and the secret, the first code.
  await page.goto('/profile');
  const card = page.locator('div.rounded-xl', { has: page.getByRole('heading', { name: 'Verificação em duas etapas' }) });
  await expect(card.getByText('Desativada', { exact: true })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await shoot(page, 'profile-card');
  await card.getByRole('button', { name: 'Ativar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ativar verificação em duas etapas' });
  await expect(dialog.getByRole('img', { name: 'QR code para o aplicativo autenticador' })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const nextCode = authenticator(secret);
  await shoot(page, 'enroll-dialog');
  await dialog.getByLabel('Código de 6 dígitos').fill('12345');
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(dialog.getByText('Digite os 6 dígitos do código do aplicativo')).toBeVisible();
  await dialog.getByLabel('Código de 6 dígitos').fill(await nextCode());
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Verificação em duas etapas ativada!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Ativa', { exact: true })).toBeVisible();

  // Sign out, then the password: the code step, and nothing else.
  await signOut(page);
  await expect(page).toHaveURL(/\/escola-demo$/);
  await signIn(page, email);
  await expect(page.getByText('Digite o código do seu aplicativo autenticador')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Login' })).toHaveCount(0);
  await shoot(page, 'sign-in-step');

  // The secrets stay hidden: Settings sends back to the code step, and the API refuses the session.
  await page.goto('/admin/settings');
  await expect(page).toHaveURL(/\/escola-demo$/);
  await expect(page.getByText('Digite o código do seu aplicativo autenticador')).toBeVisible();
  await expect(page.getByText(/whsec_/)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Segredo do webhook de alunos' })).toHaveCount(0);
  const before = await secretsSeenByPage(page);
  expect(before.reveal.status).toBe(403);
  expect(before.reveal.body).not.toContain('whsec_');
  expect(before.integrations).toEqual([]);

  // A wrong code is refused; the right one opens the app.
  const step = page.getByRole('form', { name: 'Verificação em duas etapas' });
  await step.getByLabel('Código de 6 dígitos').fill('000000');
  await step.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText('Código inválido. Confira o código no aplicativo e tente de novo.')).toBeVisible();
  await step.getByLabel('Código de 6 dígitos').fill(await nextCode());
  await step.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();

  await page.goto('/admin/settings');
  const secretBox = page.getByLabel('Segredo do webhook', { exact: true });
  await page.getByRole('button', { name: 'Mostrar' }).click();
  await expect(secretBox).toHaveText(/^whsec_/);
  const after = await secretsSeenByPage(page);
  expect(after.reveal.status).toBe(200);
  expect(after.integrations.length).toBeGreaterThan(0);
});

test('a school admin requires two-factor from the staff; a staff member without it sets it up before the admin area', async ({ page }) => {
  test.setTimeout(90_000);
  // A school of its own, so the requirement touches no other journey.
  const slug = `e2e-mfa-${Date.now()}`;
  const [school] = await api('/rest/v1/schools', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify({ slug, name: 'Escola Segura', member_area_name: 'Área Segura' }),
  });
  const adminEmail = await freshStaff(school.id, 'SCHOOL_ADMIN', 'Sara Segura');
  const staffEmail = await freshStaff(school.id, 'STAFF', 'Tiago Equipe');

  await signInAndWaitHome(page, adminEmail, PASSWORD, slug);
  await page.goto('/admin/settings');
  const requirement = page.getByRole('switch', { name: 'Exigir verificação em duas etapas da equipe' });
  await expect(requirement).toBeDisabled();
  await expect(page.getByText('Ative a verificação em duas etapas no seu Perfil para mudar esta opção.', { exact: false })).toBeVisible();
  await page.goto('/profile');
  await turnOnTwoFactor(page, () => page.getByRole('button', { name: 'Ativar' }).click());
  await page.goto('/admin/settings');
  await expect(requirement).toBeEnabled();
  await requirement.click();
  // A setting's switch saves at once and says so beside its label (docs/conventions.md, "Settings").
  await expect(page.getByRole('region', { name: 'Segurança da equipe' }).getByRole('status')).toHaveText('Salvo');
  await expect(requirement).toBeChecked();
  await requirement.scrollIntoViewIfNeeded();
  await shoot(page, 'staff-requirement');
  const [row] = await api(`/rest/v1/schools?select=require_staff_mfa&id=eq.${school.id}`, { key: LOCAL_SERVICE_ROLE_KEY });
  expect(row.require_staff_mfa).toBe(true);

  // The staff member without a factor: the member area opens, the admin area asks for the setup first.
  await page.goto('/');
  await signOut(page);
  await expect(page).toHaveURL(new RegExp(`/${slug}$`));
  await expect(page.getByRole('form', { name: 'Login' })).toBeVisible();
  await signInAndWaitHome(page, staffEmail, PASSWORD, slug);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Ative a verificação em duas etapas' })).toBeVisible();
  await expect(page.getByText('Escola Segura exige a verificação em duas etapas da equipe.', { exact: false })).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await shoot(page, 'setup-required');
  await turnOnTwoFactor(page, () => page.getByRole('button', { name: 'Ativar agora' }).click());
  await expect(page.getByRole('heading', { name: 'Ative a verificação em duas etapas' })).toBeHidden();
  await expect(page.getByText('Total de Cursos')).toBeVisible();
});
