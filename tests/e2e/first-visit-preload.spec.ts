// The HTML's inline script (scripts/vite/first-visit-preload.ts) starts what a page needs before any
// JavaScript has loaded: a school's login data, the signed-in chunks, and the image the path painted
// largest last time. Checked by what the browser requests and in which order.
import type { Page, Request } from '@playwright/test';
import { expect, signInAndWaitHome, test } from './helpers';

/** Every request of the page, in the order the browser made them. */
function record(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (r) => requests.push(r));
  return requests;
}

/**
 * Holds the app's entry chunk back until `expected` has been requested: what is asked for meanwhile
 * was asked for by the HTML itself, before any of the app's code could run.
 */
async function requestedBeforeTheApp(page: Page, expected: (r: Request) => boolean, go: () => Promise<unknown>): Promise<Request> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const request = page.waitForRequest(expected, { timeout: 5_000 });
  const navigation = go();
  try {
    return await request;
  } finally {
    release();
    await navigation;
    await page.unroute(/\/assets\/index-[\w-]+\.js$/);
  }
}

test("a school's login page asks for the school once, before the app's code has run", async ({ page }) => {
  const requests = record(page);
  const school = await requestedBeforeTheApp(page, (r) => r.url().includes('/rest/v1/schools?'), () => page.goto('/escola-demo'));
  expect(school.url()).toContain('slug=eq.escola-demo');
  await expect(page.getByRole('heading', { name: 'Área de Membros Demo' })).toBeVisible();
  // The app takes that answer instead of asking again.
  expect(requests.filter((r) => r.url().includes('/rest/v1/schools?'))).toHaveLength(1);
});

test('an unknown school still says so, and a reserved path asks for no school', async ({ page }) => {
  const requests = record(page);
  await page.goto('/escola-que-nao-existe');
  await expect(page.getByRole('heading', { name: 'Escola não encontrada' })).toBeVisible();
  expect(requests.filter((r) => r.url().includes('/rest/v1/schools?'))).toHaveLength(1);
  requests.length = 0;
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  expect(requests.filter((r) => r.url().includes('/rest/v1/schools?'))).toHaveLength(0);
});

test("the home's banner is asked for with the HTML on the next visit, at the width the page shows", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  const banner = page.locator('img[fetchpriority="high"]').first();
  await expect.poll(() => banner.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const hints = await page.evaluate(() => JSON.parse(localStorage.getItem('plataforma:lcp-image') ?? '{}') as Record<string, [string, string]>);
  expect(hints['/']?.[0]).toContain('/storage/v1/render/image/public/school-banners/');

  const early = await requestedBeforeTheApp(page, (r) => r.url().includes('/banner.jpg'), () => page.reload());
  await expect(page.getByText('Continuar assistindo')).toBeVisible();
  // The very URL the <img> then shows: it takes the preloaded answer.
  expect(await banner.evaluate((img: HTMLImageElement) => img.currentSrc)).toBe(early.url());
});
