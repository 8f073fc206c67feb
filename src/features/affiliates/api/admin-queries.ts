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
