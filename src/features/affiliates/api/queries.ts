// Afiliados (issue 43), the student's side: "Quero ser afiliado", the affiliate's own row and panel, and an
// affiliate link's click and attribution. The API is docs/affiliates.md's. Plain functions: tests and
// benches call them.
import type { DbClient } from '@/platform/db';
import { FunctionCallError, invokeFunction } from '@/platform/functions';
import type { Json, Tables } from '@/types/database';

type JsonObject = { [key: string]: Json | undefined };

export type Affiliate = Pick<Tables<'affiliates'>, 'id' | 'code' | 'status' | 'wallet_id' | 'wallet_validated_at'>;

/** One course of the affiliate's panel (only an approved affiliate has any). */
export type PanelCourse = {
  course_id: string;
  title: string;
  slug: string;
  commission_percent: number;
  cookie_days: number;
  materials_text: string | null;
  materials_links: { kind: 'image' | 'link'; title: string; url: string }[];
  clicks: number;
  sales: number;
  commissions: { pending: number; confirmed: number; available: number; reversed: number };
};

/** affiliate_panel's answer: the caller's affiliation (null: never applied), the school's slug for the links. */
export type AffiliatePanel = {
  affiliate: Affiliate | null;
  school_slug: string;
  from: string;
  to: string;
  courses: PanelCourse[];
};

/** The affiliate's panel for a period (São Paulo dates, inclusive; the backend's default: the last 30 days). */
export async function fetchAffiliatePanel(
  client: DbClient,
  period: { from?: string; to?: string } = {},
): Promise<AffiliatePanel> {
  const { data, error } = await client.rpc('affiliate_panel', { p_from: period.from ?? null, p_to: period.to ?? null });
  if (error) throw error;
  return data as JsonObject as AffiliatePanel; // affiliate_panel's jsonb (docs/affiliates.md)
}

/** Whether the account is an approved affiliate of its school (the account menu's "Painel do afiliado"). */
export async function fetchIsApprovedAffiliate(client: DbClient, userId: string): Promise<boolean> {
  const { data, error } = await client
    .from('affiliates')
    .select('status')
    .eq('user_id', userId)
    .eq('status', 'approved')
    .maybeSingle();
  if (error) throw error;
  return data !== null;
}

/** "Quero ser afiliado": the caller's affiliation (approved at once when the course's approval is automatic). */
export async function applyAsAffiliate(client: DbClient, courseId: string): Promise<Affiliate> {
  const { data, error } = await client.rpc('apply_as_affiliate', { p_course_id: courseId });
  if (error) throw error;
  return data as Affiliate; // the row; its status is one of the table's check
}

/** The link of a course, as the affiliate shares it: `/<escola>/c/<curso>?afiliado=<código>`. */
export function affiliateLink(origin: string, schoolSlug: string, courseSlug: string, code: string): string {
  return `${origin}/${encodeURIComponent(schoolSlug)}/c/${encodeURIComponent(courseSlug)}?afiliado=${code}`;
}

/** A course's id by its slug, in the signed-in account's school (RLS); null when not found. */
export async function fetchCourseIdBySlug(client: DbClient, slug: string): Promise<string | null> {
  const { data, error } = await client.from('courses').select('id').eq('slug', slug).maybeSingle();
  if (error) throw error;
  return data?.id ?? null;
}

/** Counts one visit of the link; true when counted (an unknown, refused or blocked code counts nothing). */
export async function recordAffiliateClick(client: DbClient, courseId: string, code: string): Promise<boolean> {
  const { data, error } = await client.rpc('record_affiliate_click', { p_course_id: courseId, p_code: code });
  if (error) throw error;
  return data;
}

/** Makes the kept code the account's attribution (the last click wins); true when attached. */
export async function attachAffiliateAttribution(client: DbClient, code: string, clickedAt: string): Promise<boolean> {
  const { data, error } = await client.rpc('attach_affiliate_attribution', { p_code: code, p_clicked_at: clickedAt });
  if (error) throw error;
  return data;
}

/** "Carteira Asaas": the affiliate-wallet function checks the wallet at Asaas with the affiliate's own key (then forgotten). */
export function saveAffiliateWallet(values: {
  wallet_id: string;
  asaas_api_key: string;
}): Promise<{ wallet_id: string }> {
  return invokeFunction('affiliate-wallet', values);
}

/** The field affiliate-wallet's refusal names (`wallet_id` or `asaas_api_key`), to show its message under it. */
export function walletErrorField(error: unknown): 'wallet_id' | 'asaas_api_key' | null {
  const field = error instanceof FunctionCallError ? error.body?.field : null;
  return field === 'wallet_id' || field === 'asaas_api_key' ? field : null;
}
