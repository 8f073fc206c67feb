// Issue 41, outside attack 11 (/work/briefs/attacks-41, docs/security.md "Sales recovery"): the attacker's test, kept
// here with its control. Each ATTACK test asserts what must hold and failed before 20261128009500_recovery_attacks_41.sql.
// Finding 11 (009001, plan checkouts): finding 4 holds for plans too. Each abandoned plan session runs its own
// sequence; open_plan_checkout_session after an abandonment starts a new one and nothing ends the older one.
// (checkout_sessions_paid, extended to plans, also marks every open/abandoned session of the plan paid with
// the invoice's whole value: finding 1's double count applies to plans the same way.)
// Control: one abandonment of the plan, 3 e-mails.
// Run (84c44ad or later): cd /work/main && DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx vitest run --config /work/briefs/attacks-41/vitest.config.mts f11
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { SCHOOL, helpers, minutes, type Buyer } from './recovery-attack-helpers.ts';

const PLAN = 'ab000000-0000-4000-8000-000000000001'; // Plano Completo (seed)
const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const h = helpers(backend);

async function leavePlan(buyer: Buyer, n: number) {
  for (let i = 0; i < n; i++) {
    const { error } = await buyer.client.rpc('open_plan_checkout_session', { p_plan_id: PLAN });
    if (error) throw error;
    await h.run(minutes(61));
  }
}
async function twentyDays() {
  for (let hour = 2; hour <= 20 * 24; hour += 6) await h.run(minutes(hour * 60));
}
const emails = async (b: Buyer) =>
  Number((await h.sql<{ n: string }>(`select count(*) n from public.email_outbox where user_id = $1 and kind = 'checkout_recovery'`, [b.id]))[0]!.n);

describe('plan checkouts', () => {
  it('control: one abandonment of the plan, 3 e-mails', async () => {
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true, delays_minutes: [60, 1440, 4320], coupon_percent: null });
    const buyer = await h.newBuyer('Plano Uma');
    await leavePlan(buyer, 1);
    await twentyDays();
    expect(await emails(buyer)).toBe(3);
  });
  it('ATTACK: the plan opened and left 3 times: 9 e-mails', async () => {
    const buyer = await h.newBuyer('Plano Tres');
    await leavePlan(buyer, 3);
    await twentyDays();
    const n = await emails(buyer);
    console.log('plan left 3 times, recovery e-mails:', n);
    expect(n).toBeLessThanOrEqual(3);
  });
});
