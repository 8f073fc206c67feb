// Issue 37, hole 3: one staff call stopped the whole API. admin_chart_new_students(p_now => 'infinity')
// made generate_series count days to infinity: the backend hung for everyone and its memory grew
// without bound. Every parameter a staff function sizes its work by is now bounded in the database
// (migration 20261128000300), refused at once with a pt-BR 22023: the instant a chart is computed at
// (2000 to a day from now), the period (7d/30d/90d/12m), the weeks of a student's activity (1..52),
// the sales filter's dates (2000..2100) and the staff lists' search terms (200 characters). The
// legitimate calls answer as before. Each attack runs with a client-side abort, so that a server
// without the bounds fails the test instead of hanging it (the statement timeout, 8 s, ends it too).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { useBackend } from '../harness.ts';
import { EMAIL, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
let db: Engine;
const admin = backend.signedIn('adminDemo');

beforeAll(async () => {
  db = backend.server.ctx.engine;
});

const CHARTS = ['admin_chart_new_students', 'admin_chart_new_enrollments', 'admin_chart_active_students', 'admin_chart_lessons_completed', 'admin_chart_revenue'];
const DAY = 86_400_000;
const NOW_MESSAGE = 'Data de referência inválida: use um momento entre 01/01/2000 e amanhã.';

/** One call, abandoned by the client after 20 s: a hang fails the test instead of stopping it. */
async function call(fn: string, args: Record<string, unknown>) {
  const { data, error } = await admin.rpc(fn, args).abortSignal(AbortSignal.timeout(20_000));
  return { data, error: error && { code: error.code, message: error.message } };
}

/** The server answers at once afterwards, and no call of the attack is still running in the database. */
async function expectNothingLeftRunning() {
  expect((await db.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }]);
  if (db.kind === 'postgres') {
    const running = await db.query<{ query: string }>(
      `select query from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
    );
    expect(running.rows).toEqual([]);
  }
}

describe('dashboard charts: the instant and the period', () => {
  it('refuses an instant out of range (infinite, before 2000, later than tomorrow) at once', { timeout: 120_000 }, async () => {
    const instants = ['infinity', '-infinity', '1999-12-31T23:59:59Z', new Date(Date.now() + 2 * DAY).toISOString(), '3000-01-01T00:00:00Z'];
    for (const fn of CHARTS) {
      for (const p_now of instants) {
        expect(await call(fn, { p_school_id: SCHOOL.demo, p_period: '90d', p_now }), `${fn} ${p_now}`).toEqual({
          data: null,
          error: { code: '22023', message: NOW_MESSAGE },
        });
      }
    }
    await expectNothingLeftRunning();
  });

  it('refuses a period out of the list, in pt-BR', async () => {
    for (const p_period of ['14d', '', '9999999d', '12m; select 1']) {
      expect(await call('admin_chart_new_students', { p_school_id: SCHOOL.demo, p_period, p_now: '2025-03-14T15:00:00Z' })).toEqual({
        data: null,
        error: { code: '22023', message: 'Período inválido: use 7d, 30d, 90d ou 12m.' },
      });
    }
  });

  it('control: every chart answers for now, for a past instant and for tomorrow, every period', async () => {
    for (const fn of CHARTS) {
      for (const [p_period, buckets] of [['7d', 7], ['30d', 30], ['12m', 12]] as const) {
        const { data, error } = await call(fn, { p_school_id: SCHOOL.demo, p_period });
        expect(error, fn).toBeNull();
        expect((data as { points: unknown[] }).points, `${fn} ${p_period}`).toHaveLength(buckets);
      }
      for (const p_now of ['2000-01-01T03:00:00Z', '2025-03-14T15:00:00Z', new Date(Date.now() + DAY / 2).toISOString()]) {
        const { data, error } = await call(fn, { p_school_id: SCHOOL.demo, p_period: '90d', p_now });
        expect(error, `${fn} ${p_now}`).toBeNull();
        expect((data as { unit: string }).unit).toBe('week');
      }
    }
  });
});

describe("a student's weekly activity", () => {
  it('refuses an instant out of range and a week count out of 1..52', { timeout: 60_000 }, async () => {
    for (const p_now of ['infinity', '-infinity', '1500-01-01T00:00:00Z']) {
      expect(await call('admin_chart_student_activity', { p_user_id: USER.aluno, p_now }), p_now).toEqual({
        data: null,
        error: { code: '22023', message: NOW_MESSAGE },
      });
    }
    for (const p_weeks of [0, 53, 2_000_000_000, -1]) {
      expect(await call('admin_chart_student_activity', { p_user_id: USER.aluno, p_weeks }), String(p_weeks)).toEqual({
        data: null,
        error: { code: '22023', message: 'Número de semanas inválido: use de 1 a 52.' },
      });
    }
    await expectNothingLeftRunning();
  });

  it('control: 1 and 52 weeks, now and in the past', async () => {
    for (const [p_weeks, p_now] of [[1, undefined], [52, undefined], [12, '2025-03-14T15:00:00Z']] as const) {
      const { data, error } = await call('admin_chart_student_activity', { p_user_id: USER.aluno, p_weeks, ...(p_now ? { p_now } : {}) });
      expect(error).toBeNull();
      expect(data).toHaveLength(p_weeks);
    }
  });
});

describe('sales: the filter dates', () => {
  it('refuses infinite or absurd dates', async () => {
    for (const [p_from, p_to] of [['-infinity', null], [null, 'infinity'], ['1900-01-01', '2025-01-01'], ['2025-01-01', '9999-12-31']]) {
      for (const fn of ['admin_sales', 'admin_sales_totals']) {
        expect(await call(fn, { p_school_id: SCHOOL.demo, p_from, p_to }), `${fn} ${p_from} ${p_to}`).toEqual({
          data: null,
          error: { code: '22023', message: 'Data inválida no filtro: use datas entre 01/01/2000 e 31/12/2100.' },
        });
      }
    }
  });

  it('control: a date range and no dates answer', async () => {
    for (const [p_from, p_to] of [[null, null], ['2000-01-01', '2100-12-31'], ['2026-01-01', '2026-12-31']]) {
      const sales = await call('admin_sales', { p_school_id: SCHOOL.demo, p_from, p_to });
      expect(sales.error).toBeNull();
      expect(Array.isArray(sales.data)).toBe(true);
      const totals = await call('admin_sales_totals', { p_school_id: SCHOOL.demo, p_from, p_to });
      expect(totals.error).toBeNull();
      expect(totals.data).toHaveProperty('net');
    }
  });
});

describe('staff lists: the search term', () => {
  const LONG = 'a'.repeat(200_000);

  it('refuses a search longer than 200 characters', async () => {
    expect(await call('admin_list_students', { p_school_id: SCHOOL.demo, p_search: LONG })).toEqual({
      data: null,
      error: { code: '22023', message: 'Busca muito longa: use até 200 caracteres.' },
    });
    expect(await call('admin_comments', { p_school_id: SCHOOL.demo, p_search: `%${LONG}%` })).toEqual({
      data: null,
      error: { code: '22023', message: 'Busca muito longa: use até 200 caracteres.' },
    });
  });

  it('control: a search finds, and 200 characters are allowed', async () => {
    const found = await call('admin_list_students', { p_school_id: SCHOOL.demo, p_search: 'aluno@escola-demo' });
    expect(found.error).toBeNull();
    expect((found.data as { email: string }[]).map((s) => s.email)).toContain(EMAIL.aluno);
    expect(await call('admin_list_students', { p_school_id: SCHOOL.demo, p_search: 'x'.repeat(200) })).toEqual({ data: [], error: null });
    const comments = await call('admin_comments', { p_school_id: SCHOOL.demo, p_search: 'x'.repeat(200) });
    expect(comments).toEqual({ data: [], error: null });
  });
});
