// GoTrue's per-IP sign-in limit as a visitor meets it on the login page. The shared e2e backend has
// the limits off (every spec signs in from 127.0.0.1), so this spec starts its own local-supabase with
// `sign_in_sign_ups` = 3 and sends this page's sign-in requests there: the real 429, in pt-BR.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../scripts/free-port.mjs';
import { expect, test } from './helpers';

const apiPort = Number(process.env.E2E_API_PORT || 54331);
let limited: { url: string; proc: ChildProcess } | null = null;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_SUPABASE_PORT: String(port), AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '3' };
  delete env.DATABASE_URL;
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join('local-supabase', 'main.ts'), '--fresh'], { env, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; !(await fetch(`${url}/health`).then((r) => r.ok, () => false)); i++) {
    if (proc.exitCode !== null || i > 1000) throw new Error('the rate-limited backend did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  limited = { url, proc };
});

test.afterAll(() => {
  limited?.proc.kill('SIGTERM');
});

test('the 4th sign-in within 5 minutes (limit 3) is refused with a pt-BR message', async ({ page }) => {
  // Only sign-ins go to the limited backend; the school page itself comes from the shared one.
  await page.route(`http://localhost:${apiPort}/auth/v1/token?grant_type=password`, async (route) => {
    const response = await route.fetch({ url: `${limited!.url}/auth/v1/token?grant_type=password` });
    await route.fulfill({ response });
  });
  await page.goto('/escola-demo');
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('Email').fill('aluno@escola-demo.com.br');
  await form.getByLabel('Senha').fill('senha-errada');
  // Each of the three is answered as a wrong password (its toast may be gone by the next on a slow
  // machine, so each answer is awaited rather than the toasts counted).
  for (let i = 1; i <= 3; i++) {
    const answer = page.waitForResponse((r) => r.url().includes('/auth/v1/token') && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Entrar' }).click();
    expect((await answer).status()).toBe(400);
    await expect(page.getByText(/invalid login credentials/i).first()).toBeVisible();
  }
  await form.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Muitas tentativas de login. Aguarde alguns minutos e tente de novo.')).toBeVisible();
  await expect(page.getByText('Erro ao fazer login').last()).toBeVisible();
  await expect(page).toHaveURL(/\/escola-demo$/);
});
