// Issue 26 "Done when", the staff's side: "Comentários" (/admin/comments).
// - A fresh student asks under a lesson of the demo school; a fresh school admin finds it in
//   "Comentários" as "Sem resposta" (the sidebar counts it), answers it there and marks the answer;
//   the student sees "Resposta da equipe" in the lesson. Checked in the database.
// - A fresh school (the demo school is shared by parallel journeys): its admin turns "Aprovar
//   comentários antes de publicar" on in Configurações; a student's new comment is "Aguardando
//   aprovação" for them and invisible to another student until the admin approves it in
//   "Comentários". Checked in the database through the service role.
// Screenshots of the list and of the settings card at 1280 and 360 px, with no horizontal scroll.
import { expect, test, type Page } from '@playwright/test';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { PASSWORD } from './helpers';
import { COURSE, LESSON, api, freshSchoolAdmin, freshStudent, passwordSession, signInAs } from './learning-helpers';

test.describe.configure({ timeout: 120_000 });

const service = { key: LOCAL_SERVICE_ROLE_KEY } as const;
const returning = { Prefer: 'return=representation' };

/** Elements that stick out to the right of the window (none expected). */
async function overflowing(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && el.getBoundingClientRect().width > 0)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').slice(0, 60)} → ${Math.round(el.getBoundingClientRect().right)}`)
      .slice(0, 5),
  );
}

/** Screenshots at 1280 and 360 px (the admin sidebar becomes a sheet below 768 px): the whole page, or one part of it. */
async function screenshots(page: Page, name: string, target: (page: Page) => ReturnType<Page['locator']>, { wholePage = false } = {}) {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    await expect(target(page)).toBeVisible();
    const path = test.info().outputPath(`${name}-${width}.png`);
    await (wholePage ? page.screenshot({ path, fullPage: true }) : target(page).screenshot({ path }));
    expect(await overflowing(page), `no horizontal scroll at ${width} px (${name})`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a student asks; the admin finds it in "Comentários" as Sem resposta, answers and marks it there; the student sees "Resposta da equipe"', async ({ browser }) => {
  const run = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
  const ana = await freshStudent(`Ana ${run}`);
  const staff = await freshSchoolAdmin(`Gil Equipe ${run}`);
  const question = `Qual a diferença entre gráfico de linhas e de colunas? (${run})`;
  const answer = `Linhas mostram a evolução no tempo; colunas comparam categorias. (${run})`;
  const lessonUrl = `/course/${COURSE.excel}/lesson/${LESSON.charts}`;

  // 1. The student asks under the lesson.
  const studentContext = await browser.newContext();
  const student = await studentContext.newPage();
  await signInAs(student, ana.email);
  await student.goto(lessonUrl);
  await student.getByLabel('Escreva um comentário').fill(question);
  await student.getByRole('button', { name: 'Comentar' }).click();
  await expect(student.getByText('Comentário adicionado!')).toBeVisible();
  const [asked] = (await api(`/rest/v1/lesson_comments?select=id,status,parent_id&user_id=eq.${ana.id}`, service)) as { id: string; status: string; parent_id: string | null }[];
  expect(asked).toMatchObject({ status: 'published', parent_id: null });

  // 2. The admin: the sidebar counts unanswered questions; the list shows this one as "Sem resposta".
  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await staffContext.newPage();
  await signInAs(admin, staff.email);
  await admin.goto('/admin');
  const menu = admin.getByRole('navigation', { name: 'Menu administrativo' });
  await menu.getByRole('link', { name: /^Comentários, \d+ sem resposta$/ }).click();
  await expect(admin).toHaveURL(/\/admin\/comments$/);
  await expect(admin.getByRole('heading', { name: 'Comentários', level: 1 })).toBeVisible({ timeout: 30_000 });
  await admin.getByRole('group', { name: 'Mostrar' }).getByRole('button', { name: /^Sem resposta/ }).click();
  await admin.getByLabel('Buscar comentário por texto ou autor').fill(run);
  await expect(admin).toHaveURL(new RegExp(`/admin/comments\\?filtro=sem-resposta&q=${run}$`));
  const theQuestion = admin.getByRole('article', { name: `Comentário de Ana ${run}` });
  await expect(theQuestion).toContainText(question);
  await expect(theQuestion).toContainText('Excel Essencial para o Trabalho › Criando gráficos');
  await expect(theQuestion.getByRole('list', { name: 'Situação' })).toHaveText('Sem resposta');
  await expect(admin.getByText('1 comentário', { exact: true })).toBeVisible();
  await expect(theQuestion.getByRole('link', { name: 'Abrir aula' })).toHaveAttribute('href', `${lessonUrl}#comentario-${asked!.id}`);

  // 3. Answer it from the list; with "Sem resposta" it leaves the filter.
  await theQuestion.getByRole('button', { name: 'Responder' }).click();
  await theQuestion.getByLabel(`Responder a Ana ${run}`).fill(answer);
  await theQuestion.getByRole('button', { name: 'Enviar resposta' }).click();
  await expect(admin.getByText('Resposta enviada!')).toBeVisible();
  await expect(admin.getByText('Nenhum comentário encontrado')).toBeVisible();
  await admin.getByRole('group', { name: 'Mostrar' }).getByRole('button', { name: 'Todos' }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/comments\\?q=${run}$`));
  await expect(theQuestion.getByRole('list', { name: 'Situação' })).toHaveText('Respondida');
  const reply = admin.getByRole('article', { name: `Resposta de Gil Equipe ${run}` });
  await expect(reply).toContainText(`Em resposta a Ana ${run}: ${question}`);
  await expect(reply).toContainText('Administração');
  await reply.getByRole('button', { name: 'Marcar como resposta' }).click();
  await expect(admin.getByText('Resposta marcada!')).toBeVisible();
  await expect(reply.getByRole('list', { name: 'Situação' })).toContainText('Resposta da equipe');
  await expect(reply.getByRole('button', { name: 'Desmarcar resposta' })).toBeVisible();
  await expect(admin.getByText('2 comentários', { exact: true })).toBeVisible();
  await screenshots(admin, 'comentarios', (page) => page.getByRole('article', { name: `Resposta de Gil Equipe ${run}` }), { wholePage: true });

  // In the database: a staff reply under the question, marked as its answer; no longer unanswered.
  const staffRows = (await api(`/rest/v1/lesson_comments?select=parent_id,comment,author_role,status,marked_answer_at&user_id=eq.${staff.id}`, service)) as Record<string, unknown>[];
  expect(staffRows).toEqual([{ parent_id: asked!.id, comment: answer, author_role: 'SCHOOL_ADMIN', status: 'published', marked_answer_at: expect.any(String) }]);
  const staffToken = (await passwordSession(staff.email)).access_token as string;
  const stillUnanswered = (await api('/rest/v1/rpc/admin_comments', { method: 'POST', token: staffToken, body: JSON.stringify({ p_filter: 'unanswered', p_search: run }) })) as unknown[];
  expect(stillUnanswered).toEqual([]);

  // "Abrir aula" opens the lesson at the question.
  await theQuestion.getByRole('link', { name: 'Abrir aula' }).click();
  await expect(admin).toHaveURL(new RegExp(`${lessonUrl}#comentario-${asked!.id}$`));
  await expect(admin.locator(`#comentario-${asked!.id}`)).toContainText(question);

  // 4. The student sees the staff answer pinned under the question.
  await student.reload();
  const mine = student.getByRole('listitem').filter({ has: student.getByRole('article', { name: `Comentário de Ana ${run}` }) });
  await expect(mine.getByTestId('pinned-answer')).toContainText('Resposta da equipe');
  await expect(mine.getByTestId('pinned-answer')).toContainText(answer);
  await studentContext.close();
  await staffContext.close();
});

test('with approval on in Configurações, a new comment is invisible to another student until the admin approves it in "Comentários"', async ({ browser }) => {
  // A fresh school with one course, one lesson, two enrolled students and an admin.
  const tag = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
  const [school] = await api('/rest/v1/schools', { method: 'POST', ...service, headers: returning, body: JSON.stringify({ slug: `aprovacao-${tag}`, name: `Escola Aprovação ${tag}` }) });
  const [course] = await api('/rest/v1/courses', {
    method: 'POST',
    ...service,
    headers: returning,
    body: JSON.stringify({ school_id: school.id, title: 'Curso com aprovação', slug: `curso-aprovacao-${tag}`, status: 'PUBLISHED' }),
  });
  const [module] = await api('/rest/v1/modules', { method: 'POST', ...service, headers: returning, body: JSON.stringify({ course_id: course.id, title: 'Módulo 1' }) });
  const [lesson] = await api('/rest/v1/lessons', { method: 'POST', ...service, headers: returning, body: JSON.stringify({ course_id: course.id, module_id: module.id, title: 'Aula moderada' }) });
  async function account(name: string, role?: 'SCHOOL_ADMIN') {
    const email = `e2e.aprovacao.${tag}.${Math.random().toString(36).slice(2, 8)}@exemplo.com.br`;
    const user = await api('/auth/v1/admin/users', {
      method: 'POST',
      ...service,
      body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: school.id } }),
    });
    const id = (user.id ?? user.user.id) as string;
    if (role) await api('/rest/v1/user_roles', { method: 'POST', ...service, body: JSON.stringify({ user_id: id, school_id: school.id, role }) });
    else await api('/rest/v1/enrollments', { method: 'POST', ...service, body: JSON.stringify({ user_id: id, course_id: course.id, status: 'ACTIVE' }) });
    return { id, email };
  }
  const [carla, davi, admin] = await Promise.all([account('Carla Autora'), account('Davi Colega'), account('Rita Admin', 'SCHOOL_ADMIN')]);
  const lessonUrl = `/course/${course.id}/lesson/${lesson.id}`;
  const text = `Posso usar o material em sala de aula? (${tag})`;

  // 1. The admin turns approval on in Configurações.
  const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const staff = await adminContext.newPage();
  await signInAs(staff, admin.email);
  await staff.goto('/admin/settings');
  const card = staff.getByRole('region', { name: 'Comentários e ranking' });
  const approval = card.getByRole('switch', { name: 'Aprovar comentários antes de publicar' });
  // The first admin page of a run loads the admin chunks (slow on a CI machine sharing its cores).
  await expect(approval).toBeVisible({ timeout: 30_000 });
  await expect(approval).toHaveAttribute('aria-checked', 'false');
  await expect(card.getByRole('switch', { name: 'Ranking dos alunos' })).toHaveAttribute('aria-checked', 'false');
  // A settings switch saves the moment it is flipped and says so beside its label (issue 46, item 6).
  await approval.click();
  await expect(approval.locator('..').getByRole('status')).toHaveText('Salvo');
  const settings = (await api(`/rest/v1/school_discussion_settings?select=comments_require_approval,ranking_enabled&school_id=eq.${school.id}`, service)) as unknown[];
  expect(settings).toEqual([{ comments_require_approval: true, ranking_enabled: false }]);
  await screenshots(staff, 'configuracoes-comentarios', (page) => page.getByRole('region', { name: 'Comentários e ranking' }));
  await expect(approval).toHaveAttribute('aria-checked', 'true');

  // 2. Carla comments: pending, shown to her as "Aguardando aprovação".
  const carlaContext = await browser.newContext();
  const author = await carlaContext.newPage();
  await signInAs(author, carla.email);
  await author.goto(lessonUrl);
  await author.getByLabel('Escreva um comentário').fill(text);
  await author.getByRole('button', { name: 'Comentar' }).click();
  await expect(author.getByText('Comentário enviado!')).toBeVisible();
  const own = author.getByRole('article', { name: 'Comentário de Carla Autora' });
  await expect(own).toContainText(text);
  await expect(own).toContainText('Aguardando aprovação');
  const [pending] = (await api(`/rest/v1/lesson_comments?select=id,status&user_id=eq.${carla.id}`, service)) as { id: string; status: string }[];
  expect(pending!.status).toBe('pending');

  // 3. Davi does not see it: neither on the page nor through the API with his own token.
  const daviToken = (await passwordSession(davi.email)).access_token as string;
  expect(await api(`/rest/v1/lesson_comments?select=id&lesson_id=eq.${lesson.id}`, { token: daviToken })).toEqual([]);
  const daviContext = await browser.newContext();
  const other = await daviContext.newPage();
  await signInAs(other, davi.email);
  await other.goto(lessonUrl);
  await expect(other.getByLabel('Escreva um comentário')).toBeVisible();
  await expect(other.getByRole('heading', { name: /^Comentários/ })).toBeVisible();
  await expect(other.getByText(text)).toHaveCount(0);

  // 4. The admin approves it in "Comentários" (Pendentes).
  await staff.goto('/admin/comments');
  await staff.getByRole('group', { name: 'Mostrar' }).getByRole('button', { name: /^Pendentes/ }).click();
  await expect(staff).toHaveURL(/\/admin\/comments\?filtro=pendentes$/);
  const item = staff.getByRole('article', { name: 'Comentário de Carla Autora' });
  await expect(item).toContainText(text);
  await expect(item).toContainText('Curso com aprovação › Aula moderada');
  await expect(item.getByRole('list', { name: 'Situação' })).toHaveText('Pendente');
  await expect(item.getByRole('button', { name: 'Responder' })).toHaveCount(0);
  await item.getByRole('button', { name: 'Aprovar' }).click();
  await expect(staff.getByText('Comentário aprovado!')).toBeVisible();
  await expect(staff.getByText('Nenhum comentário aguardando aprovação')).toBeVisible();
  await staff.getByRole('group', { name: 'Mostrar' }).getByRole('button', { name: /^Sem resposta/ }).click();
  await expect(item.getByRole('list', { name: 'Situação' })).toHaveText('Sem resposta');
  // The sidebar counts it now that it is published.
  await expect(staff.getByRole('navigation', { name: 'Menu administrativo' }).getByRole('link', { name: 'Comentários, 1 sem resposta' })).toBeVisible();
  const [approved] = (await api(`/rest/v1/lesson_comments?select=status&id=eq.${pending!.id}`, service)) as { status: string }[];
  expect(approved!.status).toBe('published');

  // 5. Davi now sees it; Carla's no longer waits.
  expect(await api(`/rest/v1/lesson_comments?select=id&lesson_id=eq.${lesson.id}`, { token: daviToken })).toEqual([{ id: pending!.id }]);
  await other.reload();
  await expect(other.getByRole('article', { name: 'Comentário de Carla Autora' })).toContainText(text);
  await author.reload();
  await expect(own).toContainText(text);
  await expect(own).not.toContainText('Aguardando aprovação');
  await Promise.all([adminContext.close(), carlaContext.close(), daviContext.close()]);
});
