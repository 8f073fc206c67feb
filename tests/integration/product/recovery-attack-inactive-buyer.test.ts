// Issue 41, outside attack 6 (/work/briefs/attacks-41, docs/security.md "Sales recovery"): the attacker's test, kept
// here with its control. Each ATTACK test asserts what must hold and failed before 20261128009500_recovery_attacks_41.sql.
// Finding 6 (low): a buyer the school deactivated (profiles.is_active = false: blocked, refunded for abuse,
// chargeback) keeps receiving the recovery sequence. run_checkout_recovery checks the school's switch, "Não
// contatar", the unsubscribe and the enrollment, not the account's state; email_outdated_reason neither. The
// e-mail invites to a checkout the account is refused (open_checkout_session / checkout_quote: 42501).
// Control: an active buyer in the same state gets the e-mail.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, SCHOOL, helpers, minutes, type Buyer } from './recovery-attack-helpers.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const h = helpers(backend);

async function abandonedAndDue(buyer: Buyer) {
  await h.open(buyer);
  await h.run(minutes(61));
  await h.sql(`update public.checkout_sessions set next_touch_at = now() - interval '1 minute' where user_id = $1 and outcome = 'abandoned'`, [buyer.id]);
}
const sent = async (b: Buyer) => {
  await h.drain();
  return h.sql<{ status: string; last_error: string | null }>(`select status, last_error from public.email_outbox where user_id = $1 and kind = 'checkout_recovery'`, [b.id]);
};

describe('a deactivated buyer', () => {
  it('control: an active buyer gets the first recovery e-mail', async () => {
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true, delays_minutes: [60, 1440, 4320] });
    const buyer = await h.newBuyer('Ativo');
    await abandonedAndDue(buyer);
    await h.run(new Date().toISOString());
    expect((await sent(buyer)).map((r) => r.status)).toEqual(['sent']);
  });

  it('ATTACK: the school deactivated the account: the recovery e-mail still goes out', async () => {
    const buyer = await h.newBuyer('Bloqueado');
    await abandonedAndDue(buyer);
    await h.sql('update public.profiles set is_active = false where id = $1', [buyer.id]);
    expect((await buyer.client.rpc('open_checkout_session', { p_course_id: COURSE.marketing })).error?.code).toBe('42501');
    await h.run(new Date().toISOString());
    const rows = await sent(buyer);
    console.log('deactivated buyer, recovery e-mails:', rows);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(0);
  });
});
