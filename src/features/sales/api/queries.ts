// Vendas (issue 24): the school's payments and their totals, computed in the database
// (public.admin_sales / admin_sales_totals, docs/selling.md), and "Reembolsar" through the
// refund-asaas-payment edge function. Money stays as the database computed it: the SPA only formats it.
// Plain functions: tests and benches call them.
import type { DbClient, Page } from '@/platform/db';
import { invokeFunction } from '@/platform/functions';
import { Constants, type Tables } from '@/types/database';

export const SALE_STATUSES = Constants.public.Checks.payments.status;
export const SALE_METHODS = Constants.public.Checks.payments.billing_type;
export type SaleStatus = (typeof SALE_STATUSES)[number];
export type SaleMethod = (typeof SALE_METHODS)[number];

export interface SaleItem {
  /** The course on sale, its order bump, or a subscription plan's invoice. */
  kind: Tables<'payment_items'>['kind'];
  course_id: string | null;
  title: string;
  value: number;
}

export interface Sale {
  id: string;
  created_at: string;
  paid_at: string | null;
  buyer_name: string;
  buyer_email: string | null;
  /** The course first, then the order bump (or the plan of a subscription's invoice). */
  items: SaleItem[];
  billing_type: SaleMethod;
  installment_count: number;
  status: SaleStatus;
  /** What was charged (R$). */
  value: number;
  /** The coupon's discount (R$). */
  discount: number;
  coupon_code: string | null;
  refund_requested_at: string | null;
  refund_reason: string | null;
  refunded_at: string | null;
}

/** The screen's filters; '' is "any". `from` / `to` are São Paulo dates (aaaa-mm-dd), both included. */
export interface SalesFilters {
  status: SaleStatus | '';
  method: SaleMethod | '';
  courseId: string;
  from: string;
  to: string;
}

export interface SalesTotalsBlock {
  count: number;
  gross: number;
  discounts: number;
  refunded: number;
  net: number;
}

export interface SalesTotals extends SalesTotalsBlock {
  by_method: (SalesTotalsBlock & { method: SaleMethod })[];
}

export const SALES_PAGE_SIZE = 25;
/** The most rows admin_sales answers in one call (it caps p_limit at 500). */
const SALES_MAX_PAGE = 500;

const orNull = (v: string) => v || null;

function toSale(r: Record<string, unknown>): Sale {
  return {
    id: String(r.id),
    created_at: String(r.created_at),
    paid_at: (r.paid_at as string | null) ?? null,
    buyer_name: (r.buyer_name as string | null) ?? '',
    buyer_email: (r.buyer_email as string | null) ?? null,
    items: ((r.items as SaleItem[] | null) ?? []).map((i) => ({ kind: i.kind, course_id: i.course_id, title: i.title, value: Number(i.value) })),
    billing_type: r.billing_type as SaleMethod,
    installment_count: Number(r.installment_count ?? 1),
    status: r.status as SaleStatus,
    value: Number(r.value),
    discount: Number(r.discount ?? 0),
    coupon_code: (r.coupon_code as string | null) ?? null,
    refund_requested_at: (r.refund_requested_at as string | null) ?? null,
    refund_reason: (r.refund_reason as string | null) ?? null,
    refunded_at: (r.refunded_at as string | null) ?? null,
  };
}

/** One page of the school's sales under the filters, newest first, with the total of the filter. */
export async function fetchSales(
  client: DbClient,
  { schoolId, filters, page, pageSize = SALES_PAGE_SIZE }: { schoolId: string; filters: SalesFilters; page: number; pageSize?: number },
): Promise<Page<Sale>> {
  const { data, error } = await client.rpc('admin_sales', {
    p_school_id: schoolId,
    p_status: orNull(filters.status),
    p_method: orNull(filters.method),
    p_course_id: orNull(filters.courseId),
    p_from: orNull(filters.from),
    p_to: orNull(filters.to),
    p_limit: pageSize,
    p_offset: page * pageSize,
  });
  if (error) throw error;
  const rows = (data ?? []) as Record<string, unknown>[];
  return { total: rows.length ? Number(rows[0]!.total_count) : 0, rows: rows.map(toSale) };
}

/** Every sale of the filters, for the CSV export: pages of the function's maximum until the total. */
export async function fetchAllSales(client: DbClient, { schoolId, filters }: { schoolId: string; filters: SalesFilters }): Promise<Sale[]> {
  const rows: Sale[] = [];
  for (let page = 0; ; page++) {
    const batch = await fetchSales(client, { schoolId, filters, page, pageSize: SALES_MAX_PAGE });
    rows.push(...batch.rows);
    if (batch.rows.length < SALES_MAX_PAGE || rows.length >= batch.total) return rows;
  }
}

function toBlock(b: Record<string, unknown>): SalesTotalsBlock {
  return { count: Number(b.count ?? 0), gross: Number(b.gross ?? 0), discounts: Number(b.discounts ?? 0), refunded: Number(b.refunded ?? 0), net: Number(b.net ?? 0) };
}

/** The totals of the paid sales under the filters (the status filter does not apply to totals). */
export async function fetchSalesTotals(client: DbClient, { schoolId, filters }: { schoolId: string; filters: SalesFilters }): Promise<SalesTotals> {
  const { data, error } = await client.rpc('admin_sales_totals', {
    p_school_id: schoolId,
    p_method: orNull(filters.method),
    p_course_id: orNull(filters.courseId),
    p_from: orNull(filters.from),
    p_to: orNull(filters.to),
  });
  if (error) throw error;
  const t = (data ?? {}) as Record<string, unknown>;
  const byMethod = (t.by_method as Record<string, unknown>[] | null) ?? [];
  return { ...toBlock(t), by_method: byMethod.map((m) => ({ method: m.method as SaleMethod, ...toBlock(m) })) };
}

export interface RefundResult {
  payment_id: string;
  refund_requested_at: string | null;
  asaas_status: string;
}

/** "Reembolsar": Asaas refunds the payment; access pauses when Asaas's refund event arrives. */
export function refundSale({ paymentId, reason }: { paymentId: string; reason: string }): Promise<RefundResult> {
  return invokeFunction<RefundResult>('refund-asaas-payment', { payment_id: paymentId, reason: reason.trim() || null });
}
