// Staff side of announcements (SPEC §2 "Announcements") as plain functions over a typed client: the
// school's list (priority desc, newest first), create/update/delete. Row-level security keeps staff
// to their own school.
import { containsPattern, expectRows, pageRange, type DbClient, type Page } from '@/platform/db';
import type { Tables } from '@/types/database';
import type { AnnouncementVideoType } from './queries';

export type AdminAnnouncement = Tables<'announcements'> & { video_type: AnnouncementVideoType };

export const ANNOUNCEMENTS_PAGE_SIZE = 20;

/** One page of the school's announcements (priority desc, newest first); `search` filters by title. */
export async function fetchSchoolAnnouncements(
  client: DbClient,
  schoolId: string,
  {
    search = '',
    page = 0,
    pageSize = ANNOUNCEMENTS_PAGE_SIZE,
  }: { search?: string; page?: number; pageSize?: number } = {},
): Promise<Page<AdminAnnouncement>> {
  let query = client.from('announcements').select('*', { count: 'exact' }).eq('school_id', schoolId);
  if (search.trim()) query = query.ilike('title', containsPattern(search));
  const { data, error, count } = await query
    .order('priority', { ascending: false })
    .order('created_at', { ascending: false })
    .order('id')
    .range(...pageRange(page, pageSize));
  if (error) throw error;
  return { rows: (data ?? []) as AdminAnnouncement[], total: count ?? 0 };
}

export interface AnnouncementValues {
  title: string;
  body: string;
  image_url: string | null;
  video_url: string | null;
  video_type: AnnouncementVideoType;
  priority: number;
  is_active: boolean;
  /** A turma's announcement (issue 40; its course follows the turma), or null for the whole school. */
  turma_id: string | null;
  /** "Enviar também por e-mail": once to each of the turma's students (20261128008001); false without a turma. */
  email_students: boolean;
}

/** Inserts or updates; returns the row id (an uploaded video is attached after the row exists). */
export interface SaveAnnouncementInput {
  id?: string;
  schoolId: string;
  instructorId: string;
  values: AnnouncementValues;
}

export async function saveAnnouncement(client: DbClient, args: SaveAnnouncementInput): Promise<string> {
  const row = { ...args.values, title: args.values.title.trim() };
  const { data, error } = args.id
    ? await client.from('announcements').update(row).eq('id', args.id).select('id').single()
    : await client
        .from('announcements')
        .insert({ ...row, school_id: args.schoolId, instructor_id: args.instructorId })
        .select('id')
        .single();
  if (error) throw error;
  return data.id;
}

/** Deletes the announcement (refused in pt-BR when RLS hides it), then its uploaded video. */
export async function deleteAnnouncement(
  client: DbClient,
  a: Pick<AdminAnnouncement, 'id' | 'video_type' | 'video_url'>,
): Promise<void> {
  expectRows(
    await client.from('announcements').delete().eq('id', a.id).select('id'),
    'Anúncio não encontrado ou sem permissão para excluí-lo',
  );
  if (a.video_type === 'direct' && a.video_url) await client.storage.from('announcement-videos').remove([a.video_url]);
}
