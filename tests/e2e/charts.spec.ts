// Issue 25, the school's numbers in pictures. A new school with five students whose enrollments,
// progress and payments fall on known days; the expected numbers are computed here from those rows,
// not read from the server. The admin sees them on the dashboard (30 days, then 7), in Relatórios →
// Aulas do curso (funnel and video retention) and in a student's activity.
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import type { Locator, Page } from '@playwright/test';
import { expect, PASSWORD, test } from './helpers';
import { api, signInAs } from './learning-helpers';

const service = { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' } } as const;
const DAY = 86_400_000;

/** Noon in São Paulo `days` days before today there (UTC−3; Brazil has had no summer time since 2019). */
function noonDaysAgo(days: number) {
  const today = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
  return new Date(Date.parse(`${today}T12:00:00-03:00`) - days * DAY).toISOString();
}

/** The course: one module; lesson 3 has no video. */
const LESSONS = [
  { title: 'Boas-vindas', video_type: 'youtube', duration_sec: 600 },
  { title: 'Primeiros passos', video_type: 'youtube', duration_sec: 600 },
  { title: 'Leitura de apoio', video_type: 'none', duration_sec: 0 },
  { title: 'Projeto final', video_type: 'youtube', duration_sec: 300 },
] as const;

interface Watch {
  lesson: number;
  /** Days ago the lesson was completed; none: started only. */
  completed?: number;
  /** The furthest second of the video reached. */
  position: number;
  /** Days ago of the last save (the day the student studied); the completion's day when completed. */
  saved?: number;
}
interface Seeded {
  name: string;
  enrolled: number;
  progress: Watch[];
  payment?: { value: number; status: 'RECEIVED' | 'CONFIRMED' | 'REFUNDED' | 'PENDING'; paid?: number };
}

const STUDENTS: Seeded[] = [
  { name: 'Ana Gráficos', enrolled: 2, payment: { value: 297, status: 'RECEIVED', paid: 2 }, progress: [
    { lesson: 0, completed: 1, position: 600 }, { lesson: 1, completed: 1, position: 580 }, { lesson: 2, completed: 1, position: 0 }, { lesson: 3, position: 100, saved: 1 },
  ] },
  { name: 'Bruno Gráficos', enrolled: 5, payment: { value: 100, status: 'REFUNDED', paid: 5 }, progress: [
    { lesson: 0, completed: 4, position: 550 }, { lesson: 1, position: 200, saved: 4 },
  ] },
  { name: 'Carla Gráficos', enrolled: 12, payment: { value: 150.5, status: 'CONFIRMED', paid: 12 }, progress: [
    { lesson: 0, completed: 10, position: 600 }, { lesson: 1, completed: 9, position: 600 }, { lesson: 2, completed: 9, position: 0 },
  ] },
  { name: 'Diego Gráficos', enrolled: 25, payment: { value: 99, status: 'PENDING' }, progress: [{ lesson: 0, position: 160, saved: 20 }] },
  { name: 'Elisa Gráficos', enrolled: 40, payment: { value: 80, status: 'RECEIVED', paid: 40 }, progress: [{ lesson: 0, completed: 35, position: 600 }] },
];

// ── What each chart must show, computed from STUDENTS ──────────────────────────────────────────
const inPeriod = (daysAgo: number | undefined, days: number, offset = 0) => daysAgo !== undefined && daysAgo >= offset && daysAgo < offset + days;
function expected(days: number, offset = 0) {
  const saves = STUDENTS.flatMap((s) => s.progress.map((w) => ({ who: s.name, day: w.completed ?? w.saved })));
  return {
    // Every account was created today (GoTrue stamps it): the whole school is new in any period.
    newStudents: offset === 0 ? STUDENTS.length : 0,
    newEnrollments: STUDENTS.filter((s) => inPeriod(s.enrolled, days, offset)).length,
    activeStudents: new Set(saves.filter((x) => inPeriod(x.day, days, offset)).map((x) => x.who)).size,
    lessonsCompleted: STUDENTS.flatMap((s) => s.progress).filter((w) => inPeriod(w.completed, days, offset)).length,
    revenue: STUDENTS.filter((s) => s.payment && s.payment.status !== 'REFUNDED' && inPeriod(s.payment.paid, days, offset)).reduce((sum, s) => sum + s.payment!.value, 0),
  };
}
const count = (n: number) => n.toLocaleString('pt-BR');
const money = (n: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(n).replace(/\u00a0/g, ' ');
const change = (now: number, before: number) =>
  before ? `${new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format((now - before) / before)} vs. período anterior` : '— vs. período anterior';
const share = (part: number, whole: number) => new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 0 }).format(whole ? part / whole : 0);

let adminEmail: string;
let courseId: string;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const [school] = await api('/rest/v1/schools', { ...service, body: JSON.stringify({ slug: `graficos-${tag}`, name: `Escola Gráficos ${tag}` }) });
  const createUser = async (email: string, name: string) => {
    const user = await api('/auth/v1/admin/users', { ...service, body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: school.id } }) });
    return (user.id ?? user.user.id) as string;
  };
  adminEmail = `e2e.graficos.admin.${tag}@exemplo.com.br`;
  await api('/rest/v1/user_roles', { ...service, body: JSON.stringify({ user_id: await createUser(adminEmail, 'Admin Gráficos'), school_id: school.id, role: 'SCHOOL_ADMIN' }) });

  const [course] = await api('/rest/v1/courses', { ...service, body: JSON.stringify({ school_id: school.id, title: 'Curso Gráficos', slug: `curso-graficos-${tag}`, status: 'PUBLISHED', price: 297 }) });
  courseId = course.id;
  const [module] = await api('/rest/v1/modules', { ...service, body: JSON.stringify({ course_id: courseId, title: 'Módulo único', order_index: 0 }) });
  const lessons: { id: string }[] = await api('/rest/v1/lessons?select=id', {
    ...service,
    body: JSON.stringify(LESSONS.map((l, i) => ({ module_id: module.id, title: l.title, video_type: l.video_type, duration_sec: l.duration_sec, order_index: i }))),
  });

  for (const [i, s] of STUDENTS.entries()) {
    const id = await createUser(`e2e.graficos.${i}.${tag}@exemplo.com.br`, s.name);
    await api('/rest/v1/enrollments', { ...service, body: JSON.stringify({ user_id: id, course_id: courseId, status: 'ACTIVE', created_at: noonDaysAgo(s.enrolled) }) });
    await api('/rest/v1/progress', {
      ...service,
      body: JSON.stringify(
        s.progress.map((w) => ({
          user_id: id,
          lesson_id: lessons[w.lesson]!.id,
          completed_at: w.completed === undefined ? null : noonDaysAgo(w.completed),
          last_position_sec: w.position,
          // The day of the save is the day the student studied (the activity the dashboard counts).
          created_at: noonDaysAgo(w.completed ?? w.saved!),
          updated_at: noonDaysAgo(w.completed ?? w.saved!),
        })),
      ),
    });
    if (s.payment) {
      const p = s.payment;
      await api('/rest/v1/payments', {
        ...service,
        body: JSON.stringify({
          school_id: school.id, user_id: id, course_id: courseId, course_title: 'Curso Gráficos', environment: 'sandbox', billing_type: 'PIX',
          value: p.value, status: p.status, paid_at: p.paid === undefined ? null : noonDaysAgo(p.paid),
          refunded_at: p.status === 'REFUNDED' ? noonDaysAgo(p.paid! - 1) : null,
        }),
      });
    }
  }
});

/** The card of a chart, by its title. */
const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** "Ver tabela": the table's value column (the last) summed, as the chart's numbers. */
async function tableSum(chart: Locator) {
  await chart.getByRole('button', { name: 'Ver tabela' }).click();
  const cells = await chart.getByRole('table').locator('tbody tr td:last-child').allInnerTexts();
  await chart.getByRole('button', { name: 'Ver gráfico' }).click();
  return cells.reduce((sum: number, c: string) => sum + Number(c.replace(/[R$\s.]/g, '').replace(',', '.')), 0);
}

async function expectDashboard(page: Page, days: 7 | 30) {
  const now = expected(days);
  const before = expected(days, days);
  const period = `nos últimos ${days} dias`;
  const charts = [
    { title: 'Novos alunos', total: count(now.newStudents), change: change(now.newStudents, before.newStudents), sum: now.newStudents },
    { title: 'Novas matrículas', total: count(now.newEnrollments), change: change(now.newEnrollments, before.newEnrollments), sum: now.newEnrollments },
    { title: 'Aulas concluídas', total: count(now.lessonsCompleted), change: change(now.lessonsCompleted, before.lessonsCompleted), sum: now.lessonsCompleted },
    { title: 'Receita', total: money(now.revenue), change: change(now.revenue, before.revenue), sum: now.revenue },
  ];
  for (const c of charts) {
    const chart = card(page, c.title);
    await expect(chart).toContainText(`${c.title}: ${c.total} ${period}`);
    await expect(chart).toContainText(c.change);
    expect(await tableSum(chart), `${c.title}: the table's days add up to the total`).toBeCloseTo(c.sum, 2);
  }
  // Active students: the total counts each student once, so it is not the sum of the days.
  const active = card(page, 'Alunos ativos');
  await expect(active).toContainText(`Alunos ativos: ${count(now.activeStudents)} ${period}`);
  await expect(active).toContainText(change(now.activeStudents, before.activeStudents));
}

test('the dashboard, the course funnel and retention, and a student’s activity show the numbers of the school’s rows', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAs(page, adminEmail);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Tendências' })).toBeVisible();
  await expectDashboard(page, 30);
  await page.screenshot({ path: test.info().outputPath('dashboard-1280.png'), fullPage: true });

  await page.getByRole('group', { name: 'Período' }).getByText('7 dias').click();
  await expect(page).toHaveURL(/periodo=7d/);
  await expectDashboard(page, 7);

  // Relatórios → Aulas do curso: per lesson, computed from the same rows.
  await page.goto(`/admin/reports?curso=${courseId}&aba=aulas`);
  const funnel = card(page, 'Funil de conclusão');
  await funnel.getByRole('button', { name: 'Ver tabela' }).click();
  const enrolled = STUDENTS.length;
  for (const [i, lesson] of LESSONS.entries()) {
    const rows = STUDENTS.flatMap((s) => s.progress.filter((w) => w.lesson === i));
    const started = rows.length;
    const completed = rows.filter((w) => w.completed !== undefined).length;
    await expect(funnel.getByRole('row', { name: `${i + 1}. ${lesson.title}` })).toContainText(
      [`${started} (${share(started, enrolled)})`, `${completed} (${share(completed, enrolled)})`].join(''),
    );
  }
  const retention = card(page, 'Retenção de vídeo');
  await retention.getByRole('button', { name: 'Ver tabela' }).click();
  for (const [i, lesson] of LESSONS.entries()) {
    const row = retention.getByRole('row', { name: new RegExp(`^${i + 1}\\. ${lesson.title}`) });
    if (lesson.video_type === 'none') {
      await expect(row).toHaveCount(0);
      continue;
    }
    const viewers = STUDENTS.flatMap((s) => s.progress.filter((w) => w.lesson === i && w.position > 0));
    const reached = [25, 50, 75, 90].map((step) => share(viewers.filter((w) => w.position * 100 >= step * lesson.duration_sec).length, viewers.length));
    await expect(row).toContainText(`(${viewers.length === 1 ? '1 assistiu' : `${viewers.length} assistiram`})`);
    await expect(row.getByRole('cell')).toHaveText(reached);
  }
  await page.screenshot({ path: test.info().outputPath('reports-lessons-1280.png'), fullPage: true });

  // A student's activity: the weeks' completions and the course's progress.
  const ana = STUDENTS[0]!;
  await page.goto('/admin/students');
  await page.getByRole('button', { name: `Ver atividade de ${ana.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Atividade de ${ana.name}` });
  const done = ana.progress.filter((w) => w.completed !== undefined).length;
  await expect(dialog).toContainText(`${done} de ${LESSONS.length} aulas`);
  await expect(dialog).toContainText(`${Math.round((100 * done) / LESSONS.length)}%`);
  expect(await tableSum(dialog.getByRole('region', { name: 'Aulas concluídas por semana' }))).toBe(done);

  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/admin');
  await expect(card(page, 'Receita')).toContainText('Receita: ');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: test.info().outputPath('dashboard-360.png'), fullPage: true });
  await page.goto(`/admin/reports?curso=${courseId}&aba=aulas`);
  await expect(card(page, 'Funil de conclusão')).toContainText('Funil de conclusão:');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: test.info().outputPath('reports-lessons-360.png'), fullPage: true });
});
