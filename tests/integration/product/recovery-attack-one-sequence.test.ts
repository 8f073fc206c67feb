// Issue 41, outside attack 4 (/work/briefs/attacks-41, docs/security.md "Sales recovery"): the attacker's test, kept
// here with its control. Each ATTACK test asserts what must hold and failed before 20261128009500_recovery_attacks_41.sql.
// Finding 4: every abandoned session of the same buyer and course runs its own full sequence. Opening the
// checkout again after an abandonment starts a new session (docs/recovery.md: "an abandoned session stays"),
// and nothing ends the older session's sequence. A buyer who opened the same course N times gets N x 3
// recovery e-mails for one course (spread one a day, so the sequence runs for N x 3 days instead of 3) and N
// recovery coupons (each single-use, but several valid at once; a buyer learns that re-opening and leaving
// regenerates the discount). Someone who opens the checkout 20 times an afternoon buys 60 days of e-mails.
// Expected (issue 41: "one open session per buyer and offer", "a sequence of up to 3 e-mails"): at most 3
// e-mails and one coupon per buyer and course; the newer session should end the older one's sequence.
// Control: one abandoned session gets exactly its 3 e-mails and one coupon.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, SCHOOL, helpers, minutes, type Buyer } from './recovery-attack-helpers.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const h = helpers(backend);

async function leaveTimes(buyer: Buyer, n: number) {
  for (let i = 0; i < n; i++) {
    await h.open(buyer, COURSE.marketing);
    await h.run(minutes(61)); // abandoned (the job's clock an hour on)
  }
}
/** The job every 6 hours over 20 days of test clock. */
async function twentyDays() {
  for (let hour = 2; hour <= 20 * 24; hour += 6) await h.run(minutes(hour * 60));
}
const counts = async (buyer: Buyer) => ({
  emails: Number((await h.sql<{ n: string }>(`select count(*) n from public.email_outbox where user_id = $1 and kind = 'checkout_recovery'`, [buyer.id]))[0]!.n),
  coupons: Number((await h.sql<{ n: string }>(`select count(*) n from public.coupons where buyer_id = $1`, [buyer.id]))[0]!.n),
  sessions: Number((await h.sql<{ n: string }>(`select count(*) n from public.checkout_sessions where user_id = $1`, [buyer.id]))[0]!.n),
});

describe('parallel recovery sequences for one buyer and course', () => {
  it('control: one abandonment, 3 e-mails and one coupon', async () => {
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true, delays_minutes: [60, 1440, 4320], coupon_percent: 15 });
    const buyer = await h.newBuyer('Uma Vez');
    await leaveTimes(buyer, 1);
    await twentyDays();
    expect(await counts(buyer)).toEqual({ emails: 3, coupons: 1, sessions: 1 });
  });

  it('ATTACK: the same course opened and left 4 times: 12 e-mails and 4 coupons', async () => {
    const buyer = await h.newBuyer('Quatro Vezes');
    await leaveTimes(buyer, 4);
    await twentyDays();
    const c = await counts(buyer);
    console.log('one buyer, one course, 4 abandonments:', c);
    expect(c.emails).toBeLessThanOrEqual(3);
    expect(c.coupons).toBeLessThanOrEqual(1);
  });

  it('ATTACK: staff mark the lead "Não contatar" on its newest card: the older session of the same course keeps e-mailing', async () => {
    const buyer = await h.newBuyer('Nao Contatar');
    await leaveTimes(buyer, 2);
    const [newest] = await h.sql<{ id: string }>('select id from public.checkout_sessions where user_id = $1 order by opened_at desc limit 1', [buyer.id]);
    expect((await admin.rpc('set_checkout_do_not_contact', { p_session_id: newest!.id, p_do_not_contact: true })).error).toBeNull();
    await twentyDays();
    const c = await counts(buyer);
    console.log('after "Não contatar" on the newest card:', c);
    expect(c.emails).toBe(0);
  });
});
