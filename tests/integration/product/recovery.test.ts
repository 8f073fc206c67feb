// Issue 41: recovering lost sales (docs/recovery.md). A checkout session from opening to paid or abandoned,
// the sequence through the outbox (real send-emails and the local inbox), the reopen link, the recovery
// coupon, and who may read or change a session. The clock: run_checkout_recovery takes the test's own time;
// a session or coupon "in the past" is made by moving its timestamps back.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { inbox } from '../auth-helpers.ts';
import { COURSE, SCHOOL, USER } from '../rls/seed.ts';

const SITE = 'http://localhost:5999';
const INTEGRATION = 'ee000000-0000-4000-8000-000000000001';
const backend = useBackend({ functionSecrets: { SITE_URL: SITE } });
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const adminRival = backend.signedIn('adminRival');
const aluna = backend.signedIn('aluna');
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => backend.sql<T>(text, params);

const minutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

interface Buyer {
  id: string;
  email: string;
  client: SupabaseClient;
}
async function newBuyer(name = 'Paula Compradora'): Promise<Buyer> {
  const a = await backend.signedInAccount({ prefix: 'comprador', name, school: SCHOOL.demo });
  return { id: a.id, email: a.email, client: a.client };
}
async function open(buyer: Buyer, course: string = COURSE.marketing, coupon: string | null = null): Promise<string> {
  const { data, error } = await buyer.client.rpc('open_checkout_session', { p_course_id: course, p_coupon_code: coupon, p_with_bump: false });
  if (error) throw error;
  return data as string;
}
async function run(at: string) {
  const { data, error } = await service.rpc('run_checkout_recovery', { p_now: at });
  if (error) throw error;
  return data as { abandoned: number; pix_expiring: number; touches: number };
}
async function drain() {
  const res = await fetch(`${backend.url}/functions/v1/send-emails`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    body: '{}',
  });
  expect(res.status).toBe(200);
}
/** A charge as create-asaas-charge makes it (the database prices it), with its "Pagamento pendente". */
async function charge(buyer: Buyer, course: string = COURSE.marketing, coupon: string | null = null, method = 'PIX') {
  const { data, error } = await service
    .rpc('create_checkout_payment', {
      p_user_id: buyer.id, p_course_id: course, p_coupon_code: coupon, p_with_bump: false, p_billing_type: method,
      p_installment_count: 1, p_environment: 'sandbox', p_integration_id: INTEGRATION,
    })
    .single<{ id: string; value: number; due_date: string }>();
  if (error) throw error;
  await service.rpc('enqueue_email', {
    p_school_id: SCHOOL.demo, p_user_id: buyer.id, p_to: buyer.email, p_kind: 'payment_pending', p_key: `payment:${data!.id}:pending`,
    p_payload: { name: 'Paula Compradora', course_title: 'Marketing Digital', amount: Number(data!.value), method, pix_code: '00020126pix-copia-e-cola' },
  });
  return data!;
}
/** Asaas's confirmation, as asaas-webhook writes it. */
const pay = (paymentId: string) => sql(`update public.payments set status = 'CONFIRMED', paid_at = now() where id = $1`, [paymentId]);
const session = async (id: string) =>
  (await sql<{ outcome: string; stage: string; touches_sent: number; do_not_contact: boolean; paid_value: string | null; resumed_at: string | null; recovery_coupon_id: string | null }>(
    'select * from public.checkout_sessions where id = $1', [id]))[0]!;
const recoveryMails = async (buyer: Buyer) => (await inbox(backend, buyer.email)).filter((m) => /Seu pedido está esperando|Ainda dá tempo|de desconto no/.test(m.subject));
const outboxOf = (sessionId: string) =>
  sql<{ status: string; last_error: string | null }>(`select status, last_error from public.email_outbox where idempotency_key like $1 order by created_at`, [`checkout_session:${sessionId}:%`]);
/** A session abandoned an hour after opening, as the job finds it at opened + 61 min. */
async function abandoned(buyer: Buyer, course: string = COURSE.marketing, coupon: string | null = null) {
  const id = await open(buyer, course, coupon);
  await run(minutes(61));
  expect((await session(id)).outcome).toBe('abandoned');
  return id;
}

describe('checkout sessions and the recovery sequence', () => {
  it('opened with BEMVINDO20 and left: abandoned after 1 h, the first e-mail 1 h later with the course, price, coupon and the reopen link; paying stops the sequence', async () => {
    const buyer = await newBuyer();
    const id = await open(buyer, COURSE.marketing, 'BEMVINDO20');
    const { data: quote } = await buyer.client.rpc('checkout_quote', { p_course_id: COURSE.marketing, p_coupon_code: 'BEMVINDO20', p_with_bump: false });
    const total = Number((quote as { total: number }).total);
    expect(await session(id)).toMatchObject({ outcome: 'open', stage: 'opened' });
    // Opening again keeps one open session.
    expect(await open(buyer, COURSE.marketing, 'BEMVINDO20')).toBe(id);

    expect((await run(minutes(59))).abandoned).toBe(0);
    await run(minutes(61));
    expect(await session(id)).toMatchObject({ outcome: 'abandoned', touches_sent: 0 });
    await run(minutes(119));
    expect((await session(id)).touches_sent).toBe(0);
    await run(minutes(121));
    expect((await session(id)).touches_sent).toBe(1);
    await drain();
    // The clock moves on: the e-mail was sent an hour ago when the buyer comes back.
    await sql(`update public.checkout_session_touches set created_at = created_at - interval '3 hours' where session_id = $1`, [id]);

    const [mail, ...more] = await recoveryMails(buyer);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Seu pedido está esperando: Marketing Digital para Pequenos Negócios');
    expect(mail!.text).toContain('Olá, Paula!');
    expect(mail!.text).toContain('O cupom BEMVINDO20 continua no pedido.');
    expect(mail!.text).toContain(`Valor: ${new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(total)}`);
    expect(mail!.links).toContain(`${SITE}/checkout/marketing-digital?retomar=${id}`);
    expect(mail!.html).toContain('Descadastrar');

    // The link restores the choices for the buyer.
    const { data: resumed, error } = await buyer.client.rpc('resume_checkout_session', { p_session_id: id });
    expect(error).toBeNull();
    expect(resumed).toMatchObject({ course_id: COURSE.marketing, course_slug: 'marketing-digital', coupon_code: 'BEMVINDO20', with_bump: false, outcome: 'open' });

    // The buyer pays through the reopened checkout: the session is paid (recovered), no second e-mail.
    const payment = await charge(buyer, COURSE.marketing, 'BEMVINDO20');
    await pay(payment.id);
    expect(await session(id)).toMatchObject({ outcome: 'paid', paid_value: total.toFixed(2) });
    await run(minutes(60 + 24 * 60 + 5));
    await drain();
    expect(await recoveryMails(buyer)).toHaveLength(1);
    const { data: rows } = await admin.rpc('admin_checkout_sessions', { p_school_id: SCHOOL.demo, p_course_id: COURSE.marketing, p_limit: 500 });
    expect((rows as { id: string; recovered: boolean }[]).find((r) => r.id === id)).toMatchObject({ recovered: true, outcome: 'paid' });
  });

  it('a charge generated moves the session; a PIX about to expire sends "Seu PIX expira em 1 hora" with its copia e cola; unpaid past its end it is abandoned', async () => {
    const buyer = await newBuyer();
    const id = await open(buyer);
    const payment = await charge(buyer);
    const row = (await sql<{ stage: string; expires_at: Date }>('select stage, expires_at from public.checkout_sessions where id = $1', [id]))[0]!;
    expect(row.stage).toBe('pix');
    const end = new Date(row.expires_at).getTime();
    expect((await run(new Date(end - 90 * 60_000).toISOString())).pix_expiring).toBe(0);
    await run(new Date(end - 30 * 60_000).toISOString());
    await drain();
    const pix = (await inbox(backend, buyer.email)).filter((m) => m.subject.startsWith('Seu PIX expira em 1 hora'));
    expect(pix).toHaveLength(1);
    expect(pix[0]!.text).toContain('00020126pix-copia-e-cola');
    expect((await session(id)).outcome).toBe('open');
    await run(new Date(end + 60_000).toISOString());
    expect((await session(id)).outcome).toBe('abandoned');
    expect(payment.id).toBeTruthy();
  });

  it('no e-mail to a buyer who unsubscribed from this kind, was marked "Não contatar" or bought the course meanwhile; the control buyer gets one', async () => {
    const [unsub, blocked, bought, control] = [await newBuyer(), await newBuyer(), await newBuyer(), await newBuyer()];
    const ids = { unsub: await abandoned(unsub), blocked: await abandoned(blocked), bought: await abandoned(bought), control: await abandoned(control) };
    // The buyer's own switch (the e-mail's Descadastrar writes the same row).
    expect((await unsub.client.from('email_unsubscribes').insert({ user_id: unsub.id, kind: 'checkout_recovery' })).error).toBeNull();
    expect((await admin.rpc('set_checkout_do_not_contact', { p_session_id: ids.blocked, p_do_not_contact: true })).error).toBeNull();
    expect((await service.from('enrollments').insert({ user_id: bought.id, course_id: COURSE.marketing })).error).toBeNull();
    expect((await session(ids.bought)).outcome).toBe('closed');

    await run(minutes(121));
    await drain();
    for (const b of [unsub, blocked, bought]) expect(await recoveryMails(b)).toHaveLength(0);
    expect(await recoveryMails(control)).toHaveLength(1);
    expect(await outboxOf(ids.unsub)).toEqual([]);
    expect(await outboxOf(ids.blocked)).toEqual([]);
  });

  it('a message already written is not sent once the buyer pays, staff mark "Não contatar" or the buyer unsubscribes', async () => {
    const [paid, blocked, unsub, control] = [await newBuyer(), await newBuyer(), await newBuyer(), await newBuyer()];
    const ids = await Promise.all([paid, blocked, unsub, control].map((b) => abandoned(b)));
    await run(minutes(121));
    const payment = await charge(paid);
    await pay(payment.id);
    await admin.rpc('set_checkout_do_not_contact', { p_session_id: ids[1], p_do_not_contact: true });
    await unsub.client.from('email_unsubscribes').insert({ user_id: unsub.id, kind: 'checkout_recovery' });
    await drain();
    for (const b of [paid, blocked, unsub]) expect(await recoveryMails(b)).toHaveLength(0);
    expect((await outboxOf(ids[0]!))[0]).toMatchObject({ status: 'skipped', last_error: 'O pagamento já foi confirmado.' });
    expect((await outboxOf(ids[1]!))[0]).toMatchObject({ status: 'skipped', last_error: 'A escola marcou "Não contatar".' });
    expect((await outboxOf(ids[2]!))[0]).toMatchObject({ status: 'skipped' });
    expect(await recoveryMails(control)).toHaveLength(1);
  });

  it('at most one recovery e-mail a day per buyer, across their sessions', async () => {
    const buyer = await newBuyer();
    await sql(`update public.courses set price = 97 where id = $1 and price < 5`, [COURSE.excel]);
    const a = await abandoned(buyer, COURSE.marketing);
    const b = await abandoned(buyer, COURSE.excel);
    await run(minutes(121));
    expect((await session(a)).touches_sent + (await session(b)).touches_sent).toBe(1);
    await run(minutes(121 + 60));
    await run(minutes(121 + 23 * 60));
    expect((await session(a)).touches_sent + (await session(b)).touches_sent).toBe(1);
    await run(minutes(121 + 24 * 60 + 1));
    expect((await session(a)).touches_sent + (await session(b)).touches_sent).toBe(2);
    await drain();
    expect(await recoveryMails(buyer)).toHaveLength(2);
  });

  it('the boleto reminder joins the sequence: a buyer reminded today gets the recovery e-mail a day later; the control buyer today', async () => {
    const [reminded, control] = [await newBuyer(), await newBuyer()];
    const ids = [await abandoned(reminded), await abandoned(control)];
    await service.rpc('enqueue_email', {
      p_school_id: SCHOOL.demo, p_user_id: reminded.id, p_to: reminded.email, p_kind: 'payment_reminder', p_key: `it:lembrete:${reminded.id}`,
      p_payload: { course_title: 'Marketing Digital', method: 'BOLETO', amount: 97 },
    });
    await run(minutes(121));
    expect((await session(ids[0]!)).touches_sent).toBe(0);
    expect((await session(ids[1]!)).touches_sent).toBe(1);
    await run(minutes(24 * 60 + 5));
    expect((await session(ids[0]!)).touches_sent).toBe(1);
  });

  it('the school turned Recuperação de vendas off: nothing is written; on, the control gets it', async () => {
    const other = await newBuyer();
    const id = await abandoned(other);
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: false });
    await run(minutes(121));
    expect(await outboxOf(id)).toEqual([]);
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true });
    const again = await abandoned(await newBuyer());
    await run(minutes(121));
    expect(await outboxOf(again)).toHaveLength(1);
  });
});

describe('the recovery coupon', () => {
  it('the last touch carries a coupon that works once, only for that buyer and that course, and not after 48 h', async () => {
    await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true, delays_minutes: [60], coupon_percent: 15 });
    try {
      const buyer = await newBuyer();
      const id = await abandoned(buyer);
      await run(minutes(121));
      await drain();
      const [mail] = await recoveryMails(buyer);
      expect(mail!.subject).toBe('15% de desconto no curso Marketing Digital para Pequenos Negócios');
      const code = (await sql<{ code: string }>('select c.code from public.coupons c join public.checkout_sessions s on s.recovery_coupon_id = c.id where s.id = $1', [id]))[0]!.code;
      expect(mail!.text).toContain(code);
      // The reopen link brings the coupon.
      expect(((await buyer.client.rpc('resume_checkout_session', { p_session_id: id })).data as { coupon_code: string }).coupon_code).toBe(code);

      // Another buyer: as an unknown code. The buyer on another course: not for it.
      const stranger = await newBuyer();
      const quote = async (who: Buyer, course: string) =>
        (await who.client.rpc('checkout_quote', { p_course_id: course, p_coupon_code: code, p_with_bump: false })).data as { coupon: unknown; coupon_error: string | null };
      expect((await quote(stranger, COURSE.marketing)).coupon_error).toBe('Cupom não encontrado.');
      const { error: strangerCharge } = await service.rpc('create_checkout_payment', {
        p_user_id: stranger.id, p_course_id: COURSE.marketing, p_coupon_code: code, p_with_bump: false, p_billing_type: 'PIX',
        p_installment_count: 1, p_environment: 'sandbox', p_integration_id: INTEGRATION,
      });
      expect(strangerCharge?.message).toBe('Cupom não encontrado.');
      expect((await sql('select 1 from public.payments where user_id = $1', [stranger.id])).length).toBe(0);
      await sql(`update public.courses set price = 97 where id = $1 and price < 5`, [COURSE.excel]);
      expect((await quote(buyer, COURSE.excel)).coupon_error).toBe('Este cupom não vale para este curso.');
      // The control: the buyer, that course.
      expect((await quote(buyer, COURSE.marketing)).coupon).toMatchObject({ code, kind: 'percent' });

      // Once: paid, then taken.
      const payment = await charge(buyer, COURSE.marketing, code);
      await pay(payment.id);
      expect((await sql('select 1 from public.coupon_uses u join public.coupons c on c.id = u.coupon_id where c.code = $1', [code])).length).toBe(1);
      expect((await quote(buyer, COURSE.marketing)).coupon_error).toMatch(/esgotou|máximo de vezes/);

      // A coupon made 50 hours ago has ended (and the one made now is the control above).
      const late = await newBuyer();
      const lateId = await open(late);
      await sql(`update public.checkout_sessions set opened_at = now() - interval '52 hours' where id = $1`, [lateId]);
      await run(new Date(Date.now() - 50 * 3_600_000 + 60_000).toISOString());
      const lateCode = (await sql<{ code: string }>('select c.code from public.coupons c join public.checkout_sessions s on s.recovery_coupon_id = c.id where s.id = $1', [lateId]))[0]!.code;
      expect((await quote(late, COURSE.marketing)).coupon_error).toBe('Cupom não encontrado.');
      expect(lateCode).toMatch(/^RECUPERA-/);
    } finally {
      await service.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: true, delays_minutes: [60, 1440, 4320], coupon_percent: null });
    }
  });
});

describe('concurrent payment events and sequence runs', () => {
  it('never send after the payment: each buyer pays while runs write the sequence; only the unpaid control is e-mailed', async () => {
    const buyers = await Promise.all(Array.from({ length: 6 }, () => newBuyer()));
    const control = await newBuyer();
    for (const b of [...buyers, control]) await abandoned(b);
    const payments = await Promise.all(buyers.map((b) => charge(b)));
    // Asaas's events arrive over HTTP as the runs do, interleaved: some payments land before a run, some after.
    const payOverApi = async (id: string) => {
      const { error } = await service.from('payments').update({ status: 'CONFIRMED', paid_at: new Date().toISOString() }).eq('id', id);
      if (error) throw error;
    };
    await Promise.all([
      run(minutes(121)),
      payOverApi(payments[0]!.id), payOverApi(payments[1]!.id),
      run(minutes(121)),
      payOverApi(payments[2]!.id), payOverApi(payments[3]!.id),
      run(minutes(121)),
      payOverApi(payments[4]!.id), payOverApi(payments[5]!.id),
    ]);
    // Some runs wrote a message before the payment landed: those are judged outdated, never sent.
    const written = await sql<{ status: string }>(
      `select o.status from public.email_outbox o where o.kind = 'checkout_recovery' and o.user_id = any($1::uuid[])`, [buyers.map((b) => b.id)]);
    await drain();
    for (const b of buyers) expect(await recoveryMails(b)).toHaveLength(0);
    expect(await recoveryMails(control)).toHaveLength(1);
    const after = await sql<{ status: string }>(
      `select o.status from public.email_outbox o where o.kind = 'checkout_recovery' and o.user_id = any($1::uuid[])`, [buyers.map((b) => b.id)]);
    expect(after.length).toBe(written.length);
    expect(after.every((m) => m.status === 'skipped')).toBe(true);
  });

  it('a payment that lands between the claim and the send stops the message (the sender judges it a last time)', async () => {
    const buyer = await newBuyer();
    const id = await abandoned(buyer);
    await run(minutes(121));
    const { data: claimed } = await service.rpc('claim_emails', { p_limit: 50 });
    const mine = (claimed as { id: string; idempotency_key: string }[]).filter((m) => m.idempotency_key.startsWith(`checkout_session:${id}`));
    expect(mine).toHaveLength(1);
    await pay((await charge(buyer)).id);
    const { data: started } = await service.rpc('start_email_delivery', { p_id: mine[0]!.id, p_message_id: '<x@example.com>' });
    expect(started).toBe(false);
    expect((await outboxOf(id))[0]).toMatchObject({ status: 'skipped', last_error: 'O pagamento já foi confirmado.' });
    // The other claimed messages go back to their sender's next run (lease), nothing of this buyer.
    await sql(`update public.email_outbox set locked_until = now() - interval '1 second' where status = 'sending' and delivery_started_at is null`);
    await drain();
    expect(await recoveryMails(buyer)).toHaveLength(0);
  });
});

describe('who reads and changes a session', () => {
  it('staff of another school see nothing and change nothing; a buyer cannot read or close someone else\'s session nor use their link', async () => {
    const buyer = await newBuyer();
    const id = await abandoned(buyer, COURSE.marketing, 'BEMVINDO20');

    // The control: staff of the school.
    expect((await admin.from('checkout_sessions').select('id').eq('id', id)).data).toEqual([{ id }]);
    const { data: list } = await admin.rpc('admin_checkout_sessions', { p_school_id: SCHOOL.demo, p_limit: 500 });
    expect((list as { id: string }[]).some((r) => r.id === id)).toBe(true);

    // Another school's staff.
    expect((await adminRival.from('checkout_sessions').select('id').eq('id', id)).data).toEqual([]);
    expect((await adminRival.rpc('admin_checkout_sessions', { p_school_id: SCHOOL.demo })).error?.code).toBe('42501');
    expect((await adminRival.rpc('admin_recovery_totals', { p_school_id: SCHOOL.demo })).error?.code).toBe('42501');
    expect((await adminRival.rpc('set_checkout_do_not_contact', { p_session_id: id, p_do_not_contact: true })).error?.code).toBe('42501');
    expect((await adminRival.rpc('record_checkout_staff_contact', { p_session_id: id, p_channel: 'whatsapp' })).error?.code).toBe('42501');

    // Another buyer: no read, no close, no link.
    expect((await aluna.from('checkout_sessions').select('id').eq('id', id)).data).toEqual([]);
    await aluna.from('checkout_sessions').update({ outcome: 'closed', ended_at: new Date().toISOString() }).eq('id', id);
    await aluna.from('checkout_sessions').delete().eq('id', id);
    expect((await aluna.rpc('set_checkout_do_not_contact', { p_session_id: id, p_do_not_contact: true })).error?.code).toBe('42501');
    const stolen = await aluna.rpc('resume_checkout_session', { p_session_id: id });
    expect(stolen.data).toBeNull();
    expect(stolen.error?.message).toBe('Link de checkout não encontrado.');
    // The buyer's own session reads through the link only, not the table.
    expect((await buyer.client.from('checkout_sessions').select('id').eq('id', id)).data).toEqual([]);

    // Its effect in the database: nothing changed, nothing recorded.
    expect(await session(id)).toMatchObject({ outcome: 'abandoned', do_not_contact: false, resumed_at: null });
    expect((await sql('select 1 from public.checkout_session_touches where session_id = $1', [id])).length).toBe(0);
    // A student opens no session in another school's course.
    expect((await aluna.rpc('open_checkout_session', { p_course_id: COURSE.rival })).error).not.toBeNull();
    expect((await sql('select 1 from public.checkout_sessions where user_id = $1 and course_id = $2', [USER.aluna, COURSE.rival])).length).toBe(0);

    // The control of each: staff record a contact and mark "Não contatar"; the buyer's link works.
    expect((await admin.rpc('record_checkout_staff_contact', { p_session_id: id, p_channel: 'whatsapp' })).error).toBeNull();
    expect((await admin.rpc('set_checkout_do_not_contact', { p_session_id: id, p_do_not_contact: true })).error).toBeNull();
    expect((await buyer.client.rpc('resume_checkout_session', { p_session_id: id })).error).toBeNull();
    expect(await session(id)).toMatchObject({ do_not_contact: true, resumed_at: expect.anything() });
  });
});

describe('coupon codes through the session', () => {
  it('opening a checkout is no way around the coupon guess limit: a wrong code is not kept, and past 10 misses a minute it is refused', async () => {
    const guesser = await newBuyer();
    const id = await open(guesser, COURSE.marketing, 'NAOEXISTE1');
    expect(((await guesser.client.rpc('resume_checkout_session', { p_session_id: id })).data as { coupon_code: string | null }).coupon_code).toBeNull();
    for (let i = 2; i <= 10; i++) await open(guesser, COURSE.marketing, `NAOEXISTE${i}`);
    const { error } = await guesser.client.rpc('open_checkout_session', { p_course_id: COURSE.marketing, p_coupon_code: 'BEMVINDO20', p_with_bump: false });
    expect(error?.code).toBe('PT429');
    // Its effect: the real code was not looked up, so the session does not hold it.
    expect(((await guesser.client.rpc('resume_checkout_session', { p_session_id: id })).data as { coupon_code: string | null }).coupon_code).toBeNull();
    // The control: another buyer's valid code is kept.
    const control = await newBuyer();
    const ok = await open(control, COURSE.marketing, 'bemvindo20');
    expect(((await control.client.rpc('resume_checkout_session', { p_session_id: ok })).data as { coupon_code: string }).coupon_code).toBe('BEMVINDO20');
  });
});

describe('the school\'s setting', () => {
  it('only staff of the school read and change Recuperação de vendas; bad delays are refused', async () => {
    const before = (await sql<{ enabled: boolean }>('select enabled from public.school_recovery_settings where school_id = $1', [SCHOOL.demo]))[0];
    await adminRival.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: false, coupon_percent: 90 }, { onConflict: 'school_id' });
    await aluna.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, enabled: false, coupon_percent: 90 }, { onConflict: 'school_id' });
    expect((await adminRival.from('school_recovery_settings').select('school_id').eq('school_id', SCHOOL.demo)).data).toEqual([]);
    expect((await aluna.from('school_recovery_settings').select('school_id').eq('school_id', SCHOOL.demo)).data).toEqual([]);
    const after = (await sql<{ enabled: boolean; coupon_percent: string | null }>('select enabled, coupon_percent from public.school_recovery_settings where school_id = $1', [SCHOOL.demo]))[0];
    expect(after?.coupon_percent ?? null).not.toBe('90.00');
    expect(after?.enabled ?? true).toBe(before?.enabled ?? true);

    // The control: the school's admin; and the bounds.
    const save = (row: Record<string, unknown>) => admin.from('school_recovery_settings').upsert({ school_id: SCHOOL.demo, ...row }, { onConflict: 'school_id' });
    expect((await save({ enabled: true, delays_minutes: [60, 1440, 4320], coupon_percent: 10 })).error).toBeNull();
    expect((await save({ delays_minutes: [1440, 60] })).error?.code).toBe('23514');
    expect((await save({ delays_minutes: [60, 120, 180, 240] })).error?.code).toBe('23514');
    expect((await save({ coupon_percent: 95 })).error?.code).toBe('23514');
    expect((await sql<{ coupon_percent: string }>('select coupon_percent from public.school_recovery_settings where school_id = $1', [SCHOOL.demo]))[0]!.coupon_percent).toBe('10.00');
    expect((await save({ coupon_percent: null })).error).toBeNull();
  });
});

describe('the recovery numbers', () => {
  it('equal the numbers computed here from the sessions, touches and payments', async () => {
    // A course of its own so the numbers are this test's alone.
    const course = (await sql<{ id: string }>(
      `insert into public.courses (school_id, title, slug, price, status) values ($1, 'Curso dos Números', 'curso-dos-numeros-' || floor(random() * 1e9)::text, 200, 'PUBLISHED') returning id`,
      [SCHOOL.demo]))[0]!.id;
    const buyers = await Promise.all(Array.from({ length: 5 }, () => newBuyer()));
    const ids: string[] = [];
    for (const b of buyers) ids.push(await abandoned(b, course));
    await run(minutes(121)); // touch 1 for all five, then the clock moves on: it was sent an hour ago
    await sql(`update public.checkout_session_touches set created_at = created_at - interval '3 hours' where session_id = any($1::uuid[])`, [ids]);
    // 0: paid after touch 1 (recovered by touch 1). 1: paid after a staff contact, 8 days after touch 1 (by staff).
    // 2: paid 8 days after touch 1 with no contact since (not recovered). 3, 4: not paid.
    const payFor = async (i: number, daysAfter: number) => {
      const p = await charge(buyers[i]!, course);
      await pay(p.id);
      await sql(`update public.checkout_sessions set ended_at = ended_at + make_interval(days => $2) where id = $1`, [ids[i], daysAfter]);
    };
    await payFor(0, 0);
    await sql(`update public.checkout_session_touches set created_at = created_at - interval '8 days' where session_id = any($1::uuid[])`, [[ids[1], ids[2]]]);
    await admin.rpc('record_checkout_staff_contact', { p_session_id: ids[1], p_channel: 'link' });
    await payFor(1, 0);
    await payFor(2, 0);

    // Times as epoch milliseconds (each engine returns timestamptz in its own shape).
    const sessions = await sql<{ id: string; outcome: string; abandoned_at: number | null; ended_at: number | null; paid_value: string | null }>(
      `select id, outcome, (extract(epoch from abandoned_at) * 1000)::float8 as abandoned_at, (extract(epoch from ended_at) * 1000)::float8 as ended_at, paid_value
         from public.checkout_sessions where course_id = $1`, [course]);
    const touches = await sql<{ session_id: string; kind: string; touch_number: number | null; created_at: number }>(
      `select t.session_id, t.kind, t.touch_number, (extract(epoch from t.created_at) * 1000)::float8 as created_at
         from public.checkout_session_touches t join public.checkout_sessions s on s.id = t.session_id where s.course_id = $1`, [course]);
    const week = 7 * 86_400_000;
    const lastTouch = (s: (typeof sessions)[number]) =>
      touches.filter((t) => t.session_id === s.id && Number(t.created_at) <= Number(s.ended_at) && Number(s.ended_at) <= Number(t.created_at) + week)
        .sort((a, b) => Number(b.created_at) - Number(a.created_at))[0];
    const recovered = sessions.filter((s) => s.outcome === 'paid' && s.abandoned_at !== null && lastTouch(s));
    const expected = {
      abandoned: sessions.filter((s) => s.abandoned_at !== null).length,
      recovered: recovered.length,
      recovered_revenue: recovered.reduce((sum, s) => sum + Number(s.paid_value), 0),
      by_touch: [1, 2, 3].map((n) => {
        const sent = touches.filter((t) => t.kind === 'email' && t.touch_number === n).length;
        const won = recovered.filter((s) => lastTouch(s)!.kind === 'email' && lastTouch(s)!.touch_number === n).length;
        return { touch: n, sent, recovered: won, conversion: sent ? Math.round((won / sent) * 10_000) / 10_000 : null };
      }),
      by_staff: {
        contacted: new Set(touches.filter((t) => t.kind !== 'email').map((t) => t.session_id)).size,
        recovered: recovered.filter((s) => lastTouch(s)!.kind !== 'email').length,
      },
    };
    expect(expected).toMatchObject({ abandoned: 5, recovered: 2, recovered_revenue: 400 });

    const { data, error } = await admin.rpc('admin_recovery_totals', { p_school_id: SCHOOL.demo, p_course_id: course });
    expect(error).toBeNull();
    expect(data).toEqual(expected);
  });
});
