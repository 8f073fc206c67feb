// Notas fiscais (issue 42): the school's setting and Asaas's fiscal check (the invoice-settings edge
// function), the invoices of Vendas (per sale, "Notas com erro", the period's totals, the month's CSV),
// "Emitir novamente", and the student's "Minhas compras". The API is docs/nota-fiscal.md's. Plain
// functions: tests and benches call them.
import type { DbClient, Page } from '@/platform/db';
import { invokeFunction } from '@/platform/functions';
import { Constants, type Tables } from '@/types/database';

export const INVOICE_STATUSES = Constants.public.Checks.invoices.status;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const ISSUE_ON = Constants.public.Checks.school_invoice_settings.issue_on;

// ── Configurações → "Notas fiscais" ─────────────────────────────────────────────────────────────

export type InvoiceSettings = Omit<
  Tables<'school_invoice_settings'>,
  'school_id' | 'created_at' | 'updated_at' | 'enabled_at'
>;
/** What the form writes: every column but the switch (only invoice-settings writes `enabled`). */
export type InvoiceSettingsWrite = Omit<InvoiceSettings, 'enabled' | 'municipal_service_code'>;

const SETTINGS_COLUMNS =
  'enabled, issue_on, guarantee_days, municipal_service_id, municipal_service_code, municipal_service_name, description_template, observations, iss_rate, retain_iss, cofins_rate, csll_rate, inss_rate, ir_rate, pis_rate';

/** No row: off, with the column defaults (docs/nota-fiscal.md). */
export const INVOICE_SETTINGS_DEFAULTS: InvoiceSettings = {
  enabled: false,
  issue_on: 'guarantee',
  guarantee_days: 7,
  municipal_service_id: null,
  municipal_service_code: null,
  municipal_service_name: null,
  description_template: 'Acesso ao curso online {curso}, adquirido por {comprador} em {data_pagamento}.',
  observations: null,
  iss_rate: 0,
  retain_iss: false,
  cofins_rate: 0,
  csll_rate: 0,
  inss_rate: 0,
  ir_rate: 0,
  pis_rate: 0,
};

const RATES = ['iss_rate', 'cofins_rate', 'csll_rate', 'inss_rate', 'ir_rate', 'pis_rate'] as const;
/** numeric columns may arrive as strings: numbers for the form. */
function toSettings(row: Record<string, unknown>): InvoiceSettings {
  const s = { ...INVOICE_SETTINGS_DEFAULTS, ...row } as InvoiceSettings;
  for (const r of RATES) s[r] = Number(s[r] ?? 0);
  s.guarantee_days = Number(s.guarantee_days);
  return s;
}

export async function fetchInvoiceSettings(client: DbClient, schoolId: string): Promise<InvoiceSettings> {
  const { data, error } = await client
    .from('school_invoice_settings')
    .select(SETTINGS_COLUMNS)
    .eq('school_id', schoolId)
    .maybeSingle();
  if (error) throw error;
  return data ? toSettings(data) : INVOICE_SETTINGS_DEFAULTS;
}

/** The school's row, made by the first save (upsert on school_id). */
export async function saveInvoiceSettings(
  client: DbClient,
  schoolId: string,
  settings: InvoiceSettingsWrite,
): Promise<InvoiceSettings> {
  const { data, error } = await client
    .from('school_invoice_settings')
    .upsert({ school_id: schoolId, ...settings }, { onConflict: 'school_id' })
    .select(SETTINGS_COLUMNS)
    .single();
  if (error) throw error;
  return toSettings(data);
}

/** One item the fiscal check finds missing: what (pt-BR) and where to fix it (pt-BR), shown as they are. */
export interface MissingFiscalItem {
  field: string;
  message: string;
  where: string;
}

export interface FiscalCheck {
  missing: MissingFiscalItem[];
  supports_cancellation: boolean | null;
}

export function checkFiscalInfo(schoolId: string): Promise<FiscalCheck> {
  return invokeFunction<FiscalCheck>('invoice-settings', { action: 'check', school_id: schoolId });
}

/** The switch: on is refused (409, with the list) while anything is missing. */
export function setInvoicesEnabled(
  schoolId: string,
  enabled: boolean,
): Promise<{ enabled: boolean; missing: MissingFiscalItem[] }> {
  return invokeFunction('invoice-settings', { action: 'enable', enabled, school_id: schoolId });
}

export interface MunicipalService {
  id: string;
  description: string;
  iss_tax: number | null;
}

/** Asaas's list of the municipality's services, searched by description. */
export function searchMunicipalServices(
  schoolId: string,
  q: string,
): Promise<{ services: MunicipalService[]; has_more: boolean }> {
  return invokeFunction('invoice-settings', { action: 'services', q, school_id: schoolId });
}

// ── Vendas ──────────────────────────────────────────────────────────────────────────────────────

export type SaleInvoice = Pick<
  Tables<'invoices'>,
  'payment_id' | 'status' | 'error_message' | 'number' | 'pdf_url' | 'issue_at'
>;

/** The invoice of each of the page's payments (a payment without a row has none). */
export async function fetchSaleInvoices(client: DbClient, paymentIds: string[]): Promise<SaleInvoice[]> {
  if (!paymentIds.length) return [];
  const { data, error } = await client
    .from('invoices')
    .select('payment_id, status, error_message, number, pdf_url, issue_at')
    .in('payment_id', paymentIds);
  if (error) throw error;
  return data;
}

export interface AdminInvoice {
  id: string;
  payment_id: string;
  status: InvoiceStatus;
  number: string | null;
  value: number;
  iss_rate: number | null;
  iss_value: number | null;
  error_message: string | null;
  pdf_url: string | null;
  xml_url: string | null;
  issue_at: string | null;
  authorized_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  buyer_name: string;
  buyer_email: string | null;
  buyer_cpf: string | null;
  course_title: string;
}

/** São Paulo dates (aaaa-mm-dd), both included; '' is open. */
export interface InvoicePeriod {
  from: string;
  to: string;
}

export const INVOICES_PAGE_SIZE = 25;
const INVOICES_MAX_PAGE = 500;
const orNull = (v: string) => v || null;
const numOrNull = (v: unknown) => (v == null ? null : Number(v));

function toAdminInvoice(r: Record<string, unknown>): AdminInvoice {
  return {
    id: String(r.id),
    payment_id: String(r.payment_id),
    status: r.status as InvoiceStatus,
    number: (r.number as string | null) ?? null,
    value: Number(r.value ?? 0),
    iss_rate: numOrNull(r.iss_rate),
    iss_value: numOrNull(r.iss_value),
    error_message: (r.error_message as string | null) ?? null,
    pdf_url: (r.pdf_url as string | null) ?? null,
    xml_url: (r.xml_url as string | null) ?? null,
    issue_at: (r.issue_at as string | null) ?? null,
    authorized_at: (r.authorized_at as string | null) ?? null,
    cancelled_at: (r.cancelled_at as string | null) ?? null,
    created_at: String(r.created_at),
    buyer_name: (r.buyer_name as string | null) ?? '',
    buyer_email: (r.buyer_email as string | null) ?? null,
    buyer_cpf: (r.buyer_cpf as string | null) ?? null,
    course_title: (r.course_title as string | null) ?? '',
  };
}

/** One page of the school's invoices of the period (and status), newest first, with the total. */
export async function fetchAdminInvoices(
  client: DbClient,
  {
    schoolId,
    status,
    period,
    page,
    pageSize = INVOICES_PAGE_SIZE,
  }: { schoolId: string; status: InvoiceStatus | ''; period: InvoicePeriod; page: number; pageSize?: number },
): Promise<Page<AdminInvoice>> {
  const { data, error } = await client.rpc('admin_invoices', {
    p_school_id: schoolId,
    p_status: orNull(status),
    p_from: orNull(period.from),
    p_to: orNull(period.to),
    p_limit: pageSize,
    p_offset: page * pageSize,
  });
  if (error) throw error;
  const rows = (data ?? []) as Record<string, unknown>[];
  return { total: rows.length ? Number(rows[0]!.total_count) : 0, rows: rows.map(toAdminInvoice) };
}

/** Every invoice of the period, for the accountant's CSV: pages of the function's maximum until the total. */
export async function fetchAllAdminInvoices(
  client: DbClient,
  { schoolId, period }: { schoolId: string; period: InvoicePeriod },
): Promise<AdminInvoice[]> {
  const rows: AdminInvoice[] = [];
  for (let page = 0; ; page++) {
    const batch = await fetchAdminInvoices(client, { schoolId, status: '', period, page, pageSize: INVOICES_MAX_PAGE });
    rows.push(...batch.rows);
    if (batch.rows.length < INVOICES_MAX_PAGE || rows.length >= batch.total) return rows;
  }
}

export interface InvoiceTotals {
  issued: number;
  issued_value: number;
  cancelled: number;
  errors: number;
  waiting: number;
  iss: number;
}

export async function fetchInvoiceTotals(
  client: DbClient,
  { schoolId, period }: { schoolId: string; period: InvoicePeriod },
): Promise<InvoiceTotals> {
  const { data, error } = await client.rpc('admin_invoice_totals', {
    p_school_id: schoolId,
    p_from: orNull(period.from),
    p_to: orNull(period.to),
  });
  if (error) throw error;
  const t = (data ?? {}) as Record<string, unknown>;
  return {
    issued: Number(t.issued ?? 0),
    issued_value: Number(t.issued_value ?? 0),
    cancelled: Number(t.cancelled ?? 0),
    errors: Number(t.errors ?? 0),
    waiting: Number(t.waiting ?? 0),
    iss: Number(t.iss ?? 0),
  };
}

/** "Emitir novamente": the invoice with an error is due again; the job issues it within a minute. */
export async function retryInvoice(client: DbClient, invoiceId: string): Promise<void> {
  const { error } = await client.rpc('retry_invoice', { p_invoice_id: invoiceId });
  if (error) throw error;
}

// ── Perfil → "Minhas compras" ───────────────────────────────────────────────────────────────────

export interface MyPurchase {
  payment_id: string;
  paid_at: string;
  value: number;
  billing_type: string;
  payment_status: string;
  items: { kind: string; title: string; course_id: string | null }[];
  invoice_status: InvoiceStatus | null;
  invoice_number: string | null;
  invoice_pdf_url: string | null;
  invoice_xml_url: string | null;
}

export const PURCHASES_PAGE_SIZE = 10;

export async function fetchMyPurchases(client: DbClient, page: number): Promise<Page<MyPurchase>> {
  const { data, error } = await client.rpc('my_purchases', {
    p_limit: PURCHASES_PAGE_SIZE,
    p_offset: page * PURCHASES_PAGE_SIZE,
  });
  if (error) throw error;
  const rows = data ?? [];
  return {
    total: rows.length ? Number(rows[0]!.total_count) : 0,
    rows: rows.map((r) => ({
      payment_id: String(r.payment_id),
      paid_at: String(r.paid_at),
      value: Number(r.value ?? 0),
      billing_type: r.billing_type ?? '',
      payment_status: r.payment_status ?? '',
      items: (r.items as MyPurchase['items'] | null) ?? [],
      invoice_status: (r.invoice_status as InvoiceStatus | null) ?? null,
      invoice_number: r.invoice_number,
      invoice_pdf_url: r.invoice_pdf_url,
      invoice_xml_url: r.invoice_xml_url,
    })),
  };
}
