// Issue 24, Vendas → "Reembolsar" in real Deno against the fake Asaas: refund-asaas-payment lets only
// staff of the payment's school (or the super admin) refund a confirmed payment, asks Asaas on the
// school's own account, records the request and its reason, and pauses nothing itself: the
// PAYMENT_REFUNDED event Asaas sends afterwards marks the payment REFUNDED and pauses every course it
// bought (the course and its order bump). Whoever may not refund changes nothing, here or at Asaas.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, SCHOOL, USER } from '../rls/seed.ts';
import { DEMO_ASAAS_ACCOUNTS } from '../../../scripts/fake-asaas/demo-accounts.ts';

const [DEMO, RIVAL] = DEMO_ASAAS_ACCOUNTS;
const INTEGRATION: Record<string, string> = { [SCHOOL.demo]: 'ee000000-0000-4000-8000-000000000001', [SCHOOL.rival]: 'ee000000-0000-4000-8000-000000000021' };
// Long enough to see that the function's answer pauses nothing; the test then waits for the event.
const EVENT_DELAY_MS = 1500;

const backend = useBackend({ fakeAsaas: { eventDelayMs: EVENT_DELAY_MS }, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const fake = backend.asaas;
const service = backend.service();
const clients = {
  admin: backend.signedIn('adminDemo'),
  instrutor: backend.signedIn('instrutor'),
  rival: backend.signedIn('adminRival'),
  aluna: backend.signedIn('aluna'),
  super: backend.signedIn('super'),
};

async function refund(body: unknown, client: SupabaseClient | null) {
  const token = client ? (await client.auth.getSession()).data.session?.access_token : null;
  const res = await fetch(`${backend.url}/functions/v1/refund-asaas-payment`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function asaas(key: string, path: string, body: unknown) {
  const res = await fetch(`${fake.apiUrl}${path}`, { method: 'POST', headers: { access_token: key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
}

const dueDate = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);

/**
 * A sale as create-asaas-charge leaves it (the charge at the school's Asaas account, our payment and its
 * items), then paid on the fake's invoice page: PAYMENT_CONFIRMED reaches asaas-webhook and enrolls.
 */
async function paidSale(o: { school?: string; userId: string; items: { kind: 'course' | 'bump'; courseId: string; value: number }[]; billingType?: 'PIX' | 'CREDIT_CARD' | 'BOLETO'; pay?: boolean }) {
  const school = o.school ?? SCHOOL.demo;
  const key = school === SCHOOL.demo ? DEMO.apiKey : RIVAL.apiKey;
  const billingType = o.billingType ?? 'PIX';
  const value = o.items.reduce((s, i) => s + i.value * 100, 0) / 100;
  const id = randomUUID();
  const customer = await asaas(key, '/customers', { name: 'Aluna Teste', cpfCnpj: '52998224725' });
  const card = billingType === 'CREDIT_CARD'
    ? { creditCard: { holderName: 'ALUNA', number: '5162306219378829', expiryMonth: '05', expiryYear: '2031', ccv: '123' }, creditCardHolderInfo: { name: 'Aluna', email: 'a@b.com', cpfCnpj: '52998224725', postalCode: '01310100', addressNumber: '1', phone: '11988887777' } }
    : {};
  const charge = await asaas(key, '/payments', { customer: customer.id, billingType, value, dueDate, externalReference: id, ...card });
  const { error } = await service.from('payments').insert({
    id,
    school_id: school,
    user_id: o.userId,
    course_id: o.items[0]!.courseId,
    course_title: 'Venda de teste',
    environment: 'sandbox',
    integration_id: INTEGRATION[school],
    billing_type: billingType,
    value,
    provider_payment_id: charge.id,
    provider_customer_id: customer.id,
    invoice_url: charge.invoiceUrl,
  });
  if (error) throw new Error(error.message);
  const items = await service.from('payment_items').insert(
    o.items.map((i) => ({ payment_id: id, school_id: school, kind: i.kind, course_id: i.courseId, title: `Item ${i.kind}`, list_price: i.value, value: i.value })),
  );
  if (items.error) throw new Error(items.error.message);
  if (o.pay !== false) expect((await fetch(`${fake.url}/i/${String(charge.id)}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
  return { id, asaasId: String(charge.id) };
}

const paymentRow = async (id: string) => (await service.from('payments').select('status, refund_requested_at, refund_reason, refunded_at').eq('id', id).single()).data!;
const enrollmentStatus = async (userId: string, courseId: string) =>
  (await service.from('enrollments').select('status').eq('user_id', userId).eq('course_id', courseId).maybeSingle()).data?.status ?? null;
const refundCalls = (asaasId: string) => fake.requests.filter((r) => r.path === `/api/v3/payments/${asaasId}/refund`);

async function until(check: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('refund-asaas-payment', () => {
  it('refuses a visitor, a student and staff of another school: nothing changes here or at Asaas', async () => {
    const sale = await paidSale({ userId: USER.aluna, items: [{ kind: 'course', courseId: COURSE.marketing, value: 297 }] });
    expect(await enrollmentStatus(USER.aluna, COURSE.marketing)).toBe('ACTIVE');
    expect((await refund({ payment_id: sale.id }, null)).status).toBe(401);
    expect(await refund({ payment_id: sale.id }, clients.aluna)).toEqual({ status: 403, body: { error: 'Acesso negado' } });
    expect(await refund({ payment_id: sale.id, reason: 'golpe' }, clients.rival)).toEqual({ status: 403, body: { error: 'Você não pode reembolsar este pagamento' } });
    // The payment RPC is the service role's: staff cannot record a refund request by hand either.
    expect((await clients.admin.rpc('request_payment_refund', { p_payment_id: sale.id, p_reason: 'x' })).error).not.toBeNull();
    expect((await clients.admin.from('payments').update({ refund_requested_at: new Date().toISOString() }).eq('id', sale.id).select()).data ?? []).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    expect(refundCalls(sale.asaasId)).toEqual([]);
    expect(fake.payment(sale.asaasId)).toMatchObject({ status: 'RECEIVED' });
    expect(await paymentRow(sale.id)).toMatchObject({ status: 'CONFIRMED', refund_requested_at: null, refund_reason: null, refunded_at: null });
    expect(await enrollmentStatus(USER.aluna, COURSE.marketing)).toBe('ACTIVE');
    await service.from('enrollments').delete().eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
  });

  it('checks the body and the payment: fields, unknown payments, pending ones', async () => {
    const pending = await paidSale({ userId: USER.aluna, items: [{ kind: 'course', courseId: COURSE.marketing, value: 297 }], pay: false });
    const cases: [unknown, number, string][] = [
      [{}, 400, 'Pagamento é obrigatório'],
      [{ payment_id: 'nao-e-uuid' }, 400, 'Pagamento inválido'],
      [{ payment_id: pending.id, reason: 'x'.repeat(501) }, 400, 'Motivo deve ter no máximo 500 caracteres'],
      [{ payment_id: randomUUID() }, 404, 'Pagamento não encontrado'],
      [{ payment_id: pending.id }, 409, 'Só pagamentos confirmados podem ser reembolsados.'],
    ];
    for (const [body, status, error] of cases) {
      const r = await refund(body, clients.admin);
      expect({ status: r.status, error: r.body.error }, JSON.stringify(body).slice(0, 80)).toEqual({ status, error });
    }
    expect(refundCalls(pending.asaasId)).toEqual([]);
    expect(await paymentRow(pending.id)).toMatchObject({ status: 'PENDING', refund_requested_at: null });
  });

  it('staff refund a course with its bump: Asaas is asked, access pauses only when the refund event arrives, a second request is refused', async () => {
    const sale = await paidSale({
      userId: USER.aluna,
      items: [
        { kind: 'course', courseId: COURSE.marketing, value: 237.6 },
        { kind: 'bump', courseId: COURSE.excel, value: 97 },
      ],
    });
    expect(await enrollmentStatus(USER.aluna, COURSE.marketing)).toBe('ACTIVE');
    expect(await enrollmentStatus(USER.aluna, COURSE.excel)).toBe('ACTIVE');

    const r = await refund({ payment_id: sale.id, reason: '  Aluna desistiu na primeira semana  ' }, clients.instrutor);
    expect(r).toMatchObject({ status: 200, body: { payment_id: sale.id, refund_requested_at: expect.any(String), asaas_status: 'REFUNDED' } });
    // Asaas got one refund, on the demo school's account, with the reason as its description.
    const calls = refundCalls(sale.asaasId);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers['access_token']).toBe(DEMO.apiKey);
    expect(calls[0]!.body).toEqual({ description: 'Aluna desistiu na primeira semana' });
    // Recorded, but nothing paused yet: that waits for Asaas's event.
    expect(await paymentRow(sale.id)).toMatchObject({ status: 'CONFIRMED', refund_reason: 'Aluna desistiu na primeira semana', refunded_at: null });
    expect((await paymentRow(sale.id)).refund_requested_at).not.toBeNull();
    expect(await enrollmentStatus(USER.aluna, COURSE.marketing)).toBe('ACTIVE');

    await until(async () => (await paymentRow(sale.id)).status === 'REFUNDED');
    expect((await paymentRow(sale.id)).refunded_at).not.toBeNull();
    expect(await enrollmentStatus(USER.aluna, COURSE.marketing)).toBe('PAUSED');
    expect(await enrollmentStatus(USER.aluna, COURSE.excel)).toBe('PAUSED');

    expect(await refund({ payment_id: sale.id }, clients.admin)).toEqual({ status: 409, body: { error: 'O reembolso deste pagamento já foi pedido.' } });
    expect(refundCalls(sale.asaasId)).toHaveLength(1);
    await service.from('enrollments').delete().eq('user_id', USER.aluna).in('course_id', [COURSE.marketing, COURSE.excel]);
  });

  it('two refunds at once reach Asaas once', async () => {
    const sale = await paidSale({ userId: USER.aluna, items: [{ kind: 'course', courseId: COURSE.marketing, value: 50 }], billingType: 'CREDIT_CARD' });
    const both = await Promise.all([refund({ payment_id: sale.id }, clients.admin), refund({ payment_id: sale.id }, clients.admin)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(refundCalls(sale.asaasId)).toHaveLength(1);
    await until(async () => (await enrollmentStatus(USER.aluna, COURSE.marketing)) === 'PAUSED');
    await service.from('enrollments').delete().eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
  });

  it('Asaas refusing (a paid boleto) answers its reason and leaves the payment refundable', async () => {
    const sale = await paidSale({ userId: USER.aluna, items: [{ kind: 'course', courseId: COURSE.marketing, value: 120 }], billingType: 'BOLETO' });
    const r = await refund({ payment_id: sale.id }, clients.admin);
    expect(r.status).toBe(400);
    expect(String(r.body.error)).toMatch(/^Boletos pagos são estornados/);
    expect(await paymentRow(sale.id)).toMatchObject({ status: 'CONFIRMED', refund_requested_at: null });
    expect(await enrollmentStatus(USER.aluna, COURSE.marketing)).toBe('ACTIVE');
    await service.from('enrollments').delete().eq('user_id', USER.aluna).eq('course_id', COURSE.marketing);
  });

  it('the super admin refunds in any school, on that school’s Asaas account', async () => {
    const sale = await paidSale({ school: SCHOOL.rival, userId: USER.alunoRival, items: [{ kind: 'course', courseId: COURSE.rival, value: 80 }] });
    expect(await refund({ payment_id: sale.id }, clients.super)).toMatchObject({ status: 200 });
    expect(refundCalls(sale.asaasId)[0]!.headers['access_token']).toBe(RIVAL.apiKey);
    await until(async () => (await paymentRow(sale.id)).status === 'REFUNDED');
    expect(await enrollmentStatus(USER.alunoRival, COURSE.rival)).toBe('PAUSED');
  });
});
