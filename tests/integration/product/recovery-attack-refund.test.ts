// Issue 41, outside attack 9 (/work/briefs/attacks-41, docs/security.md "Sales recovery"): the attacker's test, kept
// here with its control. Each ATTACK test asserts what must hold and failed before 20261128009500_recovery_attacks_41.sql.
// Finding 9: a recovered sale that is refunded (or charged back) stays "recovered" with its whole value.
// Nothing moves a paid session when its payment becomes REFUNDED/CHARGEBACK (checkout_sessions_on_payment only
// looks at open sessions), and admin_recovery_totals sums paid_value of every paid session. The dashboard's
// "Recuperado: R$ X" sits beside a revenue that no longer counts the refund; a buyer within the 7-day
// guarantee who buys and refunds inflates the school's "recovered revenue" at no cost.
// Control: the same flow without the refund counts the sale once (and the refund really went through:
// payment REFUNDED, enrollment no longer active).
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { SCHOOL, helpers, minutes } from './recovery-attack-helpers.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const admin = backend.signedIn('adminDemo');
const h = helpers(backend);
const totals = async () => (await admin.rpc('admin_recovery_totals', { p_school_id: SCHOOL.demo })).data as { recovered: number; recovered_revenue: number };

describe('refund after recovery', () => {
  it('ATTACK: bought after a touch, then refunded: still counted as recovered revenue', async () => {
    const buyer = await h.newBuyer('Reembolso');
    const id = await h.open(buyer);
    await h.run(minutes(61));
    expect((await admin.rpc('record_checkout_staff_contact', { p_session_id: id, p_channel: 'whatsapp' })).error).toBeNull();
    const p = await h.charge(buyer);
    await h.pay(p.id);
    const paid = await totals();
    expect(paid.recovered).toBe(1); // control: the sale counts once
    // The refund as the webhook writes it (PAYMENT_REFUNDED): the payment and the enrollment.
    await h.sql(`update public.payments set status = 'REFUNDED' where id = $1`, [p.id]);
    await h.sql(`update public.enrollments set status = 'CANCELLED' where user_id = $1`, [buyer.id]).catch(async () =>
      h.sql(`update public.enrollments set expires_at = now() - interval '1 second' where user_id = $1`, [buyer.id]));
    const refunded = await totals();
    console.log('before refund', paid, 'after refund', refunded, 'session', (await h.session(id)).outcome);
    expect(Number(refunded.recovered_revenue)).toBe(0);
  });
});
