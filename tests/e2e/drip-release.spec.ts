// Issue 14, drip release: a module released 7 days after enrollment is locked, with its date, for a
// student enrolled today (course page, side panel, direct lesson URL) and open for one enrolled 8 days
// ago; staff see it open. And an admin sets the release in the module dialog. Each journey makes its
// own course and students with the service role (enrollment dates set on insert).
import { expect, test } from './helpers';
import { SCHOOL_ID, api, freshSchoolAdmin, freshStudent, signInAs } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';

test.describe.configure({ timeout: 60_000 });

const DAY = 24 * 60 * 60 * 1000;
const service = { key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' } };

/** dd/mm/aaaa in São Paulo, computed here independently of the app. */
const brDate = (at: Date) =>
  new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(at);

async function insert(table: string, row: Record<string, unknown>): Promise<string> {
  const rows = await api(`/rest/v1/${table}`, { method: 'POST', ...service, body: JSON.stringify(row) });
  return rows[0].id as string;
}

/** A published course: 'Boas-vindas' (immediate) and 'Semana 2' (7 days after enrollment) with a
 * paid lesson and a preview lesson. */
async function drippedCourse(tag: string) {
  const courseId = await insert('courses', {
    school_id: SCHOOL_ID,
    title: `Curso Gotejado ${tag}`,
    slug: `e2e-drip-${tag}`,
    status: 'PUBLISHED',
  });
  const intro = await insert('modules', { course_id: courseId, title: `Boas-vindas ${tag}`, order_index: 0 });
  const week2 = await insert('modules', {
    course_id: courseId,
    title: `Semana 2 ${tag}`,
    order_index: 1,
    release_mode: 'AFTER_ENROLLMENT',
    release_after_days: 7,
  });
  const first = await insert('lessons', {
    module_id: intro,
    course_id: courseId,
    title: `Primeira aula ${tag}`,
    order_index: 0,
  });
  const locked = await insert('lessons', {
    module_id: week2,
    course_id: courseId,
    title: `Aula da semana 2 ${tag}`,
    order_index: 0,
    duration_sec: 300,
  });
  const preview = await insert('lessons', {
    module_id: week2,
    course_id: courseId,
    title: `Aula grátis ${tag}`,
    order_index: 1,
    is_preview: true,
  });
  await api(`/rest/v1/lesson_contents?lesson_id=eq.${locked}`, {
    method: 'PATCH',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({ content: `Texto secreto da semana 2 ${tag}` }),
  });
  return { courseId, intro, week2, first, locked, preview };
}

async function enrollmentCreatedAt(userId: string, courseId: string): Promise<Date> {
  const rows = await api(`/rest/v1/enrollments?select=created_at&user_id=eq.${userId}&course_id=eq.${courseId}`, {
    key: LOCAL_SERVICE_ROLE_KEY,
  });
  return new Date(rows[0].created_at as string);
}

test('a module released 7 days after enrollment is locked, with its date, for a student enrolled today', async ({
  page,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const c = await drippedCourse(tag);
  const student = await freshStudent('Ana Recém-Matriculada', { enrollIn: [c.courseId] });
  const expected = `Disponível em ${brDate(new Date((await enrollmentCreatedAt(student.id, c.courseId)).getTime() + 7 * DAY))}`;
  await signInAs(page, student.email);
  const courseReads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/rest/v1/courses')) courseReads.push(r.url());
  });

  // Course page: the module card shows the lock and the date; it opens only the preview lesson.
  await page.goto(`/course/${c.courseId}`);
  const cards = page.getByTestId('module-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).not.toContainText('Disponível em');
  await expect(cards.nth(1).getByTestId('module-release')).toHaveText(expected);
  await expect(cards.nth(1)).toHaveAttribute('href', `/course/${c.courseId}/lesson/${c.preview}`);
  // Progress counts every lesson of the course, released or not.
  await expect(page.getByTestId('course-progress-card')).toContainText('0 de 3 aulas completas');
  // 'Começar curso' starts at an open lesson.
  await expect(page.getByRole('link', { name: 'Começar curso' })).toHaveAttribute(
    'href',
    `/course/${c.courseId}/lesson/${c.first}`,
  );

  // Side panel: the module says when it opens; its paid lesson is locked, its preview open.
  await cards.nth(0).click();
  await expect(page.getByRole('heading', { level: 1, name: `Primeira aula ${tag}` })).toBeVisible();
  const panel = page.getByTestId('lesson-sidebar');
  const week2 = panel.getByRole('button', { name: new RegExp(`Semana 2 ${tag}`) });
  await expect(week2.getByTestId('module-release')).toHaveText(expected);
  await week2.click();
  const lockedRow = panel.getByRole('listitem').filter({ hasText: `Aula da semana 2 ${tag}` });
  await expect(lockedRow.getByRole('img', { name: 'Aula ainda não liberada' })).toBeVisible();
  await expect(lockedRow.getByRole('checkbox')).toHaveCount(0);
  await expect(panel.getByRole('checkbox', { name: `Marcar "Aula grátis ${tag}" como concluída` })).toBeVisible();

  // The locked lesson from the side panel, then by its URL: no player, no content, the date.
  await lockedRow.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Conteúdo ainda não liberado' })).toBeVisible();
  await expect(page.getByTestId('release-pending')).toContainText(expected);
  expect(courseReads).toHaveLength(1);
  // Opened by its URL: the page's usual requests (course, lesson), no video signing.
  const pageReads: string[] = [];
  page.on('request', (r) => {
    if (/\/rest\/v1\/(courses|lessons)|\/storage\/v1\//.test(r.url())) pageReads.push(new URL(r.url()).pathname);
  });
  await page.goto(`/course/${c.courseId}/lesson/${c.locked}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Conteúdo ainda não liberado' })).toBeVisible();
  await expect(page.getByText(expected)).toBeVisible();
  expect(pageReads.sort()).toEqual(['/rest/v1/courses', '/rest/v1/lessons']);
  await expect(page.getByText(`Texto secreto da semana 2 ${tag}`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Marcar como concluída' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Voltar ao Curso' }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${c.courseId}$`));

  // The preview lesson of the locked module plays.
  await page.goto(`/course/${c.courseId}/lesson/${c.preview}`);
  await expect(page.getByRole('heading', { level: 1, name: `Aula grátis ${tag}` })).toBeVisible();
});

test('the same module is open for a student enrolled 8 days ago, and for staff', async ({ page, browser }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const c = await drippedCourse(tag);
  const student = await freshStudent('Bruno Veterano', { enrollIn: [] });
  await api('/rest/v1/enrollments', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({
      user_id: student.id,
      course_id: c.courseId,
      status: 'ACTIVE',
      created_at: new Date(Date.now() - 8 * DAY).toISOString(),
    }),
  });
  await signInAs(page, student.email);
  await page.goto(`/course/${c.courseId}`);
  const cards = page.getByTestId('module-card');
  await expect(cards).toHaveCount(2);
  await expect(page.getByText('Disponível em')).toHaveCount(0);
  await expect(cards.nth(1)).toHaveAttribute('href', `/course/${c.courseId}/lesson/${c.locked}`);
  await cards.nth(1).click();
  await expect(page.getByRole('heading', { level: 1, name: `Aula da semana 2 ${tag}` })).toBeVisible();
  await expect(page.getByText(`Texto secreto da semana 2 ${tag}`)).toBeVisible();
  await expect(page.getByTestId('lesson-sidebar').getByText('Disponível em')).toHaveCount(0);
  await page.getByRole('button', { name: 'Marcar como concluída' }).click();
  await expect(page.getByText('Aula marcada como concluída!')).toBeVisible();

  const admin = await freshSchoolAdmin('Admin Gotejamento');
  const staffPage = await browser.newPage();
  try {
    await signInAs(staffPage, admin.email);
    await staffPage.goto(`/course/${c.courseId}`);
    await expect(staffPage.getByTestId('module-card')).toHaveCount(2);
    await expect(staffPage.getByText('Disponível em')).toHaveCount(0);
    await staffPage.goto(`/course/${c.courseId}/lesson/${c.locked}`);
    await expect(staffPage.getByText(`Texto secreto da semana 2 ${tag}`)).toBeVisible();
  } finally {
    await staffPage.close();
  }
});

test('an admin sets the release in the module dialog, with pt-BR messages for bad input', async ({ page }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const courseId = await insert('courses', {
    school_id: SCHOOL_ID,
    title: `Curso Liberação ${tag}`,
    slug: `e2e-drip-admin-${tag}`,
    status: 'DRAFT',
  });
  const moduleId = await insert('modules', { course_id: courseId, title: `Módulo ${tag}`, order_index: 0 });
  const admin = await freshSchoolAdmin('Admin Liberação');
  await signInAs(page, admin.email);
  await page.goto(`/admin/courses/${courseId}/content`);
  const moduleRow = page.getByTestId('content-module').filter({ hasText: `Módulo ${tag}` });
  await expect(moduleRow).toBeVisible();
  await expect(moduleRow.getByTestId('module-release-rule')).toHaveCount(0);

  const openEdit = async () => {
    await page.getByRole('button', { name: `Ações do módulo Módulo ${tag}` }).click();
    await page.getByRole('menuitem', { name: 'Editar' }).click();
    return page.getByRole('dialog', { name: 'Editar Módulo' });
  };

  // N days after enrollment.
  let dialog = await openEdit();
  const release = dialog.getByRole('radiogroup', { name: 'Liberação' });
  await expect(release.getByRole('radio', { name: 'Imediata' })).toBeChecked();
  await release.getByRole('radio', { name: 'Dias após a matrícula' }).click();
  const days = dialog.getByRole('spinbutton', { name: 'Dias após a matrícula' });
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText('Informe em quantos dias após a matrícula o módulo é liberado')).toBeVisible();
  await days.fill('0');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText('Informe um número inteiro de dias, a partir de 1')).toBeVisible();
  await days.fill('7');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Módulo atualizado!').first()).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(moduleRow.getByTestId('module-release-rule')).toHaveText('Libera 7 dias após a matrícula');

  // From a date (the dialog reopens with the saved rule).
  dialog = await openEdit();
  await expect(dialog.getByRole('radio', { name: 'Dias após a matrícula' })).toBeChecked();
  await expect(dialog.getByRole('spinbutton', { name: 'Dias após a matrícula' })).toHaveValue('7');
  await dialog.getByRole('radio', { name: 'Em uma data' }).click();
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText('Informe a data de liberação')).toBeVisible();
  await dialog.getByLabel('Data de liberação').fill('2030-01-15');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toBeHidden();
  await expect(moduleRow.getByTestId('module-release-rule')).toHaveText('Libera em 15/01/2030');
  const [row] = await api(`/rest/v1/modules?select=release_mode,release_after_days,release_on&id=eq.${moduleId}`, {
    key: LOCAL_SERVICE_ROLE_KEY,
  });
  expect(row).toEqual({ release_mode: 'ON_DATE', release_after_days: null, release_on: '2030-01-15' });

  // Back to immediate: the badge goes away.
  dialog = await openEdit();
  await dialog.getByRole('radio', { name: 'Imediata' }).click();
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toBeHidden();
  await expect(moduleRow.getByTestId('module-release-rule')).toHaveCount(0);
});
