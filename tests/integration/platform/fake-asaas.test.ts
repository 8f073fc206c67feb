// The fake Asaas (scripts/fake-asaas/server.ts) on its own, against a tiny webhook receiver: Asaas's auth,
// account scoping, validation codes and card handling, the invoice page's 'Simular pagamento' with its
// webhook and redirect, and sendEvent. No local-supabase needed.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAsaas, type FakeAsaas } from '../../../scripts/fake-asaas/server.ts';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: { id: string; event: string; dateCreated: string; payment: Record<string, unknown> };
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
  });
});
afterAll(async () => {
  await fake?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

async function api(method: 'GET' | 'POST', path: string, body?: unknown, key: string | null = KEY_A) {
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
