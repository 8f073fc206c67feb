// Active announcements of the student's school, highest priority first, newest first among equals
// (SPEC §2/§7). They come in the header bell's one request (src/concepts/bell.ts, issue 26), which serves
// both the home popup (the first one) and the bell (all).
import type { DbClient } from '@/platform/db';
import type { BellAnnouncement } from '@/concepts/bell';
import type { Tables } from '@/types/database';

export type AnnouncementVideoType = Tables<'announcements'>['video_type'];

export type Announcement = BellAnnouncement;

/** Signed URL of an uploaded announcement video (private bucket announcement-videos). */
export async function signAnnouncementVideo(client: DbClient, path: string, expiresIn = 30 * 60): Promise<string> {
  const { data, error } = await client.storage.from('announcement-videos').createSignedUrl(path, expiresIn);
  if (error) throw error;
  return data.signedUrl;
}
