// "Compartilhamento suspeito" (issue 39, docs/video.md) as plain functions over a passed client: the
// school's accounts seen on more devices or networks in 7 days than its limits, a page per call of
// public.suspicious_sharing (rows + total), and "Encerrar sessões" (public.end_account_sessions).
// "Desativar conta" is the account operation of src/concepts/accounts.ts.
import type { DbClient, Page } from '@/platform/db';

export const SHARING_PAGE_SIZE = 24;

/**
 * Why a playback session ended: private.playback_sessions_end_reason_check (a private table, so not in
 * the generated types' Constants).
 */
export type SessionEndReason = 'ended' | 'taken_over' | 'replaced' | 'timed_out' | 'access_lost' | 'signed_out' | 'moved';

/** One player that started a protected lesson video, as the report shows it (never the address itself). */
export interface SharingSession {
  id: string;
  /** A short tag of the device's hash: equal tags, same device. */
  device: string;
  /** 'Chrome · Windows'. */
  browser: string;
  /** The address's network ('201.17.34.0/24'): the approximate place; null when the address was unknown. */
  network: string | null;
  lesson_id: string | null;
  lesson_title: string | null;
  started_at: string;
  last_heartbeat_at: string;
  ended_at: string | null;
  end_reason: SessionEndReason | null;
}

export interface SharingAccount {
  user_id: string;
  name: string;
  email: string | null;
  is_active: boolean;
  devices: number;
  networks: number;
  /** Sessions in the 7 days; `sessions` holds the latest 50 of them. */
  session_count: number;
  last_seen_at: string;
  sessions: SharingSession[];
}

export async function fetchSuspiciousSharing(client: DbClient, schoolId: string, page: number, pageSize = SHARING_PAGE_SIZE): Promise<Page<SharingAccount>> {
  const { data, error } = await client.rpc('suspicious_sharing', { p_school_id: schoolId, p_limit: pageSize, p_offset: page * pageSize });
  if (error) throw error;
  const rows = data ?? [];
  return {
    rows: rows.map(({ total_count: _total, ...r }) => ({ ...r, sessions: (r.sessions ?? []) as unknown[] }) as SharingAccount),
    total: rows.length ? Number(rows[0]!.total_count) : 0,
  };
}

/** Ends every playback session of the student and signs the account out everywhere; resolves to how many playback sessions ended. */
export async function endAccountSessions(client: DbClient, userId: string): Promise<number> {
  const { data, error } = await client.rpc('end_account_sessions', { p_user_id: userId });
  if (error) throw error;
  return data ?? 0;
}
