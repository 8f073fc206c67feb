// Recuperação (issue 41): the school's checkout sessions that did not end in a sale (abandoned checkouts,
// unpaid PIX and boletos) and the period's numbers, computed in the database (admin_checkout_sessions,
// admin_recovery_totals; docs/recovery.md), and the staff's two writes: a contact (WhatsApp or the copied
// link, which counts as a touch) and "Não contatar". Plain functions: tests and benches call them.
import type { DbClient, Page } from '@/platform/db';
import { Constants, type Tables } from '@/types/database';

export const SESSION_STAGES = Constants.public.Checks.checkout_sessions.stage;
export const SESSION_OUTCOMES = Constants.public.Checks.checkout_sessions.outcome;
export type SessionStage = (typeof SESSION_STAGES)[number];
export type SessionOutcome = (typeof SESSION_OUTCOMES)[number];

export interface CheckoutSession {
  id: string;
  opened_at: string;
  abandoned_at: string | null;
  ended_at: string | null;
  stage: SessionStage;
  outcome: SessionOutcome;
  buyer_name: string;
  buyer_email: string | null;
  buyer_phone: string | null;
  course_id: string | null;
  plan_id: string | null;
  /** What was on sale: a course, or a plan (an assinatura: no bump, no coupon); its name and its checkout's slug. */
  offer: { kind: 'course' | 'plan'; title: string; slug: string };
  with_bump: boolean;
  coupon_code: string | null;
  /** The checkout's total, then the charge's (R$). */
  value: number;
  paid_value: number | null;
  touches_sent: number;
  last_touch_at: string | null;
  staff_contacts: number;
  do_not_contact: boolean;
  recovered: boolean;
}

/** The screen's filters; '' is "any". `from` / `to` are São Paulo dates (aaaa-mm-dd), both included; `stage` is a stage or an outcome. */
export interface RecoveryFilters {
  stage: SessionStage | SessionOutcome | '';
  courseId: string;
  from: string;
  to: string;
}

export interface RecoveryTotals {
  abandoned: number;
  recovered: number;
  recovered_revenue: number;
  by_touch: { touch: number; sent: number; recovered: number; conversion: number | null }[];
  by_staff: { contacted: number; recovered: number };
}

export const RECOVERY_PAGE_SIZE = 25;
/** The most rows admin_checkout_sessions answers in one call (it caps p_limit at 500). */
const RECOVERY_MAX_PAGE = 500;

const orNull = (v: string) => v || null;

function toSession(r: Record<string, unknown>): CheckoutSession {
  return {
    id: String(r.id),
    opened_at: String(r.opened_at),
    abandoned_at: (r.abandoned_at as string | null) ?? null,
    ended_at: (r.ended_at as string | null) ?? null,
    stage: r.stage as SessionStage,
    outcome: r.outcome as SessionOutcome,
    buyer_name: (r.buyer_name as string | null) ?? '',
    buyer_email: (r.buyer_email as string | null) ?? null,
    buyer_phone: (r.buyer_phone as string | null) ?? null,
    course_id: (r.course_id as string | null) ?? null,
    plan_id: (r.plan_id as string | null) ?? null,
    offer: r.plan_id
      ? { kind: 'plan', title: (r.plan_name as string | null) ?? '', slug: (r.plan_slug as string | null) ?? '' }
      : { kind: 'course', title: (r.course_title as string | null) ?? '', slug: (r.course_slug as string | null) ?? '' },
    with_bump: !!r.with_bump,
    coupon_code: (r.coupon_code as string | null) ?? null,
    value: Number(r.value ?? 0),
    paid_value: r.paid_value == null ? null : Number(r.paid_value),
    touches_sent: Number(r.touches_sent ?? 0),
    last_touch_at: (r.last_touch_at as string | null) ?? null,
    staff_contacts: Number(r.staff_contacts ?? 0),
    do_not_contact: !!r.do_not_contact,
    recovered: !!r.recovered,
  };
}

/** One page of the school's checkout sessions under the filters, newest first, with the total of the filter. */
export async function fetchCheckoutSessions(
  client: DbClient,
  {
    schoolId,
    filters,
    page,
    pageSize = RECOVERY_PAGE_SIZE,
  }: { schoolId: string; filters: RecoveryFilters; page: number; pageSize?: number },
): Promise<Page<CheckoutSession>> {
  const { data, error } = await client.rpc('admin_checkout_sessions', {
    p_school_id: schoolId,
    p_from: orNull(filters.from),
    p_to: orNull(filters.to),
    p_course_id: orNull(filters.courseId),
    p_stage: orNull(filters.stage),
    p_limit: pageSize,
    p_offset: page * pageSize,
  });
  if (error) throw error;
  const rows = (data ?? []) as Record<string, unknown>[];
  return { total: rows.length ? Number(rows[0]!.total_count) : 0, rows: rows.map(toSession) };
}

/** Every session of the filters, for the CSV export: pages of the function's maximum until the total. */
export async function fetchAllCheckoutSessions(
  client: DbClient,
  { schoolId, filters }: { schoolId: string; filters: RecoveryFilters },
): Promise<CheckoutSession[]> {
  const rows: CheckoutSession[] = [];
  for (let page = 0; ; page++) {
    const batch = await fetchCheckoutSessions(client, { schoolId, filters, page, pageSize: RECOVERY_MAX_PAGE });
    rows.push(...batch.rows);
    if (batch.rows.length < RECOVERY_MAX_PAGE || rows.length >= batch.total) return rows;
  }
}

/** The period's numbers, over the sessions abandoned in it (the stage filter does not apply). */
export async function fetchRecoveryTotals(
  client: DbClient,
  { schoolId, filters }: { schoolId: string; filters: Pick<RecoveryFilters, 'courseId' | 'from' | 'to'> },
): Promise<RecoveryTotals> {
  const { data, error } = await client.rpc('admin_recovery_totals', {
    p_school_id: schoolId,
    p_from: orNull(filters.from),
    p_to: orNull(filters.to),
    p_course_id: orNull(filters.courseId),
  });
  if (error) throw error;
  const t = (data ?? {}) as Record<string, unknown>;
  const byTouch = (t.by_touch as Record<string, unknown>[] | null) ?? [];
  const byStaff = (t.by_staff as Record<string, unknown> | null) ?? {};
  return {
    abandoned: Number(t.abandoned ?? 0),
    recovered: Number(t.recovered ?? 0),
    recovered_revenue: Number(t.recovered_revenue ?? 0),
    by_touch: byTouch.map((b) => ({
      touch: Number(b.touch),
      sent: Number(b.sent ?? 0),
      recovered: Number(b.recovered ?? 0),
      conversion: b.conversion == null ? null : Number(b.conversion),
    })),
    by_staff: { contacted: Number(byStaff.contacted ?? 0), recovered: Number(byStaff.recovered ?? 0) },
  };
}

/** "Chamar no WhatsApp" / "Copiar link": the staff's contact, which counts as a touch of the session. */
export async function recordStaffContact(
  client: DbClient,
  { sessionId, channel }: { sessionId: string; channel: 'whatsapp' | 'link' },
): Promise<string> {
  const { data, error } = await client.rpc('record_checkout_staff_contact', {
    p_session_id: sessionId,
    p_channel: channel,
  });
  if (error) throw error;
  return data;
}

/** "Não contatar" (and back): the sequence stops for this session. */
export async function setDoNotContact(
  client: DbClient,
  { sessionId, doNotContact }: { sessionId: string; doNotContact: boolean },
): Promise<boolean> {
  const { data, error } = await client.rpc('set_checkout_do_not_contact', {
    p_session_id: sessionId,
    p_do_not_contact: doNotContact,
  });
  if (error) throw error;
  return data;
}

/** Configurações → Recuperação de vendas (school_recovery_settings). */
export type RecoverySettings = Pick<Tables<'school_recovery_settings'>, 'enabled' | 'delays_minutes' | 'coupon_percent'>;

/** No row: on, with the column defaults (a new school; docs/recovery.md). */
export const RECOVERY_SETTINGS_DEFAULTS: RecoverySettings = { enabled: true, delays_minutes: [60, 1440, 4320], coupon_percent: null };

export async function fetchRecoverySettings(client: DbClient, schoolId: string): Promise<RecoverySettings> {
  const { data, error } = await client.from('school_recovery_settings').select('enabled, delays_minutes, coupon_percent').eq('school_id', schoolId).maybeSingle();
  if (error) throw error;
  return data ? { ...data, coupon_percent: data.coupon_percent == null ? null : Number(data.coupon_percent) } : RECOVERY_SETTINGS_DEFAULTS;
}

/** The school's row, made by the first save (upsert on school_id); only the columns given change. */
export async function saveRecoverySettings(client: DbClient, schoolId: string, settings: Partial<RecoverySettings>): Promise<RecoverySettings> {
  const { data, error } = await client
    .from('school_recovery_settings')
    .upsert({ school_id: schoolId, ...settings }, { onConflict: 'school_id' })
    .select('enabled, delays_minutes, coupon_percent')
    .single();
  if (error) throw error;
  return { ...data, coupon_percent: data.coupon_percent == null ? null : Number(data.coupon_percent) };
}
