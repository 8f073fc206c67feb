// The HTML's inline script (src/platform/first-visit/vite-plugin.ts, docs/first-visit.md) starts what a page needs before any
// JavaScript has loaded: a school's login data, the signed-in chunks, and the image the path painted
// largest last time. Checked by what the browser requests and in which order.
import type { Page, Request } from '@playwright/test';
import { closeAnnouncementPopups, expect, signInAndWaitHome, signOut, signUpAndConfirm, test, uniqueEmail } from './helpers';

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

  const requests = record(page);
  const early = await requestedBeforeTheApp(page, (r) => r.url().includes('/banner.jpg'), () => page.reload());
  await expect(page.getByText('Continuar assistindo')).toBeVisible();
  // The very URL the <img> then shows: it takes the preloaded answer, asked for once.
  expect(await banner.evaluate((img: HTMLImageElement) => img.currentSrc)).toBe(early.url());
  await expect.poll(() => banner.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(requests.filter((r) => r.url() === early.url())).toHaveLength(1);
  // A CORS request without credentials (it names its Origin), like the API's own requests: over the
  // connection the HTML's preconnect opened, not a second one to that host (a handshake more on a phone).
  expect(await early.headerValue('origin')).toBe(new URL(page.url()).origin);
});

/** Holds the app's entry chunk back until the returned release is called with the navigation. */
async function holdTheApp(page: Page): Promise<(navigation: Promise<unknown>) => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return async (navigation) => {
    release();
    await navigation;
    await page.unroute(/\/assets\/index-[\w-]+\.js$/);
  };
}

const loaded = (img: HTMLImageElement) => img.complete && img.naturalWidth > 0;

test("the home's banner is painted by the HTML on the next visit, where the page shows it, before the app's code has run", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  const banner = page.locator('img[fetchpriority="high"]:not(#lcp-shell)').first();
  await expect.poll(() => banner.evaluate(loaded)).toBe(true);
  const where = await banner.boundingBox();

  const release = await holdTheApp(page);
  const reload = page.reload();
  const shell = page.locator('#lcp-shell');
  await expect.poll(() => shell.evaluate(loaded)).toBe(true);
  // Nothing of the app yet: the HTML alone painted it, at the banner's place and size.
  expect(await page.locator('#root').innerHTML()).toBe('');
  expect(await shell.boundingBox()).toEqual(where);
  await expect(shell).toHaveAttribute('aria-hidden', 'true');
  await release(reload);
  // The app's own banner takes its place, and the early copy goes.
  await expect(page.getByText('Continuar assistindo')).toBeVisible();
  await expect.poll(() => banner.evaluate(loaded)).toBe(true);
  await expect(shell).toHaveCount(0);
  expect(await banner.boundingBox()).toEqual(where);
});

test("another account on the device neither asks for nor is painted the banner the first account's home showed (another school's)", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  await expect.poll(() => page.locator('img[fetchpriority="high"]').first().evaluate(loaded)).toBe(true);
  const hints = await page.evaluate(() => localStorage.getItem('plataforma:lcp-image'));
  expect(hints).toContain('/school-banners/5c000000-0000-4000-8000-000000000001/');

  const other = await page.context().browser()!.newPage({ viewport: page.viewportSize() });
  await closeAnnouncementPopups(other);
  await signInAndWaitHome(other, 'aluno@academia-rival.com.br', undefined, 'academia-rival');
  await other.evaluate((value) => localStorage.setItem('plataforma:lcp-image', value!), hints);
  const requests = record(other);
  const release = await holdTheApp(other);
  const reload = other.reload();
  // The inline script has run (it asks for the profile after the image it would have asked for).
  await other.waitForRequest((r) => r.url().includes('/rest/v1/profiles?'));
  expect(await other.locator('#lcp-shell').count()).toBe(0);
  await release(reload);
  await expect(other.getByRole('button', { name: 'Menu da conta', includeHidden: true })).toBeVisible();
  expect(requests.filter((r) => r.url().includes('/school-banners/5c000000-0000-4000-8000-000000000001/'))).toEqual([]);
  await other.close();
});

test('at another screen width the HTML paints no early banner: the page lays it out differently there', async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  await expect.poll(() => page.locator('img[fetchpriority="high"]').first().evaluate(loaded)).toBe(true);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: size.width - 100, height: size.height });
  const release = await holdTheApp(page);
  const reload = page.reload();
  // Still asked for with the HTML, only not painted.
  // The inline script has run: it asks for the banner after it would have painted it.
  await page.waitForRequest((r) => r.url().includes('/banner.jpg'));
  expect(await page.locator('#lcp-shell').count()).toBe(0);
  await release(reload);
  await expect(page.getByText('Continuar assistindo')).toBeVisible();
});

test("a signed-in visit asks for the account's profile and roles, and the page's own code, before the app's code has run", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  const requests = record(page);
  // The home's chunk and its layout's, not only the session's: one wave instead of entry → layout → page.
  await requestedBeforeTheApp(page, (r) => /\/assets\/home-[\w-]+\.js$/.test(r.url()), () => page.reload());
  requests.length = 0;
  const profile = await requestedBeforeTheApp(page, (r) => r.url().includes('/rest/v1/profiles?'), () => page.reload());
  expect(profile.url()).toContain('id=eq.a0000000-0000-4000-8000-000000000011');
  // With the stored session's token, not the anon key: the database answers only the account's own rows.
  expect(await profile.headerValue('authorization')).toMatch(/^Bearer eyJ/);
  await expect(page.getByText('Continuar assistindo')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();
  // The app took those answers instead of asking again.
  expect(requests.filter((r) => r.url().includes('/rest/v1/profiles?'))).toHaveLength(1);
  expect(requests.filter((r) => r.url().includes('/rest/v1/user_roles?'))).toHaveLength(1);

  // A lesson's own chunk too.
  await requestedBeforeTheApp(
    page,
    (r) => /\/assets\/lesson-[\w-]+\.js$/.test(r.url()),
    () => page.goto('/course/c0000000-0000-4000-8000-000000000001/lesson/e0000000-0000-4000-8000-000000000001'),
  );
});

const isCatalog = (r: Request) => r.url().endsWith('/rest/v1/rpc/student_catalog');
const isQuizStates = (r: Request) => r.url().endsWith('/rest/v1/rpc/my_quiz_states');

test("the home's courses are asked for before the app's code has run, and the app asks again for none of it", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  const requests = record(page);
  // The catalog needs the school, from the profile's answer: still before the entry has run.
  const catalog = await requestedBeforeTheApp(page, isCatalog, () => page.reload());
  expect(JSON.parse(catalog.postData() ?? '{}')).toMatchObject({ p_school_id: '5c000000-0000-4000-8000-000000000001' });
  expect(await catalog.headerValue('authorization')).toMatch(/^Bearer eyJ/);
  await expect(page.getByText('Continuar assistindo')).toBeVisible();
  await expect(page.getByText('Excel Essencial para o Trabalho').first()).toBeVisible();
  expect(requests.filter(isCatalog)).toHaveLength(1);
  expect(requests.filter(isQuizStates)).toHaveLength(1);
  expect(requests.filter((r) => r.url().includes('/rest/v1/profiles?'))).toHaveLength(1);
});

const LESSON_PATH = '/course/c0000000-0000-4000-8000-000000000001/lesson/e0000000-0000-4000-8000-000000000003';
const lessonRequests = {
  course: (r: Request) => r.url().includes('/rest/v1/courses?') && r.url().includes('id=eq.c0000000-0000-4000-8000-000000000001'),
  lesson: (r: Request) => r.url().includes('/rest/v1/lessons?') && r.url().includes('id=eq.e0000000-0000-4000-8000-000000000003'),
  quiz: (r: Request) => r.url().endsWith('/rest/v1/rpc/quiz_for_student'),
  quizStates: isQuizStates,
  signing: (r: Request) => r.url().endsWith('/functions/v1/sign-lesson-file') && r.method() === 'POST',
};

test("a lesson's outline, content and quiz, and its uploaded video's signing, are asked for before the app's code has run, each once", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  const requests = record(page);
  // The signing needs the lesson's answer (the video's path): still before the entry has run.
  const signing = await requestedBeforeTheApp(page, lessonRequests.signing, () => page.goto(LESSON_PATH));
  expect(JSON.parse(signing.postData() ?? '{}')).toMatchObject({ bucket: 'lesson-videos', path: expect.stringMatching(/\.mp4$/) });
  expect(await signing.headerValue('authorization')).toMatch(/^Bearer eyJ/);
  // The edge-function client that signing goes through in the app (src/platform/first-visit/stand-ins/functions.ts loads it
  // on the first call) was asked for with the HTML too: else the app's signing, and the video's first
  // frame (the page's largest paint), would wait a round trip more for it.
  // From the lesson's own document on.
  const lessonDocument = requests.findIndex((r) => r.isNavigationRequest() && r.url().endsWith(LESSON_PATH));
  expect(lessonDocument).toBeGreaterThanOrEqual(0);
  const scriptsBefore = requests.slice(lessonDocument, requests.indexOf(signing)).filter((r) => r.resourceType() === 'script' || r.url().endsWith('.js'));
  // Read from the server again: the browser keeps no body for some of them (a modulepreload's).
  const sources = await Promise.all(scriptsBefore.map(async (r) => (await page.request.get(r.url())).text()));
  expect(sources.some((code) => code.includes('Failed to send a request to the Edge Function'))).toBe(true);
  await expect(page.getByTestId('lesson-video')).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/lesson-videos\/.+\?token=/);
  await expect(page.getByRole('button', { name: /Marcar como concluída|Aula concluída/ })).toBeVisible();
  for (const [name, is] of Object.entries(lessonRequests)) expect(requests.filter(is), name).toHaveLength(1);
  // The video comes by CORS without credentials too: over the API's preconnected connection.
  const video = requests.find((r) => r.url().includes('/storage/v1/object/sign/lesson-videos/'));
  expect(await video?.headerValue('origin')).toBe(new URL(page.url()).origin);
});

test("a lesson never opened: its video's poster is asked for by the HTML as soon as the lesson names it, painted until the video's first frame, and fetched once", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  const requests = record(page);
  const isPoster = (r: Request) => r.url().includes('/storage/v1/render/image/public/course-thumbnails/') && r.url().includes('poster-');
  // The seed's lesson has the poster the editor makes at upload (issue 38).
  const poster = await requestedBeforeTheApp(page, isPoster, () => page.goto(LESSON_PATH));
  expect(poster.url()).toMatch(/poster-formulas-basicas\.jpg\?width=\d+$/);
  // The player paints it (the same srcset: the preload's answer), then the video's own first frame replaces it.
  const img = page.getByTestId('video-poster');
  await expect(page.getByTestId('lesson-video')).toBeAttached();
  const video = page.getByTestId('lesson-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2)).toBe(true);
  await expect(img).toHaveCount(0);
  expect(requests.filter(isPoster)).toHaveLength(1);
});

test("a lesson never opened, on a device that has shown a lesson before: the HTML paints its poster where lessons show their video, before the app's code has run", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  // A lesson seen here before (its poster's box kept: where every lesson lays its video out).
  await page.goto(LESSON_PATH);
  const video = page.getByTestId('lesson-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && !v.seeking)).toBe(true);
  const where = await video.boundingBox();
  await page.goto('/');
  // As if this lesson had never been opened: no frame nor image of it remembered.
  await page.evaluate((path) => {
    for (const key of Object.keys(localStorage)) if (key.startsWith('plataforma:lcp-frame:')) localStorage.removeItem(key);
    const hints = JSON.parse(localStorage.getItem('plataforma:lcp-image') ?? '{}') as Record<string, unknown>;
    delete hints[path];
    localStorage.setItem('plataforma:lcp-image', JSON.stringify(hints));
  }, LESSON_PATH);
  const release = await holdTheApp(page);
  const visit = page.goto(LESSON_PATH);
  const shell = page.locator('#lcp-shell');
  await expect.poll(() => shell.evaluate(loaded)).toBe(true);
  expect(await page.locator('#root').innerHTML()).toBe('');
  expect(await shell.getAttribute('srcset')).toContain('/course-thumbnails/5c000000-0000-4000-8000-000000000001/poster-formulas-basicas.jpg?width=');
  expect(await shell.boundingBox()).toEqual(where);
  await release(visit);
  // The video takes over at the same place, and the copy goes.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && !v.seeking)).toBe(true);
  await expect(shell).toHaveCount(0);
});

test("back on a lesson, the HTML paints its video's frame where the student left it before the app's code has run; another account gets none, and signing out forgets it", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  await page.goto(LESSON_PATH);
  const video = page.getByTestId('lesson-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && !v.seeking)).toBe(true);
  const where = await video.boundingBox();
  const frameKey = `plataforma:lcp-frame:a0000000-0000-4000-8000-000000000011:${LESSON_PATH}`;

  // Leaving the page keeps the frame; coming back paints it, alone, at the video's place and size.
  const release = await holdTheApp(page);
  const reload = page.reload();
  const shell = page.locator('#lcp-shell');
  await expect.poll(() => shell.evaluate(loaded)).toBe(true);
  expect(await page.locator('#root').innerHTML()).toBe('');
  expect(await shell.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
  expect(await shell.boundingBox()).toEqual(where);
  await release(reload);
  // The video takes over at the same place, and the copy goes.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && !v.seeking)).toBe(true);
  await expect(shell).toHaveCount(0);
  expect(await video.boundingBox()).toEqual(where);

  // Another account on this device (the frame is the first one's, of a lesson it paid for): nothing.
  // A new account of its own: signing out ends every session of the account, and aluno's sessions
  // are other tests' too.
  const frame = await page.evaluate((key) => localStorage.getItem(key), frameKey);
  expect(frame).toMatch(/^\{"\d+":\["data:image\/jpeg;base64,/); // by screen width
  const other = await page.context().browser()!.newPage();
  await closeAnnouncementPopups(other); // its home, before Sair, is the day's popup's
  await signUpAndConfirm(other, { name: 'Outra Conta', email: uniqueEmail('frame') });
  await other.evaluate(([key, value]) => localStorage.setItem(key!, value!), [frameKey, frame]);
  const held = await holdTheApp(other);
  const visit = other.goto(LESSON_PATH);
  await other.waitForRequest((r) => r.url().includes('/rest/v1/profiles?'));
  expect(await other.locator('#lcp-shell').count()).toBe(0);
  await held(visit);
  // Signing out forgets every frame kept on the device.
  await other.goto('/');
  await signOut(other);
  expect(await other.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('plataforma:lcp-frame:')))).toEqual([]);
  await other.close();
});

test("a student of another school on that lesson's path: the early requests bring nothing of it", async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@academia-rival.com.br', undefined, 'academia-rival');
  const requests = record(page);
  await page.goto(LESSON_PATH);
  await expect(page.getByRole('heading', { name: 'Aula não encontrada' })).toBeVisible();
  // Made with the rival's own token, so row-level security answers as to the app: no rows.
  for (const is of [lessonRequests.course, lessonRequests.lesson]) {
    const early = requests.find(is);
    expect(early).toBeDefined();
    expect(await (await early!.response())!.json()).toEqual([]);
  }
  expect(await (await requests.find(lessonRequests.quiz)!.response())!.json()).toBeNull();
  await expect(page.getByTestId('lesson-video')).toHaveCount(0);
  expect(requests.filter(lessonRequests.signing)).toHaveLength(0);
});

test('an expired stored session asks for nothing with its token: supabase-js refreshes it first', async ({ page }) => {
  await signInAndWaitHome(page, 'aluno@escola-demo.com.br');
  // Expired while no app runs (a page of the same origin without it): a running app's supabase-js
  // would see the change in storage and refresh the token itself before the visit under test.
  await page.goto('/favicon.svg');
  await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!;
    const session = JSON.parse(localStorage.getItem(key)!) as { expires_at: number };
    localStorage.setItem(key, JSON.stringify({ ...session, expires_at: Math.floor(Date.now() / 1000) - 60 }));
  });
  const requests = record(page);
  await page.goto('/');
  await expect(page.getByText('Continuar assistindo')).toBeVisible();
  const tokenRefresh = requests.findIndex((r) => r.url().includes('/auth/v1/token?grant_type=refresh_token'));
  const firstProfile = requests.findIndex((r) => r.url().includes('/rest/v1/profiles?'));
  expect(tokenRefresh).toBeGreaterThanOrEqual(0);
  expect(firstProfile).toBeGreaterThan(tokenRefresh);
});
