// Issue 11, selling in real Deno against the fake Asaas: create-asaas-charge takes the price from the
// database and passes card data through without keeping it; asaas-webhook authenticates the school's
// token, applies each event once, enrolls on payment and pauses on refund; one school's token never
// touches another school's payments.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, EMAIL, SCHOOL, USER } from '../rls/seed.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

const [DEMO, RIVAL] = DEMO_ASAAS_ACCOUNTS;
const CARD = { holderName: 'ALUNA TESTE', number: '5162306219378829', expiryMonth: '05', expiryYear: '2031', ccv: '8317' };
const HOLDER = { name: 'Aluna Teste', email: 'aluna@escola-demo.com.br', cpfCnpj: '529.982.247-25', postalCode: '01310-100', addressNumber: '1000', phone: '(11) 98888-7777' };
const CUSTOMER = { name: 'Aluna Teste', email: 'aluna@escola-demo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };

const logs: string[] = [];
const backend = useBackend({
  fakeAsaas: true,
  functionSecrets: { SITE_URL: 'http://localhost:5999' },
  log: (line) => logs.push(line),
});
const fake = backend.asaas;
const service = backend.service();
const aluna = backend.signedIn('aluna');

async function charge(client: SupabaseClient, body: Record<string, unknown>) {
  const { data: session } = await client.auth.getSession();
  const res = await fetch(`${backend.url}/functions/v1/create-asaas-charge`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.session?.access_token ?? ''}`, apikey: ANON_KEY },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function webhook(body: unknown, token: string | null, query = `?school=${SCHOOL.demo}`) {
  const res = await fetch(`${backend.url}/functions/v1/asaas-webhook${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { 'asaas-access-token': token } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}

const enrollment = async (userId: string, courseId: string) =>
  (await service.from('enrollments').select('id, status').eq('user_id', userId).eq('course_id', courseId).maybeSingle()).data;
const paymentRow = async (id: string) => (await service.from('payments').select('*').eq('id', id).single()).data!;
const asaasIdOf = (invoiceUrl: unknown) => String(invoiceUrl).split('/i/')[1]!;

describe('create-asaas-charge', () => {
  it('refuses a visitor, bad fields and courses not for sale, creating no payment', async () => {
    const anon = backend.anon();
    expect((await charge(anon, { course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER })).status).toBe(401);
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ course_id: COURSE.marketing, billing_type: 'PIX', customer: { ...CUSTOMER, name: '' } }, 400, 'Campos obrigatórios', 'customer.name'],
      [{ course_id: COURSE.marketing, billing_type: 'PIX', customer: { ...CUSTOMER, phone: undefined } }, 400, 'Campos obrigatórios', 'customer.phone'],
      [{ course_id: COURSE.marketing, billing_type: 'PIX', customer: { ...CUSTOMER, cpfCnpj: '111.111.111-11' } }, 400, 'CPF inválido', 'customer.cpfCnpj'],
      [{ course_id: COURSE.marketing, billing_type: 'BITCOIN', customer: CUSTOMER }, 400, 'Forma de pagamento inválida', 'billing_type'],
      [{ course_id: COURSE.marketing, billing_type: 'CREDIT_CARD', customer: CUSTOMER, creditCard: { ...CARD, ccv: '' }, creditCardHolderInfo: HOLDER }, 400, 'Dados do cartão obrigatórios', 'creditCard.ccv'],
      [{ course_id: COURSE.marketing, billing_type: 'CREDIT_CARD', customer: CUSTOMER, creditCard: CARD }, 400, 'Dados do cartão obrigatórios', 'creditCardHolderInfo.name'],
      [{ course_id: COURSE.marketing, billing_type: 'CREDIT_CARD', customer: CUSTOMER, creditCard: { ...CARD, expiryMonth: '123' }, creditCardHolderInfo: HOLDER }, 400, 'Mês de validade inválido', 'creditCard.expiryMonth'],
      [{ course_id: COURSE.draft, billing_type: 'PIX', customer: CUSTOMER }, 404, 'Curso não encontrado', 'course_id'],
      [{ course_id: COURSE.rival, billing_type: 'PIX', customer: CUSTOMER }, 404, 'Curso não encontrado', 'course_id'],
      [{ course_id: '00000000-0000-4000-8000-000000000000', billing_type: 'PIX', customer: CUSTOMER }, 404, 'Curso não encontrado', 'course_id'],
      // The price is the database's: a page showing another value is told, not charged.
      [{ course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER, value: 1 }, 409, 'O preço do curso mudou. Recarregue a página para ver o valor atual.', 'value'],
    ];
    for (const [body, status, error, field] of cases) {
      const res = await charge(aluna, body);
      expect({ status: res.status, error: res.body.error, field: res.body.field }).toEqual({ status, error, field });
    }
    // Already enrolled: sent to the course, not charged twice.
    const aluno = await backend.signIn(EMAIL.aluno);
    expect((await charge(aluno, { course_id: COURSE.excel, billing_type: 'PIX', customer: CUSTOMER })).body.error).toBe('Você já está matriculado neste curso');
    expect((await service.from('payments').select('id', { count: 'exact', head: true }).in('user_id', [USER.aluna, USER.aluno])).count).toBe(0);
    expect(fake.requests.filter((r) => r.path.startsWith('/api/v3/payments'))).toEqual([]);
  });

  it('a PIX charge uses the database price, records the payment and answers the invoice URL', async () => {
    const res = await charge(aluna, { course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER, value: 297 });
    expect(res.status).toBe(200);
    expect(String(res.body.invoiceUrl)).toMatch(new RegExp(`^${fake.url}/i/pay_`));
    const row = await paymentRow(String(res.body.payment_id));
    expect(row).toMatchObject({ user_id: USER.aluna, course_id: COURSE.marketing, school_id: SCHOOL.demo, billing_type: 'PIX', status: 'PENDING', environment: 'sandbox', invoice_url: res.body.invoiceUrl });
    expect(Number(row.value)).toBe(297);
    const sent = fake.payment(row.provider_payment_id)!;
    expect(sent).toMatchObject({ value: 297, billingType: 'PIX', externalReference: row.id });
    // The fake sees the school's own key, and the buyer goes back to the course afterwards.
    const create = fake.requests.find((r) => r.path === '/api/v3/payments' && (r.body as { externalReference?: string }).externalReference === row.id)!;
    expect(create.headers['access_token']).toBe(DEMO.apiKey);
    expect((create.body as { callback: { successUrl: string } }).callback.successUrl).toBe(`http://localhost:5999/course/${COURSE.marketing}?pagamento=retorno`);
    // The buyer reads their own payment; another student does not.
    expect((await aluna.from('payments').select('id').eq('id', row.id)).data).toHaveLength(1);
    const other = await backend.signIn(EMAIL.aluno);
    expect((await other.from('payments').select('id').eq('id', row.id)).data).toEqual([]);
    expect((await aluna.from('payments').insert({ school_id: SCHOOL.demo, user_id: USER.aluna, course_id: COURSE.marketing, course_title: 'x', environment: 'sandbox', billing_type: 'PIX', value: 1 })).error).not.toBeNull();
  });

  it('a card charge sends the card to Asaas only: nothing of it in the database or the logs', async () => {
    const res = await charge(aluna, {
      course_id: COURSE.marketing,
      billing_type: 'CREDIT_CARD',
      customer: CUSTOMER,
      creditCard: CARD,
      creditCardHolderInfo: HOLDER,
      installment_count: 3,
    });
    expect(res.status).toBe(200);
    const row = await paymentRow(String(res.body.payment_id));
    const create = fake.requests.find((r) => r.path === '/api/v3/payments' && (r.body as { externalReference?: string }).externalReference === row.id)!;
    expect(create.body).toMatchObject({ billingType: 'CREDIT_CARD', creditCard: CARD, installmentCount: 3, totalValue: 297 });
    expect((create.body as { creditCardHolderInfo: Record<string, string> }).creditCardHolderInfo).toMatchObject({ postalCode: '01310100', cpfCnpj: '52998224725' });

    // Every row of every table, as text: the card number, its CVV and expiry appear nowhere.
    const engine = backend.server.ctx.engine;
    const tables = await engine.query<{ s: string; t: string }>(
      `select table_schema as s, table_name as t from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema in ('public', 'private', 'auth', 'storage')`,
    );
    let everything = '';
    for (const { s, t } of tables.rows) {
      const rows = await engine.query<{ r: string }>(`select row_to_json(x)::text as r from "${s}"."${t}" x`);
      everything += rows.rows.map((r) => r.r).join('\n');
    }
    expect(everything).toContain(row.id); // the dump is real
    for (const secret of [CARD.number, '5162 3062', `"${CARD.ccv}"`, `"${CARD.expiryYear}"`]) expect(everything).not.toContain(secret);
    expect(logs.join('\n')).not.toContain(CARD.number);
    expect(logs.join('\n')).not.toContain(`"${CARD.ccv}"`);
  });

  it('a refused card shows Asaas’s reason and marks the payment failed', async () => {
    const res = await charge(aluna, { course_id: COURSE.marketing, billing_type: 'CREDIT_CARD', customer: CUSTOMER, creditCard: { ...CARD, number: '4111111111111112' }, creditCardHolderInfo: HOLDER });
    expect(res).toMatchObject({ status: 400, body: { error: 'Número do cartão de crédito inválido.' } });
    const { data } = await service.from('payments').select('status').eq('user_id', USER.aluna).eq('billing_type', 'CREDIT_CARD').order('created_at', { ascending: false }).limit(1);
    expect(data![0]!.status).toBe('FAILED');
    expect(logs.join('\n')).not.toContain('4111111111111112');
  });
});

describe('asaas-webhook', () => {
  async function newPixCharge() {
    const res = await charge(aluna, { course_id: COURSE.marketing, billing_type: 'PIX', customer: CUSTOMER });
    expect(res.status).toBe(200);
    return { paymentId: String(res.body.payment_id), asaasId: asaasIdOf(res.body.invoiceUrl) };
  }
  const eventFor = (asaasId: string, paymentId: string, event: string, id = `evt_${Math.random().toString(16).slice(2)}`) => ({
    id,
    event,
    dateCreated: '2026-11-23 10:00:00',
    // Asaas's shape: the event carries the charge's customer too (asaas-webhook compares it).
    payment: { object: 'payment', id: asaasId, customer: fake.payment(asaasId)?.customer, externalReference: paymentId, status: 'RECEIVED', value: 297 },
  });

  it('refuses a missing, wrong or other school’s token, changing nothing', async () => {
    const { paymentId, asaasId } = await newPixCharge();
    await service.from('enrollments').delete().eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
    const body = eventFor(asaasId, paymentId, 'PAYMENT_CONFIRMED');
    expect((await webhook(body, null)).status).toBe(401);
    expect((await webhook(body, 'whtok_errado_0123456789abcdef0123456789')).status).toBe(401);
    expect((await webhook(body, DEMO.webhookToken.slice(0, -1))).status).toBe(401);
    // Academia Rival's token, for the demo school's payment: by ?school and by the payment itself.
    expect((await webhook(body, RIVAL.webhookToken)).status).toBe(401);
    expect((await webhook(body, RIVAL.webhookToken, '')).status).toBe(401);
    expect((await webhook(body, RIVAL.webhookToken, `?school=${SCHOOL.rival}`)).body).toContain('unknown_payment');
    expect((await webhook(body, DEMO.webhookToken, '?school=nao-e-uuid')).status).toBe(401);
    expect(await enrollment(USER.aluna, COURSE.marketing)).toBeNull();
    expect((await paymentRow(paymentId)).status).toBe('PENDING');
    // Authenticated but malformed: 400 naming the field; a GET is 405.
    expect(await webhook({ ...body, id: undefined }, DEMO.webhookToken)).toMatchObject({ status: 400 });
    expect(JSON.parse((await webhook({ ...body, event: '' }, DEMO.webhookToken)).body)).toMatchObject({ field: 'event' });
    expect((await webhook('{no', DEMO.webhookToken)).status).toBe(400);
    expect((await fetch(`${backend.url}/functions/v1/asaas-webhook`, { method: 'GET' })).status).toBe(405);
    expect(await enrollment(USER.aluna, COURSE.marketing)).toBeNull();
  });

  it('Simular pagamento enrolls the buyer once; the repeated event answers 200 and acts no more; a refund pauses', async () => {
    const { paymentId, asaasId } = await newPixCharge();
    await service.from('enrollments').delete().eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
    // The fake's invoice page: pay, PAYMENT_CONFIRMED reaches asaas-webhook, back to the course.
    const paid = await fetch(`${fake.url}/i/${asaasId}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://localhost:5999/course/${COURSE.marketing}?pagamento=retorno`);
    expect(await enrollment(USER.aluna, COURSE.marketing)).toMatchObject({ status: 'ACTIVE' });
    expect((await paymentRow(paymentId)).status).toBe('CONFIRMED');
    expect((await paymentRow(paymentId)).paid_at).not.toBeNull();
    // The student now opens the paid lessons.
    const { data: lessons } = await aluna.from('lesson_contents').select('lesson_id').eq('lesson_id', 'e0000000-0000-4000-8000-000000000008');
    expect(lessons).toHaveLength(1);

    // Staff pause the enrollment; the same event delivered again must not re-activate it.
    await service.from('enrollments').update({ status: 'PAUSED' }).eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
    const again = eventFor(asaasId, paymentId, 'PAYMENT_CONFIRMED', 'evt_repetido_1');
    const first = await webhook(again, DEMO.webhookToken);
    expect(first.status).toBe(200);
    expect(await enrollment(USER.aluna, COURSE.marketing)).toMatchObject({ status: 'ACTIVE' });
    await service.from('enrollments').update({ status: 'PAUSED' }).eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
    const second = await webhook(again, DEMO.webhookToken);
    expect(second).toMatchObject({ status: 200 });
    expect(JSON.parse(second.body)).toMatchObject({ received: true, outcome: 'duplicate' });
    expect(await enrollment(USER.aluna, COURSE.marketing)).toMatchObject({ status: 'PAUSED' });
    // Two deliveries of one new event at once: one applies, the other is the duplicate.
    const both = await Promise.all([1, 2].map(() => webhook(eventFor(asaasId, paymentId, 'PAYMENT_RECEIVED', 'evt_simultaneo'), DEMO.webhookToken)));
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => JSON.parse(r.body).outcome).sort()).toEqual(['duplicate', 'enrolled']);
    const { count } = await service.from('enrollments').select('id', { count: 'exact', head: true }).eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
    expect(count).toBe(1);

    // Refund (sent by the fake, with its token, without ?school) pauses the enrollment.
    const refund = await fake.sendEvent(asaasId, 'PAYMENT_REFUNDED');
    expect(refund.status).toBe(200);
    expect(await enrollment(USER.aluna, COURSE.marketing)).toMatchObject({ status: 'PAUSED' });
    expect((await paymentRow(paymentId)).status).toBe('REFUNDED');
    // A chargeback too; other events are recorded and ignored, with 200.
    await service.from('enrollments').update({ status: 'ACTIVE' }).eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
    expect((await webhook(eventFor(asaasId, paymentId, 'PAYMENT_CHARGEBACK_REQUESTED'), DEMO.webhookToken)).status).toBe(200);
    expect(await enrollment(USER.aluna, COURSE.marketing)).toMatchObject({ status: 'PAUSED' });
    const ignored = await webhook(eventFor(asaasId, paymentId, 'PAYMENT_UPDATED'), DEMO.webhookToken);
    expect(JSON.parse(ignored.body)).toMatchObject({ received: true, outcome: 'ignored' });
    expect(await enrollment(USER.aluna, COURSE.marketing)).toMatchObject({ status: 'PAUSED' });
  });

  it('the payment RPCs are for the service role only', async () => {
    for (const client of [backend.anon(), aluna, await backend.signIn(EMAIL.adminDemo)]) {
      const r1 = await client.rpc('apply_payment_event', { p_school_id: SCHOOL.demo, p_provider: 'asaas', p_event_id: 'evt_x', p_event: 'PAYMENT_CONFIRMED', p_provider_payment_id: null, p_external_reference: null });
      expect(r1.error).not.toBeNull();
      const r2 = await client.rpc('payment_school_id', { p_provider: 'asaas', p_provider_payment_id: 'pay_x', p_external_reference: null });
      expect(r2.error).not.toBeNull();
    }
  });
});
