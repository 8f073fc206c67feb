// Issue 39, "the student's name on every frame and every page", as the student sees it in Chromium:
// the watermark over the uploaded-video lesson with the name and masked CPF, moving, taking no clicks,
// and still there in full screen (the player's own full screen cannot leave it behind); the PDF
// material saved with the licence line on every page; staff previewing see their own name; the
// school's switch in Configurações turns it off. Serial: the last test flips the demo school's switch.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect, test } from './helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { api, COURSE, LESSON, SCHOOL_ID, signInAs } from './learning-helpers';

test.describe.configure({ mode: 'serial' });

const LESSON_URL = `/course/${COURSE.excel}/lesson/${LESSON.formulas}`;

const fullscreenTestId = (page: Page) => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid') ?? document.fullscreenElement?.tagName ?? null);

test('the student sees their name and masked CPF over the video; it moves, takes no clicks and stays in full screen', async ({ page }) => {
  await page.clock.install();
  await signInAs(page, 'aluno@escola-demo.com.br');
  await page.goto(LESSON_URL);
  const video = page.getByTestId('lesson-video');
  await expect(video).toBeVisible();
  const mark = page.getByTestId('video-frame').getByTestId('video-watermark');
  await expect(mark).toHaveText('Lucas Aluno · ***.456.789-**');
  await expect(mark).toHaveAttribute('aria-hidden', 'true');
  await expect(page.getByRole('button', { name: 'Tela cheia' })).toBeVisible();

  // A click on the watermark reaches the video under it.
  const first = (await mark.boundingBox())!;
  const under = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.getAttribute('data-testid'), { x: first.x + first.width / 2, y: first.y + first.height / 2 });
  expect(under).toBe('lesson-video');

  // Within 30 s it is somewhere else.
  await page.clock.fastForward(31_000);
  await expect.poll(async () => JSON.stringify(await mark.boundingBox())).not.toBe(JSON.stringify(first));

  // The video has no full-screen button of its own, and a double-click does not take it full screen alone.
  await expect(video).toHaveAttribute('controlslist', /nofullscreen/);
  await video.dblclick();
  expect(await fullscreenTestId(page)).not.toBe('VIDEO');

  // Full screen is the whole player: video, watermark and controls.
  await page.getByRole('button', { name: 'Tela cheia' }).click();
  await expect.poll(() => fullscreenTestId(page)).toBe('video-player');
  await expect(mark).toBeVisible();
  const viewport = page.viewportSize()!;
  const inFull = (await mark.boundingBox())!;
  expect(inFull.x).toBeGreaterThanOrEqual(0);
  expect(inFull.y).toBeGreaterThanOrEqual(0);
  expect(inFull.x + inFull.width).toBeLessThanOrEqual(viewport.width);
  expect(inFull.y + inFull.height).toBeLessThanOrEqual(viewport.height);
  // It keeps moving there too.
  await page.clock.fastForward(31_000);
  await expect.poll(async () => JSON.stringify(await mark.boundingBox())).not.toBe(JSON.stringify(inFull));
  await page.getByRole('button', { name: 'Sair da tela cheia' }).click();
  await expect.poll(() => fullscreenTestId(page)).toBeNull();

  // Should the video alone go full screen anyway (a script, another browser's control), it is taken out.
  await page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="lesson-video"]')!.requestFullscreen().catch(() => undefined));
  await expect.poll(() => fullscreenTestId(page)).not.toBe('VIDEO');
});

test('the PDF material is saved with "Licenciado para <nome> · <e-mail> · <data>" on every page', async ({ page }) => {
  await signInAs(page, 'aluno@escola-demo.com.br');
  await page.goto(LESSON_URL);
  await page.getByRole('tab', { name: /Materiais/ }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Apostila de fórmulas/ }).click()]);
  expect(download.suggestedFilename()).toBe('apostila-formulas.pdf');
  const bytes = new Uint8Array(await readFile((await download.path())!));
  const doc = await pdfjs.getDocument({ data: bytes, verbosity: 0 }).promise;
  const today = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  for (let n = 1; n <= doc.numPages; n++) {
    const text = (await (await doc.getPage(n)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text, `page ${n}`).toContain(`Licenciado para Lucas Aluno · aluno@escola-demo.com.br · ${today}`);
  }
});

test('staff previewing the lesson see their own name', async ({ page }) => {
  await signInAs(page, 'instrutor@escola-demo.com.br');
  await page.goto(LESSON_URL);
  await expect(page.getByTestId('video-watermark')).toContainText('Igor Instrutor');
});

test('the school turns it off in Configurações (saved at once), and the student no longer sees it', async ({ page, browser }) => {
  await signInAs(page, 'admin@escola-demo.com.br');
  await page.goto('/admin/settings');
  const card = page.getByRole('region', { name: 'Vídeos das aulas' });
  const toggle = card.getByRole('switch', { name: "Marca d'água com o nome do aluno nos vídeos" });
  const kept = async () => ((await api(`/rest/v1/schools?select=video_watermark&id=eq.${SCHOOL_ID}`, { key: LOCAL_SERVICE_ROLE_KEY })) as { video_watermark: boolean }[])[0]!.video_watermark;
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(card.getByText('Salvo', { exact: true })).toBeVisible();
  await expect(toggle).not.toBeChecked();
  expect(await kept()).toBe(false);
  try {
    const student = await browser.newPage();
    await signInAs(student, 'aluno@escola-demo.com.br');
    await student.goto(LESSON_URL);
    await expect(student.getByTestId('lesson-video')).toBeVisible();
    await expect(student.getByTestId('video-watermark')).toHaveCount(0);
    await student.close();
  } finally {
    // Back on, as the seed has it, for every other journey.
    await toggle.click();
    await expect(toggle).toBeChecked();
    await expect.poll(kept).toBe(true);
  }
});
