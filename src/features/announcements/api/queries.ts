// Active announcements of the student's school, highest priority first, newest first among equals
// (SPEC §2/§7). One request serves both the home popup (the first one) and the header bell (all).
import type { DbClient } from '@/lib/db';
import type { Tables } from '@/types/database';

export type AnnouncementVideoType = Tables<'announcements'>['video_type'];

export type Announcement = Pick<
  Tables<'announcements'>,
  'id' | 'school_id' | 'course_id' | 'title' | 'body' | 'image_url' | 'video_url' | 'priority' | 'created_at'
> & { video_type: AnnouncementVideoType };

export const ANNOUNCEMENT_COLUMNS = 'id, school_id, course_id, title, body, image_url, video_url, video_type, priority, created_at';

export async function fetchActiveAnnouncements(client: DbClient, schoolId: string): Promise<Announcement[]> {
  const { data, error } = await client
    .from('announcements')
    .select(ANNOUNCEMENT_COLUMNS)
    .eq('school_id', schoolId)
    .eq('is_active', true)
    .order('priority', { ascending: false })
    .order('created_at', { ascending: false })
    .order('id')
    // bounded: the bell and the popup show the latest active announcements, not a list to page through.
    .limit(50);
  if (error) throw error;
  return (data ?? []) as Announcement[];
}

/** Signed URL of an uploaded announcement video (private bucket announcement-videos). */
export async function signAnnouncementVideo(client: DbClient, path: string, expiresIn = 30 * 60): Promise<string> {
  const { data, error } = await client.storage.from('announcement-videos').createSignedUrl(path, expiresIn);
  if (error) throw error;
  return data.signedUrl;
}
