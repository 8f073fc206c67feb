// A school with many courses: the home page shows the student's courses and the first page of the
// others at once, in two requests, and 'Ver mais cursos' brings the rest.
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { expect, PASSWORD, test } from './helpers';
import { api } from './learning-helpers';

test('a school with 27 courses: 24 shown, then the rest on demand', async ({ page }) => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const [school] = await api('/rest/v1/schools', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify({ slug: `muitos-cursos-${tag}`, name: `Escola Muitos Cursos ${tag}` }),
  });
  // Course 01 is the newest, so the first page holds 01-24.
  const courses = Array.from({ length: 27 }, (_, i) => ({
    school_id: school.id,
    title: `Curso ${String(i + 1).padStart(2, '0')}`,
    slug: `curso-${i + 1}-${tag}`,
    status: 'PUBLISHED',
    created_at: new Date(Date.UTC(2026, 0, 28 - i)).toISOString(),
  }));
  await api('/rest/v1/courses', { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify(courses) });
  const email = `e2e.muitos.${tag}@exemplo.com.br`;
  await api('/auth/v1/admin/users', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Aluna Muitos', school_id: school.id } }),
  });

  const catalogReads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/rest/v1/rpc/student_catalog')) catalogReads.push(r.postData() ?? '');
  });
  await page.goto(`/${school.slug}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  const section = page.getByRole('region', { name: 'Cursos Disponíveis' });
  await expect(section.getByRole('heading', { name: 'Curso 01' })).toBeVisible();
  await expect(section.getByRole('link', { name: /^Curso \d\d$/ })).toHaveCount(24);
  await expect(section.getByText('Curso 25')).toHaveCount(0);
  await expect(section.getByText('27', { exact: true })).toBeVisible(); // the section's count is of all of them
  expect(catalogReads).toHaveLength(1);

  await section.getByRole('button', { name: 'Ver mais cursos (3)' }).click();
  await expect(section.getByRole('link', { name: /^Curso \d\d$/ })).toHaveCount(27);
  await expect(section.getByRole('link', { name: 'Curso 27' })).toBeVisible();
  await expect(section.getByRole('button', { name: /Ver mais cursos/ })).toHaveCount(0);
  expect(catalogReads).toHaveLength(2);
});
