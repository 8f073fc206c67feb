// Issue 41, outside attack 3 (/work/briefs/attacks-41, docs/security.md "Sales recovery"): the attacker's test, kept
// here with its control. Each ATTACK test asserts what must hold and failed before 20261128009500_recovery_attacks_41.sql.
// Finding 3: "Seu PIX expira em 1 hora" (pix_expiring, part of the recovery follow-up in issue 41) ignores
// every stop the follow-up promises: run_checkout_recovery's step 2 checks neither the school's
// "Recuperação de vendas" switch (off for every school that existed before 007000: "their students never
// agreed to a new kind of e-mail"), nor "Não contatar" on the session, nor the buyer's unsubscribe from
// checkout_recovery, nor the "at most one a day per buyer" rule (a recovery e-mail already went out today).
// email_outdated_reason judges pix_expiring only by the payment's status, so the sender delivers it.
// Control: a buyer at a school with recovery on and no stop gets it (the legitimate feature works).
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, SCHOOL, helpers, inbox, minutes, type Buyer } from './recovery-attack-helpers.ts';

const backend = useBackend({ functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const h = helpers(backend);

/** A PIX charge with its "Pagamento pendente" (as create-asaas-charge writes it). */
async function pix(buyer: Buyer, course = COURSE.marketing) {
  const p = await h.charge(buyer, course);
  await service.rpc('enqueue_email', {
    p_school_id: SCHOOL.demo, p_user_id: buyer.id, p_to: buyer.email, p_kind: 'payment_pending', p_key: `payment:${p.id}:pending`,
    p_payload: { name: 'X', course_title: 'Marketing Digital', amount: Number(p.value), method: 'PIX', pix_code: '00020126pix-copia-e-cola' },
  });
  return p;
}
const pixMails = async (b: Buyer) => (await inbox(backend, b.email)).filter((m) => m.subject.startsWith('Seu PIX expira em 1 hora'));
async function runBeforeExpiry(sessionId: string) {
  const s = await h.session(sessionId);
  await h.run(new Date(new Date(s.expires_at as string).getTime() - 30 * 60_000).toISOString());
  await h.drain();
}

describe('Seu PIX expira em 1 hora', () => {
  it('control: recovery on, no stop: the buyer gets it', async () => {
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true });
    const buyer = await h.newBuyer('Controle');
    const id = await h.open(buyer);
    await pix(buyer);
    await runBeforeExpiry(id);
    expect(await pixMails(buyer)).toHaveLength(1);
  });

  it('ATTACK: staff marked "Não contatar" and the buyer unsubscribed from Recuperação de vendas: still sent', async () => {
    const buyer = await h.newBuyer('Nao Contatar');
    const id = await h.open(buyer);
    await pix(buyer);
    expect((await admin.rpc('set_checkout_do_not_contact', { p_session_id: id, p_do_not_contact: true })).error).toBeNull();
    expect((await buyer.client.from('email_unsubscribes').insert({ user_id: buyer.id, kind: 'checkout_recovery' })).error).toBeNull();
    await runBeforeExpiry(id);
    const got = await pixMails(buyer);
    console.log('do_not_contact + unsubscribed, pix_expiring delivered:', got.length);
    expect(got).toHaveLength(0);
  });

  it('ATTACK: the school turned Recuperação de vendas off: still sent', async () => {
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: false });
    const buyer = await h.newBuyer('Escola Desligou');
    const id = await h.open(buyer);
    await pix(buyer);
    await runBeforeExpiry(id);
    const got = await pixMails(buyer);
    console.log('school switch off, pix_expiring delivered:', got.length);
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true });
    expect(got).toHaveLength(0);
  });

  it('ATTACK: a recovery e-mail went out today: pix_expiring is a second follow-up e-mail the same day', async () => {
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true, delays_minutes: [60, 1440, 4320] });
    const buyer = await h.newBuyer('Dois No Dia');
    await h.open(buyer, COURSE.excel);
    await h.run(minutes(61));
    // Test clock: the abandonment's first touch is due 1 h later; write it now.
    await h.sql(`update public.checkout_sessions set next_touch_at = now() - interval '1 minute' where user_id = $1 and outcome = 'abandoned'`, [buyer.id]);
    expect((await h.run(new Date().toISOString())).touches).toBe(1);
    const id = await h.open(buyer, COURSE.marketing);
    await pix(buyer, COURSE.marketing);
    const s = await h.session(id);
    // The PIX ends within the hour after the recovery e-mail (move its end: it is due at 24:00 São Paulo).
    await h.sql(`update public.checkout_sessions set expires_at = now() + interval '30 minutes' where id = $1`, [id]);
    expect(s.stage).toBe('pix');
    await h.run(new Date().toISOString());
    await h.drain();
    const kinds = await h.sql<{ kind: string; status: string }>(
      `select kind, status from public.email_outbox where user_id = $1 and kind in ('checkout_recovery','pix_expiring') order by created_at`, [buyer.id]);
    console.log('follow-up e-mails within one hour:', kinds);
    expect(kinds.filter((k) => k.status === 'sent')).toHaveLength(1);
  });
});
