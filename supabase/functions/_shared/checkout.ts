// What the functions that take money share (create-asaas-charge, create-asaas-subscription,
// cancel-asaas-subscription, refund-asaas-payment): the buyer's fields and card as Asaas wants them, with
// SPEC §5's pt-BR messages; the school's active Asaas integration; and Asaas's refusals turned into answers.
// Card data is validated and handed back to be passed to Asaas: never stored, never logged.
import { AsaasClient, AsaasError, asaasBaseUrl, type AsaasEnvironment } from './asaas.ts';
import { HttpError } from './http.ts';
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { digits, isEmail, optionalCpf } from './validate.ts';

export const BILLING_TYPES = ['PIX', 'BOLETO', 'CREDIT_CARD'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

type Body = Record<string, unknown>;

export function billingTypeOf(body: Body): BillingType {
  const v = body.billing_type as BillingType;
  if (!BILLING_TYPES.includes(v)) throw new HttpError(400, 'Forma de pagamento inválida', { field: 'billing_type' });
  return v;
}

export function objectField(body: Body, field: string): Body {
  const v = body[field];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Body) : {};
}

/** A required text inside a nested object; `message` is the SPEC §5 message of the group. */
function text(obj: Body, field: string, path: string, message: string, max = 200): string {
  const v = obj[field];
  if (typeof v !== 'string' && typeof v !== 'number') throw new HttpError(400, message, { field: path });
  const s = String(v).trim();
  if (!s) throw new HttpError(400, message, { field: path });
  if (s.length > max) throw new HttpError(400, 'Campo muito longo', { field: path });
  return s;
}

/** CPF (11 digits, check digits verified) or CNPJ (14 digits) as digits only. */
function cpfCnpj(obj: Body, field: string, path: string): string {
  const d = digits(text(obj, field, path, 'Campos obrigatórios', 20));
  if (d.length === 14) return d;
  try {
    return digits(optionalCpf({ cpf: d }));
  } catch {
    throw new HttpError(400, 'CPF inválido', { field: path });
  }
}

function phone(obj: Body, field: string, path: string): string {
  const d = digits(text(obj, field, path, 'Campos obrigatórios', 30));
  if (d.length < 10 || d.length > 13) throw new HttpError(400, 'Telefone inválido', { field: path });
  return d;
}

function email(obj: Body, field: string, path: string): string {
  const v = text(obj, field, path, 'Campos obrigatórios', 254).toLowerCase();
  if (!isEmail(v)) throw new HttpError(400, 'E-mail inválido', { field: path });
  return v;
}

export interface Customer {
  name: string;
  email: string;
  cpfCnpj: string;
  phone: string;
}

/** body.customer: who pays, as Asaas's customer is found or created. */
export function customerOf(body: Body): Customer {
  const c = objectField(body, 'customer');
  return {
    name: text(c, 'name', 'customer.name', 'Campos obrigatórios'),
    email: email(c, 'email', 'customer.email'),
    cpfCnpj: cpfCnpj(c, 'cpfCnpj', 'customer.cpfCnpj'),
    phone: phone(c, 'phone', 'customer.phone'),
  };
}

export interface CardData {
  creditCard: { holderName: string; number: string; expiryMonth: string; expiryYear: string; ccv: string };
  creditCardHolderInfo: { name: string; email: string; cpfCnpj: string; postalCode: string; addressNumber: string; phone: string };
}

/** body.creditCard and body.creditCardHolderInfo, checked and normalized, as Asaas's request takes them. */
export function cardOf(body: Body): CardData {
  const card = objectField(body, 'creditCard');
  const holder = objectField(body, 'creditCardHolderInfo');
  const msg = 'Dados do cartão obrigatórios';
  const creditCard = {
    holderName: text(card, 'holderName', 'creditCard.holderName', msg),
    number: digits(text(card, 'number', 'creditCard.number', msg, 30)),
    expiryMonth: text(card, 'expiryMonth', 'creditCard.expiryMonth', msg, 10),
    expiryYear: text(card, 'expiryYear', 'creditCard.expiryYear', msg, 10),
    ccv: text(card, 'ccv', 'creditCard.ccv', msg, 10),
  };
  if (creditCard.number.length < 13 || creditCard.number.length > 19) throw new HttpError(400, 'Número do cartão inválido', { field: 'creditCard.number' });
  const month = Number(creditCard.expiryMonth);
  if (!/^\d{1,2}$/.test(creditCard.expiryMonth) || month < 1 || month > 12) throw new HttpError(400, 'Mês de validade inválido', { field: 'creditCard.expiryMonth' });
  if (!/^(\d{2}|\d{4})$/.test(creditCard.expiryYear)) throw new HttpError(400, 'Ano de validade inválido', { field: 'creditCard.expiryYear' });
  if (!/^\d{3,4}$/.test(creditCard.ccv)) throw new HttpError(400, 'CVV inválido', { field: 'creditCard.ccv' });
  const creditCardHolderInfo = {
    name: text(holder, 'name', 'creditCardHolderInfo.name', msg),
    email: email(holder, 'email', 'creditCardHolderInfo.email'),
    cpfCnpj: cpfCnpj(holder, 'cpfCnpj', 'creditCardHolderInfo.cpfCnpj'),
    postalCode: digits(text(holder, 'postalCode', 'creditCardHolderInfo.postalCode', msg, 10)),
    addressNumber: text(holder, 'addressNumber', 'creditCardHolderInfo.addressNumber', msg, 20),
    phone: phone(holder, 'phone', 'creditCardHolderInfo.phone'),
  };
  if (creditCardHolderInfo.postalCode.length !== 8) throw new HttpError(400, 'CEP inválido', { field: 'creditCardHolderInfo.postalCode' });
  return { creditCard, creditCardHolderInfo };
}

export interface SchoolAsaas {
  integrationId: string;
  environment: AsaasEnvironment;
  asaas: AsaasClient;
}

/** The school's active Asaas integration and a client with its key; 503 when the school has none. */
export async function schoolAsaas(admin: SupabaseClient, schoolId: string): Promise<SchoolAsaas> {
  const { data: integration } = await admin.rpc('get_integration_secret', { p_school_id: schoolId, p_provider: 'asaas' }).maybeSingle<{
    integration_id: string;
    environment: AsaasEnvironment;
    api_key: string;
  }>();
  if (!integration) throw new HttpError(503, 'Esta escola ainda não configurou pagamentos online');
  return { integrationId: integration.integration_id, environment: integration.environment, asaas: new AsaasClient(asaasBaseUrl(integration.environment), integration.api_key) };
}

/**
 * Asaas's refusal as our answer: its own words help the payer (a refused card, an invalid CPF) with 400;
 * anything else is ours to fix (502). `what` names the operation in the log, which never holds card data.
 */
export function asaasFailure(e: unknown, what: string): never {
  if (e instanceof AsaasError) {
    console.error(`asaas refused ${what}: status ${e.status} code ${e.code ?? '-'}`);
    if (e.status === 400 && e.description) throw new HttpError(400, e.description);
    throw new HttpError(502, 'Não foi possível falar com o Asaas. Tente novamente mais tarde.');
  }
  throw e;
}
