// Issue 19, what an outside attacker got through in payments and webhooks, in real Deno against the fake
// Asaas (which sends Asaas's real event shape):
//  2. asaas-webhook compares the event with the charge we created (payment or installment id, customer,
//     value): a R$ 1,00 PAYMENT_CONFIRMED for a R$ 297 charge enrolls nothing, and staff read why.
//  3. Event ids are deduplicated per school: another school's token cannot pre-claim them.
//  4. The Asaas webhook token has at least 32 characters in the database, whatever path stores it.
//  hardening: student-webhook accepts a signed, timestamped request (x-webhook-signature), refuses a
//     bad, stale, altered or replayed one, and still accepts the static secret alone.
// Issue 37, hole 4: an event is matched with payments of its own school only. Academia Rival, with its own
// token and an event of its own subscription naming an escola-demo charge id, wrote on that charge.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, EMAIL, SCHOOL, USER } from '../rls/seed.ts';
import { type FakeAsaasPayment } from '../../../scripts/fake-asaas/server.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

const [DEMO, RIVAL] = DEMO_ASAAS_ACCOUNTS;
const CUSTOMER = { name: 'Aluna Teste', email: 'aluna@escola-demo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
const CARD = { holderName: 'ALUNA TESTE', number: '5162306219378829', expiryMonth: '05', expiryYear: '2031', ccv: '8317' };
const HOLDER = { name: 'Aluna Teste', email: 'aluna@escola-demo.com.br', cpfCnpj: '529.982.247-25', postalCode: '01310-100', addressNumber: '1000', phone: '(11) 98888-7777' };
const DEMO_SECRET = 'whsec_escola_demo_local_0123456789abcdef';
const DEMO_INTEGRATION = 'ee000000-0000-4000-8000-000000000001';

const backend = useBackend({ fakeAsaas: true, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const fake = backend.asaas;
const service = backend.service();
const aluna = backend.signedIn('aluna');

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

async function charge(body: Record<string, unknown>) {
  const { data: session } = await aluna.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/create-asaas-charge`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.session?.access_token ?? ''}`, apikey: ANON_KEY },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return { paymentId: String(json.payment_id), asaasId: String(json.invoiceUrl).split('/i/')[1]! };
}

async function webhook(body: unknown, token: string, school: string = SCHOOL.demo) {
  const res = await fetch(`${backend.url}/functions/v1/asaas-webhook?school=${school}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'asaas-access-token': token },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, outcome: (JSON.parse(text) as { outcome?: string }).outcome, text };
}

/** An Asaas event as Asaas sends it: the whole payment object, here with some fields changed. */
const eventOf = (payment: FakeAsaasPayment, changes: Record<string, unknown>, event = 'PAYMENT_CONFIRMED') => ({
  id: `evt_${Math.random().toString(16).slice(2)}&1`,
  event,
  dateCreated: '2026-11-24 10:00:00',
  payment: { ...payment, status: 'CONFIRMED', ...changes },
});

const enrollment = async (courseId = COURSE.marketing) =>
  (await service.from('enrollments').select('status').eq('user_id', USER.aluna).eq('course_id', courseId).maybeSingle()).data;
const unenroll = () => service.from('enrollments').delete().eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
const paymentRow = async (id: string) => (await service.from('payments').select('*').eq('id', id).single()).data as Record<string, unknown>;

describe('asaas-webhook compares the event with the charge (item 2)', () => {
  it('a PAYMENT_CONFIRMED of R$ 1,00 for the R$ 297 charge: 200 "mismatch", no enrollment, the reason on the payment for staff', async () => {
    await unenroll();
    const { paymentId, asaasId } = await charge({ course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER });
    const real = fake.payment(asaasId)!;
    const forged = await webhook(eventOf(real, { value: 1.0 }), DEMO.webhookToken);
    expect(forged).toMatchObject({ status: 200, outcome: 'mismatch' });
    expect(await enrollment()).toBeNull();
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ status: 'PENDING', paid_at: null });
    expect(row.mismatch_reason).toMatch(/valor 1(\.0+)?, esperado 297\.00/);
    // The school's staff read it in payments; another school's staff do not see the payment at all.
    const staff = await backend.signIn(EMAIL.adminDemo);
    const seen = (await staff.from('payments').select('mismatch_reason, mismatch_at').eq('id', paymentId).single()).data!;
    expect(seen.mismatch_reason).toBe(row.mismatch_reason);
    expect(seen.mismatch_at).not.toBeNull();
    const rival = await backend.signIn(EMAIL.adminRival);
    expect((await rival.from('payments').select('id').eq('id', paymentId)).data).toEqual([]);
    // The event itself is kept with its outcome and why.
    const [event] = await sql<{ outcome: string; detail: string }>('select outcome, detail from private.payment_events where payment_id = $1', [paymentId]);
    expect(event).toMatchObject({ outcome: 'mismatch', detail: row.mismatch_reason });

    // The real payment, as the fake Asaas sends it, still enrolls.
    await fetch(`${fake.url}/i/${asaasId}/pay`, { method: 'POST', redirect: 'manual' });
    expect(await enrollment()).toMatchObject({ status: 'ACTIVE' });
    expect((await paymentRow(paymentId)).status).toBe('CONFIRMED');
  });

  it.each([
    ['another customer', { customer: 'cus_000000000999' }, /cliente cus_000000000999, esperado cus_/],
    ['no customer', { customer: undefined }, /cliente \(nenhum\)/],
    ['another Asaas payment with our externalReference', { id: 'pay_outracobranca01' }, /cobrança pay_outracobranca01, esperada pay_/],
    ['no value', { value: undefined }, /valor \(nenhum\)/],
    ['a value as text', { value: '297.00' }, /valor \(nenhum\)/],
    ['more than the price', { value: 2970 }, /valor 2970, esperado 297\.00/],
  ])('%s: mismatch, nothing enrolled or paid', async (_name, changes, reason) => {
    await unenroll();
    const { paymentId, asaasId } = await charge({ course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER });
    const r = await webhook(eventOf(fake.payment(asaasId)!, changes, 'PAYMENT_RECEIVED'), DEMO.webhookToken);
    expect(r).toMatchObject({ status: 200, outcome: 'mismatch' });
    expect(await enrollment()).toBeNull();
    const row = await paymentRow(paymentId);
    expect(row.status).toBe('PENDING');
    expect(row.mismatch_reason).toMatch(reason);
  });

  it('a mismatching refund pauses nothing', async () => {
    await unenroll();
    const { paymentId, asaasId } = await charge({ course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER });
    await fetch(`${fake.url}/i/${asaasId}/pay`, { method: 'POST', redirect: 'manual' });
    expect(await enrollment()).toMatchObject({ status: 'ACTIVE' });
    const r = await webhook(eventOf(fake.payment(asaasId)!, { customer: 'cus_000000000998' }, 'PAYMENT_REFUNDED'), DEMO.webhookToken);
    expect(r.outcome).toBe('mismatch');
    expect(await enrollment()).toMatchObject({ status: 'ACTIVE' });
    expect((await paymentRow(paymentId)).status).toBe('CONFIRMED');
  });

  it('a card plan in 3 installments: the charge records plan and customer; each real installment matches, a forged one does not', async () => {
    await unenroll();
    const { paymentId, asaasId } = await charge({ course_id: COURSE.marketing, billing_type: 'CREDIT_CARD', customer: CUSTOMER, creditCard: CARD, creditCardHolderInfo: HOLDER, installment_count: 3 });
    const first = fake.payment(asaasId)!;
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ installment_count: 3, provider_installment_id: first.installment, provider_customer_id: first.customer, provider_payment_id: asaasId });
    expect(Number(row.value)).toBe(297);
    // One installment's value, of another plan, or a R$ 1,00 installment: nothing.
    expect((await webhook(eventOf(first, { installment: '00000000-0000-4000-8000-00000000abcd' }), DEMO.webhookToken)).outcome).toBe('mismatch');
    expect((await webhook(eventOf(first, { value: 1 }), DEMO.webhookToken)).outcome).toBe('mismatch');
    expect((await webhook(eventOf(first, { value: 297 }), DEMO.webhookToken)).outcome).toBe('mismatch');
    expect(await enrollment()).toBeNull();
    // Paying on the fake's invoice confirms the 3 installments (R$ 99,00 each, their own payment ids).
    const before = (await sql<{ n: number }>(`select count(*)::int as n from private.payment_events where payment_id = $1 and outcome = 'enrolled'`, [paymentId]))[0]!.n;
    await fetch(`${fake.url}/i/${asaasId}/pay`, { method: 'POST', redirect: 'manual' });
    const after = (await sql<{ n: number }>(`select count(*)::int as n from private.payment_events where payment_id = $1 and outcome = 'enrolled'`, [paymentId]))[0]!.n;
    expect(after - before).toBe(3);
    expect(await enrollment()).toMatchObject({ status: 'ACTIVE' });
  });

  it('the checking RPC is still for the service role only', async () => {
    const args = { p_school_id: SCHOOL.demo, p_provider: 'asaas', p_event_id: 'evt_rpc', p_event: 'PAYMENT_CONFIRMED', p_provider_payment_id: null, p_external_reference: null, p_value: '297', p_customer: null, p_installment: null };
    for (const client of [backend.anon(), aluna, await backend.signIn(EMAIL.adminDemo)]) {
      expect((await client.rpc('apply_payment_event', args)).error).not.toBeNull();
    }
    expect((await sql(`select 1 from private.payment_events where event_id = 'evt_rpc'`)).length).toBe(0);
  });
});

describe('event ids are deduplicated per school (item 3)', () => {
  it("school B's token claims event id X first; school A's real event X still enrolls; X again in A is the duplicate", async () => {
    await unenroll();
    const { paymentId, asaasId } = await charge({ course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER });
    const X = `evt_${Math.random().toString(16).slice(2)}&42`;
    // Academia Rival, with its own valid token, sends anything with A's future event id.
    const squat = await webhook({ id: X, event: 'PAYMENT_CONFIRMED', payment: { id: 'pay_qualquer', value: 1 } }, RIVAL.webhookToken, SCHOOL.rival);
    expect(squat).toMatchObject({ status: 200, outcome: 'unknown_payment' });
    // Asaas delivers A's real confirmation with that id.
    const real = await fake.sendEvent(asaasId, 'PAYMENT_RECEIVED', { eventId: X });
    expect(real.status).toBe(200);
    expect(JSON.parse(real.body)).toMatchObject({ received: true, outcome: 'enrolled' });
    expect(await enrollment()).toMatchObject({ status: 'ACTIVE' });
    expect((await paymentRow(paymentId)).status).toBe('RECEIVED');
    const rows = await sql<{ school_id: string; outcome: string }>('select school_id, outcome from private.payment_events where event_id = $1 order by school_id', [X]);
    expect(rows).toEqual([
      { school_id: SCHOOL.demo, outcome: 'enrolled' },
      { school_id: SCHOOL.rival, outcome: 'unknown_payment' },
    ]);
    // Within one school the id still acts once.
    await service.from('enrollments').update({ status: 'PAUSED' }).eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
    expect(JSON.parse((await fake.sendEvent(asaasId, 'PAYMENT_RECEIVED', { eventId: X })).body)).toMatchObject({ outcome: 'duplicate' });
    expect(await enrollment()).toMatchObject({ status: 'PAUSED' });
  });
});

describe("an event is matched with its own school's payments only (issue 37, hole 4)", () => {
  /** Academia Rival's student subscribed to a rival plan by PIX, through create-asaas-subscription and the fake Asaas. */
  async function rivalSubscription() {
    const slug = `plano-rival-${Math.random().toString(36).slice(2, 8)}`;
    const { data: plan } = await service.from('plans').insert({ school_id: SCHOOL.rival, slug, name: 'Plano Rival', cycle: 'MONTHLY', price: 29.9, billing_types: ['PIX'] }).select('id').single();
    await service.from('plan_courses').insert({ plan_id: plan!.id, course_id: COURSE.rival });
    const rivalStudent = await backend.signIn(EMAIL.alunoRival);
    const { data: session } = await rivalStudent.auth.getSession();
    const res = await fetch(`${backend.url}/functions/v1/create-asaas-subscription`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.session?.access_token ?? ''}`, apikey: ANON_KEY },
      body: JSON.stringify({ plan_id: plan!.id, billing_type: 'PIX', customer: { ...CUSTOMER, email: 'aluno@academia-rival.com.br' } }),
    });
    const json = (await res.json()) as { subscription_id: string };
    expect(res.status, JSON.stringify(json)).toBe(200);
    await fake.idle();
    const [sub] = await sql<{ provider_subscription_id: string; provider_customer_id: string; value: string }>(
      'select provider_subscription_id, provider_customer_id, value::text from public.subscriptions where id = $1',
      [json.subscription_id],
    );
    return { id: json.subscription_id, asaasId: sub!.provider_subscription_id, customer: sub!.provider_customer_id, value: Number(sub!.value) };
  }
  /** An invoice event of the rival subscription, as Academia Rival can forge it with its own token. */
  const invoiceEvent = (sub: { asaasId: string; customer: string; value: number; id: string }, paymentId: string, event = 'PAYMENT_RECEIVED') => ({
    id: `evt_${Math.random().toString(16).slice(2)}&7`,
    event,
    payment: { object: 'payment', id: paymentId, subscription: sub.asaasId, customer: sub.customer, value: sub.value, billingType: 'PIX', dueDate: '2026-12-01', externalReference: sub.id, status: 'RECEIVED' },
  });
  const victim = (id: string) =>
    sql('select status, value::text, paid_at, mismatch_reason, mismatch_at, subscription_id, provider_payment_id, updated_at from public.payments where id = $1', [id]);

  it("Academia Rival's event of its own subscription naming an escola-demo charge id changes nothing on that charge", async () => {
    await unenroll();
    const { paymentId, asaasId } = await charge({ course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER });
    const before = await victim(paymentId);
    const sub = await rivalSubscription();
    for (const query of [`?school=${SCHOOL.rival}`, '']) {
      const res = await fetch(`${backend.url}/functions/v1/asaas-webhook${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'asaas-access-token': RIVAL.webhookToken },
        body: JSON.stringify(invoiceEvent(sub, asaasId)),
      });
      expect([200, 401]).toContain(res.status);
    }
    // The victim's payment is exactly as it was; no rival invoice took its charge id.
    expect(await victim(paymentId)).toEqual(before);
    expect(await sql('select school_id from public.payments where provider_payment_id = $1', [asaasId])).toEqual([{ school_id: SCHOOL.demo }]);
    expect(await sql(`select 1 from private.payment_events where payment_id = $1 and school_id = $2`, [paymentId, SCHOOL.rival])).toEqual([]);
    // The escola-demo charge still works for its own school.
    await fetch(`${fake.url}/i/${asaasId}/pay`, { method: 'POST', redirect: 'manual' });
    expect((await paymentRow(paymentId)).status).toBe('CONFIRMED');
    expect(await enrollment()).toMatchObject({ status: 'ACTIVE' });
  });

  it("the rival school's own invoice event still applies to its own subscription", async () => {
    const sub = await rivalSubscription();
    const own = `pay_rival_${Math.random().toString(36).slice(2, 10)}`;
    const r = await webhook(invoiceEvent(sub, own), RIVAL.webhookToken, SCHOOL.rival);
    expect(r).toMatchObject({ status: 200, outcome: 'enrolled' });
    expect(await sql('select school_id, status, subscription_id from public.payments where provider_payment_id = $1', [own])).toEqual([
      { school_id: SCHOOL.rival, status: 'RECEIVED', subscription_id: sub.id },
    ]);
    expect(await sql('select status from public.subscriptions where id = $1', [sub.id])).toEqual([{ status: 'ACTIVE' }]);
  });
});

describe('the Asaas webhook token has at least 32 characters in the database (item 4)', () => {
  const stored = async () => (await sql<{ webhook_token: string | null }>('select webhook_token from private.integration_secrets where integration_id = $1', [DEMO_INTEGRATION]))[0]!.webhook_token;

  it('set_integration_webhook_token and create_integration refuse a shorter token; 32 is accepted', async () => {
    const admin = await backend.signIn(EMAIL.adminDemo);
    for (const token of ['a', 'x'.repeat(31), `  ${'y'.repeat(30)}  `]) {
      const { error } = await admin.rpc('set_integration_webhook_token', { p_integration_id: DEMO_INTEGRATION, p_token: token });
      expect(error?.code).toBe('23514');
      expect(error?.message).toContain('integration_secrets_webhook_token_min_length');
    }
    expect(await stored()).toBe(DEMO.webhookToken);
    // A guess of a short token never authenticates anything.
    expect((await webhook({ id: 'evt_a', event: 'PAYMENT_CONFIRMED', payment: {} }, 'a')).status).toBe(401);

    const before = (await sql<{ n: number }>('select count(*)::int as n from public.integration_settings where school_id = $1', [SCHOOL.demo]))[0]!.n;
    const created = await admin.rpc('create_integration', { p_provider: 'asaas', p_environment: 'production', p_api_key: '$aact_outra_chave', p_school_id: SCHOOL.demo, p_webhook_token: 'curto' });
    expect(created.error?.code).toBe('23514');
    expect((await sql<{ n: number }>('select count(*)::int as n from public.integration_settings where school_id = $1', [SCHOOL.demo]))[0]!.n).toBe(before);

    // Not even the service role writes one directly.
    await expect(sql(`update private.integration_secrets set webhook_token = 'abc' where integration_id = $1`, [DEMO_INTEGRATION])).rejects.toThrow(/integration_secrets_webhook_token_min_length/);

    const ok = 'z'.repeat(32);
    expect((await admin.rpc('set_integration_webhook_token', { p_integration_id: DEMO_INTEGRATION, p_token: ok })).error).toBeNull();
    expect(await stored()).toBe(ok);
    expect((await admin.rpc('set_integration_webhook_token', { p_integration_id: DEMO_INTEGRATION, p_token: DEMO.webhookToken })).error).toBeNull();
    // Removing the token stays possible.
    expect((await admin.rpc('set_integration_webhook_token', { p_integration_id: DEMO_INTEGRATION, p_token: '' })).error).toBeNull();
    expect(await stored()).toBeNull();
    expect((await admin.rpc('set_integration_webhook_token', { p_integration_id: DEMO_INTEGRATION, p_token: DEMO.webhookToken })).error).toBeNull();
  });
});

describe('student-webhook: signed, timestamped requests (hardening)', () => {
  const tag = () => Math.random().toString(36).slice(2, 8);
  const bodyFor = () => JSON.stringify({ email: `assinado.${tag()}@exemplo.com.br`, name: 'Comprador Assinado', school_id: SCHOOL.demo, course_id: COURSE.excel });
  const sign = (raw: string, secret = DEMO_SECRET, t = Math.floor(Date.now() / 1000)) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;

  async function post(raw: string, headers: Record<string, string>) {
    const res = await fetch(`${backend.url}/functions/v1/student-webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: raw });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const userExists = async (raw: string) => (await sql('select 1 from auth.users where email = $1', [(JSON.parse(raw) as { email: string }).email])).length > 0;

  it('a valid signature alone (no secret in the request) creates and enrolls: 201', async () => {
    const raw = bodyFor();
    const r = await post(raw, { 'x-webhook-signature': sign(raw) });
    expect(r.status).toBe(201);
    expect((await service.from('enrollments').select('status').eq('id', r.body.enrollment_id as string).single()).data).toMatchObject({ status: 'ACTIVE' });
  });

  it('signed with a wrong secret: 401, also beside the right static secret; nothing created', async () => {
    const raw = bodyFor();
    expect((await post(raw, { 'x-webhook-signature': sign(raw, 'whsec_errado_0123456789abcdef0123456789') })).status).toBe(401);
    expect((await post(raw, { 'x-webhook-secret': DEMO_SECRET, 'x-webhook-signature': sign(raw, 'whsec_errado_0123456789abcdef0123456789') })).status).toBe(401);
    expect(await userExists(raw)).toBe(false);
  });

  it('a timestamp 6 minutes old (or ahead) is refused: 401, even with the right static secret', async () => {
    const raw = bodyFor();
    const now = Math.floor(Date.now() / 1000);
    for (const t of [now - 360, now + 360]) {
      expect((await post(raw, { 'x-webhook-secret': DEMO_SECRET, 'x-webhook-signature': sign(raw, DEMO_SECRET, t) })).status).toBe(401);
      expect((await post(raw, { 'x-webhook-signature': sign(raw, DEMO_SECRET, t) })).status).toBe(401);
    }
    expect(await userExists(raw)).toBe(false);
  });

  it('a body altered after signing is refused: 401, even with the right static secret', async () => {
    const raw = bodyFor();
    const signature = sign(raw);
    const altered = raw.replace('"course_id"', '"cpf":"52998224725","course_id"');
    expect((await post(altered, { 'x-webhook-secret': DEMO_SECRET, 'x-webhook-signature': signature })).status).toBe(401);
    expect((await post(altered, { 'x-webhook-signature': signature })).status).toBe(401);
    // A malformed header is no signature either.
    expect((await post(raw, { 'x-webhook-secret': DEMO_SECRET, 'x-webhook-signature': 'v1=abc' })).status).toBe(401);
    expect(await userExists(raw)).toBe(false);
  });

  it('the same signed request sent again is refused (401); the first one acted once', async () => {
    const raw = bodyFor();
    const headers = { 'x-webhook-signature': sign(raw) };
    const first = await post(raw, headers);
    expect(first.status).toBe(201);
    const enrollmentId = first.body.enrollment_id as string;
    // Staff pause the enrollment; a replay must not re-activate it.
    await service.from('enrollments').update({ status: 'PAUSED' }).eq('id', enrollmentId);
    const replay = await post(raw, headers);
    expect(replay.status).toBe(401);
    expect((await service.from('enrollments').select('status').eq('id', enrollmentId).single()).data).toMatchObject({ status: 'PAUSED' });
    // Remembered until the timestamp expires, then forgotten.
    const seen = await sql<{ expires_at: Date }>('select expires_at from private.webhook_signatures_seen where school_id = $1', [SCHOOL.demo]);
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) expect(new Date(s.expires_at).getTime()).toBeLessThan(Date.now() + 11 * 60_000);
  });

  it('no signature header: the static secret alone still works (201)', async () => {
    const raw = bodyFor();
    expect((await post(raw, { 'x-webhook-secret': DEMO_SECRET })).status).toBe(201);
    expect((await post(bodyFor(), {})).status).toBe(401);
  });
});
