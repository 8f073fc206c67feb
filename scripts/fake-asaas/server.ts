// A fake of the Asaas API v3 for local runs and tests (issue 11): the customers and payments
// endpoints create-asaas-charge calls, with Asaas's JSON shapes and error format, and an invoice page
// per payment whose 'Simular pagamento' marks it paid, sends PAYMENT_CONFIRMED to the account's
// webhook with its token (as Asaas does), then sends the payer back to callback.successUrl.
// An installment plan is one payment per installment sharing an `installment` id, as at Asaas: the
// create call answers the first, and paying a card plan confirms every installment (one event each).
// Events carry the whole payment object (id, customer, value, externalReference, installment...).
// A confirmed PIX or card payment can be refunded (POST /payments/{id}/refund, in full or in part, as
// at Asaas): the answer is the payment, REFUNDED once nothing is left, with the refund in `refunds`;
// PAYMENT_REFUNDED (or PAYMENT_PARTIALLY_REFUNDED) reaches the webhook just after the answer, as
// Asaas's events do. A paid boleto is refunded another way at Asaas (the payer gives a bank account):
// this endpoint refuses it.
// A pending or overdue payment can be removed (DELETE /payments/{id}, as at Asaas: `{ deleted: true, id }`,
// then PAYMENT_DELETED); a paid one cannot. A removed payment's invoice page no longer offers to pay it.
// Subscriptions (issue 24), as at Asaas: POST /subscriptions creates the subscription and its first
// invoice (a payment carrying `subscription`, due on nextDueDate, with the subscription's value,
// billingType, description and externalReference); a card is charged at once when that invoice is due
// today. GET /subscriptions/{id}, GET /subscriptions/{id}/payments (Asaas's list) and DELETE
// /subscriptions/{id} (INACTIVE and deleted; its unpaid invoices removed). SUBSCRIPTION_* events carry the
// whole subscription object, each invoice's PAYMENT_* events the whole payment.
// Events caused by an API call (a refund, a subscription created or removed) reach the webhook a moment
// after the answer (eventDelayMs), as Asaas's do; those of the pages and controls below are delivered
// before they answer, so a test that awaits them sees their effect.
// Fake-only controls, for tests and the demo (no such thing at Asaas, where time passes by itself):
// - GET /s/{id}: the subscription's page, its invoices each with 'Simular pagamento' (the invoice page
//   /i/{paymentId} pays one too), 'Avançar para o próximo ciclo' and 'Simular vencimento'.
// - nextCycle(id, { cardDeclined }) / POST /s/{id}/next-cycle[?cartao=recusado]: the next invoice, due one
//   cycle after the last (PAYMENT_CREATED). A card is charged at once (PAYMENT_CONFIRMED) unless declined:
//   then the invoice stays PENDING (PAYMENT_CREDIT_CARD_CAPTURE_REFUSED) until paid on its page.
// - markOverdue(id) / POST /s/{id}/overdue ('Simular vencimento'): the subscription's unpaid invoices
//   become OVERDUE (PAYMENT_OVERDUE each); an overdue invoice can still be paid on its page.
// - The cards Asaas's sandbox refuses (5184019740373151, 4916561358240741) are refused here too, for a
//   payment or a subscription alike (400, nothing created).
// Service invoices (NFS-e) and the account's fiscal info (issue 42): scripts/fake-asaas/invoices.ts.
// The payment split (issue 43): scripts/fake-asaas/splits.ts; each split settled sends PAYMENT_SPLIT_DONE after
// the payment's PAYMENT_CONFIRMED, a refund refunds or cancels them. addWallet (or POST /fake/wallets
// { walletId, apiKey? }) makes a wallet exist; GET /wallets/ with a wallet account's key answers its wallet.
// Everything lives in memory; card numbers are kept only in `requests`, for tests to inspect.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeInvoices, InvoiceFail, type FakeAsaasInvoice, type FakeInvoiceOutcome } from './invoices.ts';
import { fakeSplits, reverseSplits, settleSplits, SplitFail } from './splits.ts';

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
  /** How long after an API answer its events are sent (ms): a refund's, a subscription's creation or removal; 100 when unset. */
  eventDelayMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

type Json = Record<string, unknown>;
export type FakeAsaasPayment = Json & { id: string; status: string };
export type FakeAsaasSubscription = Json & { id: string; status: 'ACTIVE' | 'INACTIVE'; cycle: string; nextDueDate: string; deleted: boolean };

interface StoredPayment {
  account: FakeAsaasAccount;
  payment: FakeAsaasPayment;
  successUrl: string | null;
}

interface StoredSubscription {
  account: FakeAsaasAccount;
  subscription: FakeAsaasSubscription;
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
  subscription(id: string): FakeAsaasSubscription | undefined;
  /** The subscription's invoices, oldest first (removed ones too, with deleted: true). */
  subscriptionPayments(id: string): FakeAsaasPayment[];
  /**
   * Fake-only: the next cycle's invoice, due one cycle after the last, its events delivered before this
   * resolves. A card subscription's invoice is charged at once, unless `cardDeclined`: then it stays PENDING.
   */
  nextCycle(subscriptionId: string, opts?: { cardDeclined?: boolean }): Promise<FakeAsaasPayment>;
  /** Fake-only ('Simular vencimento'): the subscription's unpaid invoices become OVERDUE, with PAYMENT_OVERDUE each. */
  markOverdue(subscriptionId: string): Promise<FakeAsaasPayment[]>;
  /** Resolves when every event sent after an API answer has been delivered (tests: nothing still on its way). */
  idle(): Promise<void>;
  /** An invoice (NFS-e) by Asaas's id; every invoice, in creation order. */
  invoice(id: string): FakeAsaasInvoice | undefined;
  invoices(): FakeAsaasInvoice[];
  /** Fake-only: the account's fiscal registration (null: none, GET /fiscalInfo answers 404). */
  setFiscalInfo(apiKey: string, info: Record<string, unknown> | null): void;
  /** Fake-only: the municipality refuses the account's next invoices with `error`, or denies their cancellation. */
  setInvoiceOutcome(apiKey: string, outcome: FakeInvoiceOutcome): void;
  /** Delivers an invoice event to its account's webhook (with `token` instead of the account's when given). */
  sendInvoiceEvent(invoiceId: string, event: string, opts?: { eventId?: string; token?: string | null }): Promise<{ status: number; eventId: string; body: string }>;
  /** Fake-only: a wallet id that Asaas knows from now on (a split to it is accepted), opened by `apiKey` when given. */
  addWallet(walletId: string, apiKey?: string): void;
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
  OVERDUE: 'Vencida',
  CONFIRMED: 'Pagamento confirmado',
  RECEIVED: 'Pagamento confirmado',
  REFUNDED: 'Estornada',
};
const CYCLE_LABEL: Record<string, string> = { WEEKLY: 'Semanal', BIWEEKLY: 'Quinzenal', MONTHLY: 'Mensal', QUARTERLY: 'Trimestral', SEMIANNUALLY: 'Semestral', YEARLY: 'Anual' };
// Asaas's sandbox refuses these cards (docs.asaas.com, "Criar nova cobrança com cartão de crédito").
const DECLINED_CARDS = new Set(['5184019740373151', '4916561358240741']);
const payable = (p: FakeAsaasPayment) => (p.status === 'PENDING' || p.status === 'OVERDUE') && !p.deleted;
const randomId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 16)}`;

/** A YYYY-MM-DD date one cycle later; a month's day past the next month's end falls on its last day (as Postgres adds months). */
export function addCycle(date: string, cycle: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const days = cycle === 'WEEKLY' ? 7 : cycle === 'BIWEEKLY' ? 14 : 0;
  if (days) return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
  const months = { MONTHLY: 1, QUARTERLY: 3, SEMIANNUALLY: 6, YEARLY: 12 }[cycle] ?? 1;
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}

/** Asaas's entry in a payment's `refunds`. */
export interface FakeAsaasRefund {
  dateCreated: string;
  status: 'PENDING' | 'CANCELLED' | 'DONE';
  value: number;
  description: string | null;
  transactionReceiptUrl: string | null;
}

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
  const subscriptions = new Map<string, StoredSubscription>();
  let customerSeq = 0;
  let invoiceSeq = 0;
  let eventSeq = 0;
  let url = '';
  const splits = fakeSplits();
  // The settled splits whose PAYMENT_SPLIT_DONE was sent.
  const splitsDone = new Set<string>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  // Deferred events not yet delivered (scheduled or on their way): idle() waits for none.
  let pending = 0;
  const later = (run: () => Promise<unknown>) => {
    pending++;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void run().finally(() => pending--);
    }, opts.eventDelayMs ?? 100);
    timers.add(timer);
  };
  const idle = async () => {
    while (pending > 0) await new Promise((r) => setTimeout(r, 5));
  };
  /** Events sent in order once the API answer is out, as Asaas's arrive after its answer. */
  const afterAnswer = (res: ServerResponse, events: (() => Promise<unknown>)[]) =>
    res.once('finish', () =>
      later(async () => {
        for (const send of events) await send().catch((e: Error) => log(`webhook failed: ${e.message}`));
      }),
    );

  const nfse = fakeInvoices({
    accounts: opts.accounts,
    baseUrl: () => url,
    paymentOf: (account, id) => {
      const stored = payments.get(id);
      return stored && stored.account === account ? { customer: String(stored.payment.customer), value: Number(stored.payment.value) } : undefined;
    },
    installmentOf: (account, id) => {
      const plan = [...payments.values()].filter((s) => s.account === account && s.payment.installment === id).map((s) => s.payment);
      const cents = plan.reduce((sum, p) => sum + Math.round(Number(p.value) * 100), 0);
      return plan.length ? { customer: String(plan[0]!.customer), value: cents / 100 } : undefined;
    },
    deliver: (account, event, payload, about, o) => deliver(account, event, payload, about, o),
    afterAnswer,
    today,
  });

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

  /** The checks a payment and a subscription share: customer, billingType, callback and card. */
  function chargeFields(account: FakeAsaasAccount, body: Json) {
    const customer = customers.get(String(body.customer));
    if (!customer || customer.account !== account) throw new AsaasFail(400, 'invalid_customer', 'Cliente inválido ou não informado.');
    const billingType = String(body.billingType ?? '');
    if (!['BOLETO', 'CREDIT_CARD', 'PIX', 'UNDEFINED'].includes(billingType)) throw new AsaasFail(400, 'invalid_billingType', 'Forma de pagamento inválida.');
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
      if (DECLINED_CARDS.has(number)) throw new AsaasFail(400, 'invalid_creditCard', 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.');
      // Like Asaas: the payment keeps the last digits and a token, never the card.
      creditCard = { creditCardNumber: number.slice(-4), creditCardBrand: brand(number), creditCardToken: randomBytes(16).toString('hex') };
    }
    return { customer: String(customer.customer.id), billingType, successUrl, creditCard };
  }

  /** A new PENDING payment with Asaas's fields, stored with its account. */
  function newPayment(account: FakeAsaasAccount, successUrl: string | null, fields: Json & { customer: string; value: number; billingType: string; dueDate: string }): FakeAsaasPayment {
    const id = randomId('pay');
    const { creditCard, ...rest } = fields;
    const payment: FakeAsaasPayment = {
      object: 'payment',
      id,
      dateCreated: today(),
      installment: null,
      status: 'PENDING',
      description: null,
      externalReference: null,
      installmentNumber: null,
      ...rest,
      netValue: rest.value,
      invoiceUrl: `${url}/i/${id}`,
      invoiceNumber: String(++invoiceSeq).padStart(8, '0'),
      bankSlipUrl: rest.billingType === 'BOLETO' ? `${url}/b/${id}` : null,
      ...(creditCard ? { creditCard } : {}),
      paymentDate: null,
      deleted: false,
    };
    payments.set(id, { account, payment, successUrl });
    return payment;
  }

  function createPayment(account: FakeAsaasAccount, body: Json): FakeAsaasPayment {
    const { customer, billingType, successUrl, creditCard } = chargeFields(account, body);
    // An installment plan gives totalValue (or installmentValue) instead of value.
    const installments = Number(body.installmentCount ?? 1);
    const given = body.value ?? body.totalValue ?? (typeof body.installmentValue === 'number' ? body.installmentValue * installments : undefined);
    const value = typeof given === 'number' ? given : NaN;
    if (!(value > 0)) throw new AsaasFail(400, 'invalid_value', 'O campo value deve ser informado');
    if (!Number.isInteger(installments) || installments < 1 || installments > 21) throw new AsaasFail(400, 'invalid_installmentCount', 'Número de parcelas inválido.');
    const dueDate = String(body.dueDate ?? '');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(dueDate) || dueDate < today()) throw new AsaasFail(400, 'invalid_dueDate', 'A data de vencimento não pode ser inferior à hoje');
    // Installments split the total in cents; the cents that do not divide evenly go on the last one.
    const totalCents = Math.round(value * 100);
    const eachCents = Math.floor(totalCents / installments);
    const installment = installments > 1 ? randomUUID() : null;
    const splitOf = splits.parse(body.split, value, installments);
    const created: FakeAsaasPayment[] = [];
    for (let n = 1; n <= installments; n++) {
      const cents = n === installments ? totalCents - eachCents * (installments - 1) : eachCents;
      created.push(
        newPayment(account, successUrl, {
          customer,
          installment,
          value: cents / 100,
          billingType,
          dueDate,
          description: body.description ?? null,
          externalReference: body.externalReference ?? null,
          installmentNumber: installment ? n : null,
          creditCard,
          split: body.split === undefined || body.split === null ? undefined : splitOf(n),
        }),
      );
    }
    return created[0]!;
  }

  /** Marks a payment paid as Asaas does: a card CONFIRMED, anything else RECEIVED. */
  function settle(p: FakeAsaasPayment) {
    p.status = p.billingType === 'CREDIT_CARD' ? 'CONFIRMED' : 'RECEIVED';
    p.paymentDate = p.clientPaymentDate = p.confirmedDate = today();
    settleSplits(p);
  }

  const invoicesOf = (subscriptionId: string) => [...payments.values()].filter((s) => s.payment.subscription === subscriptionId).map((s) => s.payment);

  /** The subscription's next invoice, due on its nextDueDate, which moves one cycle on. */
  function newInvoice(stored: StoredSubscription): FakeAsaasPayment {
    const s = stored.subscription;
    const invoice = newPayment(stored.account, stored.successUrl, {
      customer: String(s.customer),
      subscription: s.id,
      value: Number(s.value),
      billingType: String(s.billingType),
      dueDate: s.nextDueDate,
      description: s.description ?? null,
      externalReference: s.externalReference ?? null,
      creditCard: s.creditCard as Json | undefined,
      // A subscription's split goes on each invoice.
      split: s.split ? splits.parse(s.split, Number(s.value), 1)(1) : undefined,
    });
    s.nextDueDate = addCycle(s.nextDueDate, s.cycle);
    return invoice;
  }

  /** POST /subscriptions: the subscription and its first invoice; the events to send once the answer is out. */
  function createSubscription(account: FakeAsaasAccount, body: Json): { subscription: FakeAsaasSubscription; events: (() => Promise<unknown>)[] } {
    const { customer, billingType, successUrl, creditCard } = chargeFields(account, body);
    const value = typeof body.value === 'number' ? body.value : NaN;
    if (!(value > 0)) throw new AsaasFail(400, 'invalid_value', 'O campo value deve ser informado');
    const cycle = String(body.cycle ?? '');
    if (!(cycle in CYCLE_LABEL)) throw new AsaasFail(400, 'invalid_cycle', 'Periodicidade inválida.');
    const nextDueDate = String(body.nextDueDate ?? '');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(nextDueDate) || nextDueDate < today()) throw new AsaasFail(400, 'invalid_nextDueDate', 'A data de vencimento da primeira cobrança não pode ser inferior à hoje');
    splits.parse(body.split, value, 1);
    const subscription: FakeAsaasSubscription = {
      object: 'subscription',
      id: randomId('sub'),
      dateCreated: today(),
      customer,
      paymentLink: null,
      value,
      nextDueDate,
      cycle,
      description: body.description ?? null,
      billingType,
      deleted: false,
      status: 'ACTIVE',
      externalReference: body.externalReference ?? null,
      sendPaymentByPostalService: false,
      discount: { value: 0, limitDate: null, dueDateLimitDays: 0, type: 'FIXED' },
      fine: { value: 0, type: 'FIXED' },
      interest: { value: 0, type: 'PERCENTAGE' },
      ...(creditCard ? { creditCard } : {}),
      ...(body.split ? { split: body.split } : {}),
    };
    const stored = { account, subscription, successUrl };
    subscriptions.set(subscription.id, stored);
    const first = newInvoice(stored);
    const events = [() => sendSubscriptionEvent(subscription.id, 'SUBSCRIPTION_CREATED'), () => sendEvent(first.id, 'PAYMENT_CREATED')];
    // Asaas validates the card on creation and charges it on the invoice's due date: today, at once.
    if (creditCard && first.dueDate === today()) {
      settle(first);
      events.push(() => sendEvent(first.id, 'PAYMENT_CONFIRMED'));
    }
    return { subscription, events };
  }

  function subscriptionOf(account: FakeAsaasAccount | null, id: string): StoredSubscription {
    const stored = subscriptions.get(id);
    if (!stored || (account && stored.account !== account)) throw new AsaasFail(404, 'not_found', 'Assinatura não encontrada.');
    return stored;
  }

  /** DELETE /subscriptions/{id}: INACTIVE and deleted, its unpaid invoices removed; the events to send after the answer. */
  function deleteSubscription(account: FakeAsaasAccount, id: string): (() => Promise<unknown>)[] {
    const stored = subscriptionOf(account, id);
    const s = stored.subscription;
    if (s.deleted) throw new AsaasFail(404, 'not_found', 'Assinatura não encontrada.');
    s.deleted = true;
    s.status = 'INACTIVE';
    const removed = invoicesOf(id).filter(payable);
    for (const p of removed) p.deleted = true;
    return [...removed.map((p) => () => sendEvent(p.id, 'PAYMENT_DELETED')), () => sendSubscriptionEvent(id, 'SUBSCRIPTION_DELETED')];
  }

  async function nextCycle(id: string, o: { cardDeclined?: boolean } = {}): Promise<FakeAsaasPayment> {
    const stored = subscriptionOf(null, id);
    if (stored.subscription.deleted) throw new AsaasFail(400, 'invalid_action', 'Esta assinatura foi removida.');
    const invoice = newInvoice(stored);
    await sendEvent(invoice.id, 'PAYMENT_CREATED').catch((e: Error) => log(`webhook failed: ${e.message}`));
    if (invoice.billingType === 'CREDIT_CARD') {
      if (o.cardDeclined) {
        await sendEvent(invoice.id, 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED').catch((e: Error) => log(`webhook failed: ${e.message}`));
      } else {
        settle(invoice);
        await sendEvent(invoice.id, 'PAYMENT_CONFIRMED').catch((e: Error) => log(`webhook failed: ${e.message}`));
      }
    }
    return invoice;
  }

  async function markOverdue(id: string): Promise<FakeAsaasPayment[]> {
    const due = invoicesOf(subscriptionOf(null, id).subscription.id).filter((p) => p.status === 'PENDING' && !p.deleted);
    for (const p of due) {
      p.status = 'OVERDUE';
      await sendEvent(p.id, 'PAYMENT_OVERDUE').catch((e: Error) => log(`webhook failed: ${e.message}`));
    }
    return due;
  }

  /** Asaas's refund of a confirmed payment; the event to send once the answer is out. */
  function refundPayment(account: FakeAsaasAccount, id: string, body: Json): { payment: FakeAsaasPayment; event: string } {
    const stored = payments.get(id);
    if (!stored || stored.account !== account) throw new AsaasFail(404, 'not_found', 'Cobrança não encontrada.');
    const p = stored.payment;
    if (p.status !== 'CONFIRMED' && p.status !== 'RECEIVED') throw new AsaasFail(400, 'invalid_action', 'Só é possível estornar cobranças recebidas ou confirmadas.');
    if (p.billingType === 'BOLETO') throw new AsaasFail(400, 'invalid_action', 'Boletos pagos são estornados com os dados bancários do pagador, não por esta operação.');
    if (body.description !== undefined && body.description !== null && (typeof body.description !== 'string' || body.description.length > 500)) {
      throw new AsaasFail(400, 'invalid_description', 'A descrição do estorno deve ter no máximo 500 caracteres.');
    }
    const refunds = (p.refunds ?? []) as FakeAsaasRefund[];
    const leftCents = Math.round(Number(p.value) * 100) - refunds.reduce((sum, r) => sum + Math.round(r.value * 100), 0);
    const given = body.value;
    if (given !== undefined && given !== null && (typeof given !== 'number' || !(given > 0))) throw new AsaasFail(400, 'invalid_value', 'Informe um valor de estorno válido.');
    const cents = typeof given === 'number' ? Math.round(given * 100) : leftCents;
    if (cents > leftCents) throw new AsaasFail(400, 'invalid_value', `O valor do estorno não pode ser maior que ${brl(leftCents / 100)}.`);
    const refund: FakeAsaasRefund = { dateCreated: stamp(), status: 'DONE', value: cents / 100, description: (body.description as string | undefined) ?? null, transactionReceiptUrl: null };
    p.refunds = [...refunds, refund];
    const full = cents === leftCents;
    if (full) {
      p.status = 'REFUNDED';
      reverseSplits(p);
    }
    return { payment: p, event: full ? 'PAYMENT_REFUNDED' : 'PAYMENT_PARTIALLY_REFUNDED' };
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    const body = req.method === 'POST' || req.method === 'PUT' ? await readBody(req) : undefined;
    requests.push({ method: req.method ?? '', path, headers: { ...(req.headers as Record<string, string>) }, body });
    // "Recuperar WalletId" with a wallet account's own key (an affiliate's or co-producer's Asaas account).
    const ownWallet = splits.walletOfKey(String(req.headers['access_token'] ?? ''));
    if (ownWallet && req.method === 'GET' && /^\/api\/v3\/wallets\/?$/.test(path)) {
      return send(res, 200, { object: 'list', hasMore: false, totalCount: 1, limit: 10, offset: 0, data: [{ object: 'wallet', id: ownWallet }] });
    }
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
    const refund = /^POST \/payments\/([^/]+)\/refund$/.exec(route);
    if (refund) {
      const { payment, event } = refundPayment(account, refund[1]!, (body ?? {}) as Json);
      // Like Asaas: the answer first, the event a moment later.
      afterAnswer(res, [() => sendEvent(payment.id, event)]);
      return send(res, 200, payment);
    }
    const removal = /^DELETE \/payments\/([^/]+)$/.exec(route);
    if (removal) {
      const stored = payments.get(removal[1]!);
      if (!stored || stored.account !== account || stored.payment.deleted) throw new AsaasFail(404, 'not_found', 'Cobrança não encontrada.');
      if (!payable(stored.payment)) throw new AsaasFail(400, 'invalid_action', 'Só é possível remover cobranças aguardando pagamento ou vencidas.');
      stored.payment.deleted = true;
      afterAnswer(res, [() => sendEvent(stored.payment.id, 'PAYMENT_DELETED')]);
      return send(res, 200, { deleted: true, id: stored.payment.id });
    }
    const one = /^GET \/payments\/([^/]+)$/.exec(route);
    if (one) {
      const stored = payments.get(one[1]!);
      if (!stored || stored.account !== account) throw new AsaasFail(404, 'not_found', 'Cobrança não encontrada.');
      return send(res, 200, stored.payment);
    }
    if (route === 'POST /subscriptions') {
      const { subscription, events } = createSubscription(account, body as Json);
      afterAnswer(res, events);
      return send(res, 200, subscription);
    }
    const sub = /^(GET|DELETE) \/subscriptions\/([^/]+)(\/payments)?$/.exec(route);
    if (sub && sub[1] === 'GET' && !sub[3]) return send(res, 200, subscriptionOf(account, sub[2]!).subscription);
    if (sub && sub[1] === 'GET') {
      // Asaas's list: its invoices (not the removed ones), filtered by status, a page at a time.
      const status = u.searchParams.get('status');
      const all = invoicesOf(subscriptionOf(account, sub[2]!).subscription.id).filter((p) => !p.deleted && (!status || p.status === status));
      const offset = Math.max(0, Number(u.searchParams.get('offset')) || 0);
      const limit = Math.min(100, Math.max(1, Number(u.searchParams.get('limit')) || 10));
      const data = all.slice(offset, offset + limit);
      return send(res, 200, { object: 'list', hasMore: offset + data.length < all.length, totalCount: all.length, limit, offset, data });
    }
    if (sub && !sub[3]) {
      afterAnswer(res, deleteSubscription(account, sub[2]!));
      return send(res, 200, { deleted: true, id: sub[2] });
    }
    if (nfse.route(account, req.method ?? '', u, body, res, send)) return;
    throw new AsaasFail(404, 'not_found', 'Recurso não encontrado.');
  }

  /** Posts an event to the account's webhook with its token (or `o.token`); status 0 when it has none. */
  async function deliver(account: FakeAsaasAccount, event: string, payload: Json, about: string, o: { eventId?: string; token?: string | null }) {
    const eventId = o.eventId ?? `evt_${randomBytes(16).toString('hex')}&${++eventSeq}`;
    const { webhookUrl } = account;
    if (!webhookUrl) return { status: 0, eventId, body: '' };
    const token = o.token === undefined ? account.webhookToken : o.token;
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'Asaas_Hmlg/3.0', ...(token ? { 'asaas-access-token': token } : {}) },
      body: JSON.stringify({ id: eventId, event, dateCreated: stamp(), ...payload }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = await res.text();
    if (res.status !== 200) log(`webhook ${event} for ${about} answered ${res.status}: ${body.slice(0, 200)}`);
    return { status: res.status, eventId, body };
  }

  async function sendEvent(paymentId: string, event: string, o: { eventId?: string; token?: string | null } = {}) {
    const stored = payments.get(paymentId);
    if (!stored) throw new Error(`unknown payment ${paymentId}`);
    if (event === 'PAYMENT_REFUNDED') stored.payment.status = 'REFUNDED';
    const answer = await deliver(stored.account, event, { payment: { ...stored.payment } }, paymentId, o);
    // Once paid, each settled split's own event, as Asaas sends PAYMENT_SPLIT_DONE per split.
    if (event === 'PAYMENT_CONFIRMED' || event === 'PAYMENT_RECEIVED') {
      for (const split of (stored.payment.split ?? []) as Json[]) {
        if (split.status !== 'DONE' || splitsDone.has(String(split.id))) continue;
        splitsDone.add(String(split.id));
        await deliver(stored.account, 'PAYMENT_SPLIT_DONE', { payment: { ...stored.payment }, additionalInfo: { splitId: split.id } }, paymentId, {});
      }
    }
    return answer;
  }

  async function sendSubscriptionEvent(id: string, event: string, o: { eventId?: string; token?: string | null } = {}) {
    const stored = subscriptionOf(null, id);
    const s = stored.subscription;
    // In Asaas's subscription events (not its API answers) the dates come as dd/MM/yyyy.
    const br = (d: unknown) => String(d).split('-').reverse().join('/');
    return deliver(stored.account, event, { subscription: { ...s, dateCreated: br(s.dateCreated), nextDueDate: br(s.nextDueDate) } }, id, o);
  }

  const page = (title: string, main: string) => `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f6fb;margin:0;padding:24px;color:#1f2937}main{max-width:420px;margin:auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem}dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px}dt{color:#6b7280}button{width:100%;padding:12px;border:0;border-radius:8px;background:#0030b9;color:#fff;font-size:1rem;cursor:pointer;margin-top:8px}
button.secondary{background:#e5e7eb;color:#1f2937}ul{list-style:none;padding:0}li{border-top:1px solid #e5e7eb;padding:12px 0}</style></head>
<body><main><p>Asaas (simulado para testes)</p>${main}</main></body></html>`;

  function invoicePage(res: ServerResponse, stored: StoredPayment) {
    const p = stored.payment;
    const paid = p.status === 'CONFIRMED' || p.status === 'RECEIVED';
    const html = page(
      `Fatura ${String(p.invoiceNumber)}`,
      `<h1>Fatura ${esc(p.invoiceNumber)}</h1>
<dl><dt>Descrição</dt><dd>${esc(p.description)}</dd><dt>Valor</dt><dd>${esc(brl(p.value))}</dd>
${p.installment ? `<dt>Parcela</dt><dd>${esc(p.installmentNumber)} de ${esc([...payments.values()].filter((s) => s.payment.installment === p.installment).length)}</dd>` : ''}
${p.subscription ? `<dt>Vencimento</dt><dd>${esc(p.dueDate)}</dd><dt>Assinatura</dt><dd><a href="/s/${esc(p.subscription)}">${esc(p.subscription)}</a></dd>` : ''}
<dt>Forma de pagamento</dt><dd>${esc(METHOD_LABEL[String(p.billingType)] ?? p.billingType)}</dd>
<dt>Situação</dt><dd>${p.deleted ? 'Removida' : esc(STATUS_LABEL[p.status] ?? p.status)}</dd></dl>
${payable(p) ? `<form method="post" action="/i/${esc(p.id)}/pay"><button type="submit">Simular pagamento</button></form>` : ''}
${paid && stored.successUrl ? `<p><a href="${esc(stored.successUrl)}">Voltar para o site</a></p>` : ''}`,
    );
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  }

  function subscriptionPage(res: ServerResponse, stored: StoredSubscription) {
    const s = stored.subscription;
    const invoices = invoicesOf(s.id);
    const items = invoices
      .map(
        (p) => `<li><a href="/i/${esc(p.id)}">Fatura ${esc(p.invoiceNumber)}</a> — vence ${esc(p.dueDate)} — ${esc(brl(p.value))} — ${p.deleted ? 'Removida' : esc(STATUS_LABEL[p.status] ?? p.status)}
${payable(p) ? `<form method="post" action="/i/${esc(p.id)}/pay"><button type="submit">Simular pagamento</button></form>` : ''}</li>`,
      )
      .join('\n');
    const controls = s.deleted
      ? ''
      : `<form method="post" action="/s/${esc(s.id)}/next-cycle"><button type="submit" class="secondary">Avançar para o próximo ciclo</button></form>
${s.billingType === 'CREDIT_CARD' ? `<form method="post" action="/s/${esc(s.id)}/next-cycle?cartao=recusado"><button type="submit" class="secondary">Avançar com o cartão recusado</button></form>` : ''}
${invoices.some((p) => p.status === 'PENDING' && !p.deleted) ? `<form method="post" action="/s/${esc(s.id)}/overdue"><button type="submit" class="secondary">Simular vencimento</button></form>` : ''}`;
    const html = page(
      `Assinatura ${s.id}`,
      `<h1>Assinatura ${esc(s.description ?? s.id)}</h1>
<dl><dt>Valor</dt><dd>${esc(brl(s.value))} (${esc(CYCLE_LABEL[s.cycle] ?? s.cycle)})</dd>
<dt>Forma de pagamento</dt><dd>${esc(METHOD_LABEL[String(s.billingType)] ?? s.billingType)}</dd>
<dt>Situação</dt><dd>${s.deleted ? 'Removida' : s.status === 'ACTIVE' ? 'Ativa' : 'Inativa'}</dd>
${s.deleted ? '' : `<dt>Próximo vencimento</dt><dd>${esc(s.nextDueDate)}</dd>`}</dl>
<h2>Faturas</h2><ul>${items}</ul>${controls}
${stored.successUrl ? `<p><a href="${esc(stored.successUrl)}">Voltar para o site</a></p>` : ''}`,
    );
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  }

  async function pay(res: ServerResponse, stored: StoredPayment) {
    const p = stored.payment;
    // A card plan is charged at once: every installment is confirmed, each with its own event.
    const plan = p.installment && p.billingType === 'CREDIT_CARD' ? [...payments.values()].filter((s) => s.payment.installment === p.installment).map((s) => s.payment) : [p];
    for (const one of plan) {
      if (!payable(one)) continue;
      settle(one);
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
        const [pathname, query = ''] = path.split('?') as [string, string?];
        if (req.method === 'GET' && nfse.file(pathname, res)) return;
        if (req.method === 'POST' && pathname === '/nfse/controle') return send(res, 200, nfse.control((await readBody(req)) as Json));
        if (req.method === 'POST' && pathname === '/fake/wallets') {
          const given = ((await readBody(req)) ?? {}) as Json;
          const walletId = String(given.walletId ?? '');
          if (!/^[0-9a-f-]{36}$/i.test(walletId)) throw new AsaasFail(400, 'invalid_walletId', 'walletId inválido.');
          splits.addWallet(walletId, typeof given.apiKey === 'string' && given.apiKey ? given.apiKey : undefined);
          return send(res, 200, { walletId: walletId.toLowerCase() });
        }
        const invoice = /^\/(i|b)\/([^/]+)(\/pay)?$/.exec(pathname);
        const stored = invoice ? payments.get(invoice[2]!) : undefined;
        if (stored && req.method === 'GET' && !invoice![3]) return invoicePage(res, stored);
        if (stored && req.method === 'POST' && invoice![3]) return await pay(res, stored);
        const sub = /^\/s\/([^/]+)(\/next-cycle|\/overdue)?$/.exec(pathname);
        const subscription = sub ? subscriptions.get(sub[1]!) : undefined;
        if (subscription && req.method === 'GET' && !sub![2]) return subscriptionPage(res, subscription);
        if (subscription && req.method === 'POST' && sub![2]) {
          if (sub![2] === '/overdue') await markOverdue(subscription.subscription.id);
          else await nextCycle(subscription.subscription.id, { cardDeclined: new URLSearchParams(query).get('cartao') === 'recusado' });
          return void res.writeHead(303, { Location: `/s/${subscription.subscription.id}` }).end();
        }
        throw new AsaasFail(404, 'not_found', 'Recurso não encontrado.');
      } catch (e) {
        if (e instanceof AsaasFail || e instanceof InvoiceFail) return send(res, e.status, { errors: [{ code: e.code, description: e.description }] });
        if (e instanceof SplitFail) return send(res, 400, { errors: [{ code: e.code, description: e.description }] });
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
    subscription: (id) => subscriptions.get(id)?.subscription,
    subscriptionPayments: (id) => invoicesOf(id),
    nextCycle,
    markOverdue,
    idle,
    invoice: nfse.invoice,
    invoices: nfse.invoices,
    setFiscalInfo: nfse.setFiscalInfo,
    setInvoiceOutcome: nfse.setInvoiceOutcome,
    sendInvoiceEvent: nfse.sendInvoiceEvent,
    addWallet: splits.addWallet,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        pending = 0;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
