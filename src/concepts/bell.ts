// The header bell's one request (issue 26, docs/discussions.md "The bell's one request"): the school
// with its active announcements, the account's latest notifications and their unread count. Shared by
// features/announcements (the bell's "Comunicados" and the home's popup) and features/notifications
// (the bell's notifications and their writes), which may not import each other.
// Key: ['announcements', 'active', schoolId, userId] — under the announcements root, so a staff write
// of an announcement (announcementKeys.all) refreshes it, as before.
// Plain (no React, no client of its own: the benches call fetchBell from node); the hook is use-bell.ts.
import type { DbClient } from '@/platform/db';
import { rootKeys } from '@/platform/query-keys';
import type { Tables } from '@/types/database';

export type BellAnnouncement = Pick<
  Tables<'announcements'>,
  'id' | 'school_id' | 'course_id' | 'title' | 'body' | 'image_url' | 'video_url' | 'video_type' | 'priority' | 'created_at'
>;

export type BellNotification = Pick<
  Tables<'notifications'>,
  'id' | 'kind' | 'comment_id' | 'lesson_id' | 'course_id' | 'lesson_title' | 'actor_name' | 'excerpt' | 'created_at' | 'read_at'
>;

export interface BellFeed {
  announcements: BellAnnouncement[];
  /** The latest 30, newest first. */
  notifications: BellNotification[];
  /** Exact, over all of the account's notifications at this school. */
  unread: number;
}

export const BELL_NOTIFICATIONS_LIMIT = 30;

export async function fetchBell(client: DbClient, schoolId: string): Promise<BellFeed> {
  const { data, error } = await client
    .from('schools')
    .select(
      'id, announcements(id, school_id, course_id, title, body, image_url, video_url, video_type, priority, created_at), notifications(id, kind, comment_id, lesson_id, course_id, lesson_title, actor_name, excerpt, created_at, read_at), unread:notifications(count)',
    )
    .eq('id', schoolId)
    .eq('announcements.is_active', true)
    .is('unread.read_at', null)
    .order('priority', { referencedTable: 'announcements', ascending: false })
    .order('created_at', { referencedTable: 'announcements', ascending: false })
    .order('id', { referencedTable: 'announcements' })
    .order('created_at', { referencedTable: 'notifications', ascending: false })
    // bounded: the bell shows the latest ones; the unread count is exact (unread).
    .limit(50, { referencedTable: 'announcements' })
    .limit(BELL_NOTIFICATIONS_LIMIT, { referencedTable: 'notifications' }) // bounded: the latest 30, as above
    .single();
  if (error) throw error;
  const row: { announcements: BellAnnouncement[] | null; notifications: BellNotification[] | null; unread: { count: number }[] | null } = data;
  return { announcements: row.announcements ?? [], notifications: row.notifications ?? [], unread: row.unread?.[0]?.count ?? 0 };
}

export const bellKeys = {
  all: rootKeys.announcements,
  /** Every account's feed (the prefix a notification write updates and refreshes). */
  feeds: [...rootKeys.announcements, 'active'] as const,
  feed: (schoolId: string, userId: string) => [...rootKeys.announcements, 'active', schoolId, userId] as const,
};
