// Issue 25, the charts' functions: each answers, for the school admin with the clock fixed, exactly the
// numbers computed here from rows written with known São Paulo dates (instants at the edges of days);
// staff, another school's rows, unpaid/refunded payments and a lesson whose quiz was not passed never
// count. The attacker's side: a student of the school, staff of another school and an anonymous caller
// are refused every function, and the activity record is out of the API's reach.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { useBackend } from '../harness.ts';
import { COURSE, EMAIL, LESSON, SCHOOL, USER } from '../rls/seed.ts';

// Friday 14 March 2025, noon in São Paulo (UTC−3 all year since 2019). The seed's rows are all in 2026.
const NOW = '2025-03-14T15:00:00Z';

const id = (n: number) => `b2500000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const S = { s1: id(1), s2: id(2), s3: id(3), s4: id(4), s5: id(5), s6: id(6), s7: id(7), staff: id(8), rival: id(9) };
const T = { course: id(20), m0: id(21), m1: id(22), l1: id(23), l2: id(24), l3: id(25), l4: id(26) };

// ── The fixtures ──────────────────────────────────────────────────────────────────────────────
const ACCOUNTS: { id: string; school: string; created: string; staff?: boolean }[] = [
  { id: S.s1, school: SCHOOL.demo, created: '2025-03-14T03:00:00Z' }, // 14/03 00:00:00 in São Paulo
  { id: S.s2, school: SCHOOL.demo, created: '2025-03-14T02:59:59Z' }, // 13/03 23:59:59
  { id: S.s3, school: SCHOOL.demo, created: '2025-03-08T03:00:00Z' }, // the 7 days' first instant
  { id: S.s4, school: SCHOOL.demo, created: '2025-03-08T02:59:59Z' }, // the previous 7 days' last second
  { id: S.s5, school: SCHOOL.demo, created: '2024-12-15T03:00:00Z' }, // the 90 days' first day, a Sunday
  { id: S.s6, school: SCHOOL.demo, created: '2024-04-01T03:00:00Z' }, // the 12 months' first instant
  { id: S.s7, school: SCHOOL.demo, created: '2024-03-31T12:00:00Z' }, // the previous 12 months
  { id: S.staff, school: SCHOOL.demo, created: '2025-03-14T12:00:00Z', staff: true },
  { id: S.rival, school: SCHOOL.rival, created: '2025-03-14T12:00:00Z' },
];

const ENROLLMENTS: { user: string; course: string; status: 'ACTIVE' | 'PAUSED'; created: string; school: string }[] = [
  { user: S.s1, course: COURSE.excel, status: 'ACTIVE', created: '2025-03-14T10:00:00Z', school: SCHOOL.demo },
  { user: S.s2, course: COURSE.excel, status: 'ACTIVE', created: '2025-03-09T02:00:00Z', school: SCHOOL.demo }, // 08/03 23:00
  { user: S.s3, course: T.course, status: 'ACTIVE', created: '2025-03-08T02:59:59Z', school: SCHOOL.demo },
  { user: S.s1, course: T.course, status: 'ACTIVE', created: '2025-03-14T11:00:00Z', school: SCHOOL.demo },
  { user: S.s2, course: T.course, status: 'PAUSED', created: '2025-02-20T12:00:00Z', school: SCHOOL.demo },
  // Staff trying their own course: an enrollment of the school, not a student of the funnel.
  { user: S.staff, course: T.course, status: 'ACTIVE', created: '2025-03-12T12:00:00Z', school: SCHOOL.demo },
  { user: S.s4, course: COURSE.excel, status: 'ACTIVE', created: '2024-05-05T12:00:00Z', school: SCHOOL.demo },
  { user: S.s7, course: COURSE.excel, status: 'ACTIVE', created: '2024-03-31T15:00:00Z', school: SCHOOL.demo },
  { user: S.rival, course: COURSE.rival, status: 'ACTIVE', created: '2025-03-14T12:00:00Z', school: SCHOOL.rival },
];

/** Progress rows as the player saves them: `at` is the write (updated_at), `completed` the completion asked for. */
const PROGRESS: { user: string; lesson: string; position: number; at: string; completed?: boolean }[] = [
  { user: S.s1, lesson: LESSON.excelPreview, position: 600, at: '2025-03-14T12:00:00Z', completed: true },
  { user: S.s1, lesson: LESSON.excelVimeo, position: 480, at: '2025-03-14T02:59:59Z', completed: true }, // 13/03
  // A quiz lesson completes only when its quiz is passed: the database drops this completion.
  { user: S.s1, lesson: LESSON.excelQuiz, position: 0, at: '2025-03-14T12:00:00Z', completed: true },
  { user: S.s1, lesson: T.l1, position: 600, at: '2025-03-10T02:59:59Z', completed: true }, // Sunday 09/03 23:59:59
  { user: S.s1, lesson: T.l3, position: 50, at: '2025-03-10T12:00:00Z' },
  { user: S.s2, lesson: T.l1, position: 150, at: '2025-03-08T03:00:00Z' },
  { user: S.s2, lesson: T.l2, position: 0, at: '2025-02-20T12:00:00Z', completed: true },
  { user: S.s3, lesson: T.l1, position: 0, at: '2025-03-01T12:00:00Z' },
  { user: S.s3, lesson: T.l3, position: 180, at: '2025-03-05T12:00:00Z' }, // then rewatched from the start
  { user: S.staff, lesson: T.l1, position: 600, at: '2025-03-14T12:00:00Z', completed: true },
  { user: S.s4, lesson: T.l1, position: 600, at: '2025-03-07T12:00:00Z', completed: true }, // not enrolled in T
  { user: S.rival, lesson: LESSON.rivalPreview, position: 420, at: '2025-03-14T12:00:00Z', completed: true },
  { user: S.s5, lesson: LESSON.excelPreview, position: 600, at: '2024-12-15T12:00:00Z', completed: true },
  { user: S.s6, lesson: LESSON.excelPreview, position: 600, at: '2024-04-01T03:00:00Z', completed: true },
  { user: S.s7, lesson: LESSON.excelPreview, position: 600, at: '2024-03-31T12:00:00Z', completed: true },
];
const quizLesson = (p: (typeof PROGRESS)[number]) => p.lesson === LESSON.excelQuiz;

const SIGN_INS: { user: string; at: string }[] = [
  { user: S.s1, at: '2025-03-12T12:00:00Z' },
  { user: S.s2, at: '2025-03-14T02:30:00Z' }, // 13/03 23:30
  { user: S.s4, at: '2025-03-07T12:00:00Z' },
  { user: S.s6, at: '2024-06-01T12:00:00Z' },
  { user: S.staff, at: '2025-03-14T12:00:00Z' },
  { user: S.rival, at: '2025-03-14T12:00:00Z' },
];

/** Values in cents. */
const PAYMENTS: { school: string; user: string; status: string; cents: number; paid: string | null; created: string }[] = [
  { school: SCHOOL.demo, user: S.s1, status: 'RECEIVED', cents: 10000, paid: '2025-03-14T03:00:00Z', created: '2025-03-10T12:00:00Z' },
  { school: SCHOOL.demo, user: S.s2, status: 'CONFIRMED', cents: 5050, paid: '2025-03-14T02:59:59Z', created: '2025-03-13T12:00:00Z' },
  { school: SCHOOL.demo, user: S.s3, status: 'REFUNDED', cents: 20000, paid: '2025-03-12T12:00:00Z', created: '2025-03-12T11:00:00Z' },
  { school: SCHOOL.demo, user: S.s3, status: 'CHARGEBACK', cents: 3000, paid: '2025-03-11T12:00:00Z', created: '2025-03-11T11:00:00Z' },
  { school: SCHOOL.demo, user: S.s4, status: 'PENDING', cents: 7000, paid: null, created: '2025-03-13T12:00:00Z' },
  { school: SCHOOL.demo, user: S.s4, status: 'RECEIVED', cents: 4025, paid: '2025-03-07T12:00:00Z', created: '2025-03-07T11:00:00Z' },
  { school: SCHOOL.demo, user: S.s6, status: 'RECEIVED', cents: 1990, paid: '2024-04-01T03:00:00Z', created: '2024-03-31T20:00:00Z' },
  { school: SCHOOL.demo, user: S.s7, status: 'RECEIVED', cents: 1000, paid: '2024-03-31T12:00:00Z', created: '2024-03-31T11:00:00Z' },
  { school: SCHOOL.rival, user: S.rival, status: 'RECEIVED', cents: 99900, paid: '2025-03-14T12:00:00Z', created: '2025-03-14T11:00:00Z' },
];

// ── What the charts must say, computed here ───────────────────────────────────────────────────
type Period = '7d' | '30d' | '90d' | '12m';
const PERIODS: Period[] = ['7d', '30d', '90d', '12m'];
const spDay = (iso: string) => new Date(Date.parse(iso) - 3 * 3_600_000).toISOString().slice(0, 10);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const addMonths = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1)).toISOString().slice(0, 10);
};
const isMonday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() === 1;

interface Range {
  first: string;
  last: string;
}
function periodOf(period: Period, now: string) {
  const today = spDay(now);
  let first: string;
  let prev: Range;
  let starts: string[];
  if (period === '12m') {
    first = addMonths(today, -11);
    prev = { first: addMonths(first, -12), last: addDays(first, -1) };
    starts = Array.from({ length: 12 }, (_, i) => addMonths(first, i));
  } else if (period === '90d') {
    // Whole ISO weeks: the 13 that end with the current one, from a Monday; the previous period is as
    // many days just before.
    const monday = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
    first = addDays(monday, -84);
    const days = (Date.parse(today) - Date.parse(first)) / 86_400_000 + 1;
    prev = { first: addDays(first, -days), last: addDays(first, -1) };
    starts = Array.from({ length: 13 }, (_, i) => addDays(first, 7 * i));
  } else {
    const days = { '7d': 7, '30d': 30 }[period];
    first = addDays(today, 1 - days);
    prev = { first: addDays(first, -days), last: addDays(first, -1) };
    starts = Array.from({ length: days }, (_, i) => addDays(first, i));
  }
  const buckets = starts.map((s, i) => ({ first: s, last: i + 1 < starts.length ? addDays(starts[i + 1]!, -1) : today }));
  return { unit: period === '12m' ? 'month' : period === '90d' ? 'week' : 'day', first, today, buckets, prev };
}

const inRange = (day: string, r: Range) => day >= r.first && day <= r.last;
const isStudent = (user: string, school: string = SCHOOL.demo) => ACCOUNTS.some((a) => a.id === user && a.school === school && !a.staff);

/** Every event of a chart as [day, who, amount]; `distinct` counts the who's of a range instead of adding. */
function chart(events: [string, string, number][], period: Period, distinct = false) {
  const p = periodOf(period, NOW);
  const value = (r: Range) => {
    const hits = events.filter(([day]) => inRange(day, r));
    return distinct ? new Set(hits.map(([, who]) => who)).size : hits.reduce((t, [, , n]) => t + n, 0);
  };
  return {
    unit: p.unit,
    from: p.first,
    to: p.today,
    points: p.buckets.map((b) => ({ start: b.first, value: value(b) })),
    total: value({ first: p.first, last: p.today }),
    previous_total: value(p.prev),
  };
}

const completions = PROGRESS.filter((p) => p.completed && !quizLesson(p));
const EXPECTED = {
  admin_chart_new_students: (school: string) =>
    ACCOUNTS.filter((a) => isStudent(a.id, school)).map((a): [string, string, number] => [spDay(a.created), a.id, 1]),
  admin_chart_new_enrollments: (school: string) =>
    ENROLLMENTS.filter((e) => e.school === school).map((e): [string, string, number] => [spDay(e.created), e.user, 1]),
  admin_chart_active_students: (school: string) =>
    [...PROGRESS.map((p) => ({ user: p.user, at: p.at })), ...SIGN_INS]
      .filter((x) => isStudent(x.user, school))
      .map((x): [string, string, number] => [spDay(x.at), x.user, 1]),
  admin_chart_lessons_completed: (school: string) =>
    completions.filter((p) => isStudent(p.user, school)).map((p): [string, string, number] => [spDay(p.at), p.user, 1]),
  admin_chart_revenue: (school: string) =>
    PAYMENTS.filter((p) => p.school === school && p.paid && !['REFUNDED', 'CHARGEBACK'].includes(p.status)).map(
      (p): [string, string, number] => [spDay(p.paid!), p.user, p.cents],
    ),
};
type ChartFn = keyof typeof EXPECTED;
const CHARTS = Object.keys(EXPECTED) as ChartFn[];

// ── The backend ───────────────────────────────────────────────────────────────────────────────
const backend = useBackend();
let db: Engine;
const admin = backend.signedIn('adminDemo');

async function sql(text: string, params: unknown[] = []) {
  return (await db.query<Record<string, unknown>>(text, params)).rows;
}
/** Backdating is not a user's write: no trigger runs (touch_timestamps keeps created_at as it was). */
async function backdate(text: string, params: unknown[]) {
  await db.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    await tx.query(text, params);
  });
}

beforeAll(async () => {
  db = backend.server.ctx.engine;
  for (const a of ACCOUNTS) {
    await sql(
      `insert into auth.users (id, email, email_confirmed_at, raw_user_meta_data) values ($1, $2, now(), jsonb_build_object('name', $3::text, 'school_id', $4::text))`,
      [a.id, `analytics-${a.id.slice(-2)}@example.com`, `Aluno ${a.id.slice(-2)}`, a.school],
    );
    await backdate('update public.profiles set created_at = $2 where id = $1', [a.id, a.created]);
  }
  await sql(`insert into public.user_roles (user_id, school_id, role) values ($1, $2, 'STAFF')`, [S.staff, SCHOOL.demo]);

  // Course T: module 1 is created first but comes second (order_index).
  await sql(`insert into public.courses (id, school_id, title, slug, status, price) values ($1, $2, 'Análise de Dados', 'analise-de-dados', 'PUBLISHED', 100)`, [T.course, SCHOOL.demo]);
  await sql(`insert into public.modules (id, course_id, title, order_index) values ($1, $3, 'Segundo módulo', 1), ($2, $3, 'Primeiro módulo', 0)`, [T.m1, T.m0, T.course]);
  await sql(
    `insert into public.lessons (id, module_id, title, video_type, duration_sec, order_index) values
       ($1, $5, 'Aula 3', 'vimeo', 200, 0), ($2, $5, 'Aula 4', 'upload', 0, 1),
       ($3, $6, 'Aula 1', 'youtube', 600, 0), ($4, $6, 'Aula 2', 'none', 0, 1)`,
    [T.l3, T.l4, T.l1, T.l2, T.m1, T.m0],
  );

  for (const e of ENROLLMENTS) {
    await sql('insert into public.enrollments (user_id, course_id, status, created_at) values ($1, $2, $3, $4)', [e.user, e.course, e.status, e.created]);
  }
  for (const p of PROGRESS) {
    await sql(
      `insert into public.progress (user_id, lesson_id, last_position_sec, completed_at, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)`,
      [p.user, p.lesson, p.position, p.completed ? p.at : null, p.at],
    );
  }
  // s3 rewatches lesson 3 from the start (a later save, at a lower position).
  await sql('update public.progress set last_position_sec = 10 where user_id = $1 and lesson_id = $2', [S.s3, T.l3]);
  for (const s of SIGN_INS) await sql('update auth.users set last_sign_in_at = $2 where id = $1', [s.user, s.at]);
  for (const p of PAYMENTS) {
    await sql(
      `insert into public.payments (school_id, user_id, course_title, environment, billing_type, value, status, paid_at, created_at)
       values ($1, $2, 'Venda de teste', 'sandbox', 'PIX', $3, $4, $5, $6)`,
      [p.school, p.user, (p.cents / 100).toFixed(2), p.status, p.paid, p.created],
    );
  }
  await sql(`insert into public.lesson_ratings (user_id, lesson_id, rating) values ($1, $4, 5), ($2, $4, 4), ($3, $5, 3)`, [S.s1, S.s2, S.s3, T.l1, T.l3]);
  await sql(
    `insert into public.lesson_comments (user_id, lesson_id, comment) values ($1, $3, 'Ótima aula'), ($1, $3, 'Tenho uma dúvida'), ($2, $3, 'Respondendo: veja o módulo 2')`,
    [S.s1, USER.instrutor, T.l1],
  );
}, 120_000);

async function call<T>(client: SupabaseClient, fn: string, args: Record<string, unknown>): Promise<T> {
  const { data, error } = await client.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message}`);
  return data as T;
}
type Chart = { unit: string; from: string; to: string; points: { start: string; value: number }[]; total: number; previous_total: number };
const inCents = (c: Chart): Chart => ({
  ...c,
  points: c.points.map((p) => ({ start: p.start, value: Math.round(p.value * 100) })),
  total: Math.round(c.total * 100),
  previous_total: Math.round(c.previous_total * 100),
});

describe('dashboard charts (school admin, clock at 14/03/2025 12:00 in São Paulo)', () => {
  it('the fixtures, spelled out once for the last 7 days (08/03 to 14/03; previous 01/03 to 07/03)', () => {
    const days = (values: number[]) => values.map((value, i) => ({ start: addDays('2025-03-08', i), value }));
    //                                                 08 09 10 11 12 13 14
    expect(chart(EXPECTED.admin_chart_new_students(SCHOOL.demo), '7d')).toMatchObject({ points: days([1, 0, 0, 0, 0, 1, 1]), total: 3, previous_total: 1 });
    expect(chart(EXPECTED.admin_chart_new_enrollments(SCHOOL.demo), '7d')).toMatchObject({ points: days([1, 0, 0, 0, 1, 0, 2]), total: 4, previous_total: 1 });
    // s1 on 09, 10, 12, 13, 14 and s2 on 08 and 13: 7 student-days, 2 students; s3 and s4 the week before.
    expect(chart(EXPECTED.admin_chart_active_students(SCHOOL.demo), '7d', true)).toMatchObject({ points: days([1, 1, 1, 0, 1, 2, 1]), total: 2, previous_total: 2 });
    expect(chart(EXPECTED.admin_chart_lessons_completed(SCHOOL.demo), '7d')).toMatchObject({ points: days([0, 1, 0, 0, 0, 1, 1]), total: 3, previous_total: 1 });
    expect(chart(EXPECTED.admin_chart_revenue(SCHOOL.demo), '7d')).toMatchObject({ points: days([0, 0, 0, 0, 0, 5050, 10000]), total: 15050, previous_total: 4025 });
    // The 90 days are whole weeks (issue 46: a first "week" of one day read "semana de 15/12", then
    // "semana de 16/12"): 13 of them from Monday 16/12/2024, the last one up to today (Friday 14/03).
    const weeks = periodOf('90d', NOW);
    expect(weeks.buckets).toHaveLength(13);
    expect(weeks.buckets.slice(0, 2)).toEqual([
      { first: '2024-12-16', last: '2024-12-22' },
      { first: '2024-12-23', last: '2024-12-29' },
    ]);
    expect(weeks.buckets.at(-1)).toEqual({ first: '2025-03-10', last: '2025-03-14' });
    expect(weeks.buckets.every((b) => isMonday(b.first))).toBe(true);
    expect(weeks.prev).toEqual({ first: '2024-09-18', last: '2024-12-15' });
    expect(periodOf('12m', NOW)).toMatchObject({ first: '2024-04-01', prev: { first: '2023-04-01', last: '2024-03-31' } });
  });

  it.each(CHARTS)('%s: every bucket of every period, the total and the previous total', async (fn) => {
    for (const period of PERIODS) {
      const got = await call<Chart>(admin, fn, { p_school_id: SCHOOL.demo, p_period: period, p_now: NOW });
      const expected = chart(EXPECTED[fn](SCHOOL.demo), period, fn === 'admin_chart_active_students');
      expect(fn === 'admin_chart_revenue' ? inCents(got) : got, `${fn} ${period}`).toEqual(expected);
    }
  });

  it('revenue is reais with 2 decimals, net of refunds and chargebacks, by the day it was paid', async () => {
    const got = await call<Chart>(admin, 'admin_chart_revenue', { p_school_id: SCHOOL.demo, p_period: '12m', p_now: NOW });
    expect(got.total).toBe(210.65); // 100,00 + 50,50 + 40,25 + 19,90; not the refund, the chargeback nor the pending
    expect(got.previous_total).toBe(10);
  });

  it('refuses a period it does not know', async () => {
    const { error } = await admin.rpc('admin_chart_new_students', { p_school_id: SCHOOL.demo, p_period: '14d', p_now: NOW });
    expect(error).toMatchObject({ code: '22023', message: 'Período inválido: use 7d, 30d, 90d ou 12m.' });
  });

  it('a sign-in is that São Paulo day’s activity', async () => {
    const today = async () => {
      const c = await call<Chart>(admin, 'admin_chart_active_students', { p_school_id: SCHOOL.demo, p_period: '7d' });
      return c.points.at(-1)!.value;
    };
    const recorded = async () =>
      (await sql(`select count(*)::int as n from private.student_activity where user_id = $1 and day = (now() at time zone 'America/Sao_Paulo')::date`, [USER.aluna]))[0]!.n;
    expect(await recorded()).toBe(0);
    const before = await today();
    await backend.signIn(EMAIL.aluna);
    expect(await recorded()).toBe(1);
    expect(await today()).toBe(before + 1);
    await backend.signIn(EMAIL.aluna);
    expect(await today()).toBe(before + 1);
  });
});

describe('course reports (course "Análise de Dados": s1 and s3 ACTIVE, s2 PAUSED)', () => {
  it('funnel: each lesson in course order with the enrolled students who started and completed it', async () => {
    const rows = await call<unknown[]>(admin, 'admin_chart_course_funnel', { p_course_id: T.course });
    // Staff (enrolled) and s4 (not enrolled) have progress on lesson 1 too: they count nowhere.
    expect(rows).toEqual([
      { lesson_id: T.l1, lesson_position: 1, module_title: 'Primeiro módulo', lesson_title: 'Aula 1', enrolled: 3, started: 3, completed: 1 },
      { lesson_id: T.l2, lesson_position: 2, module_title: 'Primeiro módulo', lesson_title: 'Aula 2', enrolled: 3, started: 1, completed: 1 },
      { lesson_id: T.l3, lesson_position: 3, module_title: 'Segundo módulo', lesson_title: 'Aula 3', enrolled: 3, started: 2, completed: 0 },
      { lesson_id: T.l4, lesson_position: 4, module_title: 'Segundo módulo', lesson_title: 'Aula 4', enrolled: 3, started: 0, completed: 0 },
    ]);
  });

  it('video retention: lessons with a video of known length; the furthest point each viewer reached', async () => {
    const rows = await call<unknown[]>(admin, 'admin_chart_video_retention', { p_course_id: T.course });
    // Aula 1 (600 s): s1 reached 600, s2 150 (exactly 25%), s3 never played it (0). Aula 3 (200 s): s1 50
    // (25%), s3 180 (90%) before rewatching from the start (last position 10). Aula 2 has no video,
    // Aula 4 no length.
    expect(rows).toEqual([
      { lesson_id: T.l1, lesson_position: 1, lesson_title: 'Aula 1', duration_sec: 600, viewers: 2, reached_25: 2, reached_50: 1, reached_75: 1, reached_90: 1 },
      { lesson_id: T.l3, lesson_position: 3, lesson_title: 'Aula 3', duration_sec: 200, viewers: 2, reached_25: 2, reached_50: 1, reached_75: 1, reached_90: 1 },
    ]);
  });

  it('engagement: average rating (1 decimal), ratings and comments per lesson', async () => {
    const rows = await call<unknown[]>(admin, 'admin_chart_lesson_engagement', { p_course_id: T.course });
    expect(rows).toEqual([
      { lesson_id: T.l1, lesson_position: 1, lesson_title: 'Aula 1', average_rating: 4.5, ratings: 2, comments: 3 },
      { lesson_id: T.l2, lesson_position: 2, lesson_title: 'Aula 2', average_rating: null, ratings: 0, comments: 0 },
      { lesson_id: T.l3, lesson_position: 3, lesson_title: 'Aula 3', average_rating: 3, ratings: 1, comments: 0 },
      { lesson_id: T.l4, lesson_position: 4, lesson_title: 'Aula 4', average_rating: null, ratings: 0, comments: 0 },
    ]);
  });
});

describe('student reports (s1)', () => {
  it('lessons completed per week (São Paulo Mondays), zeros included, oldest first', async () => {
    const rows = await call<unknown[]>(admin, 'admin_chart_student_activity', { p_user_id: S.s1, p_weeks: 4, p_now: NOW });
    // Aula 1 on Sunday 09/03 at 23:59:59 (the week of 03/03); Excel's first two lessons on 13/03 and 14/03.
    expect(rows).toEqual([
      { week_start: '2025-02-17', completed: 0 },
      { week_start: '2025-02-24', completed: 0 },
      { week_start: '2025-03-03', completed: 1 },
      { week_start: '2025-03-10', completed: 2 },
    ]);
    const twelve = await call<{ week_start: string }[]>(admin, 'admin_chart_student_activity', { p_user_id: S.s1, p_now: NOW });
    expect(twelve.map((r) => r.week_start)).toHaveLength(12);
    expect(twelve[0]!.week_start).toBe('2024-12-23');
    for (const weeks of [0, 53]) {
      const { error } = await admin.rpc('admin_chart_student_activity', { p_user_id: S.s1, p_weeks: weeks, p_now: NOW });
      expect(error).toMatchObject({ code: '22023' });
    }
  });

  it('progress per enrolled course; the quiz lesson not passed does not count', async () => {
    const rows = await call<unknown[]>(admin, 'admin_student_course_progress', { p_user_id: S.s1 });
    expect(rows).toEqual([
      { course_id: T.course, course_title: 'Análise de Dados', status: 'ACTIVE', completed: 1, total: 4, percent: 25, last_activity: '2025-03-10T12:00:00+00:00' },
      // Excel has 7 lessons: 2 completed (29%); the quiz lesson's completion was dropped.
      { course_id: COURSE.excel, course_title: 'Excel Essencial para o Trabalho', status: 'ACTIVE', completed: 2, total: 7, percent: 29, last_activity: '2025-03-14T12:00:00+00:00' },
    ]);
    const paused = await call<{ status: string }[]>(admin, 'admin_student_course_progress', { p_user_id: S.s2 });
    expect(paused.map((r) => r.status).sort()).toEqual(['ACTIVE', 'PAUSED']);
  });
});

describe('max_position_sec: the furthest point, kept by the database', () => {
  it('a rewatch from the start keeps it, and what the student sends for it is ignored', async () => {
    const aluno = await backend.signIn(EMAIL.aluno);
    const row = async () => {
      const { data, error } = await aluno.from('progress').select('last_position_sec, max_position_sec').eq('lesson_id', LESSON.excelProcv).single();
      if (error) throw new Error(error.message);
      return data;
    };
    const inserted = await aluno.from('progress').insert({ user_id: USER.aluno, lesson_id: LESSON.excelProcv, last_position_sec: 30, max_position_sec: 9999 });
    expect(inserted.error).toBeNull();
    expect(await row()).toEqual({ last_position_sec: 30, max_position_sec: 30 });
    expect((await aluno.from('progress').update({ last_position_sec: 400 }).eq('lesson_id', LESSON.excelProcv)).error).toBeNull();
    expect((await aluno.from('progress').update({ last_position_sec: 12 }).eq('lesson_id', LESSON.excelProcv)).error).toBeNull();
    expect(await row()).toEqual({ last_position_sec: 12, max_position_sec: 400 });
    const raised = await aluno.from('progress').update({ max_position_sec: 9999 }).eq('lesson_id', LESSON.excelProcv);
    expect(raised.error).not.toBeNull();
    expect(await row()).toEqual({ last_position_sec: 12, max_position_sec: 400 });
  });
});

describe('attackers', () => {
  const calls = (school: string, course: string, user: string): [string, Record<string, unknown>][] => [
    ...CHARTS.map((fn): [string, Record<string, unknown>] => [fn, { p_school_id: school, p_period: '30d', p_now: NOW }]),
    ['admin_chart_course_funnel', { p_course_id: course }],
    ['admin_chart_video_retention', { p_course_id: course }],
    ['admin_chart_lesson_engagement', { p_course_id: course }],
    ['admin_chart_student_activity', { p_user_id: user, p_now: NOW }],
    ['admin_student_course_progress', { p_user_id: user }],
  ];

  it('a student of the school is refused every function', async () => {
    const aluno = await backend.signIn(EMAIL.aluno);
    for (const [fn, args] of calls(SCHOOL.demo, T.course, S.s1)) {
      const { data, error } = await aluno.rpc(fn, args);
      expect(error, fn).toMatchObject({ code: '42501' });
      expect(data, fn).toBeNull();
    }
    // Not even about themselves.
    expect((await aluno.rpc('admin_student_course_progress', { p_user_id: USER.aluno })).error).toMatchObject({ code: '42501' });
  });

  it('staff of another school are refused this school’s numbers, and their own hold nothing of it', async () => {
    const rival = await backend.signIn(EMAIL.adminRival);
    for (const [fn, args] of calls(SCHOOL.demo, T.course, S.s1)) {
      const { data, error } = await rival.rpc(fn, args);
      expect(error, fn).toMatchObject({ code: '42501', message: 'not allowed' });
      expect(data, fn).toBeNull();
    }
    for (const fn of CHARTS) {
      const got = await call<Chart>(rival, fn, { p_school_id: SCHOOL.rival, p_period: '7d', p_now: NOW });
      const expected = chart(EXPECTED[fn](SCHOOL.rival), '7d', fn === 'admin_chart_active_students');
      expect(fn === 'admin_chart_revenue' ? inCents(got) : got, fn).toEqual(expected);
      expect(expected.total, fn).toBe(fn === 'admin_chart_revenue' ? 99900 : 1);
    }
  });

  it('an anonymous caller may execute none of them', async () => {
    const anon = backend.anon();
    for (const [fn, args] of calls(SCHOOL.demo, T.course, S.s1)) {
      const { data, error } = await anon.rpc(fn, args);
      expect(error, fn).not.toBeNull();
      expect(data, fn).toBeNull();
    }
  });

  it('the activity record is not reachable over REST, by anyone', async () => {
    for (const client of [backend.anon(), await backend.signIn(EMAIL.aluno), admin]) {
      const privateSchema = await client.schema('private').from('student_activity').select('*');
      expect(privateSchema.error).not.toBeNull();
      expect(privateSchema.data).toBeNull();
      const publicSchema = await client.from('student_activity').select('*');
      expect(publicSchema.error).not.toBeNull();
      expect(publicSchema.data).toBeNull();
    }
  });
});
