// The fake Asaas (scripts/fake-asaas/server.ts) on its own, against a tiny webhook receiver: Asaas's auth,
// account scoping, validation codes and card handling, the invoice page's 'Simular pagamento' with its
// webhook and redirect, refunds with their event, sendEvent, and subscriptions with their invoices, events
// and the fake-only controls (next cycle, a declined card, 'Simular vencimento'). No local-supabase needed.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addCycle, startFakeAsaas, type FakeAsaas } from '../../../scripts/fake-asaas/server.ts';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: { id: string; event: string; dateCreated: string; payment: Record<string, unknown>; subscription?: Record<string, unknown> };
}

const KEY_A = '$aact_test_A';
const KEY_B = '$aact_test_B';
const SUCCESS_URL = 'http://localhost:5999/course/c1?pagamento=retorno';
const CARD = { holderName: 'ALUNA TESTE', number: '4111 1111 1111 1111', expiryMonth: '05', expiryYear: '2031', ccv: '8317' };
const HOLDER = { name: 'Aluna Teste', email: 'aluna@example.com', cpfCnpj: '52998224725', postalCode: '01310-100', addressNumber: '1000', phone: '11988887777' };

let receiver: Server;
let fake: FakeAsaas;
const deliveries: Delivery[] = [];
const logs: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Delivery['body'] });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  fake = await startFakeAsaas({
    accounts: [
      { apiKey: KEY_A, webhookUrl: receiverUrl, webhookToken: 'tok-A' },
      { apiKey: KEY_B, webhookUrl: null, webhookToken: null },
    ],
    log: (line) => logs.push(line),
    eventDelayMs: 20,
  });
});
afterAll(async () => {
  await fake?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

async function api(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, key: string | null = KEY_A) {
  const res = await fetch(`${fake.apiUrl}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(key === null ? {} : { access_token: key }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { errors?: { code: string; description: string }[] } };
}

const errorCode = (r: Awaited<ReturnType<typeof api>>) => r.body.errors?.[0]?.code;

// A date some days ahead: the fake refuses dueDates before today (in Brazil's time).
const dueDate = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);

async function customerOf(key: string, cpfCnpj: string): Promise<string> {
  const r = await api('POST', '/customers', { name: 'Aluna Teste', cpfCnpj, email: 'aluna@example.com' }, key);
  expect(r.status).toBe(200);
  return r.body.id as string;
}

describe('auth and customers', () => {
  it('refuses a missing or wrong access_token with 401', async () => {
    for (const key of [null, 'wrong-key']) {
      const r = await api('GET', '/customers', undefined, key);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ errors: [{ code: 'invalid_access_token', description: 'A chave de API fornecida é inválida' }] });
    }
  });

  it('creates a customer, finds it by cpfCnpj, and hides it from another account', async () => {
    const created = await api('POST', '/customers', { name: 'Maria Souza', cpfCnpj: '390.533.447-05', email: 'maria@example.com' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ object: 'customer', name: 'Maria Souza', cpfCnpj: '39053344705', personType: 'FISICA', deleted: false });
    expect(created.body.id).toMatch(/^cus_\d{12}$/);

    const found = await api('GET', '/customers?cpfCnpj=39053344705');
    expect(found.body).toMatchObject({ object: 'list', totalCount: 1, data: [{ id: created.body.id }] });
    expect(fake.requests.some((q) => q.method === 'GET' && q.path === '/api/v3/customers?cpfCnpj=39053344705')).toBe(true);

    const other = await api('GET', '/customers?cpfCnpj=39053344705', undefined, KEY_B);
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ totalCount: 0, data: [] });
  });

  it('validates name and cpfCnpj', async () => {
    expect(errorCode(await api('POST', '/customers', { cpfCnpj: '39053344705' }))).toBe('invalid_name');
    expect(errorCode(await api('POST', '/customers', { name: 'X', cpfCnpj: '123' }))).toBe('invalid_cpfCnpj');
    const pj = await api('POST', '/customers', { name: 'Escola LTDA', cpfCnpj: '11.222.333/0001-81' });
    expect(pj.body.personType).toBe('JURIDICA');
  });
});

describe('payments', () => {
  let customer: string;
  beforeAll(async () => {
    customer = await customerOf(KEY_A, '52998224725');
  });

  it('refuses bad value, billingType, dueDate, callback, customer and card data with Asaas codes', async () => {
    const base = { customer, billingType: 'PIX', value: 297, dueDate };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, value: 0 }, 'invalid_value'],
      [{ ...base, value: '297' }, 'invalid_value'],
      [{ ...base, billingType: 'BITCOIN' }, 'invalid_billingType'],
      [{ ...base, dueDate: '2000-01-01' }, 'invalid_dueDate'],
      [{ ...base, callback: { successUrl: 'javascript:alert(1)' } }, 'invalid_callback'],
      [{ ...base, customer: 'cus_999999999999' }, 'invalid_customer'],
      [{ ...base, billingType: 'CREDIT_CARD', creditCard: { ...CARD, ccv: '' }, creditCardHolderInfo: HOLDER }, 'invalid_creditCard'],
      [{ ...base, billingType: 'CREDIT_CARD', creditCard: CARD, creditCardHolderInfo: { ...HOLDER, postalCode: undefined } }, 'invalid_creditCardHolderInfo'],
      [{ ...base, billingType: 'CREDIT_CARD', creditCard: { ...CARD, number: '4111111111111112' }, creditCardHolderInfo: HOLDER }, 'invalid_creditCard'],
    ];
    for (const [body, code] of cases) {
      const r = await api('POST', '/payments', body);
      expect([r.status, errorCode(r)], JSON.stringify(body)).toEqual([400, code]);
    }
    const luhn = await api('POST', '/payments', cases.at(-1)![0]);
    expect(luhn.body.errors?.[0]?.description).toBe('Número do cartão de crédito inválido.');
  });

  it("does not let one account charge another account's customer", async () => {
    const r = await api('POST', '/payments', { customer, billingType: 'PIX', value: 10, dueDate }, KEY_B);
    expect(errorCode(r)).toBe('invalid_customer');
  });

  it('creates a PIX payment with an invoice page', async () => {
    const r = await api('POST', '/payments', { customer, billingType: 'PIX', value: 297, dueDate, description: 'Curso <b>React</b>', externalReference: 'ext-1' });
    expect(r.status).toBe(200);
    const id = r.body.id as string;
    expect(id).toMatch(/^pay_[a-z0-9]{16}$/);
    expect(r.body).toMatchObject({ object: 'payment', status: 'PENDING', value: 297, netValue: 297, billingType: 'PIX', bankSlipUrl: null, paymentDate: null });
    expect(r.body.invoiceUrl).toBe(`${fake.url}/i/${id}`);
    expect(r.body.invoiceNumber).toMatch(/^\d{8}$/);

    const got = await api('GET', `/payments/${id}`);
    expect(got.body).toEqual(r.body);
    expect((await api('GET', `/payments/${id}`, undefined, KEY_B)).status).toBe(404);
    expect(errorCode(await api('GET', '/payments/pay_unknown'))).toBe('not_found');

    const page = await fetch(r.body.invoiceUrl as string);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Simular pagamento');
    expect(html).toMatch(/R\$\s297,00/);
    expect(html).toContain('Aguardando pagamento');
    expect(html).toContain('Curso &#60;b&#62;React&#60;/b&#62;');
    expect(html).not.toContain('<b>React');
  });

  it('keeps only the last digits of a card in the payment, the raw body only in requests', async () => {
    const r = await api('POST', '/payments', { customer, billingType: 'CREDIT_CARD', value: 150.5, dueDate, creditCard: CARD, creditCardHolderInfo: HOLDER, remoteIp: '203.0.113.9' });
    expect(r.status).toBe(200);
    const payment = fake.payment(r.body.id as string)!;
    expect(payment.creditCard).toMatchObject({ creditCardNumber: '1111', creditCardBrand: 'VISA' });
    for (const json of [JSON.stringify(payment), JSON.stringify(r.body)]) {
      expect(json).not.toContain('4111111111111111');
      expect(json).not.toContain('4111 1111');
      expect(json).not.toContain('8317');
    }
    const raw = fake.requests.findLast((q) => q.method === 'POST' && q.path === '/api/v3/payments');
    expect(raw?.headers['access_token']).toBe(KEY_A);
    expect(raw?.body).toMatchObject({ creditCard: CARD, creditCardHolderInfo: HOLDER });
  });

  it('accepts an installment plan as installmentCount + totalValue, as create-asaas-charge sends it', async () => {
    const r = await api('POST', '/payments', { customer, billingType: 'CREDIT_CARD', installmentCount: 3, totalValue: 900, dueDate, creditCard: CARD, creditCardHolderInfo: HOLDER });
    expect(r.status).toBe(200);
    // As at Asaas: the answer is the first installment, of one plan (installment id) of three payments.
    expect(r.body).toMatchObject({ value: 300, installmentNumber: 1, installment: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('answers unknown routes with 404, invalid JSON with 400 and bodies over 1 MB with 413', async () => {
    expect(errorCode(await api('GET', '/subscriptions'))).toBe('not_found');
    const bad = await fetch(`${fake.apiUrl}/payments`, { method: 'POST', headers: { access_token: KEY_A }, body: '{nope' });
    expect(bad.status).toBe(400);
    const big = await fetch(`${fake.apiUrl}/customers`, { method: 'POST', headers: { access_token: KEY_A }, body: 'x'.repeat(1024 * 1024 + 1) });
    expect(big.status).toBe(413);
  });
});

describe('Simular pagamento and webhooks', () => {
  let paymentId: string;
  beforeAll(async () => {
    const customer = await customerOf(KEY_A, '11144477735');
    const r = await api('POST', '/payments', {
      customer,
      billingType: 'PIX',
      value: 297,
      dueDate,
      description: 'Curso de teste',
      externalReference: 'our-payment-1',
      callback: { successUrl: SUCCESS_URL, autoRedirect: true },
    });
    paymentId = r.body.id as string;
    deliveries.length = 0;
  });

  it('marks the payment paid, sends PAYMENT_CONFIRMED once, and redirects to the successUrl', async () => {
    const pay = () => fetch(`${fake.url}/i/${paymentId}/pay`, { method: 'POST', redirect: 'manual' });
    const first = await pay();
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(SUCCESS_URL);
    expect(deliveries).toHaveLength(1);
    const [d] = deliveries;
    expect(d!.headers['asaas-access-token']).toBe('tok-A');
    expect(d!.headers['user-agent']).toBe('Asaas_Hmlg/3.0');
    expect(d!.body.event).toBe('PAYMENT_CONFIRMED');
    expect(d!.body.id).toMatch(/^evt_[0-9a-f]{32}&\d+$/);
    expect(d!.body.dateCreated).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(d!.body.payment).toMatchObject({ id: paymentId, status: 'RECEIVED', externalReference: 'our-payment-1' });
    expect(fake.payment(paymentId)).toMatchObject({ status: 'RECEIVED', paymentDate: expect.any(String) });

    const second = await pay();
    expect(second.status).toBe(303);
    expect(second.headers.get('location')).toBe(SUCCESS_URL);
    expect(deliveries).toHaveLength(1);

    const html = await (await fetch(`${fake.url}/i/${paymentId}`)).text();
    expect(html).toContain('Pagamento confirmado');
    expect(html).toContain('Voltar para o site');
    expect(html).not.toContain('Simular pagamento');
  });

  it('sendEvent PAYMENT_REFUNDED sets REFUNDED and delivers it, with an overridable event id and token', async () => {
    deliveries.length = 0;
    const r = await fake.sendEvent(paymentId, 'PAYMENT_REFUNDED', { eventId: 'evt_fixed&1' });
    expect(r).toEqual({ status: 200, eventId: 'evt_fixed&1', body: '{"received":true}' });
    expect(fake.payment(paymentId)!.status).toBe('REFUNDED');
    expect(deliveries[0]!.body).toMatchObject({ id: 'evt_fixed&1', event: 'PAYMENT_REFUNDED', payment: { status: 'REFUNDED' } });

    await fake.sendEvent(paymentId, 'PAYMENT_UPDATED', { token: null });
    await fake.sendEvent(paymentId, 'PAYMENT_UPDATED', { token: 'other' });
    expect(deliveries[1]!.headers).not.toHaveProperty('asaas-access-token');
    expect(deliveries[2]!.headers['asaas-access-token']).toBe('other');
    expect(deliveries[1]!.body.id).not.toBe(deliveries[2]!.body.id);
  });

  it('paying a card plan confirms every installment: one PAYMENT_CONFIRMED each, of the plan, split in cents', async () => {
    const customer = await customerOf(KEY_A, '11144477735');
    const r = await api('POST', '/payments', { customer, billingType: 'CREDIT_CARD', installmentCount: 3, totalValue: 100, dueDate, externalReference: 'our-plan-1', creditCard: CARD, creditCardHolderInfo: HOLDER });
    expect(r.body).toMatchObject({ value: 33.33, installmentNumber: 1 });
    deliveries.length = 0;
    expect((await fetch(`${fake.url}/i/${r.body.id as string}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect(deliveries.map((d) => d.body.event)).toEqual(['PAYMENT_CONFIRMED', 'PAYMENT_CONFIRMED', 'PAYMENT_CONFIRMED']);
    const paid = deliveries.map((d) => d.body.payment);
    expect(paid.map((p) => [p.installmentNumber, p.value, p.status])).toEqual([[1, 33.33, 'CONFIRMED'], [2, 33.33, 'CONFIRMED'], [3, 33.34, 'CONFIRMED']]);
    for (const p of paid) expect(p).toMatchObject({ installment: r.body.installment, customer, externalReference: 'our-plan-1' });
    expect(new Set(paid.map((p) => p.id)).size).toBe(3);
  });

  it('skips delivery (status 0) for an account without webhookUrl', async () => {
    const customer = await customerOf(KEY_B, '52998224725');
    const r = await api('POST', '/payments', { customer, billingType: 'BOLETO', value: 50, dueDate }, KEY_B);
    expect(r.body.bankSlipUrl).toBe(`${fake.url}/b/${r.body.id as string}`);
    const sent = await fake.sendEvent(r.body.id as string, 'PAYMENT_CONFIRMED');
    expect(sent.status).toBe(0);
  });
});

describe('refunds', () => {
  let customer: string;
  beforeAll(async () => {
    customer = await customerOf(KEY_A, '39053344705');
  });

  /** A payment of account A, paid through the invoice page (its PAYMENT_CONFIRMED delivered and forgotten). */
  async function paid(billingType: 'PIX' | 'CREDIT_CARD' | 'BOLETO', value = 297): Promise<string> {
    const card = billingType === 'CREDIT_CARD' ? { creditCard: CARD, creditCardHolderInfo: HOLDER } : {};
    const r = await api('POST', '/payments', { customer, billingType, value, dueDate, externalReference: `ref-${billingType}`, ...card });
    const id = r.body.id as string;
    await fetch(`${fake.url}/i/${id}/pay`, { method: 'POST', redirect: 'manual' });
    deliveries.length = 0;
    return id;
  }
  const waitForDeliveries = async (n: number) => {
    for (let i = 0; i < 100 && deliveries.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    return deliveries;
  };

  it('refunds a received PIX in full: answers REFUNDED with the refund, then sends PAYMENT_REFUNDED', async () => {
    const id = await paid('PIX');
    const r = await api('POST', `/payments/${id}/refund`, { description: 'Pedido da aluna' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'payment', id, status: 'REFUNDED', value: 297 });
    expect(r.body.refunds).toEqual([{ dateCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), status: 'DONE', value: 297, description: 'Pedido da aluna', transactionReceiptUrl: null }]);
    // The answer comes before the event, as at Asaas.
    expect(deliveries).toHaveLength(0);
    const [d] = await waitForDeliveries(1);
    expect(d!.headers['asaas-access-token']).toBe('tok-A');
    expect(d!.body).toMatchObject({ event: 'PAYMENT_REFUNDED', payment: { id, status: 'REFUNDED', externalReference: 'ref-PIX', refunds: [{ value: 297 }] } });
    expect(fake.payment(id)).toMatchObject({ status: 'REFUNDED' });
    expect((await api('GET', `/payments/${id}`)).body).toMatchObject({ status: 'REFUNDED', refunds: [{ status: 'DONE' }] });
    const html = await (await fetch(`${fake.url}/i/${id}`)).text();
    expect(html).toContain('Estornada');
    expect(html).not.toContain('Simular pagamento');
    // Once refunded there is nothing left to refund.
    const again = await api('POST', `/payments/${id}/refund`, {});
    expect([again.status, errorCode(again)]).toEqual([400, 'invalid_action']);
    expect(again.body.errors?.[0]?.description).toBe('Só é possível estornar cobranças recebidas ou confirmadas.');
    await new Promise((r) => setTimeout(r, 60));
    expect(deliveries).toHaveLength(1);
  });

  it('refunds a confirmed card payment without a body; a part first leaves it confirmed with PAYMENT_PARTIALLY_REFUNDED', async () => {
    const id = await paid('CREDIT_CARD', 100);
    const part = await api('POST', `/payments/${id}/refund`, { value: 30.1 });
    expect(part.body).toMatchObject({ status: 'CONFIRMED', refunds: [{ value: 30.1, description: null }] });
    expect((await waitForDeliveries(1)).map((d) => d.body.event)).toEqual(['PAYMENT_PARTIALLY_REFUNDED']);
    const tooMuch = await api('POST', `/payments/${id}/refund`, { value: 69.91 });
    expect([tooMuch.status, errorCode(tooMuch), tooMuch.body.errors?.[0]?.description]).toEqual([400, 'invalid_value', 'O valor do estorno não pode ser maior que R$\u00a069,90.']);
    const rest = await fetch(`${fake.apiUrl}/payments/${id}/refund`, { method: 'POST', headers: { access_token: KEY_A } });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ status: 'REFUNDED', refunds: [{ value: 30.1 }, { value: 69.9 }] });
    expect((await waitForDeliveries(2)).map((d) => d.body.event)).toEqual(['PAYMENT_PARTIALLY_REFUNDED', 'PAYMENT_REFUNDED']);
  });

  it('refuses a pending payment, a paid boleto, bad values, another account and unknown ids, changing nothing', async () => {
    const pending = await api('POST', '/payments', { customer, billingType: 'PIX', value: 50, dueDate });
    const boleto = await paid('BOLETO', 80);
    const pix = await paid('PIX', 40);
    const cases: [string, unknown, string | null, number, string][] = [
      [pending.body.id as string, {}, KEY_A, 400, 'invalid_action'],
      [boleto, {}, KEY_A, 400, 'invalid_action'],
      [pix, { value: 0 }, KEY_A, 400, 'invalid_value'],
      [pix, { value: '40' }, KEY_A, 400, 'invalid_value'],
      [pix, { value: 40.01 }, KEY_A, 400, 'invalid_value'],
      [pix, { description: 'x'.repeat(501) }, KEY_A, 400, 'invalid_description'],
      [pix, {}, KEY_B, 404, 'not_found'],
      ['pay_desconhecido', {}, KEY_A, 404, 'not_found'],
      [pix, {}, 'wrong-key', 401, 'invalid_access_token'],
    ];
    for (const [id, body, key, status, code] of cases) {
      const r = await api('POST', `/payments/${id}/refund`, body, key);
      expect([r.status, errorCode(r)], `${id} ${JSON.stringify(body)}`).toEqual([status, code]);
    }
    expect((await api('POST', `/payments/${boleto}/refund`, {})).body.errors?.[0]?.description).toMatch(/^Boletos pagos são estornados/);
    expect(fake.payment(pending.body.id as string)).toMatchObject({ status: 'PENDING' });
    expect(fake.payment(boleto)).toMatchObject({ status: 'RECEIVED' });
    expect(fake.payment(boleto)).not.toHaveProperty('refunds');
    expect(fake.payment(pix)).toMatchObject({ status: 'RECEIVED' });
    expect(fake.payment(pix)).not.toHaveProperty('refunds');
    await new Promise((r) => setTimeout(r, 60));
    expect(deliveries).toEqual([]);
  });

  it('close() drops a refund event not yet sent', async () => {
    const other = await startFakeAsaas({ accounts: [{ apiKey: KEY_A, webhookUrl: `${fake.url}/nowhere`, webhookToken: null }], eventDelayMs: 10_000 });
    const res = await fetch(`${other.apiUrl}/customers`, { method: 'POST', headers: { access_token: KEY_A }, body: JSON.stringify({ name: 'X', cpfCnpj: '39053344705' }) });
    const c = (await res.json()) as { id: string };
    const p = (await (await fetch(`${other.apiUrl}/payments`, { method: 'POST', headers: { access_token: KEY_A }, body: JSON.stringify({ customer: c.id, billingType: 'PIX', value: 10, dueDate }) })).json()) as { id: string };
    await fetch(`${other.url}/i/${p.id}/pay`, { method: 'POST', redirect: 'manual' });
    expect((await fetch(`${other.apiUrl}/payments/${p.id}/refund`, { method: 'POST', headers: { access_token: KEY_A } })).status).toBe(200);
    await other.close(); // the pending timer would keep the process alive for 10 s
  });
});

describe('removing a payment', () => {
  it('removes a pending PIX: { deleted, id }, then PAYMENT_DELETED; the invoice no longer offers to pay; a paid one, another account and an unknown id are refused', async () => {
    const customer = await customerOf(KEY_A, '39053344705');
    const pending = (await api('POST', '/payments', { customer, billingType: 'PIX', value: 50, dueDate, externalReference: 'ref-removed' })).body.id as string;
    const paid = (await api('POST', '/payments', { customer, billingType: 'PIX', value: 60, dueDate })).body.id as string;
    await fetch(`${fake.url}/i/${paid}/pay`, { method: 'POST', redirect: 'manual' });
    deliveries.length = 0;

    expect((await api('DELETE', `/payments/${pending}`, undefined, KEY_B)).status).toBe(404);
    const r = await api('DELETE', `/payments/${pending}`);
    expect(r).toEqual({ status: 200, body: { deleted: true, id: pending } });
    for (let i = 0; i < 100 && deliveries.length < 1; i++) await new Promise((done) => setTimeout(done, 10));
    expect(deliveries.map((d) => [d.body.event, d.body.payment.id, d.body.payment.externalReference, d.body.payment.deleted])).toEqual([['PAYMENT_DELETED', pending, 'ref-removed', true]]);
    expect(await (await fetch(`${fake.url}/i/${pending}`)).text()).not.toContain('Simular pagamento');
    expect((await api('DELETE', `/payments/${pending}`)).status).toBe(404);

    const refused = await api('DELETE', `/payments/${paid}`);
    expect([refused.status, errorCode(refused)]).toEqual([400, 'invalid_action']);
    expect(fake.payment(paid)).toMatchObject({ status: 'RECEIVED', deleted: false });
    expect((await api('DELETE', '/payments/pay_desconhecido')).status).toBe(404);
  });
});

describe('subscriptions', () => {
  let customer: string;
  // Brazil's today, as the fake (and Asaas) counts due dates.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const SUB_SUCCESS_URL = 'http://localhost:5999/?assinatura=retorno';
  beforeAll(async () => {
    customer = await customerOf(KEY_A, '86288366757');
  });
  // Each test counts only its own events: the last test's deferred ones (20 ms, later on a busy
  // machine) are delivered and dropped first, so a wait for n is a wait for this test's n.
  beforeEach(async () => {
    await fake.idle();
    deliveries.length = 0;
  });
  const waitForDeliveries = async (n: number) => {
    for (let i = 0; i < 200 && deliveries.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 30)); // and nothing more arrives
    return deliveries.map((d) => d.body);
  };
  async function subscribe(body: Record<string, unknown> = {}) {
    const r = await api('POST', '/subscriptions', { customer, billingType: 'PIX', value: 49.9, nextDueDate: today, cycle: 'MONTHLY', description: 'Plano Tudo', externalReference: 'our-sub-1', callback: { successUrl: SUB_SUCCESS_URL, autoRedirect: true }, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as Record<string, unknown> & { id: string };
  }

  it('adds a cycle as Asaas and Postgres do: the day kept, or the month’s last', () => {
    expect(addCycle('2026-01-31', 'MONTHLY')).toBe('2026-02-28');
    expect(addCycle('2026-12-15', 'MONTHLY')).toBe('2027-01-15');
    expect(addCycle('2028-02-29', 'YEARLY')).toBe('2029-02-28');
    expect(addCycle('2026-03-31', 'QUARTERLY')).toBe('2026-06-30');
    expect(addCycle('2026-12-28', 'WEEKLY')).toBe('2027-01-04');
  });

  it('refuses bad fields, another account’s customer and a card the sandbox declines, creating nothing', async () => {
    deliveries.length = 0;
    const base = { customer, billingType: 'PIX', value: 49.9, nextDueDate: today, cycle: 'MONTHLY' };
    const cases: [Record<string, unknown>, string, string | null][] = [
      [{ ...base, value: 0 }, 'invalid_value', KEY_A],
      [{ ...base, value: '49.90' }, 'invalid_value', KEY_A],
      [{ ...base, cycle: 'DAILY' }, 'invalid_cycle', KEY_A],
      [{ ...base, cycle: undefined }, 'invalid_cycle', KEY_A],
      [{ ...base, nextDueDate: '2000-01-01' }, 'invalid_nextDueDate', KEY_A],
      [{ ...base, nextDueDate: '15/01/2030' }, 'invalid_nextDueDate', KEY_A],
      [{ ...base, billingType: 'BITCOIN' }, 'invalid_billingType', KEY_A],
      [{ ...base, callback: { successUrl: 'javascript:alert(1)' } }, 'invalid_callback', KEY_A],
      [base, 'invalid_customer', KEY_B],
      [{ ...base, billingType: 'CREDIT_CARD', creditCard: { ...CARD, number: '4111111111111112' }, creditCardHolderInfo: HOLDER }, 'invalid_creditCard', KEY_A],
      [{ ...base, billingType: 'CREDIT_CARD', creditCard: CARD }, 'invalid_creditCardHolderInfo', KEY_A],
      [{ ...base, billingType: 'CREDIT_CARD', creditCard: { ...CARD, number: '4916561358240741' }, creditCardHolderInfo: HOLDER }, 'invalid_creditCard', KEY_A],
    ];
    for (const [body, code, key] of cases) {
      const r = await api('POST', '/subscriptions', body, key);
      expect([r.status, errorCode(r)], JSON.stringify(body)).toEqual([400, code]);
    }
    const declined = await api('POST', '/subscriptions', cases.at(-1)![0]);
    expect(declined.body.errors?.[0]?.description).toBe('Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.');
    // The sandbox's declined cards are declined for a single payment too.
    const pay = await api('POST', '/payments', { customer, billingType: 'CREDIT_CARD', value: 10, dueDate, creditCard: { ...CARD, number: '5184 0197 4037 3151' }, creditCardHolderInfo: HOLDER });
    expect([pay.status, errorCode(pay)]).toEqual([400, 'invalid_creditCard']);
    expect(await waitForDeliveries(0)).toEqual([]);
    expect(errorCode(await api('GET', '/subscriptions/sub_desconhecida'))).toBe('not_found');
    expect(errorCode(await api('GET', '/subscriptions/sub_desconhecida/payments'))).toBe('not_found');
    expect(errorCode(await api('DELETE', '/subscriptions/sub_desconhecida'))).toBe('not_found');
  });

  it('a PIX subscription: Asaas’s object, a first PENDING invoice due on nextDueDate, its events after the answer, paid on its page', async () => {
    deliveries.length = 0;
    const sub = await subscribe();
    expect(sub.id).toMatch(/^sub_[a-z0-9]{16}$/);
    expect(sub).toMatchObject({ object: 'subscription', customer, value: 49.9, cycle: 'MONTHLY', billingType: 'PIX', status: 'ACTIVE', deleted: false, description: 'Plano Tudo', externalReference: 'our-sub-1', nextDueDate: addCycle(today, 'MONTHLY') });
    expect(sub).not.toHaveProperty('creditCard');
    expect((await api('GET', `/subscriptions/${sub.id}`)).body).toEqual(sub);
    expect((await api('GET', `/subscriptions/${sub.id}`, undefined, KEY_B)).status).toBe(404);
    // The answer comes before the events.
    expect(deliveries).toHaveLength(0);

    const list = await api('GET', `/subscriptions/${sub.id}/payments`);
    expect(list.body).toMatchObject({ object: 'list', hasMore: false, totalCount: 1, limit: 10, offset: 0 });
    const [invoice] = list.body.data as Record<string, unknown>[];
    expect(invoice).toMatchObject({ object: 'payment', subscription: sub.id, customer, value: 49.9, billingType: 'PIX', status: 'PENDING', dueDate: today, description: 'Plano Tudo', externalReference: 'our-sub-1', invoiceUrl: `${fake.url}/i/${invoice!.id as string}`, deleted: false });
    expect(fake.subscriptionPayments(sub.id).map((p) => p.id)).toEqual([invoice!.id]);

    const events = await waitForDeliveries(2);
    expect(events.map((e) => e.event)).toEqual(['SUBSCRIPTION_CREATED', 'PAYMENT_CREATED']);
    // Asaas's subscription events give the dates as dd/MM/yyyy; its payment events carry the subscription id.
    const [y, m, d] = addCycle(today, 'MONTHLY').split('-');
    expect(events[0]!.subscription).toMatchObject({ id: sub.id, customer, value: 49.9, externalReference: 'our-sub-1', status: 'ACTIVE', nextDueDate: `${d}/${m}/${y}` });
    expect(events[0]!.payment).toBeUndefined();
    expect(events[1]!.payment).toMatchObject({ id: invoice!.id, subscription: sub.id, status: 'PENDING' });
    expect(deliveries[0]!.headers['asaas-access-token']).toBe('tok-A');

    // The subscription's page: the invoice with its 'Simular pagamento', and the fake's controls.
    const html = await (await fetch(`${fake.url}/s/${sub.id}`)).text();
    expect(html).toContain(`/i/${invoice!.id as string}/pay`);
    expect(html).toContain('Simular pagamento');
    expect(html).toContain('Avançar para o próximo ciclo');
    expect(html).toContain('Simular vencimento');
    expect(html).not.toContain('cartão recusado');
    expect(await (await fetch(`${fake.url}/i/${invoice!.id as string}`)).text()).toContain(`/s/${sub.id}`);

    deliveries.length = 0;
    const paid = await fetch(`${fake.url}/i/${invoice!.id as string}/pay`, { method: 'POST', redirect: 'manual' });
    expect([paid.status, paid.headers.get('location')]).toEqual([303, SUB_SUCCESS_URL]);
    expect(deliveries.map((x) => [x.body.event, x.body.payment.status, x.body.payment.subscription])).toEqual([['PAYMENT_CONFIRMED', 'RECEIVED', sub.id]]);
    expect((await fetch(`${fake.url}/s/${sub.id}`).then((r) => r.text()))).not.toContain('Simular vencimento');
  });

  it('the next cycle: an invoice one month on; Simular vencimento makes it OVERDUE, and an overdue invoice can still be paid', async () => {
    const sub = await subscribe({ externalReference: 'our-sub-2' });
    await waitForDeliveries(2);
    deliveries.length = 0;
    const next = await fake.nextCycle(sub.id);
    expect(next).toMatchObject({ subscription: sub.id, status: 'PENDING', dueDate: addCycle(today, 'MONTHLY'), value: 49.9, externalReference: 'our-sub-2' });
    expect(fake.subscription(sub.id)!.nextDueDate).toBe(addCycle(addCycle(today, 'MONTHLY'), 'MONTHLY'));
    // Delivered before nextCycle resolves.
    expect(deliveries.map((x) => [x.body.event, x.body.payment.id])).toEqual([['PAYMENT_CREATED', next.id]]);
    const list = await api('GET', `/subscriptions/${sub.id}/payments?status=PENDING`);
    expect((list.body.data as { id: string }[]).map((p) => p.id)).toEqual([fake.subscriptionPayments(sub.id)[0]!.id, next.id]);

    deliveries.length = 0;
    const overdue = await fetch(`${fake.url}/s/${sub.id}/overdue`, { method: 'POST', redirect: 'manual' });
    expect([overdue.status, overdue.headers.get('location')]).toEqual([303, `/s/${sub.id}`]);
    expect(deliveries.map((x) => [x.body.event, x.body.payment.status])).toEqual([['PAYMENT_OVERDUE', 'OVERDUE'], ['PAYMENT_OVERDUE', 'OVERDUE']]);
    expect(await fake.markOverdue(sub.id)).toEqual([]);
    expect(await (await fetch(`${fake.url}/i/${next.id}`)).text()).toContain('Vencida');

    deliveries.length = 0;
    expect((await fetch(`${fake.url}/i/${next.id}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect(deliveries.map((x) => [x.body.event, x.body.payment.id, x.body.payment.status])).toEqual([['PAYMENT_CONFIRMED', next.id, 'RECEIVED']]);
    const third = await fetch(`${fake.url}/s/${sub.id}/next-cycle`, { method: 'POST', redirect: 'manual' });
    expect(third.status).toBe(303);
    expect(fake.subscriptionPayments(sub.id).map((p) => p.dueDate)).toEqual([today, addCycle(today, 'MONTHLY'), addCycle(addCycle(today, 'MONTHLY'), 'MONTHLY')]);
  });

  it('a card subscription is charged at once, and each cycle after, unless the card is declined', async () => {
    deliveries.length = 0;
    const sub = await subscribe({ billingType: 'CREDIT_CARD', value: 99.9, cycle: 'YEARLY', externalReference: 'our-sub-card', creditCard: CARD, creditCardHolderInfo: HOLDER, remoteIp: '203.0.113.9' });
    expect(sub).toMatchObject({ billingType: 'CREDIT_CARD', nextDueDate: addCycle(today, 'YEARLY'), creditCard: { creditCardNumber: '1111', creditCardBrand: 'VISA' } });
    for (const json of [JSON.stringify(sub), JSON.stringify(fake.subscription(sub.id))]) {
      expect(json).not.toContain('4111111111111111');
      expect(json).not.toContain('8317');
    }
    const [first] = fake.subscriptionPayments(sub.id);
    expect(first).toMatchObject({ status: 'CONFIRMED', paymentDate: today, value: 99.9, creditCard: { creditCardNumber: '1111' } });
    expect((await waitForDeliveries(3)).map((e) => [e.event, e.payment?.status ?? e.subscription?.status])).toEqual([
      ['SUBSCRIPTION_CREATED', 'ACTIVE'],
      ['PAYMENT_CREATED', 'CONFIRMED'],
      ['PAYMENT_CONFIRMED', 'CONFIRMED'],
    ]);

    deliveries.length = 0;
    const renewed = await fake.nextCycle(sub.id);
    expect(renewed).toMatchObject({ status: 'CONFIRMED', dueDate: addCycle(today, 'YEARLY') });
    expect(deliveries.map((x) => x.body.event)).toEqual(['PAYMENT_CREATED', 'PAYMENT_CONFIRMED']);

    deliveries.length = 0;
    const html = await (await fetch(`${fake.url}/s/${sub.id}`)).text();
    expect(html).toContain('Avançar com o cartão recusado');
    expect(html).not.toContain('Simular vencimento');
    const declined = await fetch(`${fake.url}/s/${sub.id}/next-cycle?cartao=recusado`, { method: 'POST', redirect: 'manual' });
    expect(declined.status).toBe(303);
    const third = fake.subscriptionPayments(sub.id).at(-1)!;
    expect(third).toMatchObject({ status: 'PENDING', dueDate: addCycle(addCycle(today, 'YEARLY'), 'YEARLY') });
    expect(deliveries.map((x) => [x.body.event, x.body.payment.id])).toEqual([['PAYMENT_CREATED', third.id], ['PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', third.id]]);
    expect((await fake.nextCycle(sub.id, { cardDeclined: true })).status).toBe('PENDING');
  });

  it('a card subscription starting later is not charged until then', async () => {
    const later = addCycle(today, 'WEEKLY');
    const sub = await subscribe({ billingType: 'CREDIT_CARD', nextDueDate: later, creditCard: CARD, creditCardHolderInfo: HOLDER });
    expect(fake.subscriptionPayments(sub.id)).toMatchObject([{ status: 'PENDING', dueDate: later }]);
    await waitForDeliveries(2);
  });

  it('DELETE removes it: INACTIVE, its unpaid invoices removed with PAYMENT_DELETED, then SUBSCRIPTION_DELETED; paid ones kept', async () => {
    const sub = await subscribe({ externalReference: 'our-sub-del' });
    const [first] = fake.subscriptionPayments(sub.id);
    await fetch(`${fake.url}/i/${first!.id}/pay`, { method: 'POST', redirect: 'manual' });
    const second = await fake.nextCycle(sub.id);
    await waitForDeliveries(4);
    deliveries.length = 0;

    expect((await api('DELETE', `/subscriptions/${sub.id}`, undefined, KEY_B)).status).toBe(404);
    const r = await api('DELETE', `/subscriptions/${sub.id}`);
    expect(r).toEqual({ status: 200, body: { deleted: true, id: sub.id } });
    expect(deliveries).toHaveLength(0);
    const events = await waitForDeliveries(2);
    expect(events.map((e) => [e.event, e.payment?.id ?? e.subscription?.id])).toEqual([['PAYMENT_DELETED', second.id], ['SUBSCRIPTION_DELETED', sub.id]]);
    expect(events[0]!.payment).toMatchObject({ deleted: true, subscription: sub.id });
    expect(events[1]!.subscription).toMatchObject({ status: 'INACTIVE', deleted: true, externalReference: 'our-sub-del' });
    expect((await api('GET', `/subscriptions/${sub.id}`)).body).toMatchObject({ status: 'INACTIVE', deleted: true });
    expect((await api('GET', `/subscriptions/${sub.id}/payments`)).body).toMatchObject({ totalCount: 1, data: [{ id: first!.id, status: 'RECEIVED' }] });
    expect((await api('DELETE', `/subscriptions/${sub.id}`)).status).toBe(404);

    // Nothing more to do with it: no next cycle, no paying a removed invoice.
    await expect(fake.nextCycle(sub.id)).rejects.toThrow('Esta assinatura foi removida.');
    expect((await fetch(`${fake.url}/s/${sub.id}/next-cycle`, { method: 'POST', redirect: 'manual' })).status).toBe(400);
    deliveries.length = 0;
    await fetch(`${fake.url}/i/${second.id}/pay`, { method: 'POST', redirect: 'manual' });
    expect(deliveries).toEqual([]);
    const html = await (await fetch(`${fake.url}/s/${sub.id}`)).text();
    expect(html).toContain('Removida');
    expect(html).not.toContain('Avançar');
    expect(html).not.toContain(`/i/${second.id}/pay`);
  });

  it('lists a page at a time', async () => {
    deliveries.length = 0;
    const sub = await subscribe({ billingType: 'BOLETO', externalReference: 'our-sub-pages' });
    for (let i = 0; i < 3; i++) await fake.nextCycle(sub.id);
    await waitForDeliveries(5);
    const page = await api('GET', `/subscriptions/${sub.id}/payments?limit=2&offset=1`);
    expect(page.body).toMatchObject({ object: 'list', hasMore: true, totalCount: 4, limit: 2, offset: 1 });
    expect((page.body.data as { id: string }[]).map((p) => p.id)).toEqual(fake.subscriptionPayments(sub.id).slice(1, 3).map((p) => p.id));
    expect(fake.subscriptionPayments(sub.id)[0]!.bankSlipUrl).toMatch(/\/b\/pay_/);
  });
});

describe('close', () => {
  it('frees the port', async () => {
    const other = await startFakeAsaas({ accounts: [] });
    const port = Number(new URL(other.url).port);
    await fetch(`${other.apiUrl}/customers`); // leaves a keep-alive connection open
    await other.close();
    const again = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => again.close(() => resolve()));
  });
});
