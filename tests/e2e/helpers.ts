import { expect, test as base, type Page } from '@playwright/test';

/** Closes the school's once-a-day announcement popup whenever it shows up on `page` (it belongs to
 * the home page, not to these journeys). */
export async function closeAnnouncementPopups(page: Page) {
  const popupButton = page.getByRole('dialog').getByRole('button', { name: 'Entendi' });
  // It may open just as the journey navigates away (its code loads in parallel with the page): a
  // click that finds it gone must not hold the journey up.
  await page.addLocatorHandler(
    popupButton,
    async () => {
      await popupButton.click({ timeout: 3_000 }).catch(() => undefined);
    },
    { noWaitAfter: true },
  );
}

/** Playwright's test with the announcement popup closed whenever it shows up. */
export const test = base.extend({
  page: async ({ page }, use) => {
    await closeAnnouncementPopups(page);
    await use(page);
  },
});
export { expect };

export const PASSWORD = 'senha123';

/** A fresh address per call, so parallel tests never share an account. */
export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@exemplo.com.br`;
}

export async function signIn(page: Page, email: string, password = PASSWORD, slug = 'escola-demo') {
  await page.goto(`/${slug}`);
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Senha').fill(password);
  await form.getByRole('button', { name: 'Entrar' }).click();
}

export async function signInAndWaitHome(page: Page, email: string, password = PASSWORD, slug = 'escola-demo') {
  await signIn(page, email, password, slug);
  await expect(page).toHaveURL(/\/$/);
  // Signed in: the header's account menu, which the day's announcement popup may already cover (a
  // modal hides the rest of the page from assistive technology).
  await expect(page.getByRole('button', { name: 'Menu da conta', includeHidden: true })).toBeVisible();
}

export async function signUp(page: Page, { name, email, password = PASSWORD, slug = 'escola-demo' }: { name: string; email: string; password?: string; slug?: string }) {
  await page.goto(`/${slug}`);
  await page.getByRole('tab', { name: 'Criar Conta' }).click();
  const form = page.getByRole('form', { name: 'Criar Conta' });
  await form.getByLabel('Nome Completo').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Senha').fill(password);
  await form.getByRole('button', { name: 'Criar Conta' }).click();
}

/** The local backend of this run (its /inbox holds the auth e-mails). */
const API_URL = `http://localhost:${Number(process.env.E2E_API_PORT || 54331)}`;

export interface InboxMessage {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** The local inbox of `to` (newest first), as a developer reads it at /inbox. */
export async function inbox(to: string): Promise<InboxMessage[]> {
  const res = await fetch(`${API_URL}/inbox/api/messages?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as InboxMessage[];
}

/** The link of the newest 'Confirme seu cadastro' e-mail to `email`, once it arrived. */
export async function confirmationLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => (link = (await inbox(email)).find((m) => m.subject === 'Confirme seu cadastro')?.links[0]), { message: `confirmation e-mail to ${email}` })
    .toBeTruthy();
  return link!;
}

/** Criar Conta, then the owner opens the link mailed to the address: signed in on the home page. */
export async function signUpAndConfirm(page: Page, account: { name: string; email: string; password?: string; slug?: string }) {
  await signUp(page, account);
  await expect(page.getByRole('status').filter({ hasText: `Enviamos um link de confirmação para ${account.email}` })).toBeVisible();
  await page.goto(await confirmationLink(account.email));
  await expect(page).toHaveURL(/\/$/);
  // Signed in: the header's account menu, which the day's announcement popup may already cover (a
  // modal hides the rest of the page from assistive technology).
  await expect(page.getByRole('button', { name: 'Menu da conta', includeHidden: true })).toBeVisible();
}

/** Sair, then wait until the login form shows: only then has supabase-js dropped the stored session (it
 * calls /logout first), so a navigation right after cannot cut the sign-out short and keep the session. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Menu da conta' }).click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  await expect(page.getByRole('form', { name: 'Login' })).toBeVisible();
}
