import { expect, test as base, type Page } from '@playwright/test';

/** Playwright's test with the school's once-a-day announcement popup closed whenever it shows up
 * (it belongs to the home page, not to these journeys). */
export const test = base.extend({
  page: async ({ page }, use) => {
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
  await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();
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

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Menu da conta' }).click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
}
