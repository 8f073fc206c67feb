// Issue 20: no admin list stops silently. A new school with 2,000 courses, 5,000 materials and 300
// announcements: its admin sees each list's total, reaches the last page through the URL
// (?pagina=N), moves with Anterior, and a reload or a shared link keeps the place.
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { expect, PASSWORD, test } from './helpers';
import { api, signInAs } from './learning-helpers';

const COURSES = 2000;
const MATERIALS = 5000;
const ANNOUNCEMENTS = 300;
const service = { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY } as const;

/** Item 1 is the newest, so the last page holds the highest numbers. */
const minutesAgo = (i: number) => new Date(Date.UTC(2026, 9, 1) - i * 60_000).toISOString();

let email: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const [school] = await api('/rest/v1/schools', { ...service, headers: { Prefer: 'return=representation' }, body: JSON.stringify({ slug: `escala-${tag}`, name: `Escola Escala ${tag}` }) });
  email = `e2e.escala.${tag}@exemplo.com.br`;
  const user = await api('/auth/v1/admin/users', { ...service, body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Admin Escala', school_id: school.id } }) });
  await api('/rest/v1/user_roles', { ...service, body: JSON.stringify({ user_id: user.id ?? user.user.id, school_id: school.id, role: 'SCHOOL_ADMIN' }) });

  const courses: { id: string }[] = await api('/rest/v1/courses?select=id', {
    ...service,
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify(Array.from({ length: COURSES }, (_, i) => ({ school_id: school.id, title: `Curso em escala ${i + 1}`, slug: `curso-escala-${i + 1}`, created_at: minutesAgo(i) }))),
  });
  await api('/rest/v1/materials', {
    ...service,
    body: JSON.stringify(Array.from({ length: MATERIALS }, (_, i) => ({ course_id: courses[i % COURSES]!.id, title: `Material ${i + 1}`, type: 'LINK', url: `https://exemplo.com/m/${i + 1}`, created_at: minutesAgo(i) }))),
  });
  await api('/rest/v1/announcements', {
    ...service,
    body: JSON.stringify(Array.from({ length: ANNOUNCEMENTS }, (_, i) => ({ school_id: school.id, title: `Anúncio ${i + 1}`, body: '<p>Aviso</p>', is_active: false, created_at: minutesAgo(i) }))),
  });
});

test('courses: 2,000 over 84 pages, the last one by the URL, the place kept on reload', async ({ page }) => {
  await signInAs(page, email);
  await page.goto('/admin/courses');
  await expect(page.getByText('2.000 cursos')).toBeVisible();
  await expect(page.getByText('Página 1 de 84')).toBeVisible();
  await expect(page.getByText('Curso em escala 1', { exact: true })).toBeVisible();

  await page.goto('/admin/courses?pagina=84');
  await expect(page.getByText('Página 84 de 84')).toBeVisible();
  await expect(page.getByText('Curso em escala 2000', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Próxima' })).toBeDisabled();

  await page.getByRole('button', { name: 'Anterior' }).click();
  await expect(page).toHaveURL(/[?&]pagina=83\b/);
  await expect(page.getByText('Curso em escala 1992', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByText('Página 83 de 84')).toBeVisible();
  await expect(page.getByText('Curso em escala 1992', { exact: true })).toBeVisible();
});

test('materials: 5,000 over 209 pages, the last one by the URL', async ({ page }) => {
  await signInAs(page, email);
  await page.goto('/admin/materials?pagina=209');
  await expect(page.getByText('5.000 materiais')).toBeVisible();
  await expect(page.getByText('Página 209 de 209')).toBeVisible();
  await expect(page.getByText('Material 5000', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Anterior' }).click();
  await expect(page).toHaveURL(/[?&]pagina=208\b/);
  await expect(page.getByText('Material 4976', { exact: true })).toBeVisible();
});

test('announcements: 300 over 15 pages, the last one by the URL', async ({ page }) => {
  await signInAs(page, email);
  await page.goto('/admin/announcements?pagina=15');
  await expect(page.getByText('300 anúncios')).toBeVisible();
  await expect(page.getByText('Página 15 de 15')).toBeVisible();
  await expect(page.getByText('Anúncio 300', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Anterior' }).click();
  await expect(page).toHaveURL(/[?&]pagina=14\b/);
  await expect(page.getByText('Anúncio 280', { exact: true })).toBeVisible();
});
