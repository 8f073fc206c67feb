// The API briefly down, as a visitor sees it: reads that cannot reach the server show a pt-BR banner
// instead of an error page, keep retrying, and the page fills in by itself once the server is back.
import { expect, test } from './helpers';

const apiPort = Number(process.env.E2E_API_PORT || 54331);
const BANNER = 'Sem conexão com o servidor. Tentando de novo...';

test('the school login page waits out an API outage and recovers without a reload', async ({ page }) => {
  let down = true;
  let refused = 0;
  // The browser's view of a server that is not listening: every REST request fails to connect.
  await page.route(`http://localhost:${apiPort}/rest/v1/**`, async (route) => {
    if (!down) return route.fallback();
    refused++;
    await route.abort('connectionrefused');
  });
  let loads = 0;
  page.on('load', () => loads++);

  await page.goto('/escola-demo');
  const banner = page.getByRole('status').filter({ hasText: BANNER });
  await expect(banner).toBeVisible();
  // Still down a few seconds later: the reads keep being retried, and no error page replaces the wait.
  await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
  await expect(banner).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Escola não encontrada' })).toHaveCount(0);

  down = false;
  await expect(page.getByRole('form', { name: 'Login' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banner).toHaveCount(0);
  expect(loads).toBe(1);
});
