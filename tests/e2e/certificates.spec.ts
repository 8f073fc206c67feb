// Issue 14, certificates of completion: a student completes the last lesson in the player, the
// course page (and the home card) offer 'Baixar certificado', the download is a PDF whose text holds
// the student's name, the course and the code, and the public page /certificado/<code> confirms it
// signed out; a wrong code is not found. Staff turn certificates off and the button goes away.
// Each journey makes its own course and student with the service role.
import type { Browser } from '@playwright/test';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PASSWORD, expect, test } from './helpers';
import { SCHOOL_ID, api, freshSchoolAdmin, freshStudent, setProgress, signInAs } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';

test.describe.configure({ timeout: 90_000 });

const service = { key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' } };

async function insert(table: string, row: Record<string, unknown>): Promise<string> {
  const rows = await api(`/rest/v1/${table}`, { method: 'POST', ...service, body: JSON.stringify(row) });
  return rows[0].id as string;
}

/** A published course of the demo school: one module, two lessons of 1 h 30 and 30 min (2 hours). */
async function smallCourse(tag: string) {
  const title = `Certificação Ágil ${tag}`;
  const slug = `e2e-cert-${tag}`;
  const courseId = await insert('courses', { school_id: SCHOOL_ID, title, slug, status: 'PUBLISHED' });
  const moduleId = await insert('modules', { course_id: courseId, title: `Módulo ${tag}`, order_index: 0 });
  const first = await insert('lessons', { module_id: moduleId, course_id: courseId, title: `Primeira aula ${tag}`, order_index: 0, duration_sec: 5400 });
  const last = await insert('lessons', { module_id: moduleId, course_id: courseId, title: `Última aula ${tag}`, order_index: 1, duration_sec: 1800 });
  return { courseId, title, slug, first, last };
}

async function certificateCode(userId: string, courseId: string): Promise<string> {
  const rows = await api(`/rest/v1/certificates?select=code&user_id=eq.${userId}&course_id=eq.${courseId}`, { key: LOCAL_SERVICE_ROLE_KEY });
  return rows[0].code as string;
}

/** The text a PDF reader extracts from every page, whitespace collapsed. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await pdfjs.getDocument({ data: bytes, verbosity: 0 }).promise;
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    parts.push(...content.items.map((i) => ('str' in i ? i.str : '')));
  }
  return parts.join(' ').replace(/\s+/g, ' ');
}

/** The verification page in a fresh, signed-out browser context (phone width). */
async function openSignedOut(browser: Browser, path: string) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  const page = await context.newPage();
  await page.goto(path);
  return { context, page };
}

test('a student completes the last lesson, downloads the certificate and anyone verifies it signed out', async ({ page, browser }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const c = await smallCourse(tag);
  const name = `Júlia Conceição ${tag}`;
  const student = await freshStudent(name, { enrollIn: [c.courseId] });
  await setProgress(student.id, c.first, { completed_at: new Date().toISOString() });
  await signInAs(page, student.email);
  // Nothing about certificates is fetched (and pdf-lib is not downloaded) until the click.
  const certificateRequests: string[] = [];
  page.on('request', (r) => {
    if (/\/rpc\/(issue|verify)_certificate|\/rest\/v1\/certificates|\/assets\/certificate-pdf/.test(r.url())) certificateRequests.push(r.url());
  });

  // Before the last lesson: no certificate on the course page.
  await page.goto(`/course/${c.courseId}`);
  await expect(page.getByTestId('course-progress-card')).toContainText('1 de 2 aulas completas');
  await expect(page.getByRole('button', { name: 'Baixar certificado' })).toHaveCount(0);

  // The last lesson, completed in the player; back to the course (from the cache, no reload).
  await page.goto(`/course/${c.courseId}/lesson/${c.last}`);
  await page.getByRole('button', { name: 'Marcar como concluída' }).click();
  await expect(page.getByText('Aula marcada como concluída!')).toBeVisible();
  await page.getByRole('link', { name: 'Voltar para o curso' }).click();
  await expect(page.getByRole('heading', { name: 'Parabéns, você concluiu este curso!' })).toBeVisible();
  const button = page.getByTestId('certificate-card').getByRole('button', { name: 'Baixar certificado' });
  await expect(button).toBeVisible();
  expect(certificateRequests).toEqual([]);

  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe(`certificado-${c.slug}.pdf`);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const bytes = new Uint8Array(Buffer.concat(chunks));
  expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
  // On the click: the certificate recorded, then pdf-lib in its own chunk.
  expect(certificateRequests.some((u) => u.includes('/rpc/issue_certificate'))).toBe(true);
  expect(certificateRequests.some((u) => u.includes('/assets/certificate-pdf'))).toBe(true);

  const code = await certificateCode(student.id, c.courseId);
  expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){5}$/);
  const text = await pdfText(bytes);
  expect(text).toContain(name);
  expect(text).toContain(c.title);
  expect(text).toContain(code);
  expect(text).toContain('Certificado de Conclusão');
  expect(text).toContain('Carga horária: 2 horas');
  expect(text).toContain(`/certificado/${code}`);

  // A second download is the same certificate (recorded once).
  const [again] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(again.suggestedFilename()).toBe(`certificado-${c.slug}.pdf`);
  expect(await certificateCode(student.id, c.courseId)).toBe(code);

  // The home card offers it too.
  await page.goto('/');
  const card = page.getByTestId('course-card').filter({ has: page.getByRole('heading', { name: c.title }) });
  await expect(card.getByText('Concluído')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Baixar certificado' })).toBeVisible();

  // Signed out, on a phone: the public page confirms it.
  const { context, page: visitor } = await openSignedOut(browser, `/certificado/${code}`);
  const valid = visitor.getByTestId('certificate-valid');
  await expect(visitor.getByRole('heading', { name: 'Certificado válido' })).toBeVisible();
  await expect(valid).toContainText(name);
  await expect(valid).toContainText(c.title);
  await expect(valid).toContainText('Escola Demo');
  await expect(valid).toContainText('2 horas');
  await expect(valid).toContainText(code);
  await expect(visitor).toHaveTitle(`Certificado válido · ${c.title} · Escola Demo`);
  // Not the member area: no sign-in redirect, no header.
  await expect(visitor).toHaveURL(new RegExp(`/certificado/${code}$`));
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // A wrong code is not found.
  await visitor.goto(`/certificado/${code.slice(0, -1)}${code.endsWith('0') ? '1' : '0'}`);
  await expect(visitor.getByRole('heading', { name: 'Certificado não encontrado' })).toBeVisible();
  await expect(visitor).toHaveTitle('Certificado não encontrado');
  await visitor.goto('/certificado/nao-existe');
  await expect(visitor.getByRole('heading', { name: 'Certificado não encontrado' })).toBeVisible();
  await context.close();
});

test('staff turn certificates off in the course form and the button disappears', async ({ page, browser }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const c = await smallCourse(tag);
  const student = await freshStudent(`Rafael Concluinte ${tag}`, { enrollIn: [c.courseId] });
  for (const lesson of [c.first, c.last]) await setProgress(student.id, lesson, { completed_at: new Date().toISOString() });
  await signInAs(page, student.email);
  await page.goto(`/course/${c.courseId}`);
  await expect(page.getByRole('button', { name: 'Baixar certificado' })).toBeVisible();

  const admin = await freshSchoolAdmin();
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signInAs(staff, admin.email);
  await staff.goto(`/admin/courses/${c.courseId}/edit`);
  const form = staff.getByRole('form', { name: 'Editar Curso' });
  const toggle = form.getByRole('switch', { name: 'Emitir certificado de conclusão' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await form.getByRole('button', { name: 'Salvar Alterações' }).click();
  await expect(staff.getByText('Curso atualizado!', { exact: true })).toBeVisible();
  await staffContext.close();

  await page.reload();
  await expect(page.getByTestId('course-progress-card')).toContainText('2 de 2 aulas completas');
  await expect(page.getByRole('button', { name: 'Baixar certificado' })).toHaveCount(0);
  await page.goto('/');
  const card = page.getByTestId('course-card').filter({ has: page.getByRole('heading', { name: c.title }) });
  await expect(card.getByText('Concluído')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Baixar certificado' })).toHaveCount(0);
});

test('Reports list the school’s issued certificates with the verification link', async ({ page }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const c = await smallCourse(tag);
  const name = `Beatriz Relatório ${tag}`;
  const student = await freshStudent(name, { enrollIn: [c.courseId] });
  for (const lesson of [c.first, c.last]) await setProgress(student.id, lesson, { completed_at: '2026-11-23T15:00:00Z' });
  // The student asks for the certificate (the same call the button makes).
  const session = await api('/auth/v1/token?grant_type=password', { method: 'POST', body: JSON.stringify({ email: student.email, password: PASSWORD }) });
  await api('/rest/v1/rpc/issue_certificate', { method: 'POST', token: session.access_token, body: JSON.stringify({ p_course_id: c.courseId }) });
  const code = await certificateCode(student.id, c.courseId);

  const admin = await freshSchoolAdmin();
  await signInAs(page, admin.email);
  await page.goto('/admin/reports');
  await page.getByLabel('Curso', { exact: true }).selectOption({ label: c.title });
  await page.getByRole('tab', { name: 'Certificados emitidos' }).click();
  const table = page.getByRole('table', { name: 'Certificados emitidos' });
  const row = table.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(c.title);
  await expect(row).toContainText('23/11/2026');
  await expect(row).toContainText('2 horas');
  await expect(row.getByRole('link', { name: `Verificar certificado ${code} (abre em nova aba)` })).toHaveAttribute('href', new RegExp(`/certificado/${code}$`));
});
