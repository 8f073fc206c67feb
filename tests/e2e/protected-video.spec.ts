// Issue 39, "Streamed through a video host" and "Shared logins", as the admin and the student meet them in
// Chromium against the fake Bunny Stream (scripts/fake-bunny): the admin uploads a lesson's video and sees
// it processing, then ready; the student plays it as an encrypted HLS stream (playlists, segments and the
// AES key, never an MP4 of the lesson), the heartbeat renews the URL without restarting the picture, the
// "Qualidade" menu pins a rendition, and the name moves over the picture and stays in full screen. A third
// screen of one account is refused with the school's limit, and "Assistir aqui" ends the oldest.
//
// The backend with the video host is the second one of playwright.config.ts (E2E_VIDEO_API_PORT): this
// spec's browsers send the SPA's API requests there, so every other journey keeps the Storage path.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page, Response } from '@playwright/test';
import { expect, test } from './helpers';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { makeTestClip } from '../../scripts/fake-bunny/encode.ts';
import { API_URL, SCHOOL_ID } from './learning-helpers';

const VIDEO_API_URL = `http://localhost:${Number(process.env.E2E_VIDEO_API_PORT || 54341)}`;
const BUNNY_URL = `http://127.0.0.1:${Number(process.env.E2E_BUNNY_PORT || 54340)}`;
const PASSWORD = 'senha123';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

/** The video backend's REST and auth, as the service role unless a token is given. */
async function videoApi(pathname: string, init: RequestInit & { key?: string } = {}) {
  const key = init.key ?? LOCAL_SERVICE_ROLE_KEY;
  const res = await fetch(`${VIDEO_API_URL}${pathname}`, {
    ...init,
    headers: {
      apikey: key,
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      Prefer: 'return=representation',
      ...(init.headers ?? {}),
    },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${pathname} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** This context's API requests go to the backend with the video host (same protocol, same answers). */
async function useVideoBackend(context: BrowserContext) {
  await context.route(
    (url) => url.origin === new URL(API_URL).origin,
    (route) => route.continue({ url: route.request().url().replace(API_URL, VIDEO_API_URL) }),
  );
}

/** A signed-in page of `email` in a context of its own (a device of its own: its own deviceId). */
async function deviceOf(
  browser: import('@playwright/test').Browser,
  email: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  await useVideoBackend(context);
  const session = await videoApi('/auth/v1/token?grant_type=password', {
    method: 'POST',
    key: LOCAL_ANON_KEY,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const storageKey = `sb-${new URL(API_URL).hostname.split('.')[0]}-auth-token`;
  await context.addInitScript(
    ({ storageKey, session, schoolId }) => {
      if (window !== window.top || sessionStorage.getItem('e2e-signed-in')) return;
      localStorage.setItem(storageKey, JSON.stringify(session));
      sessionStorage.setItem('e2e-signed-in', '1');
      const d = new Date();
      localStorage.setItem(
        `plataforma:announcement-seen:${schoolId}`,
        `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`,
      );
    },
    { storageKey, session, schoolId: SCHOOL_ID },
  );
  return { context, page: await context.newPage() };
}

/** A new student of the demo school, with a CPF, enrolled in `courseId` (on the video backend). */
async function newStudent(name: string, courseId: string) {
  const email = `e2e.video.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@exemplo.com.br`;
  const user = await videoApi('/auth/v1/admin/users', {
    method: 'POST',
    body: JSON.stringify({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { name, school_id: SCHOOL_ID },
    }),
  });
  const id = (user.id ?? user.user?.id) as string;
  await videoApi(`/rest/v1/profiles?id=eq.${id}`, { method: 'PATCH', body: JSON.stringify({ cpf: '529.982.247-25' }) });
  await videoApi('/rest/v1/enrollments', {
    method: 'POST',
    body: JSON.stringify({ user_id: id, course_id: courseId, status: 'ACTIVE' }),
  });
  return { id, email };
}

/** A published course with one module for the admin to add the lesson to. */
async function newCourse(tag: string) {
  const [course] = await videoApi('/rest/v1/courses', {
    method: 'POST',
    body: JSON.stringify({
      school_id: SCHOOL_ID,
      title: `Curso Protegido ${tag}`,
      slug: `e2e-protegido-${tag}`,
      status: 'PUBLISHED',
    }),
  });
  await videoApi('/rest/v1/modules', {
    method: 'POST',
    body: JSON.stringify({ course_id: course.id, title: `Módulo ${tag}`, order_index: 0 }),
  });
  return course.id as string;
}

/** What the fake host served to the page: path after the token, status and type. */
function hostResponses(page: Page) {
  const seen: { url: string; file: string; token: string; status: number; type: string }[] = [];
  page.on('response', (r: Response) => {
    const url = r.url();
    if (!url.startsWith(BUNNY_URL)) return;
    const [, token = '', file = ''] = /^[^/]+\/\/[^/]+\/([^/]*)\/[^/]+\/(.*)$/.exec(url) ?? [];
    seen.push({ url, file, token, status: r.status(), type: r.headers()['content-type'] ?? '' });
  });
  return seen;
}

const fullscreenTestId = (page: Page) =>
  page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid') ?? null);
const playerTime = (page: Page) =>
  page.evaluate(
    () => (document.querySelector('[data-testid="lesson-video"]') as HTMLVideoElement | null)?.currentTime ?? -1,
  );

let courseId = '';
let lessonId = '';
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

test('the admin uploads a lesson video to the video host: processing, then ready', async ({ browser }) => {
  courseId = await newCourse(tag);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-protected-video-'));
  try {
    // A 720p clip made by the ffmpeg the fake host encodes with (@ffmpeg-installer/ffmpeg).
    const clip = path.join(dir, 'aula protegida.mp4');
    await makeTestClip(clip, { seconds: 20, width: 1280, height: 720 });
    const { context, page } = await deviceOf(browser, 'admin@escola-demo.com.br');
    await page.goto(`/admin/courses/${courseId}/content`);
    await page.getByRole('button', { name: `Adicionar Aula em Módulo ${tag}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova Aula' });
    await dialog.getByLabel('Título').fill(`Aula protegida ${tag}`);
    await dialog.getByRole('tab', { name: 'Vídeo' }).click();
    await dialog.getByRole('radio', { name: 'Enviar arquivo' }).click();
    // With the host, the field says the video is protected before a file is chosen.
    await expect(dialog.getByText(/Vídeo protegido: vai para o serviço de vídeo da plataforma/)).toBeVisible();
    await dialog
      .getByLabel('Arquivo de vídeo')
      .setInputFiles({ name: 'aula protegida.mp4', mimeType: 'video/mp4', buffer: await readFile(clip) });
    await dialog.getByRole('button', { name: 'Salvar Aula' }).click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });

    const row = page.getByTestId('content-lesson').filter({ hasText: `Aula protegida ${tag}` });
    await expect(row.getByText(/Processando vídeo… \d+%/)).toBeVisible({ timeout: 60_000 });
    await expect(row.getByText('Vídeo protegido')).toBeVisible({ timeout: 120_000 });
    const [lesson] = await videoApi(
      `/rest/v1/lessons?select=id,lesson_contents(video_url),lesson_videos(status,renditions)&title=eq.${encodeURIComponent(`Aula protegida ${tag}`)}`,
    );
    lessonId = lesson.id;
    expect(lesson.lesson_contents.video_url ?? lesson.lesson_contents[0].video_url).toBe('video-host');
    expect(lesson.lesson_videos.status ?? lesson.lesson_videos[0].status).toBe('ready');
    expect(lesson.lesson_videos.renditions ?? lesson.lesson_videos[0].renditions).toEqual(['240p', '360p', '720p']);
    await context.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the student plays it as encrypted HLS with their name moving over it, renewed without a restart, in any quality and in full screen', async ({
  browser,
}) => {
  expect(lessonId).not.toBe('');
  const student = await newStudent('Bruna Protegida', courseId);
  // Where the student left the lesson last time: the player resumes there.
  await videoApi('/rest/v1/progress?on_conflict=user_id,lesson_id', {
    method: 'POST',
    headers: { Prefer: 'resolution=merge-duplicates' },
    body: JSON.stringify({ user_id: student.id, lesson_id: lessonId, last_position_sec: 6 }),
  });
  const { context, page } = await deviceOf(browser, student.email);
  await page.clock.install();
  const served = hostResponses(page);
  const playbackCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/functions/v1/video-playback') && r.method() === 'POST')
      playbackCalls.push(JSON.parse(r.postData() ?? '{}').action);
  });
  await page.goto(`/course/${courseId}/lesson/${lessonId}`);
  const video = page.getByTestId('lesson-video');
  await expect(video).toBeVisible();
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => playerTime(page), { timeout: 20_000 }).toBeGreaterThan(6.5);

  // An encrypted HLS stream from the host: the master playlist, a rendition's playlist, its segments and
  // its AES key, each allowed by the session's token; never a video file of the whole lesson.
  const files = served.map((s) => s.file);
  expect(files).toContain('playlist.m3u8');
  expect(files.some((f) => /^\d+p\/video\.m3u8$/.test(f))).toBe(true);
  expect(files.some((f) => /^\d+p\/video\d+\.ts$/.test(f))).toBe(true);
  expect(files.some((f) => /^\d+p\/video\.key$/.test(f))).toBe(true);
  // The first segment is the lowest rendition's (the soonest picture on a slow link); Automática climbs after.
  expect(files.find((f) => f.endsWith('.ts'))).toMatch(/^240p\/video\d+\.ts$/);
  expect(served.every((s) => s.status === 200)).toBe(true);
  expect(served.some((s) => /\.mp4(\?|$)/.test(s.url) || /video\/mp4/.test(s.type))).toBe(false);
  expect(playbackCalls).toEqual(['start']);
  // The player's own download, full screen and picture-in-picture are off, on the <video> itself.
  const nativeVideo = await video.evaluate((el) => {
    const v = el.shadowRoot?.querySelector('video');
    return { controlsList: v?.getAttribute('controlslist'), pip: v?.disablePictureInPicture };
  });
  expect(nativeVideo).toEqual({ controlsList: 'nodownload noplaybackrate noremoteplayback nofullscreen', pip: true });

  // The name and masked CPF over the picture.
  const mark = page.getByTestId('video-frame').getByTestId('video-watermark');
  await expect(mark).toHaveText('Bruna Protegida · ***.982.247-**');
  const first = JSON.stringify(await mark.boundingBox());

  // 31 s later: the watermark moved, and the heartbeat renewed the URL. The picture went on from where it
  // was (no new master playlist, the time did not go back), and what it asks for next carries the new token.
  const before = await playerTime(page);
  const firstToken = served[0]!.token;
  await page.clock.fastForward(31_000);
  await expect.poll(async () => JSON.stringify(await mark.boundingBox())).not.toBe(first);
  await expect.poll(() => playbackCalls).toEqual(['start', 'heartbeat']);
  // "Qualidade": Automática and the renditions; 360p pins it, and the next segments come from 360p under the new token.
  const servedBefore = served.length;
  await page.getByRole('button', { name: /Velocidade de reprodução: 1x · Qualidade: Automática/ }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('Qualidade')).toBeVisible();
  await expect(menu.getByRole('menuitemradio')).toHaveText([
    '0,5x',
    '0,75x',
    'Normal',
    '1,25x',
    '1,5x',
    '1,75x',
    '2x',
    'Automática',
    '240p',
    '360p',
    '720p',
  ]);
  await menu.getByRole('menuitemradio', { name: '360p' }).click();
  await expect(page.getByRole('button', { name: /Qualidade: 360p/ })).toBeVisible();
  await expect
    .poll(() => served.slice(servedBefore).some((s) => /^360p\/video\d+\.ts$/.test(s.file) && s.token !== firstToken), {
      timeout: 20_000,
    })
    .toBe(true);
  expect(served.slice(servedBefore).every((s) => s.status === 200 && s.token !== firstToken)).toBe(true);
  expect(served.slice(servedBefore).filter((s) => s.file === 'playlist.m3u8')).toEqual([]);
  expect(await playerTime(page)).toBeGreaterThanOrEqual(before);

  // "Tela cheia" takes the player box, watermark included.
  await page.getByRole('button', { name: 'Tela cheia' }).click();
  await expect.poll(() => fullscreenTestId(page)).toBe('video-player');
  await expect(mark).toBeVisible();
  await expect(mark).toHaveText('Bruna Protegida · ***.982.247-**');
  await page.getByRole('button', { name: 'Sair da tela cheia' }).click();
  await expect.poll(() => fullscreenTestId(page)).toBeNull();

  // A pause saves the position, as for every lesson video.
  const pausedAt = Math.floor(await video.evaluate((v: HTMLVideoElement) => (v.pause(), v.currentTime)));
  await expect
    .poll(
      async () =>
        (
          await videoApi(`/rest/v1/progress?select=last_position_sec&user_id=eq.${student.id}&lesson_id=eq.${lessonId}`)
        )[0]?.last_position_sec,
    )
    .toBeGreaterThanOrEqual(Math.max(7, pausedAt - 1));
  await context.close();
});

test('a third screen of one account is refused with the limit; "Assistir aqui" there ends the oldest', async ({
  browser,
}) => {
  expect(lessonId).not.toBe('');
  const student = await newStudent('Carla Telas', courseId);
  const lessonUrl = `/course/${courseId}/lesson/${lessonId}`;
  const devices = [
    await deviceOf(browser, student.email),
    await deviceOf(browser, student.email),
    await deviceOf(browser, student.email),
  ];
  const [oldest, second, third] = devices as [(typeof devices)[0], (typeof devices)[0], (typeof devices)[0]];
  await oldest.page.clock.install();
  for (const d of [oldest, second]) {
    await d.page.goto(lessonUrl);
    await expect(d.page.getByTestId('lesson-video')).toBeVisible();
  }
  await third.page.goto(lessonUrl);
  const refusal = third.page.getByTestId('video-notice');
  await expect(refusal).toContainText('Você já está assistindo em 2 dispositivos.');
  await expect(third.page.getByTestId('lesson-video')).toHaveCount(0);

  await refusal.getByRole('button', { name: 'Assistir aqui' }).click();
  await expect(third.page.getByTestId('lesson-video')).toBeVisible();
  // The oldest screen learns it at its next heartbeat: the picture goes, and it may take the screen back.
  await oldest.page.clock.fastForward(31_000);
  const ended = oldest.page.getByTestId('video-notice');
  await expect(ended).toContainText('O vídeo parou neste dispositivo.');
  await expect(ended.getByRole('button', { name: 'Assistir aqui' })).toBeVisible();
  await expect(oldest.page.getByTestId('lesson-video')).toHaveCount(0);
  // The second one still plays.
  await expect(second.page.getByTestId('lesson-video')).toBeVisible();
  await expect(second.page.getByTestId('video-notice')).toHaveCount(0);
  for (const d of devices) await d.context.close();
});
