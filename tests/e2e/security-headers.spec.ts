// The built SPA ships a Content-Security-Policy (scripts/vite/security-headers.ts) as a <meta> and as
// dist/_headers, which `vite preview` serves. Walking the student's and the staff's pages, with the
// YouTube, Vimeo and uploaded-video players, the browser reports no violation of it.
import type { Page } from '@playwright/test';
import { expect, test } from './helpers';
import { COURSE, LESSON, signInAs } from './learning-helpers';

/** Records every securitypolicyviolation event of every document the page loads. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI} (${location.pathname})`));
  });
  const fromConsole: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) fromConsole.push(m.text());
  });
  return async () => [...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)), ...fromConsole];
}

test('every page is served with the policy and the browser reports no violation of it', async ({ page }) => {
  test.setTimeout(90_000);
  const violations = await watchViolations(page);
  const login = await page.goto('/escola-demo');
  const csp = login!.headers()['content-security-policy'];
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toContain("connect-src 'self' http://localhost:");
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  expect(await violations()).toEqual([]);

  await signInAs(page, 'aluno@escola-demo.com.br');
  const studentPages: [string, RegExp | string][] = [
    ['/', 'Continuar assistindo'],
    [`/course/${COURSE.excel}`, 'Excel Essencial'],
    [`/course/${COURSE.excel}/lesson/${LESSON.welcome}`, 'Boas-vindas ao curso'], // YouTube
    [`/course/${COURSE.excel}/lesson/${LESSON.interface}`, 'Conhecendo a interface'], // Vimeo
    [`/course/${COURSE.excel}/lesson/${LESSON.formulas}`, 'Fórmulas básicas'], // uploaded video
    ['/profile', 'Meu Perfil'],
  ];
  for (const [path, text] of studentPages) {
    await page.goto(path);
    await expect(page.getByText(text).first()).toBeVisible();
    await page.waitForLoadState('networkidle').catch(() => undefined);
    expect(await violations(), path).toEqual([]);
  }
});

test('the admin area runs under the same policy', async ({ page }) => {
  test.setTimeout(90_000);
  const violations = await watchViolations(page);
  await signInAs(page, 'admin@escola-demo.com.br');
  for (const path of ['/admin', '/admin/courses', `/admin/courses/${COURSE.excel}/content`, `/admin/courses/${COURSE.excel}/edit`, '/admin/students', '/admin/reports', '/admin/settings', '/admin/member-area']) {
    await page.goto(path);
    await expect(page.getByRole('heading').first()).toBeVisible();
    await page.waitForLoadState('networkidle').catch(() => undefined);
    expect(await violations(), path).toEqual([]);
  }
});

test('the built scripts and stylesheet come Brotli-compressed with the same headers, as the static hosts send them', async ({ page }) => {
  const assets: { url: string; headers: Record<string, string>; status: number }[] = [];
  page.on('response', async (r) => {
    if (/\/assets\/[\w.-]+\.(js|css)$/.test(r.url())) assets.push({ url: r.url(), headers: await r.allHeaders(), status: r.status() });
  });
  await page.goto('/escola-demo');
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  await expect.poll(() => assets.some((a) => a.url.endsWith('.css'))).toBe(true);
  for (const a of assets) {
    expect(a.status, a.url).toBe(200);
    expect(a.headers['content-encoding'], a.url).toBe('br');
    expect(a.headers['content-type'], a.url).toMatch(/^text\/(javascript|css)/);
    expect(a.headers['x-content-type-options'], a.url).toBe('nosniff');
  }
  // It still runs: the page works from those bytes (the form above), and a revalidation is a 304.
  const css = assets.find((a) => a.url.endsWith('.css'))!;
  const again = await page.request.get(css.url, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': css.headers.etag! } });
  expect(again.status()).toBe(304);
});
