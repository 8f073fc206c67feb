// Registro de atividades (issue 44, docs/privacy.md "Audit log"): what staff, the super admin, webhooks and
// payment events changed, written by the database's triggers and read through admin_audit_log (a school's
// admins their school, the super admin every school) and admin_audit_actors (the "Pessoa" filter).
// Plain functions: tests and benches call them.
import type { DbClient, Page } from '@/platform/db';
import { Constants } from '@/types/database';

export const AUDIT_ACTIONS = Constants.public.Checks.audit_log.action;
export const AUDIT_SOURCES = Constants.public.Checks.audit_log.source;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export type AuditSource = (typeof AUDIT_SOURCES)[number];

export interface AuditEntry {
  id: string;
  created_at: string;
  school_id: string | null;
  school_name: string | null;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  actor_role: string | null;
  actor_aal: string | null;
  source: AuditSource;
  source_name: string | null;
  table_name: string;
  row_id: string;
  row_label: string | null;
  action: AuditAction;
  /** The changed fields before (an update), every field (a delete), null (an insert). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The screen's filters; '' is "any". `from` / `to` are São Paulo dates (aaaa-mm-dd), both included. */
export interface AuditFilters {
  actorId: string;
  table: string;
  action: AuditAction | '';
  from: string;
  to: string;
}

export interface AuditActor {
  id: string;
  name: string;
  email: string | null;
}

export const AUDIT_PAGE_SIZE = 25;
/** The most rows admin_audit_log answers in one call (it caps p_limit at 500). */
const AUDIT_MAX_PAGE = 500;

const orNull = (v: string) => v || null;
const objectOrNull = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

function toEntry(r: Record<string, unknown>): AuditEntry {
  return {
    id: String(r.id),
    created_at: String(r.created_at),
    school_id: (r.school_id as string | null) ?? null,
    school_name: (r.school_name as string | null) ?? null,
    actor_id: (r.actor_id as string | null) ?? null,
    actor_name: (r.actor_name as string | null) ?? null,
    actor_email: (r.actor_email as string | null) ?? null,
    actor_role: (r.actor_role as string | null) ?? null,
    actor_aal: (r.actor_aal as string | null) ?? null,
    source: r.source as AuditSource,
    source_name: (r.source_name as string | null) ?? null,
    table_name: String(r.table_name),
    row_id: String(r.row_id),
    row_label: (r.row_label as string | null) ?? null,
    action: r.action as AuditAction,
    before: objectOrNull(r.before),
    after: objectOrNull(r.after),
  };
}

/**
 * One page of the log under the filters, newest first, with the filter's total. `schoolId` null: every
 * school (the super admin); a school admin's call with null reads their own school.
 */
export async function fetchAuditLog(
  client: DbClient,
  {
    schoolId,
    filters,
    page,
    pageSize = AUDIT_PAGE_SIZE,
  }: { schoolId: string | null; filters: AuditFilters; page: number; pageSize?: number },
): Promise<Page<AuditEntry>> {
  const { data, error } = await client.rpc('admin_audit_log', {
    p_school_id: schoolId,
    p_actor_id: orNull(filters.actorId),
    p_table: orNull(filters.table),
    p_action: orNull(filters.action),
    p_from: orNull(filters.from),
    p_to: orNull(filters.to),
    p_limit: pageSize,
    p_offset: page * pageSize,
  });
  if (error) throw error;
  const rows = (data ?? []) as Record<string, unknown>[];
  return { total: rows.length ? Number(rows[0]!.total_count) : 0, rows: rows.map(toEntry) };
}

/** Every entry of the filters, for the CSV export: pages of the function's maximum until the total. */
export async function fetchAllAuditLog(
  client: DbClient,
  { schoolId, filters }: { schoolId: string | null; filters: AuditFilters },
): Promise<AuditEntry[]> {
  const rows: AuditEntry[] = [];
  for (let page = 0; ; page++) {
    const batch = await fetchAuditLog(client, { schoolId, filters, page, pageSize: AUDIT_MAX_PAGE });
    rows.push(...batch.rows);
    if (batch.rows.length < AUDIT_MAX_PAGE || rows.length >= batch.total) return rows;
  }
}

/** The people who appear in the log (at most 500, by name), for the "Pessoa" filter. */
export async function fetchAuditActors(client: DbClient, schoolId: string | null): Promise<AuditActor[]> {
  // bounded: admin_audit_actors answers at most 500 people.
  const { data, error } = await client.rpc('admin_audit_actors', { p_school_id: schoolId });
  if (error) throw error;
  return (data ?? []).map((a) => ({
    id: String(a.actor_id),
    name: a.actor_name ?? a.actor_email ?? 'Conta removida',
    email: a.actor_email ?? null,
  }));
}
