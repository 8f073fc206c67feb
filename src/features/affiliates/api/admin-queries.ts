// Afiliados (issue 43), the staff's side: the school's affiliates by status with their numbers
// (admin_affiliates) and the decision ("Aprovar", "Recusar", "Bloquear": decide_affiliate). docs/affiliates.md.
import type { DbClient, Page } from '@/platform/db';
import { Constants } from '@/types/database';

export const AFFILIATE_STATUSES = Constants.public.Checks.affiliates.status;
export type AffiliateStatus = (typeof AFFILIATE_STATUSES)[number];
export const AFFILIATES_PAGE_SIZE = 25;

export interface AdminAffiliate {
  id: string;
  name: string;
  email: string;
  code: string;
  status: AffiliateStatus;
  has_wallet: boolean;
  created_at: string;
  clicks: number;
  sales: number;
  pending: number;
  confirmed: number;
  available: number;
  reversed: number;
}

/** One page of the school's affiliates in one status, newest first, with how many there are. */
export async function fetchAdminAffiliates(
  client: DbClient,
  schoolId: string,
  status: AffiliateStatus,
  page: number,
): Promise<Page<AdminAffiliate>> {
  const { data, error } = await client.rpc('admin_affiliates', {
    p_school_id: schoolId,
    p_status: status,
    p_limit: AFFILIATES_PAGE_SIZE,
    p_offset: page * AFFILIATES_PAGE_SIZE,
  });
  if (error) throw error;
  const rows = data ?? []; // a function's columns are typed nullable
  return {
    total: Number(rows[0]?.total_count ?? 0),
    rows: rows.map((r) => ({
      id: r.id ?? '',
      name: r.name ?? '',
      email: r.email ?? '',
      code: r.code ?? '',
      status: r.status as AffiliateStatus,
      has_wallet: r.has_wallet === true,
      created_at: r.created_at ?? '',
      clicks: Number(r.clicks),
      sales: Number(r.sales),
      pending: Number(r.pending),
      confirmed: Number(r.confirmed),
      available: Number(r.available),
      reversed: Number(r.reversed),
    })),
  };
}

/** "Aprovar", "Recusar" or "Bloquear" an affiliate (staff of its school; never one's own). */
export async function decideAffiliate(
  client: DbClient,
  affiliateId: string,
  status: Exclude<AffiliateStatus, 'pending'>,
): Promise<void> {
  const { error } = await client.rpc('decide_affiliate', { p_affiliate_id: affiliateId, p_status: status });
  if (error) throw error;
}

/** One share of one sale (admin_commissions): the commissions CSV's row. */
export interface AdminCommission {
  created_at: string;
  course_title: string;
  buyer_name: string;
  payment_value: number;
  payment_status: string;
  kind: string;
  beneficiary: string;
  wallet_id: string;
  base: number;
  percent: number;
  value: number;
  status: string;
  split_status: string;
}

const COMMISSIONS_MAX_PAGE = 500;

/** Every share of the school's sales (the backend's pages of at most 500), newest first. */
export async function fetchAllAdminCommissions(client: DbClient, schoolId: string): Promise<AdminCommission[]> {
  const rows: AdminCommission[] = [];
  for (let page = 0; ; page++) {
    const { data, error } = await client.rpc('admin_commissions', {
      p_school_id: schoolId,
      p_limit: COMMISSIONS_MAX_PAGE,
      p_offset: page * COMMISSIONS_MAX_PAGE,
    });
    if (error) throw error;
    const batch = data ?? [];
    rows.push(
      ...batch.map((r) => ({
        created_at: r.created_at ?? '',
        course_title: r.course_title ?? '',
        buyer_name: r.buyer_name ?? '',
        payment_value: Number(r.payment_value),
        payment_status: r.payment_status ?? '',
        kind: r.kind ?? '',
        beneficiary: r.beneficiary ?? '',
        wallet_id: r.wallet_id ?? '',
        base: Number(r.base),
        percent: Number(r.percent),
        value: Number(r.value),
        status: r.status ?? '',
        split_status: r.split_status ?? '',
      })),
    );
    if (batch.length < COMMISSIONS_MAX_PAGE || rows.length >= Number(batch[0]?.total_count ?? 0)) return rows;
  }
}
