// Issue 40 "Done when", the staff's side of turmas, on the built SPA:
// - a fresh school admin creates a turma in Turmas and sees it in the course's list;
// - "Alunos em risco" on the turma's page lists a student with no activity for 8 days (their last
//   progress written 8 days back by the service role, as a test clock), with "Chamar no WhatsApp";
// - staff move a student between turmas in Matrículas and the progress stays (checked in the database
//   and on the new turma's page);
// - "Comunicado para a turma" from the turma's page reaches only that turma: a student of it reads it,
//   a student of the other turma does not (each one's own read, with their session); with "Enviar também
//   por e-mail" the outbox holds one message for each of that turma's students only;
// - the dashboard filtered by the course, then by the turma, counts that turma's students;
// The course and its second turma are the spec's own (service role), so the demo's turmas and the other
// journeys are unaffected. Screens at 1280 and 360 px are kept with the test's output.
import type { Page } from '@playwright/test';
import { expect, test } from './helpers';
import { SCHOOL_ID, api, freshSchoolAdmin, freshStudent, passwordSession, signInAs } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';

test.describe.configure({ timeout: 120_000 });

const DAY = 24 * 60 * 60 * 1000;
const service = { key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' } };

const saoPauloDay = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + days * DAY),
  );

async function screens(page: Page, name: string) {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function insert(table: string, row: Record<string, unknown>): Promise<string> {
  const rows = await api(`/rest/v1/${table}`, { method: 'POST', ...service, body: JSON.stringify(row) });
  return rows[0].id as string;
}

test('staff create a turma, see who is at risk, move a student keeping the progress, and write to one turma only', async ({ page }) => {
  const run = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
  const courseId = await insert('courses', { school_id: SCHOOL_ID, title: `Planilhas em turma ${run}`, slug: `planilhas-turma-${run}`, status: 'PUBLISHED' });
  const moduleId = await insert('modules', { course_id: courseId, title: 'Primeiros passos', order_index: 0 });
  const lessons: string[] = [];
  for (const title of ['Abrindo a planilha', 'Células e fórmulas', 'Gráficos']) {
    lessons.push(await insert('lessons', { module_id: moduleId, course_id: courseId, title, order_index: lessons.length }));
  }
  const otherTurma = await insert('turmas', { course_id: courseId, name: `Turma B ${run}`, starts_on: saoPauloDay(-3) });
  const admin = await freshSchoolAdmin(`Equipe ${run}`);

  // 1. Turmas: a new turma, started 10 days ago, in the course's list.
  await signInAs(page, admin.email);
  await page.goto(`/admin/turmas?curso=${courseId}`);
  await expect(page.getByRole('heading', { name: 'Turmas', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Nova Turma' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova Turma' });
  await dialog.getByLabel('Nome').fill(`Turma A ${run}`);
  await dialog.getByLabel('Início').fill(saoPauloDay(-10));
  await dialog.getByRole('switch', { name: 'Sem término' }).click();
  await dialog.getByLabel('Vagas').fill('30');
  await screens(page, 'turma-dialog');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Turma criada!')).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(`Turma A ${run}`) });
  await expect(row).toContainText('Em andamento');
  await expect(row).toContainText('0 de 30');
  await screens(page, 'turmas-list');
  const [created] = (await api(`/rest/v1/turmas?select=id&course_id=eq.${courseId}&name=eq.${encodeURIComponent(`Turma A ${run}`)}`, service)) as { id: string }[];
  const turmaA = created!.id;

  // Students: Bia (Turma A, every lesson done today: on time), Dani (Turma A, last studied 8 days ago, with a
  // phone), Caio (Turma B).
  const bia = await freshStudent(`Bia ${run}`, { enrollIn: [] });
  const dani = await freshStudent(`Dani ${run}`, { enrollIn: [] });
  const caio = await freshStudent(`Caio ${run}`, { enrollIn: [] });
  const enrollment = async (userId: string, turmaId: string) => insert('enrollments', { user_id: userId, course_id: courseId, status: 'ACTIVE', turma_id: turmaId });
  const biaEnrollment = await enrollment(bia.id, turmaA);
  await enrollment(dani.id, turmaA);
  await enrollment(caio.id, otherTurma);
  await api(`/rest/v1/profiles?id=eq.${dani.id}`, { method: 'PATCH', ...service, body: JSON.stringify({ phone: '(11) 98765-4321' }) });
  const eightDaysAgo = new Date(Date.now() - 8 * DAY - 60_000).toISOString();
  await insert('progress', { user_id: dani.id, lesson_id: lessons[0], completed_at: eightDaysAgo, created_at: eightDaysAgo, updated_at: eightDaysAgo });
  for (const lesson of lessons) await insert('progress', { user_id: bia.id, lesson_id: lesson, completed_at: new Date().toISOString() });

  // 2. The turma's page: Alunos em risco lists Dani, 8 days without activity, with WhatsApp.
  await page.reload();
  await page.getByRole('link', { name: `Turma A ${run}` }).click();
  await expect(page.getByRole('heading', { name: `Turma A ${run}` })).toBeVisible();
  const students = page.getByRole('table', { name: 'Alunos da turma' });
  await expect(students.getByRole('row', { name: new RegExp(`Bia ${run}`) })).toContainText('3 de 3 aulas');
  await screens(page, 'turma-students');
  await page.getByRole('tab', { name: 'Alunos em risco' }).click();
  const atRisk = page.getByRole('table', { name: 'Alunos em risco' });
  const daniRow = atRisk.getByRole('row', { name: new RegExp(`Dani ${run}`) });
  await expect(daniRow).toContainText('Sem atividade há 8 dias');
  const whatsapp = daniRow.getByRole('link', { name: `Chamar Dani ${run} no WhatsApp` });
  await expect(whatsapp).toHaveAttribute('href', /^https:\/\/wa\.me\/5511987654321\?text=Ol%C3%A1%2C%20Dani/);
  await expect(atRisk.getByRole('row', { name: new RegExp(`Bia ${run}`) })).toHaveCount(0);
  await screens(page, 'turma-at-risk');

  // 3. Comunicado para a turma: only Turma A's students read it.
  await page.getByRole('link', { name: 'Comunicado para a turma' }).click();
  const form = page.getByRole('dialog', { name: 'Novo Anúncio' });
  await expect(form.getByRole('radio', { name: 'Uma turma' })).toBeChecked();
  await expect(form.getByLabel(/^Turma/)).toHaveValue(turmaA);
  const title = `Aula ao vivo da Turma A ${run}`;
  await form.getByLabel('Título').fill(title);
  await form.getByRole('textbox', { name: 'Mensagem' }).fill('Sexta às 20h, com o link no e-mail.');
  await form.getByRole('switch', { name: 'Enviar também por e-mail' }).click();
  await screens(page, 'announcement-turma');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Anúncio criado!')).toBeVisible();
  // "Enviar também por e-mail": one message in the outbox for each of Turma A's students, none for Caio.
  const [posted] = (await api(`/rest/v1/announcements?select=id&title=eq.${encodeURIComponent(title)}`, service)) as { id: string }[];
  const mailed = (await api(`/rest/v1/email_outbox?select=user_id&kind=eq.announcement&idempotency_key=like.announcement:${posted!.id}:*`, service)) as { user_id: string }[];
  expect(mailed.map((m) => m.user_id).sort()).toEqual([bia.id, dani.id].sort());
  const reads = async (email: string) => {
    const session = await passwordSession(email);
    return (await api(`/rest/v1/announcements?select=title&title=eq.${encodeURIComponent(title)}`, { token: session.access_token })) as unknown[];
  };
  expect(await reads(dani.email)).toHaveLength(1);
  expect(await reads(caio.email)).toHaveLength(0);

  // The dashboard, filtered by the course and then by Turma A: that turma's two students.
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Filtrar por curso' }).click();
  await page.getByLabel('Curso', { exact: true }).selectOption(courseId);
  await expect(page.getByRole('heading', { name: 'Alunos do curso' })).toBeVisible();
  await expect(page.getByLabel('Total de alunos', { exact: true })).toHaveText('3');
  await page.getByLabel('Turma', { exact: true }).selectOption(turmaA);
  await expect(page.getByRole('heading', { name: 'Alunos da turma' })).toBeVisible();
  await expect(page.getByLabel('Total de alunos', { exact: true })).toHaveText('2');
  await expect(page).toHaveURL(new RegExp(`/admin\\?curso=${courseId}&turma=${turmaA}$`));
  await screens(page, 'dashboard-turma');

  // 4. Matrículas: Mover de turma (Bia to Turma B); the progress stays.
  await page.goto(`/admin/enrollments?curso=${courseId}&turma=${turmaA}`);
  await page.getByRole('button', { name: `Mover Bia ${run} de turma` }).click();
  const move = page.getByRole('dialog', { name: 'Mover de turma' });
  await expect(move.getByRole('option', { name: new RegExp(`Turma B ${run}`) })).toHaveCount(1);
  await screens(page, 'enrollments-move');
  await move.getByLabel('Turma', { exact: true }).selectOption(otherTurma);
  await move.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Aluno movido de turma!')).toBeVisible();
  const [moved] = (await api(`/rest/v1/enrollments?select=turma_id&id=eq.${biaEnrollment}`, service)) as { turma_id: string }[];
  expect(moved!.turma_id).toBe(otherTurma);
  const kept = (await api(`/rest/v1/progress?select=completed_at&user_id=eq.${bia.id}&lesson_id=eq.${lessons[0]}`, service)) as { completed_at: string | null }[];
  expect(kept[0]!.completed_at).not.toBeNull();
  await page.goto(`/admin/turmas/${otherTurma}`);
  await expect(page.getByRole('table', { name: 'Alunos da turma' }).getByRole('row', { name: new RegExp(`Bia ${run}`) })).toContainText('3 de 3 aulas');

  // 5. The CSV import's "turma" column: a name (any case) puts the new student in that turma; an
  // unknown turma fails its row in pt-BR, with no account made.
  const csv = [
    'nome;email;turma',
    `Eva ${run};eva.${run}@exemplo.com.br;turma a ${run}`,
    `Fabio ${run};fabio.${run}@exemplo.com.br;Turma Z ${run}`,
  ].join('\r\n');
  await page.goto('/admin/students');
  await page.getByRole('button', { name: 'Importar CSV' }).click();
  const importing = page.getByRole('dialog', { name: 'Importar alunos' });
  await importing.getByLabel('Arquivo CSV').setInputFiles({ name: 'turma.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await importing.getByLabel('Matricular todos no curso (opcional)').selectOption(courseId);
  await importing.getByRole('button', { name: 'Importar 2 alunos' }).click();
  const failed = importing.getByRole('table', { name: 'Linhas com falha' });
  await expect(failed).toContainText(`Turma não encontrada neste curso: "Turma Z ${run}"`, { timeout: 30_000 });
  await expect(importing.getByRole('list', { name: 'Resultado da importação' })).toContainText('1 aluno criado');
  const [eva] = (await api(`/rest/v1/profiles?select=id&email=eq.eva.${run}@exemplo.com.br`, service)) as { id: string }[];
  const evaEnrollments = (await api(`/rest/v1/enrollments?select=turma_id&user_id=eq.${eva!.id}&course_id=eq.${courseId}`, service)) as { turma_id: string }[];
  expect(evaEnrollments).toEqual([{ turma_id: turmaA }]);
  expect(await api(`/rest/v1/profiles?select=id&email=eq.fabio.${run}@exemplo.com.br`, service)).toEqual([]);
});
