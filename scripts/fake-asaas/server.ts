// A fake of the Asaas API v3 for local runs and tests (issue 11): the customers and payments
// endpoints create-asaas-charge calls, with Asaas's JSON shapes and error format, and an invoice page
// per payment whose 'Simular pagamento' marks it paid, sends PAYMENT_CONFIRMED to the account's
// webhook with its token (as Asaas does), then sends the payer back to callback.successUrl.
// An installment plan is one payment per installment sharing an `installment` id, as at Asaas: the
// create call answers the first, and paying a card plan confirms every installment (one event each).
// Events carry the whole payment object (id, customer, value, externalReference, installment...).
// Everything lives in memory; card numbers are kept only in `requests`, for tests to inspect.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAsaasAccount {
  apiKey: string;
  webhookUrl: string | null;
  webhookToken: string | null;
}

export interface FakeAsaasOptions {
  /** 0 or unset: a free port. */
  port?: number;
  accounts: FakeAsaasAccount[];
  log?: (line: string) => void;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

type Json = Record<string, unknown>;
export type FakeAsaasPayment = Json & { id: string; status: string };

interface StoredPayment {
  account: FakeAsaasAccount;
  payment: FakeAsaasPayment;
  successUrl: string | null;
}

export interface FakeAsaas {
  /** http://localhost:<port> */
  url: string;
  /** url + '/api/v3': what ASAAS_SANDBOX_URL points at. */
  apiUrl: string;
  requests: RecordedRequest[];
  payment(id: string): FakeAsaasPayment | undefined;
  /** Delivers a webhook event for a payment to its account; the HTTP status our side answered (0: no webhook). */
  sendEvent(paymentId: string, event: string, opts?: { eventId?: string; token?: string | null }): Promise<{ status: number; eventId: string; body: string }>;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

class AsaasFail extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
  }
}

// Asaas's dates are Brazil's (create-asaas-charge computes dueDate there too).
const brazil = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', hourCycle: 'h23', ...options });
const today = () => brazil({ year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const stamp = () => `${today()} ${brazil({ hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(new Date())}`;
const digitsOf = (v: unknown) => String(v ?? '').replace(/\D/g, '');
const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const brl = (v: unknown) => Number(v).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return number.length >= 13 && sum % 10 === 0;
}

function brand(number: string): string {
  if (number.startsWith('4')) return 'VISA';
  if (/^5[1-5]/.test(number)) return 'MASTERCARD';
  return 'UNKNOWN';
}

const METHOD_LABEL: Record<string, string> = { PIX: 'Pix', BOLETO: 'Boleto bancário', CREDIT_CARD: 'Cartão de crédito', UNDEFINED: 'Pergunte ao cliente' };
const STATUS_LABEL: Record<string, string> = {
  PENDING: 'Aguardando pagamento',
  CONFIRMED: 'Pagamento confirmado',
  RECEIVED: 'Pagamento confirmado',
  REFUNDED: 'Estornada',
};

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new AsaasFail(413, 'payload_too_large', 'Requisição muito grande.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AsaasFail(400, 'invalid_json', 'JSON inválido.');
  }
}

export async function startFakeAsaas(opts: FakeAsaasOptions): Promise<FakeAsaas> {
  const log = opts.log ?? (() => undefined);
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, { account: FakeAsaasAccount; customer: Json }>();
  const payments = new Map<string, StoredPayment>();
  let customerSeq = 0;
  let invoiceSeq = 0;
  let eventSeq = 0;
  let url = '';

  function accountOf(req: IncomingMessage): FakeAsaasAccount {
    const key = req.headers['access_token'];
    const account = opts.accounts.find((a) => a.apiKey === key);
    if (!account) throw new AsaasFail(401, 'invalid_access_token', 'A chave de API fornecida é inválida');
    return account;
  }

  function createCustomer(account: FakeAsaasAccount, body: Json): Json {
    if (typeof body.name !== 'string' || !body.name.trim()) throw new AsaasFail(400, 'invalid_name', 'O campo name deve ser informado.');
    const cpfCnpj = digitsOf(body.cpfCnpj);
    if (cpfCnpj.length !== 11 && cpfCnpj.length !== 14) throw new AsaasFail(400, 'invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.');
    const customer = {
      object: 'customer',
      id: `cus_${String(++customerSeq).padStart(12, '0')}`,
      dateCreated: today(),
      name: body.name.trim(),
      email: body.email ?? null,
      phone: body.phone ?? null,
      mobilePhone: body.mobilePhone ?? null,
      cpfCnpj,
      personType: cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
      deleted: false,
    };
    customers.set(customer.id, { account, customer });
    return customer;
  }

  function createPayment(account: FakeAsaasAccount, body: Json): FakeAsaasPayment {
    const customer = customers.get(String(body.customer));
    if (!customer || customer.account !== account) throw new AsaasFail(400, 'invalid_customer', 'Cliente inválido ou não informado.');
    const billingType = String(body.billingType ?? '');
    if (!['BOLETO', 'CREDIT_CARD', 'PIX', 'UNDEFINED'].includes(billingType)) throw new AsaasFail(400, 'invalid_billingType', 'Forma de pagamento inválida.');
    // An installment plan gives totalValue (or installmentValue) instead of value.
    const installments = Number(body.installmentCount ?? 1);
    const given = body.value ?? body.totalValue ?? (typeof body.installmentValue === 'number' ? body.installmentValue * installments : undefined);
    const value = typeof given === 'number' ? given : NaN;
    if (!(value > 0)) throw new AsaasFail(400, 'invalid_value', 'O campo value deve ser informado');
    if (!Number.isInteger(installments) || installments < 1 || installments > 21) throw new AsaasFail(400, 'invalid_installmentCount', 'Número de parcelas inválido.');
    const dueDate = String(body.dueDate ?? '');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(dueDate) || dueDate < today()) throw new AsaasFail(400, 'invalid_dueDate', 'A data de vencimento não pode ser inferior à hoje');
    const callback = (body.callback ?? null) as Json | null;
    const successUrl = callback?.successUrl ? String(callback.successUrl) : null;
    if (successUrl && !/^https?:\/\/[^\s]+$/.test(successUrl)) throw new AsaasFail(400, 'invalid_callback', 'A URL de sucesso informada é inválida.');
    let creditCard: Json | undefined;
    if (billingType === 'CREDIT_CARD') {
      const card = (body.creditCard ?? {}) as Json;
      const holder = (body.creditCardHolderInfo ?? {}) as Json;
      const missing = (o: Json, fields: string[]) => fields.some((f) => !String(o[f] ?? '').trim());
      if (missing(card, ['holderName', 'number', 'expiryMonth', 'expiryYear', 'ccv'])) throw new AsaasFail(400, 'invalid_creditCard', 'Informe os dados do cartão de crédito.');
      if (missing(holder, ['name', 'email', 'cpfCnpj', 'postalCode', 'addressNumber', 'phone'])) throw new AsaasFail(400, 'invalid_creditCardHolderInfo', 'Informe os dados do titular do cartão.');
      const number = digitsOf(card.number);
      if (!luhn(number)) throw new AsaasFail(400, 'invalid_creditCard', 'Número do cartão de crédito inválido.');
      // Like Asaas: the payment keeps the last digits and a token, never the card.
      creditCard = { creditCardNumber: number.slice(-4), creditCardBrand: brand(number), creditCardToken: randomBytes(16).toString('hex') };
    }
    // Installments split the total in cents; the cents that do not divide evenly go on the last one.
    const totalCents = Math.round(value * 100);
    const eachCents = Math.floor(totalCents / installments);
    const installment = installments > 1 ? randomUUID() : null;
    const created: FakeAsaasPayment[] = [];
    for (let n = 1; n <= installments; n++) {
      const cents = n === installments ? totalCents - eachCents * (installments - 1) : eachCents;
      const id = `pay_${randomBytes(12).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 16)}`;
      const payment: FakeAsaasPayment = {
        object: 'payment',
        id,
        dateCreated: today(),
        customer: customer.customer.id,
        installment,
        value: cents / 100,
        netValue: cents / 100,
        billingType,
        status: 'PENDING',
        dueDate,
        description: body.description ?? null,
        externalReference: body.externalReference ?? null,
        installmentNumber: installment ? n : null,
        invoiceUrl: `${url}/i/${id}`,
        invoiceNumber: String(++invoiceSeq).padStart(8, '0'),
        bankSlipUrl: billingType === 'BOLETO' ? `${url}/b/${id}` : null,
        ...(creditCard ? { creditCard } : {}),
        paymentDate: null,
        deleted: false,
      };
      payments.set(id, { account, payment, successUrl });
      created.push(payment);
    }
    return created[0]!;
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    requests.push({ method: req.method ?? '', path, headers: { ...(req.headers as Record<string, string>) }, body });
    const account = accountOf(req);
    const u = new URL(path, 'http://x');
    const route = `${req.method} ${u.pathname.replace(/^\/api\/v3/, '')}`;
    if (route === 'GET /customers') {
      const cpf = digitsOf(u.searchParams.get('cpfCnpj'));
      const data = [...customers.values()].filter((c) => c.account === account && (!cpf || c.customer.cpfCnpj === cpf)).map((c) => c.customer);
      return send(res, 200, { object: 'list', hasMore: false, totalCount: data.length, limit: 10, offset: 0, data });
    }
    if (route === 'POST /customers') return send(res, 200, createCustomer(account, body as Json));
    if (route === 'POST /payments') return send(res, 200, createPayment(account, body as Json));
    // Asaas's PIX copia e cola (and QR image) and a boleto's digitable line, for a pending payment.
    const detail = /^GET \/payments\/([^/]+)\/(pixQrCode|identificationField)$/.exec(route);
    if (detail) {
      const stored = payments.get(detail[1]!);
      if (!stored || stored.account !== account) throw new AsaasFail(404, 'not_found', 'Cobrança não encontrada.');
      const p = stored.payment;
      if (detail[2] === 'pixQrCode') {
        if (p.billingType !== 'PIX') throw new AsaasFail(400, 'invalid_action', 'Esta cobrança não é PIX.');
        const payload = `00020126580014br.gov.bcb.pix0136${p.id}5204000053039865406${Number(p.value).toFixed(2)}5802BR6304FAKE`;
        return send(res, 200, { encodedImage: '', payload, expirationDate: `${p.dueDate} 23:59:59` });
      }
      if (p.billingType !== 'BOLETO') throw new AsaasFail(400, 'invalid_action', 'Esta cobrança não é boleto.');
      const digits = `23793381286${p.id.replace(/\D/g, '').padEnd(20, '0').slice(0, 20)}${Math.round(Number(p.value) * 100).toString().padStart(10, '0')}`;
      return send(res, 200, { identificationField: digits.padEnd(47, '0').slice(0, 47), nossoNumero: p.invoiceNumber, barCode: digits.padEnd(44, '0').slice(0, 44) });
    }
    const one = /^GET \/payments\/([^/]+)$/.exec(route);
    if (one) {
      const stored = payments.get(one[1]!);
      if (!stored || stored.account !== account) throw new AsaasFail(404, 'not_found', 'Cobrança não encontrada.');
      return send(res, 200, stored.payment);
    }
    throw new AsaasFail(404, 'not_found', 'Recurso não encontrado.');
  }

  async function sendEvent(paymentId: string, event: string, o: { eventId?: string; token?: string | null } = {}) {
    const stored = payments.get(paymentId);
    if (!stored) throw new Error(`unknown payment ${paymentId}`);
    if (event === 'PAYMENT_REFUNDED') stored.payment.status = 'REFUNDED';
    const eventId = o.eventId ?? `evt_${randomBytes(16).toString('hex')}&${++eventSeq}`;
    const { webhookUrl } = stored.account;
    if (!webhookUrl) return { status: 0, eventId, body: '' };
    const token = o.token === undefined ? stored.account.webhookToken : o.token;
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'Asaas_Hmlg/3.0', ...(token ? { 'asaas-access-token': token } : {}) },
      body: JSON.stringify({ id: eventId, event, dateCreated: stamp(), payment: { ...stored.payment } }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = await res.text();
    if (res.status !== 200) log(`webhook ${event} for ${paymentId} answered ${res.status}: ${body.slice(0, 200)}`);
    return { status: res.status, eventId, body };
  }

  function invoicePage(res: ServerResponse, stored: StoredPayment) {
    const p = stored.payment;
    const paid = p.status === 'CONFIRMED' || p.status === 'RECEIVED';
    const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fatura ${esc(p.invoiceNumber)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f6fb;margin:0;padding:24px;color:#1f2937}main{max-width:420px;margin:auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem}dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px}dt{color:#6b7280}button{width:100%;padding:12px;border:0;border-radius:8px;background:#0030b9;color:#fff;font-size:1rem;cursor:pointer}</style></head>
<body><main><p>Asaas (simulado para testes)</p><h1>Fatura ${esc(p.invoiceNumber)}</h1>
<dl><dt>Descrição</dt><dd>${esc(p.description)}</dd><dt>Valor</dt><dd>${esc(brl(p.value))}</dd>
${p.installment ? `<dt>Parcela</dt><dd>${esc(p.installmentNumber)} de ${esc([...payments.values()].filter((s) => s.payment.installment === p.installment).length)}</dd>` : ''}
<dt>Forma de pagamento</dt><dd>${esc(METHOD_LABEL[String(p.billingType)] ?? p.billingType)}</dd>
<dt>Situação</dt><dd>${esc(STATUS_LABEL[p.status] ?? p.status)}</dd></dl>
${p.status === 'PENDING' ? `<form method="post" action="/i/${esc(p.id)}/pay"><button type="submit">Simular pagamento</button></form>` : ''}
${paid && stored.successUrl ? `<p><a href="${esc(stored.successUrl)}">Voltar para o site</a></p>` : ''}
</main></body></html>`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  }

  async function pay(res: ServerResponse, stored: StoredPayment) {
    const p = stored.payment;
    // A card plan is charged at once: every installment is confirmed, each with its own event.
    const plan = p.installment && p.billingType === 'CREDIT_CARD' ? [...payments.values()].filter((s) => s.payment.installment === p.installment).map((s) => s.payment) : [p];
    for (const one of plan) {
      if (one.status !== 'PENDING') continue;
      one.status = one.billingType === 'CREDIT_CARD' ? 'CONFIRMED' : 'RECEIVED';
      one.paymentDate = one.clientPaymentDate = one.confirmedDate = today();
      await sendEvent(one.id, 'PAYMENT_CONFIRMED').catch((e: Error) => log(`webhook failed: ${e.message}`));
    }
    res.writeHead(303, { Location: stored.successUrl ?? `/i/${p.id}` }).end();
  }

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    void (async () => {
      try {
        if (path === '/health') return send(res, 200, { status: 'ok' });
        if (path.startsWith('/api/v3/')) return await api(req, res, path);
        const page = /^\/(i|b)\/([^/?]+)(\/pay)?$/.exec(path.split('?')[0]!);
        const stored = page ? payments.get(page[2]!) : undefined;
        if (stored && req.method === 'GET' && !page![3]) return invoicePage(res, stored);
        if (stored && req.method === 'POST' && page![3]) return await pay(res, stored);
        throw new AsaasFail(404, 'not_found', 'Recurso não encontrado.');
      } catch (e) {
        if (e instanceof AsaasFail) return send(res, e.status, { errors: [{ code: e.code, description: e.description }] });
        log(`error: ${(e as Error).message}`);
        send(res, 500, { errors: [{ code: 'internal_error', description: 'Erro interno.' }] });
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url,
    apiUrl: `${url}/api/v3`,
    requests,
    payment: (id) => payments.get(id)?.payment,
    sendEvent,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
