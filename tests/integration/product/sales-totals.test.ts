// Issue 24, Vendas: admin_sales and admin_sales_totals against numbers computed here, in integer cents,
// from payments written with the service role in known states, values, methods and dates (São Paulo days
// at their edges), with another school's sale in the same days that must never count.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { COURSE, EMAIL, SCHOOL, USER } from '../rls/seed.ts';

type Method = 'PIX' | 'BOLETO' | 'CREDIT_CARD';
interface Sale {
  id: string;
  school: string;
  user: string;
  method: Method;
  status: string;
  /** Charged, and the coupon's discount, in cents. */
  value: number;
  discount: number;
  paid: boolean;
  created: string;
  /** The course's and (optionally) the bump's value in cents: they add up to `value`. */
  items: { kind: 'course' | 'bump'; course: string; value: number; discount?: number }[];
  coupon?: string;
}

const sale = (s: Omit<Sale, 'id' | 'school' | 'user'> & Partial<Pick<Sale, 'school' | 'user'>>): Sale => ({ id: randomUUID(), school: SCHOOL.demo, user: USER.aluna, ...s });

// March 2025 in São Paulo (UTC−3) runs from 2025-03-01T03:00:00Z to 2025-04-01T02:59:59Z.
const SALES: Sale[] = [
  sale({ method: 'PIX', status: 'CONFIRMED', value: 23760, discount: 5940, paid: true, created: '2025-03-01T03:00:00Z', coupon: 'BEMVINDO20', items: [{ kind: 'course', course: COURSE.marketing, value: 23760, discount: 5940 }] }),
  sale({ method: 'PIX', status: 'RECEIVED', value: 29700, discount: 0, paid: true, created: '2025-03-10T12:00:00Z', user: USER.aluno, items: [{ kind: 'course', course: COURSE.marketing, value: 29700 }] }),
  sale({
    method: 'CREDIT_CARD',
    status: 'REFUNDED',
    value: 33460,
    discount: 5940,
    paid: true,
    created: '2025-03-15T15:30:00Z',
    coupon: 'BEMVINDO20',
    items: [
      { kind: 'course', course: COURSE.marketing, value: 23760, discount: 5940 },
      { kind: 'bump', course: COURSE.excel, value: 9700 },
    ],
  }),
  sale({ method: 'BOLETO', status: 'PENDING', value: 15000, discount: 0, paid: false, created: '2025-03-16T10:00:00Z', items: [{ kind: 'course', course: COURSE.excel, value: 15000 }] }),
  sale({ method: 'CREDIT_CARD', status: 'CHARGEBACK', value: 9990, discount: 0, paid: true, created: '2025-03-20T18:00:00Z', items: [{ kind: 'course', course: COURSE.excel, value: 9990 }] }),
  sale({ method: 'BOLETO', status: 'OVERDUE', value: 12000, discount: 0, paid: false, created: '2025-03-21T10:00:00Z', items: [{ kind: 'course', course: COURSE.marketing, value: 12000 }] }),
  sale({ method: 'PIX', status: 'FAILED', value: 1000, discount: 0, paid: false, created: '2025-03-22T10:00:00Z', items: [{ kind: 'course', course: COURSE.marketing, value: 1000 }] }),
  sale({ method: 'BOLETO', status: 'RECEIVED', value: 12345, discount: 0, paid: true, created: '2025-03-25T10:00:00Z', user: USER.aluno, items: [{ kind: 'course', course: COURSE.excel, value: 12345 }] }),
  // The last minute of 31 March in São Paulo (01 April in UTC): in the period.
  sale({ method: 'PIX', status: 'CONFIRMED', value: 29700, discount: 0, paid: true, created: '2025-04-01T02:59:00Z', items: [{ kind: 'course', course: COURSE.marketing, value: 29700 }] }),
  // 28 February at 23:59:59 and 01 April at 00:00 in São Paulo: outside.
  sale({ method: 'PIX', status: 'CONFIRMED', value: 29700, discount: 0, paid: true, created: '2025-03-01T02:59:59Z', items: [{ kind: 'course', course: COURSE.marketing, value: 29700 }] }),
  sale({ method: 'CREDIT_CARD', status: 'CONFIRMED', value: 29700, discount: 0, paid: true, created: '2025-04-01T03:00:00Z', items: [{ kind: 'course', course: COURSE.marketing, value: 29700 }] }),
  // Another school, in the period.
  sale({ school: SCHOOL.rival, user: USER.alunoRival, method: 'PIX', status: 'CONFIRMED', value: 50000, discount: 0, paid: true, created: '2025-03-12T12:00:00Z', items: [{ kind: 'course', course: COURSE.rival, value: 50000 }] }),
];
const FROM = '2025-03-01';
const TO = '2025-03-31';

const backend = useBackend();
const admin = backend.signedIn('adminDemo');

beforeAll(async () => {
  const service = backend.service();
  const money = (cents: number) => (cents / 100).toFixed(2);
  const { error } = await service.from('payments').insert(
    SALES.map((s) => ({
      id: s.id,
      school_id: s.school,
      user_id: s.user,
      course_id: s.items[0]!.course,
      course_title: 'Venda de teste',
      environment: 'sandbox',
      billing_type: s.method,
      status: s.status,
      value: money(s.value),
      discount: money(s.discount),
      coupon_code: s.coupon ?? null,
      paid_at: s.paid ? s.created : null,
      created_at: s.created,
    })),
  );
  if (error) throw new Error(error.message);
  const items = await service.from('payment_items').insert(
    SALES.flatMap((s) =>
      s.items.map((i) => ({
        payment_id: s.id,
        school_id: s.school,
        kind: i.kind,
        course_id: i.course,
        title: i.kind === 'bump' ? 'Excel (bump)' : 'Curso',
        list_price: money(i.value + (i.discount ?? 0)),
        discount: money(i.discount ?? 0),
        value: money(i.value),
      })),
    ),
  );
  if (items.error) throw new Error(items.error.message);
}, 120_000);

// ── What the totals must be, computed here ──────────────────────────────────────────────────
const inPeriod = (s: Sale) => {
  const day = new Date(Date.parse(s.created) - 3 * 3_600_000).toISOString().slice(0, 10);
  return s.school === SCHOOL.demo && day >= FROM && day <= TO;
};
const refunded = (s: Sale) => (s.status === 'REFUNDED' || s.status === 'CHARGEBACK' ? s.value : 0);

function expectedTotals(filter: (s: Sale) => boolean) {
  const paid = SALES.filter((s) => inPeriod(s) && s.paid && filter(s));
  const sum = (rows: Sale[], f: (s: Sale) => number) => rows.reduce((t, s) => t + f(s), 0);
  const block = (rows: Sale[]) => {
    const gross = sum(rows, (s) => s.value + s.discount);
    const discounts = sum(rows, (s) => s.discount);
    const back = sum(rows, refunded);
    return { count: rows.length, gross, discounts, refunded: back, net: gross - discounts - back };
  };
  const methods = [...new Set(paid.map((s) => s.method))].sort();
  return { ...block(paid), by_method: methods.map((method) => ({ method, ...block(paid.filter((s) => s.method === method)) })) };
}

/** The RPC's jsonb with every amount in cents (the database answers numeric reais). */
function inCents(t: Record<string, unknown>) {
  const cents = (v: unknown) => Math.round(Number(v) * 100);
  const block = (b: Record<string, unknown>) => ({ count: Number(b.count), gross: cents(b.gross), discounts: cents(b.discounts), refunded: cents(b.refunded), net: cents(b.net) });
  return { ...block(t), by_method: (t.by_method as Record<string, unknown>[]).map((m) => ({ method: m.method, ...block(m) })) };
}

async function totals(client: SupabaseClient, args: Record<string, unknown>) {
  const { data, error } = await client.rpc('admin_sales_totals', { p_from: FROM, p_to: TO, ...args });
  if (error) throw new Error(error.message);
  return inCents(data as Record<string, unknown>);
}

describe('admin_sales_totals', () => {
  it('the period: gross, discounts, refunded and net of the paid sales, in all and by method', async () => {
    const expected = expectedTotals(() => true);
    // The arithmetic of the fixtures, spelled out once: 6 paid sales in March.
    expect(expected).toMatchObject({ count: 6, gross: 29700 + 29700 + 39400 + 9990 + 12345 + 29700, discounts: 11880, refunded: 33460 + 9990 });
    expect(await totals(admin, {})).toEqual(expected);
  });

  it('by method and by course (a course counts when any item is it: the bump too)', async () => {
    for (const method of ['PIX', 'BOLETO', 'CREDIT_CARD'] as const) {
      expect(await totals(admin, { p_method: method }), method).toEqual(expectedTotals((s) => s.method === method));
    }
    const excel = expectedTotals((s) => s.items.some((i) => i.course === COURSE.excel));
    expect(excel.count).toBe(3);
    expect(await totals(admin, { p_course_id: COURSE.excel })).toEqual(excel);
    expect(await totals(admin, { p_course_id: COURSE.excel, p_method: 'CREDIT_CARD' })).toEqual(expectedTotals((s) => s.method === 'CREDIT_CARD' && s.items.some((i) => i.course === COURSE.excel)));
  });

  it('an empty period is zeros', async () => {
    const { data } = await admin.rpc('admin_sales_totals', { p_from: '2001-01-01', p_to: '2001-01-31' });
    expect(inCents(data as Record<string, unknown>)).toEqual({ count: 0, gross: 0, discounts: 0, refunded: 0, net: 0, by_method: [] });
  });
});

describe('admin_sales', () => {
  const ids = (f: (s: Sale) => boolean) =>
    SALES.filter((s) => inPeriod(s) && f(s))
      .sort((a, b) => b.created.localeCompare(a.created))
      .map((s) => s.id);

  async function sales(args: Record<string, unknown>) {
    const { data, error } = await admin.rpc('admin_sales', { p_from: FROM, p_to: TO, ...args });
    if (error) throw new Error(error.message);
    return data as Record<string, unknown>[];
  }

  it('every sale of the period, newest first, with its buyer, items, value, discount and coupon', async () => {
    const rows = await sales({ p_limit: 100 });
    expect(rows.map((r) => r.id)).toEqual(ids(() => true));
    expect(rows.every((r) => Number(r.total_count) === 9)).toBe(true);
    const bump = rows.find((r) => r.id === SALES[2]!.id)!;
    expect(bump).toMatchObject({ buyer_id: USER.aluna, buyer_email: EMAIL.aluna, billing_type: 'CREDIT_CARD', status: 'REFUNDED', coupon_code: 'BEMVINDO20' });
    expect(Math.round(Number(bump.value) * 100)).toBe(33460);
    expect(Math.round(Number(bump.discount) * 100)).toBe(5940);
    const items = bump.items as { kind: string; course_id: string; value: number }[];
    expect(items.map((i) => [i.kind, i.course_id, Math.round(Number(i.value) * 100)])).toEqual([
      ['course', COURSE.marketing, 23760],
      ['bump', COURSE.excel, 9700],
    ]);
    // The sum of each sale's items is what it charged.
    for (const r of rows) expect((r.items as { value: number }[]).reduce((t, i) => t + Math.round(Number(i.value) * 100), 0)).toBe(Math.round(Number(r.value) * 100));
  });

  it('filters by status, method and course, and pages with the total of the filter', async () => {
    expect((await sales({ p_status: 'REFUNDED' })).map((r) => r.id)).toEqual(ids((s) => s.status === 'REFUNDED'));
    expect((await sales({ p_method: 'BOLETO' })).map((r) => r.id)).toEqual(ids((s) => s.method === 'BOLETO'));
    expect((await sales({ p_course_id: COURSE.excel })).map((r) => r.id)).toEqual(ids((s) => s.items.some((i) => i.course === COURSE.excel)));
    const all = ids(() => true);
    const page2 = await sales({ p_limit: 4, p_offset: 4 });
    expect(page2.map((r) => r.id)).toEqual(all.slice(4, 8));
    expect(Number(page2[0]!.total_count)).toBe(all.length);
  });

  it('is for the staff of the school: a student, another school’s staff and a visitor are refused', async () => {
    const rival = await backend.signIn(EMAIL.adminRival);
    expect((await rival.rpc('admin_sales', { p_school_id: SCHOOL.demo })).error).not.toBeNull();
    expect((await rival.rpc('admin_sales_totals', { p_school_id: SCHOOL.demo })).error).not.toBeNull();
    // Their own school's sales only.
    const own = (await rival.rpc('admin_sales', { p_from: FROM, p_to: TO })).data as { id: string }[];
    expect(own.map((r) => r.id)).toEqual([SALES.at(-1)!.id]);
    const aluna = await backend.signIn(EMAIL.aluna);
    expect((await aluna.rpc('admin_sales', {})).error).not.toBeNull();
    expect((await aluna.rpc('admin_sales_totals', {})).error).not.toBeNull();
    expect((await backend.anon().rpc('admin_sales_totals', { p_school_id: SCHOOL.demo })).error).not.toBeNull();
  });
});
