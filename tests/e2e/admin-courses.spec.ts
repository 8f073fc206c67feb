// Issue 9: the staff's course screens (list, form with uploaded thumbnail and focal point, publish
// toggle, edit, delete) and the dashboard, as a school admin and as an instructor, at 1280 and 360 px.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, signInAndWaitHome, test } from './helpers';

const THUMBNAIL = path.resolve(import.meta.dirname, '../../supabase/seed-files/course-thumbnails/5c000000-0000-4000-8000-000000000001/excel-essencial.jpg');

function uniqueTitle(prefix: string) {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

async function createCourse(page: Page, title: string, { price = '297,00', installments = '6' } = {}) {
  await page.goto('/admin/courses');
  await page.getByRole('link', { name: 'Novo Curso' }).first().click();
  await expect(page.getByRole('heading', { name: 'Novo Curso' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Novo Curso' });
  await form.getByLabel('Título').fill(title);
  await form.getByLabel('Preço (R$)').fill(price);
  await form.getByLabel('Máximo de parcelas').fill(installments);
  return form;
}

test.describe('admin courses', () => {
  test('creates a course with an uploaded thumbnail and focal point, publishes, edits and deletes', async ({ page }) => {
    await signInAndWaitHome(page, 'admin@escola-demo.com.br');
    const title = uniqueTitle('Curso E2E Admin');
    const form = await createCourse(page, title);
    // The slug follows the title; the installment preview is live (SPEC §9).
    await expect(form.getByLabel('Endereço na web')).toHaveValue(/^curso-e2e-admin-/);
    await expect(page.getByText('R$ 49,50 em 6 vezes').first()).toBeVisible();

    await form.getByLabel('Selecionar thumbnail').setInputFiles(THUMBNAIL);
    await expect(form.getByText('Arquivo enviado: excel-essencial.jpg')).toBeVisible();
    const picker = form.getByRole('slider', { name: /Posição \(thumbnail\)/ });
    await picker.scrollIntoViewIfNeeded();
    // The image preview above may still settle while we click: read where the click landed (within a
    // point of 25% 75%), then move one point right with the keyboard.
    await expect(form.getByText('Arquivo enviado: excel-essencial.jpg')).toBeVisible();
    const box = (await picker.boundingBox())!;
    await picker.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
    await expect(picker).not.toHaveAttribute('aria-valuetext', 'horizontal 50%, vertical 50%');
    const [x, y] = (await picker.getAttribute('aria-valuetext'))!.match(/\d+/g)!.map(Number);
    expect(Math.abs(x! - 25)).toBeLessThanOrEqual(1);
    expect(Math.abs(y! - 75)).toBeLessThanOrEqual(1);
    await expect(form.getByText(`${x}% ${y}%`)).toBeVisible();
    await picker.press('ArrowRight');
    await expect(form.getByText(`${x! + 1}% ${y}%`)).toBeVisible();
    const position = `${x! + 1}% ${y}%`;

    await form.getByRole('button', { name: 'Criar Curso' }).click();
    await expect(page.getByText('Curso criado!', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/courses$/);

    await page.getByRole('searchbox', { name: 'Buscar curso por título' }).fill(title);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Rascunho')).toBeVisible();
    await expect(card.locator('img')).toHaveAttribute('style', new RegExp(`object-position: ${position}`));
    await expect(card.getByText('R$ 297,00')).toBeVisible();

    // Publish with the list toggle (DRAFT → PUBLISHED), then back to draft.
    await card.getByRole('switch').click();
    await expect(page.getByText('Status do curso atualizado!').first()).toBeVisible();
    await expect(card.getByText('Publicado', { exact: true }).first()).toBeVisible();

    // Edit: the form comes back filled; change the title.
    await card.getByRole('link', { name: `Editar ${title}` }).click();
    const edit = page.getByRole('form', { name: 'Editar Curso' });
    await expect(edit.getByLabel('Título')).toHaveValue(title);
    await expect(edit.getByLabel('Preço (R$)')).toHaveValue('297,00');
    await expect(edit.getByLabel('Status')).toHaveValue('PUBLISHED');
    await edit.getByLabel('Título').fill(`${title} (editado)`);
    await edit.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText('Curso atualizado!', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/courses$/);

    // The published course shows up for a student of the school.
    await page.getByRole('searchbox', { name: 'Buscar curso por título' }).fill(`${title} (editado)`);
    const edited = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `${title} (editado)` }) });
    await edited.getByRole('button', { name: `Excluir ${title} (editado)` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Esta ação não pode ser desfeita');
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await expect(page.getByText('Curso excluído!')).toBeVisible();
    await expect(edited).toHaveCount(0);
  });

  test('a duplicate slug gets a clear message and nothing is lost', async ({ page }) => {
    await signInAndWaitHome(page, 'admin@escola-demo.com.br');
    const form = await createCourse(page, uniqueTitle('Curso Duplicado'));
    await form.getByLabel('Endereço na web').fill('excel-essencial');
    await form.getByRole('button', { name: 'Criar Curso' }).click();
    await expect(form.getByText('Já existe um curso com este endereço na web nesta escola. Escolha outro.')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/courses\/new$/);
    await expect(form.getByLabel('Preço (R$)')).toHaveValue('297,00');
  });

  test('validation messages of SPEC §5 show inline', async ({ page }) => {
    await signInAndWaitHome(page, 'admin@escola-demo.com.br');
    const form = await createCourse(page, '', { price: '', installments: '13' });
    await form.getByLabel('Link de compra').fill('pagina');
    await form.getByRole('button', { name: 'Criar Curso' }).click();
    await expect(form.getByText('Título é obrigatório')).toBeVisible();
    await expect(form.getByText('Preço é obrigatório')).toBeVisible();
    await expect(form.getByText('Máximo de 12 parcelas')).toBeVisible();
    await expect(form.getByText('Informe um link válido (https://...)')).toBeVisible();
  });

  test('an instructor uses the same screens; the dashboard shows the four counters', async ({ page }) => {
    await signInAndWaitHome(page, 'instrutor@escola-demo.com.br');
    await page.goto('/admin');
    const counters = page.getByRole('list', { name: 'Contadores' });
    for (const label of ['Total de Cursos', 'Total de Alunos', 'Materiais', 'Matrículas Ativas']) {
      await expect(counters.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByLabel('Total de Cursos')).toHaveText(/^\d+$/);
    const title = uniqueTitle('Curso do Instrutor');
    const form = await createCourse(page, title, { price: '0', installments: '1' });
    await form.getByRole('button', { name: 'Criar Curso' }).click();
    await expect(page.getByText('Curso criado!', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  });

  test('every course screen fits a 360 px phone', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await signInAndWaitHome(page, 'admin@escola-demo.com.br');
    for (const url of ['/admin', '/admin/courses', '/admin/courses/new', '/admin/member-area', '/admin/login-settings']) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(360);
    }
  });
});
