// Issue 41, outside attack 1 (/work/briefs/attacks-41, docs/security.md "Sales recovery"): the attacker's test, kept
// here with its control. Each ATTACK test asserts what must hold and failed before 20261128009500_recovery_attacks_41.sql.
// Finding 1: one sale is counted as recovered several times, and each time with the whole charge.
// private.checkout_sessions_paid marks EVERY open/abandoned session of the buyer for every course of the
// payment as paid with paid_value = the payment's whole value. So
//   (a) a buyer who opened and left the same course twice (two abandoned sessions, both touched) and then
//       buys once: recovered = 2, recovered_revenue = 2 x the charge;
//   (b) a buyer who left course A and course B (B is A's order bump) and then buys A + bump B in one
//       charge: both sessions paid with the whole charge (A + B), revenue counted twice.
// Control: one abandoned session, one purchase: recovered 1, revenue = the charge.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, SCHOOL, helpers, minutes } from './recovery-attack-helpers.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const admin = backend.signedIn('adminDemo');
const h = helpers(backend);

async function totals(course: string | null = null) {
  const { data, error } = await admin.rpc('admin_recovery_totals', { p_school_id: SCHOOL.demo, p_course_id: course });
  if (error) throw error;
  return data as { abandoned: number; recovered: number; recovered_revenue: number };
}
const contact = async (id: string) => {
  const { error } = await admin.rpc('record_checkout_staff_contact', { p_session_id: id, p_channel: 'link' });
  if (error) throw error;
};

describe('recovered revenue', () => {
  it('control: one abandoned, touched session and one purchase count once with the charge', async () => {
    const buyer = await h.newBuyer('Controle');
    const id = await h.open(buyer);
    await h.run(minutes(61));
    await contact(id);
    const before = await totals();
    const p = await h.charge(buyer);
    await h.pay(p.id);
    const after = await totals();
    expect((await h.session(id)).outcome).toBe('paid');
    expect(after.recovered - before.recovered).toBe(1);
    expect(Number(after.recovered_revenue) - Number(before.recovered_revenue)).toBeCloseTo(Number(p.value), 2);
  });

  it('ATTACK (a): the same buyer left the same course twice, bought once: counted twice', async () => {
    const buyer = await h.newBuyer('Duas Vezes');
    const first = await h.open(buyer);
    await h.run(minutes(61));
    const second = await h.open(buyer); // the page opened again: a new session (the abandoned one stays)
    expect(second).not.toBe(first);
    await h.run(minutes(61));
    await contact(first);
    await contact(second);
    const before = await totals();
    const p = await h.charge(buyer);
    await h.pay(p.id);
    const after = await totals();
    const rows = await h.sql<{ id: string; outcome: string; paid_value: string }>(
      'select id, outcome, paid_value from public.checkout_sessions where user_id = $1', [buyer.id]);
    console.log('sessions after ONE payment of', p.value, rows);
    console.log('recovered +', after.recovered - before.recovered, 'revenue +', Number(after.recovered_revenue) - Number(before.recovered_revenue));
    // What should hold: one sale, its value once.
    expect(after.recovered - before.recovered).toBe(1);
    expect(Number(after.recovered_revenue) - Number(before.recovered_revenue)).toBeCloseTo(Number(p.value), 2);
  });

  it('ATTACK (b): left course A and its bump B, bought A + bump B in one charge: the charge counted twice', async () => {
    const buyer = await h.newBuyer('Com Bump');
    const a = await h.open(buyer, COURSE.marketing);
    const b = await h.open(buyer, COURSE.excel);
    await h.run(minutes(61));
    await contact(a);
    await contact(b);
    const before = await totals();
    const p = await h.charge(buyer, COURSE.marketing, null, 'PIX', true);
    await h.pay(p.id);
    const after = await totals();
    const rows = await h.sql<{ course_id: string; outcome: string; paid_value: string }>(
      'select course_id, outcome, paid_value from public.checkout_sessions where user_id = $1', [buyer.id]);
    console.log('sessions after ONE payment (course + bump) of', p.value, rows);
    console.log('recovered +', after.recovered - before.recovered, 'revenue +', Number(after.recovered_revenue) - Number(before.recovered_revenue));
    expect(Number(after.recovered_revenue) - Number(before.recovered_revenue)).toBeCloseTo(Number(p.value), 2);
  });
});
