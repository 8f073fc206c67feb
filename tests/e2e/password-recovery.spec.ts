// 'Esqueci minha senha': a student asks for the link on the school's login page, opens it from the
// local inbox (the backend's /inbox JSON endpoint), sets a new password and signs in with it.
import { API_URL, freshStudent, passwordSession } from './learning-helpers';
import { expect, PASSWORD, signInAndWaitHome, signOut, test, uniqueEmail } from './helpers';

interface InboxMessage {
  to: string;
  subject: string;
  links: string[];
}

async function inbox(to: string): Promise<InboxMessage[]> {
  const res = await fetch(`${API_URL}/inbox/api/messages?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as InboxMessage[];
}

async function requestLink(page: import('@playwright/test').Page, email: string) {
  await page.goto('/escola-demo');
  await page.getByRole('button', { name: 'Esqueci minha senha' }).click();
  const dialog = page.getByRole('dialog', { name: 'Esqueci minha senha' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Enviar link' }).click();
  await expect(dialog.getByText('Enviamos um link para o seu e-mail')).toBeVisible();
  return dialog;
}

test('a student recovers the password through the local inbox and signs in with the new one', async ({
  page,
  baseURL,
}) => {
  const { email } = await freshStudent('Rita Recupera');
  const dialog = await requestLink(page, email);
  await dialog.getByRole('button', { name: 'Voltar ao login' }).click();
  await expect(dialog).toBeHidden();

  await expect.poll(async () => (await inbox(email)).length).toBe(1);
  const [mail] = await inbox(email);
  expect(mail!.subject).toBe('Redefinir senha');
  const link = mail!.links[0]!;
  expect(new URL(link).searchParams.get('redirect_to')).toBe(`${baseURL}/escola-demo`);

  // The link signs in with a recovery session and the school's page asks for the new password.
  await page.goto(link);
  await expect(page).toHaveURL(/\/escola-demo$/);
  const form = page.getByRole('dialog', { name: 'Redefinir senha' });
  await expect(form).toBeVisible();
  // A reload keeps the form: the recovery is not over until the password is set.
  await page.reload();
  await expect(form).toBeVisible();
  await expect(page).toHaveURL(/\/escola-demo$/);

  await form.getByLabel('Nova Senha').fill('nova-senha-9');
  await form.getByLabel('Confirmar Senha').fill('outra-senha');
  await form.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(form.getByText('Por favor, digite a mesma senha nos dois campos')).toBeVisible();
  await form.getByLabel('Confirmar Senha').fill('nova-senha-9');
  await form.getByRole('button', { name: 'Salvar nova senha' }).click();

  await expect(page.getByText('Senha alterada!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();

  await signOut(page);
  await expect(page).toHaveURL(/\/escola-demo$/);
  await expect(passwordSession(email, PASSWORD)).rejects.toThrow(/invalid_credentials/);
  await signInAndWaitHome(page, email, 'nova-senha-9');

  // The link worked once: opened again (signed out), it only says so.
  await signOut(page);
  // Signed out for good (supabase-js has dropped the stored session) before the link opens.
  await expect(page.getByRole('form', { name: 'Login' })).toBeVisible();
  await page.goto(link);
  await expect(page.getByRole('alert')).toHaveText('Link inválido ou expirado. Peça um novo.');
  await expect(page).toHaveURL(/\/escola-demo$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('an unknown address gets the same answer and no e-mail', async ({ page }) => {
  const email = uniqueEmail('ninguem');
  await requestLink(page, email);
  expect(await inbox(email)).toEqual([]);
});

test('asking twice within a minute is refused with a clear message', async ({ page }) => {
  const email = uniqueEmail('pressa');
  const dialog = await requestLink(page, email);
  await dialog.getByRole('button', { name: 'Voltar ao login' }).click();
  await page.getByRole('button', { name: 'Esqueci minha senha' }).click();
  const again = page.getByRole('dialog', { name: 'Esqueci minha senha' });
  await again.getByLabel('Email').fill(email);
  await again.getByRole('button', { name: 'Enviar link' }).click();
  await expect(again.getByRole('alert')).toHaveText('Muitas tentativas. Aguarde um minuto e tente de novo.');
  await expect(again.getByText('Enviamos um link para o seu e-mail')).toHaveCount(0);
});
