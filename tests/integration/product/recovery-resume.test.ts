// Issue 41: the reopen link continues the abandoned session (docs/recovery.md "The reopen link"). Before, the
// reopened checkout opened a second session beside the abandoned one, so a recovered sale was two cards in
// Recuperação. The checkout page's calls are made as the page makes them: resume_checkout_session, then
// open_checkout_session with the restored choices, then the charge (create_checkout_payment, as
// create-asaas-charge calls it) and Asaas's confirmation.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { SCHOOL } from '../rls/seed.ts';

const INTEGRATION = 'ee000000-0000-4000-8000-000000000001';
const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const aluna = backend.signedIn('aluna');
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => backend.sql<T>(text, params);
const minutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

interface Buyer { id: string; client: SupabaseClient }
const newBuyer = async (): Promise<Buyer> => backend.signedInAccount({ prefix: 'retoma', name: 'Rita Retoma', school: SCHOOL.demo });
async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const open = (b: Buyer, course: string, coupon: string | null = null) =>
  must(b.client.rpc('open_checkout_session', { p_course_id: course, p_coupon_code: coupon, p_with_bump: false })) as Promise<string>;
const run = (at: string) => must(service.rpc('run_checkout_recovery', { p_now: at }));
const resume = (b: Buyer, id: string) => must(b.client.rpc('resume_checkout_session', { p_session_id: id })) as Promise<{ outcome: string; coupon_code: string | null; pending_charge: unknown }>;
async function charge(b: Buyer, course: string, coupon: string | null) {
  return (await must(service.rpc('create_checkout_payment', {
    p_user_id: b.id, p_course_id: course, p_coupon_code: coupon, p_with_bump: false, p_billing_type: 'PIX',
    p_installment_count: 1, p_environment: 'sandbox', p_integration_id: INTEGRATION,
  }).single())) as { id: string; value: string };
}
const pay = (paymentId: string) => sql(`update public.payments set status = 'CONFIRMED', paid_at = now() where id = $1`, [paymentId]);
const sessionsOf = (b: Buyer, course: string) =>
  sql<{ id: string; outcome: string; abandoned_at: unknown; touches_sent: number; coupon_code: string | null; paid_value: string | null; payment_id: string | null }>(
    'select * from public.checkout_sessions where user_id = $1 and course_id = $2 order by opened_at', [b.id, course]);
async function newCourse(title: string) {
  return (await sql<{ id: string }>(
    `insert into public.courses (school_id, title, slug, price, status) values ($1, $2, 'retomada-' || floor(random() * 1e9)::text, 200, 'PUBLISHED') returning id`,
    [SCHOOL.demo, title]))[0]!.id;
}
/** Opened, left, abandoned after the hour, the first e-mail an hour later (sent three hours back on the clock). */
async function abandonedWithTouch(b: Buyer, course: string, coupon: string | null = null) {
  const id = await open(b, course, coupon);
  await run(minutes(61));
  await run(minutes(121));
  await sql(`update public.checkout_session_touches set created_at = created_at - interval '3 hours' where session_id = $1`, [id]);
  expect((await sessionsOf(b, course))[0]).toMatchObject({ id, outcome: 'abandoned', touches_sent: 1 });
  return id;
}

describe('the reopen link continues the abandoned session', () => {
  it('reopen → pay: exactly one session for the buyer and course, paid, recovered once; the numbers equal an independent computation', async () => {
    const course = await newCourse('Curso da Retomada');
    const buyer = await newBuyer();
    const id = await abandonedWithTouch(buyer, course);
    // A second buyer who abandons and never comes back: the period's other row.
    const other = await newBuyer();
    await abandonedWithTouch(other, course);

    // The page: the link, then the step with the restored choices, then Pagar.
    expect(await resume(buyer, id)).toMatchObject({ outcome: 'open' });
    expect(await open(buyer, course)).toBe(id);
    const payment = await charge(buyer, course, null);
    expect((await sessionsOf(buyer, course))[0]).toMatchObject({ id, outcome: 'open', payment_id: payment.id });
    await pay(payment.id);

    const rows = await sessionsOf(buyer, course);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, outcome: 'paid', touches_sent: 1 });
    expect(Number(rows[0]!.paid_value)).toBe(Number(payment.value));
    expect(rows[0]!.abandoned_at).not.toBeNull();

    // Recuperação: one card for the buyer, recovered.
    const list = (await must(admin.rpc('admin_checkout_sessions', { p_school_id: SCHOOL.demo, p_course_id: course, p_limit: 500 }))) as { id: string; buyer_id: string; recovered: boolean; outcome: string }[];
    expect(list.filter((r) => r.buyer_id === buyer.id)).toEqual([expect.objectContaining({ id, outcome: 'paid', recovered: true })]);

    // Independently: the sessions abandoned, those paid within 7 days after a touch made before the payment.
    const sessions = await sql<{ id: string; outcome: string; paid_value: string | null; ended_at: number | null }>(
      `select id, outcome, paid_value, (extract(epoch from ended_at) * 1000)::float8 as ended_at from public.checkout_sessions
        where course_id = $1 and abandoned_at is not null`, [course]);
    const touches = await sql<{ session_id: string; touch_number: number; created_at: number }>(
      `select t.session_id, t.touch_number, (extract(epoch from t.created_at) * 1000)::float8 as created_at
         from public.checkout_session_touches t join public.checkout_sessions s on s.id = t.session_id where s.course_id = $1`, [course]);
    const recovered = sessions.filter((s) => s.outcome === 'paid'
      && touches.some((t) => t.session_id === s.id && Number(t.created_at) <= Number(s.ended_at) && Number(s.ended_at) <= Number(t.created_at) + 7 * 86_400_000));
    const expected = {
      abandoned: sessions.length,
      recovered: recovered.length,
      recovered_revenue: recovered.reduce((sum, s) => sum + Number(s.paid_value), 0),
      by_touch: [1, 2, 3].map((n) => {
        const sent = touches.filter((t) => t.touch_number === n).length;
        const won = n === 1 ? recovered.length : 0;
        return { touch: n, sent, recovered: won, conversion: sent ? Math.round((won / sent) * 10_000) / 10_000 : null };
      }),
      by_staff: { contacted: 0, recovered: 0 },
    };
    expect(expected).toMatchObject({ abandoned: 2, recovered: 1, recovered_revenue: Number(payment.value) });
    expect(await must(admin.rpc('admin_recovery_totals', { p_school_id: SCHOOL.demo, p_course_id: course }))).toEqual(expected);
  });

  it('the reopened session keeps its coupon and touches; a checkout opened meanwhile is folded into it; left again, the sequence goes on from the next touch', async () => {
    const course = await newCourse('Curso do Cupom');
    await sql(`insert into public.coupon_courses (coupon_id, course_id) select id, $1 from public.coupons where school_id = $2 and code = 'BEMVINDO20' and not all_courses`, [course, SCHOOL.demo]);
    const buyer = await newBuyer();
    const id = await abandonedWithTouch(buyer, course, 'BEMVINDO20');
    // Meanwhile the buyer opened the checkout again without the link (a second, plain session).
    const plain = await open(buyer, course);
    expect(plain).not.toBe(id);
    expect(await sessionsOf(buyer, course)).toHaveLength(2);

    expect(await resume(buyer, id)).toMatchObject({ outcome: 'open', coupon_code: 'BEMVINDO20' });
    expect(await sessionsOf(buyer, course)).toEqual([expect.objectContaining({ id, outcome: 'open', coupon_code: 'BEMVINDO20', touches_sent: 1 })]);

    // Left again: abandoned an hour after the resume, not before; its first abandonment stays the report's.
    const firstAbandoned = (await sql<{ at: number }>('select (extract(epoch from abandoned_at) * 1000)::float8 as at from public.checkout_sessions where id = $1', [id]))[0]!.at;
    await run(minutes(59));
    expect((await sessionsOf(buyer, course))[0]!.outcome).toBe('open');
    await run(minutes(61));
    const again = (await sql<{ outcome: string; at: number; next: number }>(
      `select outcome, (extract(epoch from abandoned_at) * 1000)::float8 as at, (extract(epoch from next_touch_at) * 1000)::float8 as next
         from public.checkout_sessions where id = $1`, [id]))[0]!;
    expect(again.outcome).toBe('abandoned');
    expect(Number(again.at)).toBe(Number(firstAbandoned));
    // The second touch's own delay (24 h after the first abandonment), not the first's again.
    expect(Number(again.next)).toBe(Number(firstAbandoned) + 1440 * 60_000);
    await run(minutes(24 * 60 + 120));
    expect((await sessionsOf(buyer, course))[0]).toMatchObject({ touches_sent: 2 });
  });

  it('another buyer\'s link reopens nothing; the buyer\'s own does (control)', async () => {
    const course = await newCourse('Curso do Link Alheio');
    const buyer = await newBuyer();
    const id = await abandonedWithTouch(buyer, course);
    const stolen = await aluna.rpc('resume_checkout_session', { p_session_id: id });
    expect(stolen.error?.message).toBe('Link de checkout não encontrado.');
    expect((await sessionsOf(buyer, course))[0]).toMatchObject({ outcome: 'abandoned' });
    expect((await sql('select 1 from public.checkout_sessions where course_id = $1 and user_id <> $2', [course, buyer.id])).length).toBe(0);
    expect(await resume(buyer, id)).toMatchObject({ outcome: 'open' });
  });
});
