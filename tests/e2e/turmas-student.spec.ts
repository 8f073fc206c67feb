// Issue 40 "Done when", the student's side of turmas: a buyer of a course with turmas is sold the open
// turma ("Turma … · começa em dd/mm"), pays on the fake Asaas, and lands in it: the course page says
// "Sua turma começa em dd/mm", every module waits for the start (the turma's own date for module 2:
// "Libera em dd/mm") and a lesson's URL shows no content. The clock then passes the start (as
// quizzes.spec does, the service role moves the turma's start back to yesterday: the server's now()
// is real): the first module opens. The turma had one seat: the next buyer sees "Turma esgotada",
// joins the waiting list, and leaves it. The course and its turma are the spec's own (service role),
// so the demo's turmas and the other journeys are unaffected.
import type { Page } from '@playwright/test';
import { expect, test } from './helpers';
import { SCHOOL_ID, api, freshStudent, signInAs } from './learning-helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';

test.describe.configure({ timeout: 90_000 });

const ASAAS_PORT = Number(process.env.E2E_ASAAS_PORT || 54339);
const DAY = 24 * 60 * 60 * 1000;
const service = { key: LOCAL_SERVICE_ROLE_KEY, headers: { Prefer: 'return=representation' } };

/** 'aaaa-mm-dd' in São Paulo, `days` from now. */
const saoPauloDay = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + days * DAY),
  );
const ddmm = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/** The screen at 1280 and 360 px wide, kept with the test's output (looked at when the screens change). */
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

/** A course on sale with two modules and one turma of one seat, starting in 10 days, with a list. */
async function courseWithTurma(tag: string) {
  const slug = `e2e-turma-${tag}`;
  const courseId = await insert('courses', { school_id: SCHOOL_ID, title: `Curso em Turma ${tag}`, slug, status: 'PUBLISHED', price: 120 });
  const first = await insert('modules', { course_id: courseId, title: `Abertura ${tag}`, order_index: 0 });
  const second = await insert('modules', { course_id: courseId, title: `Aprofundamento ${tag}`, order_index: 1 });
  const lesson = await insert('lessons', { module_id: first, course_id: courseId, title: `Aula inaugural ${tag}`, order_index: 0 });
  await insert('lessons', { module_id: second, course_id: courseId, title: `Aula avançada ${tag}`, order_index: 0 });
  await api(`/rest/v1/lesson_contents?lesson_id=eq.${lesson}`, {
    method: 'PATCH',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({ content: `Bem-vindos à turma ${tag}` }),
  });
  const startsOn = saoPauloDay(10);
  const secondOn = saoPauloDay(24);
  const turmaId = await insert('turmas', {
    course_id: courseId,
    name: `Turma ${tag}`,
    starts_on: startsOn,
    seats: 1,
    waitlist_enabled: true,
  });
  await insert('turma_module_dates', { turma_id: turmaId, module_id: second, opens_on: secondOn });
  return { slug, courseId, lesson, turmaId, startsOn, secondOn };
}

test('a buyer lands in the open turma, waits for its start, then studies; the full turma offers the waiting list', async ({ page, browser }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const c = await courseWithTurma(tag);
  const buyer = await freshStudent('Bruna Compradora', { enrollIn: [] });
  await signInAs(page, buyer.email);

  // Checkout: the turma on sale, then PIX on the fake Asaas.
  await page.goto(`/checkout/${c.slug}`);
  const summary = page.getByRole('complementary', { name: 'Resumo do pedido' });
  await expect(summary.getByTestId('turma-offer')).toContainText(`Turma ${tag} · começa em ${ddmm(c.startsOn)}`);
  await expect(summary.getByTestId('turma-offer')).toContainText('Última vaga');
  await screens(page, 'checkout-open');
  await page.getByLabel('Nome Completo').fill('Bruna Compradora');
  await page.getByLabel('CPF').fill('52998224725');
  await page.getByLabel('Telefone').fill('11988887777');
  await page.getByRole('button', { name: 'Pagar R$ 120,00' }).click();
  await expect(page).toHaveURL(new RegExp(`^http://localhost:${ASAAS_PORT}/i/pay_`));
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await expect(page).toHaveURL(new RegExp(`/course/${c.courseId}$`));

  // In the turma, before its start: the date, no progress card, every module waiting.
  await expect(page.getByTestId('turma-start')).toContainText(`Sua turma começa em ${ddmm(c.startsOn)}`, { timeout: 20_000 });
  await expect(page.getByTestId('course-progress-card')).toHaveCount(0);
  const cards = page.getByTestId('module-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0).getByTestId('module-release')).toContainText('Disponível em');
  await expect(cards.nth(1).getByTestId('module-release')).toHaveText(`Libera em ${ddmm(c.secondOn)}`);
  const enrolled = await api(`/rest/v1/enrollments?select=turma_id&user_id=eq.${buyer.id}&course_id=eq.${c.courseId}`, { key: LOCAL_SERVICE_ROLE_KEY });
  expect(enrolled).toEqual([{ turma_id: c.turmaId }]);
  await screens(page, 'course-before-start');
  // The home's card says it too.
  await page.goto('/');
  await expect(page.getByTestId('course-card').filter({ hasText: `Curso em Turma ${tag}` }).getByTestId('turma-start')).toHaveText(
    `Sua turma começa em ${ddmm(c.startsOn)}`,
  );
  await screens(page, 'home-before-start');
  // A lesson's URL: no content, the date it opens.
  await page.goto(`/course/${c.courseId}/lesson/${c.lesson}`);
  await expect(page.getByTestId('release-pending')).toBeVisible();
  await expect(page.getByText(`Bem-vindos à turma ${tag}`)).toHaveCount(0);

  // The clock passes the start: the turma started yesterday. The first module opens; the second keeps its date.
  await api(`/rest/v1/turmas?id=eq.${c.turmaId}`, { method: 'PATCH', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify({ starts_on: saoPauloDay(-1) }) });
  await page.goto(`/course/${c.courseId}`);
  await expect(page.getByTestId('course-progress-card')).toBeVisible();
  await expect(page.getByTestId('turma-start')).toHaveCount(0);
  await expect(cards.nth(0).getByTestId('module-release')).toHaveCount(0);
  await expect(cards.nth(1).getByTestId('module-release')).toHaveText(`Libera em ${ddmm(c.secondOn)}`);
  await page.getByRole('link', { name: 'Começar curso' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Aula inaugural ${tag}` })).toBeVisible();
  await expect(page.getByText(`Bem-vindos à turma ${tag}`)).toBeVisible();

  // The turma's one seat is taken: the next buyer sees it sold out and joins the waiting list.
  const next = await freshStudent('Caio Atrasado', { enrollIn: [] });
  const context = await browser.newContext();
  const other = await context.newPage();
  await signInAs(other, next.email);
  await other.goto(`/checkout/${c.slug}`);
  const offer = other.getByTestId('turma-offer');
  await expect(offer).toContainText('Turma esgotada');
  await expect(other.getByRole('button', { name: /^Pagar/ })).toBeDisabled();
  await screens(other, 'checkout-sold-out');
  await offer.getByRole('button', { name: 'Entrar na lista de espera' }).click();
  await expect(other.getByTestId('waitlist-joined')).toContainText('Você está na lista de espera');
  const waiting = await api(`/rest/v1/turma_waitlist?select=turma_id&user_id=eq.${next.id}`, { key: LOCAL_SERVICE_ROLE_KEY });
  expect(waiting).toEqual([{ turma_id: c.turmaId }]);
  await screens(other, 'checkout-waitlist');
  await other.getByRole('button', { name: 'Sair da lista' }).click();
  await expect(offer.getByRole('button', { name: 'Entrar na lista de espera' })).toBeVisible();
  expect(await api(`/rest/v1/turma_waitlist?select=id&user_id=eq.${next.id}`, { key: LOCAL_SERVICE_ROLE_KEY })).toEqual([]);
  await context.close();
});
