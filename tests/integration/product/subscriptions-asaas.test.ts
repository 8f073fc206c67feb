// Issue 24, subscriptions through Asaas in real Deno against the fake Asaas: create-asaas-subscription
// creates the subscription at Asaas with the plan's value and cycle from the database; its invoices'
// events (the fake's, through asaas-webhook) open the plan's courses, the daily check pauses them past the
// grace days and paying restores them; cancel-asaas-subscription removes it at Asaas and keeps access until
// the end of the paid period. And what an attacker tries: forged events, someone else's subscription,
// another school's plan, subscribing twice.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, EMAIL, LESSON, SCHOOL, USER } from '../rls/seed.ts';
import { addCycle } from '../../../scripts/fake-asaas/server.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

const [DEMO, RIVAL] = DEMO_ASAAS_ACCOUNTS;
const CARD = { holderName: 'ASSINANTE TESTE', number: '5162306219378829', expiryMonth: '05', expiryYear: '2031', ccv: '8317' };
const HOLDER = { name: 'Assinante Teste', email: 'assinante@exemplo.com.br', cpfCnpj: '529.982.247-25', postalCode: '01310-100', addressNumber: '1000', phone: '(11) 98888-7777' };
const CUSTOMER = { name: 'Assinante Teste', email: 'assinante@exemplo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
const SUCCESS_URL = 'http://localhost:5999/profile?assinatura=retorno';
const PASSWORD = 'senha-assina-123';
const DAY = 24 * 3600_000;

const logs: string[] = [];
const backend = useBackend({
  fakeAsaas: { eventDelayMs: 20 },
  functionSecrets: { SITE_URL: 'http://localhost:5999' },
  log: (line) => logs.push(line),
});
const fake = backend.asaas;
const service = backend.service();

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const brazilDate = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
const today = brazilDate(new Date());

/** A new student of the demo school, signed in. */
async function student(school: string = SCHOOL.demo) {
  const email = `assina.${tag()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Assinante', school_id: school } });
  if (created.error) throw created.error;
  return { id: created.data.user!.id, client: await backend.signIn(email, PASSWORD) };
}

async function plan(courses: string[] = [COURSE.excel, COURSE.marketing], extra: Record<string, unknown> = {}) {
  const name = `Plano ${tag()}`;
  const p = (await must(service.from('plans').insert({ school_id: SCHOOL.demo, slug: `plano-${tag()}`, name, cycle: 'MONTHLY', price: 49.9, ...extra }).select('id, name').single())) as { id: string; name: string };
  if (courses.length) await must(service.from('plan_courses').insert(courses.map((course_id) => ({ plan_id: p.id, course_id }))).select('plan_id'));
  return p;
}

async function call(fn: 'create-asaas-subscription' | 'cancel-asaas-subscription', client: SupabaseClient | null, body: Record<string, unknown>) {
  const token = client ? (await client.auth.getSession()).data.session?.access_token : null;
  const res = await fetch(`${backend.url}/functions/v1/${fn}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const subscribe = (client: SupabaseClient, planId: string, billing: 'PIX' | 'BOLETO' | 'CREDIT_CARD' = 'CREDIT_CARD', card = CARD) =>
  call('create-asaas-subscription', client, { plan_id: planId, billing_type: billing, customer: CUSTOMER, ...(billing === 'CREDIT_CARD' ? { creditCard: card, creditCardHolderInfo: HOLDER } : {}) });
const cancel = (client: SupabaseClient | null, id: string) => call('cancel-asaas-subscription', client, { subscription_id: id });

async function webhook(body: unknown, token: string | null, query = `?school=${SCHOOL.demo}`) {
  const res = await fetch(`${backend.url}/functions/v1/asaas-webhook${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { 'asaas-access-token': token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}

interface SubRow {
  status: string;
  paid_until: string | null;
  provider_subscription_id: string | null;
  provider_customer_id: string | null;
  cancelled_by: string | null;
  value: number;
  cycle: string;
}
const subRow = async (id: string) => (await must(service.from('subscriptions').select('*').eq('id', id).single())) as SubRow;
const access = async (userId: string) =>
  Object.fromEntries(((await must(service.from('enrollments').select('course_id, status').eq('user_id', userId))) as { course_id: string; status: string }[]).map((e) => [e.course_id, e.status]));
const invoices = async (subscriptionId: string) =>
  (await must(service.from('payments').select('provider_payment_id, status, value, due_date').eq('subscription_id', subscriptionId).order('due_date'))) as { provider_payment_id: string; status: string; value: number; due_date: string }[];
const check = async (at: Date) => (await must(service.rpc('check_subscription_access', { p_now: at.toISOString() }))) as number;
const subscriptionRequests = () => fake.requests.filter((r) => r.path.startsWith('/api/v3/subscriptions'));

/** Polls until `ok` holds (events arrive a moment after the answers that cause them). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  let v = await read();
  for (let i = 0; i < 100 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  if (!ok(v)) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
  return v;
}

describe('a monthly plan paid by card', () => {
  it('subscribes at Asaas with the database’s value → ACTIVE; a declined renewal goes overdue and pauses past the grace days; paying restores; cancelling keeps access until the end of the period', async () => {
    const s = await student();
    const p = await plan();
    const res = await subscribe(s.client, p.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const subId = String(res.body.subscription_id);
    const row = await until(() => subRow(subId), (r) => r.status === 'ACTIVE', 'the first invoice');
    expect(row).toMatchObject({ cycle: 'MONTHLY', value: 49.9, cancelled_by: null });
    const asaasId = row.provider_subscription_id!;
    // What Asaas got: the plan's value and cycle, our id, today's due date and the way back to the site.
    const sent = subscriptionRequests().find((r) => r.method === 'POST' && (r.body as { externalReference?: string }).externalReference === subId)!;
    expect(sent.headers['access_token']).toBe(DEMO.apiKey);
    expect(sent.body).toMatchObject({ customer: row.provider_customer_id, billingType: 'CREDIT_CARD', value: 49.9, cycle: 'MONTHLY', nextDueDate: today, description: p.name, callback: { successUrl: SUCCESS_URL }, creditCard: { ...CARD } });
    expect(fake.subscription(asaasId)).toMatchObject({ externalReference: subId, customer: row.provider_customer_id, status: 'ACTIVE' });
    // The answer is the first invoice, already paid by the card.
    const [first] = fake.subscriptionPayments(asaasId);
    expect(res.body.invoiceUrl).toBe(first!.invoiceUrl);
    expect(first!.status).toBe('CONFIRMED');
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'ACTIVE', [COURSE.marketing]: 'ACTIVE' });
    const paidUntil = new Date(row.paid_until!);
    expect(paidUntil.getTime() - Date.now()).toBeGreaterThan(27 * DAY);
    expect(paidUntil.getTime() - Date.now()).toBeLessThan(32 * DAY);
    // The card went to Asaas only.
    expect(logs.join('\n')).not.toContain(CARD.number);

    // The next cycle, with the card declined: the invoice is created, stays unpaid and goes overdue.
    const next = await fake.nextCycle(asaasId, { cardDeclined: true });
    expect(next).toMatchObject({ status: 'PENDING', dueDate: addCycle(today, 'MONTHLY') });
    expect(await invoices(subId)).toMatchObject([{ status: 'CONFIRMED' }, { provider_payment_id: next.id, status: 'PENDING', due_date: next.dueDate, value: 49.9 }]);
    await fake.markOverdue(asaasId);
    expect((await invoices(subId))[1]!.status).toBe('OVERDUE');
    // Within the grace days (the school's 5) nothing changes; past them access pauses.
    await check(new Date(paidUntil.getTime() + 4 * DAY));
    expect((await subRow(subId)).status).toBe('ACTIVE');
    await check(new Date(paidUntil.getTime() + 6 * DAY));
    expect((await subRow(subId)).status).toBe('OVERDUE');
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'PAUSED', [COURSE.marketing]: 'PAUSED' });

    // 'Simular pagamento' of the overdue invoice: access back, paid for another month, back to the site.
    const paid = await fetch(`${fake.url}/i/${next.id}/pay`, { method: 'POST', redirect: 'manual' });
    expect([paid.status, paid.headers.get('location')]).toEqual([303, SUCCESS_URL]);
    const restored = await subRow(subId);
    expect(restored.status).toBe('ACTIVE');
    expect(new Date(restored.paid_until!).getTime()).toBeGreaterThan(paidUntil.getTime() + 27 * DAY);
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'ACTIVE', [COURSE.marketing]: 'ACTIVE' });
    expect((await invoices(subId)).map((i) => i.status)).toEqual(['CONFIRMED', 'CONFIRMED']);

    // The student cancels: removed at Asaas, CANCELLED here, access until paid_until, then EXPIRED.
    const cancelled = await cancel(s.client, subId);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ id: subId, status: 'CANCELLED', cancelled_by: s.id });
    expect(fake.subscription(asaasId)).toMatchObject({ status: 'INACTIVE', deleted: true });
    expect(subscriptionRequests().filter((r) => r.method === 'DELETE').map((r) => r.path)).toContain(`/api/v3/subscriptions/${asaasId}`);
    // Asaas's SUBSCRIPTION_DELETED arrives afterwards and changes nothing more.
    await new Promise((r) => setTimeout(r, 300));
    expect(await subRow(subId)).toMatchObject({ status: 'CANCELLED', cancelled_by: s.id });
    await check(new Date());
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'ACTIVE', [COURSE.marketing]: 'ACTIVE' });
    await check(new Date(new Date(restored.paid_until!).getTime() + 1000));
    expect((await subRow(subId)).status).toBe('EXPIRED');
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'PAUSED', [COURSE.marketing]: 'PAUSED' });
    expect(await cancel(s.client, subId)).toMatchObject({ status: 409, body: { error: 'Esta assinatura já foi cancelada.' } });
  });
});

describe('a plan paid by PIX', () => {
  it('stays PENDING until its invoice is paid; then ACTIVE with the plan’s courses', async () => {
    const s = await student();
    const p = await plan([COURSE.marketing], { price: 19.9, billing_types: ['PIX'] });
    const res = await subscribe(s.client, p.id, 'PIX');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const subId = String(res.body.subscription_id);
    expect(String(res.body.invoiceUrl)).toMatch(new RegExp(`^${fake.url}/i/pay_`));
    // PAYMENT_CREATED records the invoice; nothing is open yet.
    const [invoice] = await until(() => invoices(subId), (rows) => rows.length === 1, 'the first invoice');
    expect(invoice).toMatchObject({ status: 'PENDING', value: 19.9, due_date: today });
    expect(await subRow(subId)).toMatchObject({ status: 'PENDING', paid_until: null });
    expect(await access(s.id)).toEqual({});
    // The buyer reads their own subscription and its invoice; another student neither.
    expect(await must(s.client.from('subscriptions').select('id, status'))).toEqual([{ id: subId, status: 'PENDING' }]);
    const other = await student();
    expect(await must(other.client.from('subscriptions').select('id').eq('id', subId))).toEqual([]);

    const paid = await fetch(`${fake.url}/i/${invoice!.provider_payment_id}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect((await subRow(subId)).status).toBe('ACTIVE');
    expect((await invoices(subId))[0]!.status).toBe('CONFIRMED'); // the fake's 'Simular pagamento' sends PAYMENT_CONFIRMED
    expect(await access(s.id)).toEqual({ [COURSE.marketing]: 'ACTIVE' });
    const items = await must(service.from('payment_items').select('kind, value').eq('payment_id', (await must(service.from('payments').select('id').eq('subscription_id', subId).single()) as { id: string }).id));
    expect(items).toEqual([{ kind: 'plan', value: 19.9 }]);
  });

  it('staff of the school cancel a subscription nobody paid: EXPIRED at once, its invoice removed at Asaas', async () => {
    const s = await student();
    const p = await plan([COURSE.excel], { billing_types: ['BOLETO'] });
    const res = await subscribe(s.client, p.id, 'BOLETO');
    const subId = String(res.body.subscription_id);
    const [invoice] = await until(() => invoices(subId), (rows) => rows.length === 1, 'the first invoice');
    // A boleto is due in 3 days, as a course's.
    expect(invoice!.due_date).toBe(brazilDate(new Date(Date.now() + 3 * DAY)));
    const admin = await backend.signIn(EMAIL.adminDemo);
    const cancelled = await cancel(admin, subId);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'EXPIRED', cancelled_by: USER.adminDemo });
    // PAYMENT_DELETED reaches us after the answer: the invoice is no longer payable here either.
    await until(() => invoices(subId), (rows) => rows[0]?.status === 'DELETED', 'PAYMENT_DELETED');
    expect(await access(s.id)).toEqual({});
  });
});

describe('edges', () => {
  it('cancelling with an overdue invoice: Asaas removes it (PAYMENT_DELETED) and so do we; nothing was paid, so EXPIRED', async () => {
    const s = await student();
    const p = await plan([COURSE.excel], { billing_types: ['PIX'] });
    const subId = String((await subscribe(s.client, p.id, 'PIX')).body.subscription_id);
    const row = await until(() => subRow(subId), (r) => r.provider_subscription_id !== null, 'Asaas’s id');
    await until(() => invoices(subId), (rows) => rows.length === 1, 'the first invoice');
    await fake.markOverdue(row.provider_subscription_id!);
    expect((await invoices(subId))[0]!.status).toBe('OVERDUE');
    expect(await cancel(s.client, subId)).toMatchObject({ status: 200, body: { status: 'EXPIRED', cancelled_by: s.id } });
    await until(() => invoices(subId), (rows) => rows[0]?.status === 'DELETED', 'PAYMENT_DELETED');
  });

  it('a plan’s paid invoice reopens a course whose own enrollment had expired', async () => {
    const s = await student();
    await must(service.from('enrollments').insert({ user_id: s.id, course_id: COURSE.excel, status: 'ACTIVE', expires_at: new Date(Date.now() - DAY).toISOString() }).select('id'));
    const paidLesson = () => must(s.client.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON.excelVimeo));
    expect(await paidLesson()).toEqual([]);
    const p = await plan([COURSE.excel]);
    const subId = String((await subscribe(s.client, p.id)).body.subscription_id);
    await until(() => subRow(subId), (r) => r.status === 'ACTIVE', 'the card payment');
    expect(await must(service.from('enrollments').select('status, expires_at, subscription_id').eq('user_id', s.id))).toEqual([{ status: 'ACTIVE', expires_at: null, subscription_id: subId }]);
    // The student's own session opens the course's paid lessons again.
    expect(await paidLesson()).toEqual([{ lesson_id: LESSON.excelVimeo }]);
  });
});

describe('attackers', () => {
  it('a forged event for the subscription with another value or customer changes nothing; another school’s token is refused', async () => {
    const s = await student();
    const p = await plan([COURSE.excel], { billing_types: ['PIX'] });
    const res = await subscribe(s.client, p.id, 'PIX');
    const subId = String(res.body.subscription_id);
    const row = await subRow(subId);
    await until(() => invoices(subId), (rows) => rows.length === 1, 'the first invoice');
    const forged = (payment: Record<string, unknown>) => ({
      id: `evt_forjado_${tag()}`,
      event: 'PAYMENT_CONFIRMED',
      dateCreated: '2026-11-26 10:00:00',
      payment: { object: 'payment', id: `pay_forjado${tag()}`, subscription: row.provider_subscription_id, customer: row.provider_customer_id, externalReference: subId, status: 'RECEIVED', value: 49.9, billingType: 'PIX', dueDate: today, ...payment },
    });
    expect(JSON.parse((await webhook(forged({ value: 1 }), DEMO.webhookToken)).body)).toMatchObject({ outcome: 'mismatch' });
    expect(JSON.parse((await webhook(forged({ customer: 'cus_000000009999' }), DEMO.webhookToken)).body)).toMatchObject({ outcome: 'mismatch' });
    // The right value and customer, but another school's token: refused, by ?school and by the reference.
    expect((await webhook(forged({}), RIVAL.webhookToken)).status).toBe(401);
    expect((await webhook(forged({}), RIVAL.webhookToken, '')).status).toBe(401);
    expect(JSON.parse((await webhook(forged({}), RIVAL.webhookToken, `?school=${SCHOOL.rival}`)).body)).toMatchObject({ outcome: 'unknown_subscription' });
    expect(await subRow(subId)).toMatchObject({ status: 'PENDING', paid_until: null, provider_subscription_id: row.provider_subscription_id });
    expect(await access(s.id)).toEqual({});
    expect((await invoices(subId)).map((i) => i.status)).toEqual(['PENDING']);
  });

  it('another student, another school’s staff and a visitor cannot cancel someone’s subscription: nothing reaches Asaas', async () => {
    const s = await student();
    const p = await plan([COURSE.excel]);
    const subId = String((await subscribe(s.client, p.id)).body.subscription_id);
    const row = await until(() => subRow(subId), (r) => r.status === 'ACTIVE', 'the first invoice');
    const before = subscriptionRequests().length;
    const other = await student();
    expect(await cancel(other.client, subId)).toMatchObject({ status: 403, body: { error: 'Você não pode cancelar esta assinatura' } });
    expect(await cancel(await backend.signIn(EMAIL.adminRival), subId)).toMatchObject({ status: 403 });
    expect((await cancel(null, subId)).status).toBe(401);
    expect(await cancel(other.client, '00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404 });
    expect(await cancel(other.client, 'nao-e-uuid')).toMatchObject({ status: 400, body: { field: 'subscription_id' } });
    expect(subscriptionRequests()).toHaveLength(before);
    expect(fake.subscription(row.provider_subscription_id!)).toMatchObject({ status: 'ACTIVE', deleted: false });
    expect(await subRow(subId)).toMatchObject({ status: 'ACTIVE', cancelled_by: null });
    // The student may not write it either.
    expect((await other.client.from('subscriptions').update({ status: 'CANCELLED' }).eq('id', subId).select('id')).data ?? []).toEqual([]);
  });

  it('a student of another school cannot subscribe to this school’s plan; nobody subscribes twice; bad input changes nothing', async () => {
    const p = await plan();
    const before = subscriptionRequests().length;
    const rival = await backend.signIn(EMAIL.alunoRival);
    expect(await subscribe(rival, p.id, 'PIX')).toMatchObject({ status: 400, body: { error: 'Plano não encontrado.' } });
    expect(await must(service.from('subscriptions').select('id').eq('user_id', USER.alunoRival))).toEqual([]);

    const s = await student();
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ plan_id: p.id, billing_type: 'BITCOIN', customer: CUSTOMER }, 400, 'Forma de pagamento inválida', 'billing_type'],
      [{ plan_id: p.id, billing_type: 'PIX', customer: { ...CUSTOMER, cpfCnpj: '111.111.111-11' } }, 400, 'CPF inválido', 'customer.cpfCnpj'],
      [{ plan_id: p.id, billing_type: 'CREDIT_CARD', customer: CUSTOMER, creditCard: { ...CARD, ccv: '' }, creditCardHolderInfo: HOLDER }, 400, 'Dados do cartão obrigatórios', 'creditCard.ccv'],
      [{ plan_id: 'nao-e-uuid', billing_type: 'PIX', customer: CUSTOMER }, 400, 'Plano inválido', 'plan_id'],
      [{ plan_id: '00000000-0000-4000-8000-000000000000', billing_type: 'PIX', customer: CUSTOMER }, 400, 'Plano não encontrado.'],
      [{ plan_id: (await plan([])).id, billing_type: 'PIX', customer: CUSTOMER }, 400, 'Este plano ainda não tem cursos.'],
      [{ plan_id: (await plan(undefined, { billing_types: ['CREDIT_CARD'] })).id, billing_type: 'PIX', customer: CUSTOMER }, 400, 'Forma de pagamento não aceita neste plano.'],
      [{ plan_id: (await plan(undefined, { is_active: false })).id, billing_type: 'PIX', customer: CUSTOMER }, 400, 'Plano não encontrado.'],
    ];
    for (const [body, status, error, field] of cases) {
      const r = await call('create-asaas-subscription', s.client, body);
      expect({ status: r.status, error: r.body.error, field: r.body.field }, JSON.stringify(body)).toEqual({ status, error, field });
    }
    expect((await call('create-asaas-subscription', null, { plan_id: p.id, billing_type: 'PIX', customer: CUSTOMER })).status).toBe(401);
    expect(subscriptionRequests()).toHaveLength(before);
    expect(await must(service.from('subscriptions').select('id').eq('user_id', s.id))).toEqual([]);

    // Once subscribed (even unpaid), a second subscription of the plan is refused, at Asaas too.
    const first = await subscribe(s.client, p.id, 'PIX');
    expect(first.status).toBe(200);
    const creates = () => subscriptionRequests().filter((r) => r.method === 'POST').length;
    const made = creates();
    expect(await subscribe(s.client, p.id, 'CREDIT_CARD')).toMatchObject({ status: 400, body: { error: 'Você já tem uma assinatura deste plano.' } });
    expect(creates()).toBe(made);
    expect(await must(service.from('subscriptions').select('id').eq('user_id', s.id))).toEqual([{ id: first.body.subscription_id }]);
  });

  it('a card Asaas declines: its words, the subscription FAILED; the buyer can try again', async () => {
    const s = await student();
    const p = await plan([COURSE.excel]);
    const declined = await subscribe(s.client, p.id, 'CREDIT_CARD', { ...CARD, number: '4916561358240741' });
    expect(declined).toMatchObject({ status: 400, body: { error: 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.' } });
    expect(await must(service.from('subscriptions').select('status, provider_subscription_id').eq('user_id', s.id))).toEqual([{ status: 'FAILED', provider_subscription_id: null }]);
    expect(logs.join('\n')).not.toContain('4916561358240741');
    const again = await subscribe(s.client, p.id);
    expect(again.status).toBe(200);
    await until(() => subRow(String(again.body.subscription_id)), (r) => r.status === 'ACTIVE', 'the card payment');
  });
});

describe('events that beat the function', () => {
  it('an invoice event before Asaas’s id is recorded finds the subscription by our reference and its customer', async () => {
    const s = await student();
    const p = await plan([COURSE.excel]);
    // As create-asaas-subscription leaves it just before Asaas answers: created, the customer recorded.
    const sub = (await must(service.rpc('create_plan_subscription', { p_user_id: s.id, p_plan_id: p.id, p_billing_type: 'CREDIT_CARD', p_environment: 'sandbox', p_integration_id: null }))) as { id: string };
    await must(service.from('subscriptions').update({ provider_customer_id: 'cus_000000000777' }).eq('id', sub.id).select('id'));
    const event = (customer: string) => ({
      id: `evt_${tag()}`,
      event: 'PAYMENT_CONFIRMED',
      dateCreated: '2026-11-26 10:00:00',
      payment: { object: 'payment', id: `pay_${tag()}`, subscription: 'sub_cedo000000000001', customer, externalReference: sub.id, status: 'CONFIRMED', value: 49.9, billingType: 'CREDIT_CARD', dueDate: today },
    });
    // Another customer does not claim it.
    expect(JSON.parse((await webhook(event('cus_000000000888'), DEMO.webhookToken)).body)).toMatchObject({ outcome: 'unknown_subscription' });
    expect(await subRow(sub.id)).toMatchObject({ status: 'PENDING', provider_subscription_id: null });
    expect(JSON.parse((await webhook(event('cus_000000000777'), DEMO.webhookToken)).body)).toMatchObject({ outcome: 'enrolled' });
    expect(await subRow(sub.id)).toMatchObject({ status: 'ACTIVE', provider_subscription_id: 'sub_cedo000000000001' });
    expect(await access(s.id)).toEqual({ [COURSE.excel]: 'ACTIVE' });
  });
});
