// Staff side of announcements (SPEC §2 "Announcements"): the school's list (priority desc, newest
// first), create/update/delete. Row-level security keeps staff to their own school.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { containsPattern, expectRows, pageRange, type DbClient, type Page } from '@/lib/db';
import { supabase } from '@/lib/supabase';
import type { Tables } from '@/types/database';
import { announcementKeys } from './hooks';
import type { AnnouncementVideoType } from './queries';
import { rootKeys } from '@/lib/query-keys';

export type AdminAnnouncement = Tables<'announcements'> & { video_type: AnnouncementVideoType };

export const ANNOUNCEMENTS_PAGE_SIZE = 20;

/** One page of the school's announcements (priority desc, newest first); `search` filters by title. */
export async function fetchSchoolAnnouncements(
  client: DbClient,
  schoolId: string,
  { search = '', page = 0, pageSize = ANNOUNCEMENTS_PAGE_SIZE }: { search?: string; page?: number; pageSize?: number } = {},
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

export const adminAnnouncementKeys = {
  all: rootKeys.adminAnnouncements,
  school: (id: string, search: string, page: number) => [...rootKeys.adminAnnouncements, id, search, page] as const,
};

export const schoolAnnouncementsQuery = (schoolId: string, search: string, page: number) =>
  queryOptions({
    queryKey: adminAnnouncementKeys.school(schoolId, search, page),
    queryFn: () => fetchSchoolAnnouncements(supabase, schoolId, { search, page }),
    placeholderData: keepPreviousData,
  });

/** One page of the Anúncios screen. */
export function useSchoolAnnouncements(schoolId: string, search: string, page: number) {
  return useQuery(schoolAnnouncementsQuery(schoolId, search, page));
}

export interface AnnouncementValues {
  title: string;
  body: string;
  image_url: string | null;
  video_url: string | null;
  video_type: AnnouncementVideoType;
  priority: number;
  is_active: boolean;
}

/** Refreshes the staff list and the students' popup and bell. */
export function useInvalidateAnnouncements() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: adminAnnouncementKeys.all });
    void queryClient.invalidateQueries({ queryKey: announcementKeys.all });
  };
}

/** Inserts or updates; returns the row id (an uploaded video is attached after the row exists). */
export async function saveAnnouncement(args: { id?: string; schoolId: string; instructorId: string; values: AnnouncementValues }): Promise<string> {
  const row = { ...args.values, title: args.values.title.trim() };
  const { data, error } = args.id
    ? await supabase.from('announcements').update(row).eq('id', args.id).select('id').single()
    : await supabase.from('announcements').insert({ ...row, school_id: args.schoolId, instructor_id: args.instructorId }).select('id').single();
  if (error) throw error;
  return data.id;
}

export function useDeleteAnnouncement() {
  const invalidate = useInvalidateAnnouncements();
  return useMutation({
    mutationFn: async (a: Pick<AdminAnnouncement, 'id' | 'video_type' | 'video_url'>) => {
      expectRows(await supabase.from('announcements').delete().eq('id', a.id).select('id'), 'Anúncio não encontrado ou sem permissão para excluí-lo');
      if (a.video_type === 'direct' && a.video_url) await supabase.storage.from('announcement-videos').remove([a.video_url]);
    },
    onSuccess: () => {
      invalidate();
      toast.success('Anúncio excluído!');
    },
    meta: { errorTitle: 'Erro ao excluir' },
  });
}
