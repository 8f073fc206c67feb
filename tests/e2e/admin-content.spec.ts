// Issue 9: the course content editor. Modules and lessons (text + Preview, YouTube, uploaded MP4 with
// progress), drag-and-drop reordering (keyboard), materials (PDF and link), then a student enrolled
// through the service role sees the order and the materials. And a resumable upload that survives
// the network going away mid-way, or the tab reloading, stored byte for byte.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, signInAndWaitHome, test } from './helpers';
import { API_URL, SCHOOL_ID, api, freshStudent, signInAs } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';

const SEED_MP4 = readFileSync(path.resolve(import.meta.dirname, '../../supabase/seed-files/lesson-videos/5c000000-0000-4000-8000-000000000001/c0000000-0000-4000-8000-000000000001/e0000000-0000-4000-8000-000000000003/formulas-basicas.mp4'));

/** A playable-looking MP4 of about `mb` MB: a real file's bytes, padded. */
function mp4OfSize(mb: number): Buffer {
  const buf = Buffer.alloc(mb * 1024 * 1024);
  SEED_MP4.copy(buf);
  for (let i = SEED_MP4.length; i < buf.length; i += 4096) buf[i] = i % 251; // not all zeros
  return buf;
}

async function newCourse(title: string): Promise<string> {
  const rows = await api('/rest/v1/courses', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify({ school_id: SCHOOL_ID, title, slug: `e2e-conteudo-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`, status: 'DRAFT' }),
  });
  return rows[0].id as string;
}

async function addModule(page: Page, title: string, first = false) {
  await page.getByRole('button', { name: first ? 'Criar primeiro módulo' : 'Adicionar Módulo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo Módulo' });
  await dialog.getByLabel('Título').fill(title);
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Módulo criado!').first()).toBeVisible();
  await expect(dialog).toBeHidden();
}

async function openNewLesson(page: Page, moduleTitle: string) {
  await page.getByRole('button', { name: `Adicionar Aula em ${moduleTitle}` }).click();
  return page.getByRole('dialog', { name: 'Nova Aula' });
}

function lessonTitles(page: Page) {
  return page.getByTestId('content-lesson').locator('p.truncate').allTextContents();
}

/** Holds every resumable-upload request for `ms` before it goes out, so a person (or a test) sees
 * the upload in progress on a fast local network. */
async function slowUploads(page: Page, ms: number) {
  await page.route(/\/storage\/v1\/upload\/resumable/, async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.continue().catch(() => route.abort('internetdisconnected').catch(() => undefined));
  });
}

async function storedObject(objectPath: string): Promise<Buffer> {
  const res = await fetch(`${API_URL}/storage/v1/object/lesson-videos/${objectPath}`, { headers: { apikey: LOCAL_SERVICE_ROLE_KEY, Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function lessonVideoPath(title: string): Promise<string> {
  const rows = await api(`/rest/v1/lessons?select=video_type,lesson_contents(video_url)&title=eq.${encodeURIComponent(title)}`, { key: LOCAL_SERVICE_ROLE_KEY });
  expect(rows[0].video_type).toBe('upload');
  const contents = Array.isArray(rows[0].lesson_contents) ? rows[0].lesson_contents[0] : rows[0].lesson_contents;
  return contents.video_url as string;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test.describe('admin course content', () => {
  test.describe.configure({ timeout: 120_000 });

  test('builds modules and lessons, reorders by drag and drop, attaches materials; the student sees it', async ({ page, browser }) => {
    const tag = Math.random().toString(36).slice(2, 7);
    const courseTitle = `Curso Conteúdo ${tag}`;
    const courseId = await newCourse(courseTitle);
    await signInAndWaitHome(page, 'admin@escola-demo.com.br');
    await page.goto(`/admin/courses/${courseId}/content`);
    await expect(page.getByText('Nenhum módulo criado ainda')).toBeVisible();
    await addModule(page, `Introdução ${tag}`, true);
    await addModule(page, `Prática ${tag}`);

    // Text-only lesson marked Preview.
    let dialog = await openNewLesson(page, `Introdução ${tag}`);
    await dialog.getByLabel('Título').fill(`Leia antes ${tag}`);
    await dialog.getByLabel('Descrição (Markdown)').fill('# Bem-vindo\n\nTexto em **negrito**.\n\n<script>alert(1)</script>');
    await expect(dialog.locator('h1', { hasText: 'Bem-vindo' })).toBeVisible();
    await expect(dialog.locator('strong', { hasText: 'negrito' })).toBeVisible();
    await expect(dialog.locator('script')).toHaveCount(0);
    await dialog.getByRole('switch', { name: /Preview/ }).click();
    await dialog.getByRole('button', { name: 'Salvar Aula' }).click();
    await expect(page.getByText('Aula salva!').first()).toBeVisible();

    // YouTube lesson: a wrong URL is refused first.
    dialog = await openNewLesson(page, `Introdução ${tag}`);
    await dialog.getByLabel('Título').fill(`Vídeo do YouTube ${tag}`);
    await dialog.getByRole('tab', { name: 'Vídeo' }).click();
    await dialog.getByRole('radio', { name: 'YouTube ou Vimeo' }).click();
    await dialog.getByLabel('URL do vídeo').fill('https://exemplo.com/video');
    await dialog.getByRole('button', { name: 'Salvar Aula' }).click();
    await expect(dialog.getByText('Informe uma URL válida do YouTube ou do Vimeo')).toBeVisible();
    await dialog.getByLabel('URL do vídeo').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await dialog.getByLabel('Duração (minutos)').fill('12');
    await dialog.getByRole('button', { name: 'Salvar Aula' }).click();
    await expect(dialog).toBeHidden();

    // Uploaded MP4 with the progress bar (upload throttled so it can be seen).
    await slowUploads(page, 1500);
    dialog = await openNewLesson(page, `Prática ${tag}`);
    await dialog.getByLabel('Título').fill(`Vídeo enviado ${tag}`);
    await dialog.getByRole('tab', { name: 'Vídeo' }).click();
    await dialog.getByRole('radio', { name: 'Enviar arquivo' }).click();
    await dialog.getByLabel('Arquivo de vídeo').setInputFiles({ name: 'Aula prática – vídeo.mp4', mimeType: 'video/mp4', buffer: mp4OfSize(8) });
    await dialog.getByRole('button', { name: 'Salvar Aula' }).click();
    await expect(dialog.getByRole('progressbar', { name: /Envio do vídeo/ })).toBeVisible();
    await expect(dialog.getByText(/de 8 MB/)).toBeVisible();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    await page.unrouteAll({ behavior: 'ignoreErrors' });

    expect(await lessonTitles(page)).toEqual([`Leia antes ${tag}`, `Vídeo do YouTube ${tag}`, `Vídeo enviado ${tag}`]);
    const lessonRow = page.getByTestId('content-lesson').filter({ hasText: `Leia antes ${tag}` });
    await expect(lessonRow.getByText('Preview')).toBeVisible();
    await expect(lessonRow.getByText('Publicado')).toBeVisible();

    // Keyboard drag and drop: the YouTube lesson moves above the text lesson; then the uploaded one
    // moves from "Prática" into "Introdução" (across modules).
    const handle = page.getByRole('button', { name: `Arrastar aula Vídeo do YouTube ${tag}` });
    await handle.focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(300);
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(300);
    await page.keyboard.press('Space');
    await expect.poll(() => lessonTitles(page)).toEqual([`Vídeo do YouTube ${tag}`, `Leia antes ${tag}`, `Vídeo enviado ${tag}`]);
    await page.waitForLoadState('networkidle');
    await page.reload();
    await expect.poll(() => lessonTitles(page)).toEqual([`Vídeo do YouTube ${tag}`, `Leia antes ${tag}`, `Vídeo enviado ${tag}`]);

    // Materials: a PDF and a link on the text lesson.
    await page.getByRole('button', { name: `Ações da aula Leia antes ${tag}` }).click();
    await page.getByRole('menuitem', { name: 'Editar' }).click();
    dialog = page.getByRole('dialog', { name: 'Editar Aula' });
    await dialog.getByRole('tab', { name: 'Materiais' }).click();
    await dialog.getByLabel('Arquivo do material').setInputFiles({ name: 'Apostila Módulo 1.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% apostila\n') });
    await expect(dialog.getByRole('list', { name: 'Materiais desta aula' }).getByText('Apostila Módulo 1.pdf')).toBeVisible();
    await dialog.getByRole('button', { name: 'Adicionar link' }).click();
    await expect(dialog.getByText('Preencha o título e URL do link')).toBeVisible();
    await dialog.getByLabel('Título do link').fill('Planilha modelo');
    await dialog.getByLabel('URL do link').fill('https://exemplo.com/planilha');
    await dialog.getByRole('button', { name: 'Adicionar link' }).click();
    await expect(dialog.getByRole('list', { name: 'Materiais desta aula' }).getByText('Planilha modelo')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();

    // Publish and enroll a student (service role), who sees the order and the materials.
    await api(`/rest/v1/courses?id=eq.${courseId}`, { method: 'PATCH', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify({ status: 'PUBLISHED' }) });
    const student = await freshStudent('Aluno Conteúdo', { enrollIn: [courseId] });
    const studentPage = await browser.newPage();
    try {
      await signInAs(studentPage, student.email);
      await studentPage.goto(`/course/${courseId}`);
      const modules = studentPage.getByTestId('module-card');
      await expect(modules).toHaveCount(2);
      await expect(modules.nth(0)).toContainText(`Introdução ${tag}`);
      await expect(modules.nth(1)).toContainText(`Prática ${tag}`);
      await modules.nth(0).click();
      await expect(studentPage.getByRole('heading', { name: `Vídeo do YouTube ${tag}` })).toBeVisible();
      await studentPage.getByRole('link', { name: new RegExp(`Leia antes ${tag}`) }).first().click();
      await expect(studentPage.getByRole('heading', { name: 'Bem-vindo' })).toBeVisible();
      await studentPage.getByRole('tab', { name: 'Materiais' }).click();
      await expect(studentPage.getByText('Apostila Módulo 1.pdf')).toBeVisible();
      await expect(studentPage.getByText('Planilha modelo')).toBeVisible();
    } finally {
      await studentPage.close();
    }
  });

  test('a video upload cut off by the network resumes and the stored object is byte-identical', async ({ page, context }) => {
    const tag = Math.random().toString(36).slice(2, 7);
    const courseId = await newCourse(`Curso Upload ${tag}`);
    await signInAndWaitHome(page, 'admin@escola-demo.com.br');
    await page.goto(`/admin/courses/${courseId}/content`);
    await addModule(page, `Módulo ${tag}`, true);
    const file = mp4OfSize(20);
    await slowUploads(page, 1500);
    const dialog = await openNewLesson(page, `Módulo ${tag}`);
    await dialog.getByLabel('Título').fill(`Aula longa ${tag}`);
    await dialog.getByRole('tab', { name: 'Vídeo' }).click();
    await dialog.getByRole('radio', { name: 'Enviar arquivo' }).click();
    await dialog.getByLabel('Arquivo de vídeo').setInputFiles({ name: 'aula longa.mp4', mimeType: 'video/mp4', buffer: file });
    await dialog.getByRole('button', { name: 'Salvar Aula' }).click();
    const bar = dialog.getByRole('progressbar', { name: /Envio do vídeo/ });
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThanOrEqual(30);
    await context.setOffline(true);
    await expect(dialog.getByText('Conexão perdida, tentando de novo...')).toBeVisible({ timeout: 15_000 });
    const before = Number(await bar.getAttribute('aria-valuenow'));
    expect(before).toBeLessThan(100);
    await page.waitForTimeout(1500);
    await context.setOffline(false);
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    await expect(page.getByText('Aula salva!').first()).toBeVisible();
    const stored = await storedObject(await lessonVideoPath(`Aula longa ${tag}`));
    expect(stored.length).toBe(file.length);
    expect(sha(stored)).toBe(sha(file));
  });

  test('a video upload interrupted by a tab reload resumes from the server offset when the same file is picked again', async ({ page }) => {
    const tag = Math.random().toString(36).slice(2, 7);
    const courseId = await newCourse(`Curso Recarga ${tag}`);
    // A file on disk: the browser sees the same name, size and modification time after the reload,
    // as a person picking the same file again would.
    const file = mp4OfSize(20);
    const filePath = path.join(mkdtempSync(path.join(os.tmpdir(), 'e2e-upload-')), 'aula recarregada.mp4');
    writeFileSync(filePath, file);
    await signInAndWaitHome(page, 'admin@escola-demo.com.br');
    await page.goto(`/admin/courses/${courseId}/content`);
    await addModule(page, `Módulo ${tag}`, true);
    await slowUploads(page, 1500);
    let dialog = await openNewLesson(page, `Módulo ${tag}`);
    await dialog.getByLabel('Título').fill(`Aula recarregada ${tag}`);
    await dialog.getByRole('tab', { name: 'Vídeo' }).click();
    await dialog.getByRole('radio', { name: 'Enviar arquivo' }).click();
    await dialog.getByLabel('Arquivo de vídeo').setInputFiles(filePath);
    await dialog.getByRole('button', { name: 'Salvar Aula' }).click();
    const bar = dialog.getByRole('progressbar', { name: /Envio do vídeo/ });
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThanOrEqual(25);
    // The server has answered the creation request (the first 6 MB chunk rides on it) once the client
    // remembers the upload's URL; a reload before that has nothing to resume.
    await expect
      .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tus::')).length), { timeout: 30_000 })
      .toBeGreaterThan(0);

    // The tab reloads mid-upload. From here on, watch what the upload client asks the server.
    const afterReload: { method: string; offset: number | null }[] = [];
    page.on('request', (req) => {
      if (!/\/storage\/v1\/upload\/resumable/.test(req.url()) || req.method() === 'OPTIONS') return;
      const offset = req.headers()['upload-offset'];
      afterReload.push({ method: req.method(), offset: offset === undefined ? null : Number(offset) });
    });
    await page.reload();
    await page.getByRole('button', { name: `Ações da aula Aula recarregada ${tag}` }).click();
    await page.getByRole('menuitem', { name: 'Editar' }).click();
    dialog = page.getByRole('dialog', { name: 'Editar Aula' });
    await dialog.getByRole('tab', { name: 'Vídeo' }).click();
    await dialog.getByRole('radio', { name: 'Enviar arquivo' }).click();
    await dialog.getByLabel('Arquivo de vídeo').setInputFiles(filePath);
    await dialog.getByRole('button', { name: 'Salvar Aula' }).click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    await expect(page.getByText('Aula salva!').first()).toBeVisible();

    // Resumed, not restarted: no new upload was created, and the first chunk sent starts past zero.
    expect(afterReload.filter((r) => r.method === 'POST')).toEqual([]);
    const patches = afterReload.filter((r) => r.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(0);
    expect(patches[0].offset).toBeGreaterThan(0);
    const stored = await storedObject(await lessonVideoPath(`Aula recarregada ${tag}`));
    expect(stored.length).toBe(file.length);
    expect(sha(stored)).toBe(sha(file));
  });
});
