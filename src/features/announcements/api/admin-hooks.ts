// TanStack Query over the staff side of announcements (admin-queries.ts). Keys:
//   ['admin-announcements', schoolId, search, page]   one page of the Anúncios screen
// Every write also refreshes the students' popup and bell (announcementKeys.all).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import type { SendVideo } from '@/concepts/video-source';
import { announcementKeys } from './hooks';
import {
  deleteAnnouncement,
  fetchSchoolAnnouncements,
  saveAnnouncement,
  type AdminAnnouncement,
  type SaveAnnouncementInput,
} from './admin-queries';

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

/** Refreshes the staff list and the students' popup and bell. */
function useInvalidateAnnouncements() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminAnnouncementKeys.all }),
      queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
    ]);
}

/** Sends the new video file first (resumable, to announcement-videos/{school}/), then saves the row. */
export function useSaveAnnouncement() {
  const invalidate = useInvalidateAnnouncements();
  return useMutation({
    mutationFn: async ({ file, send, ...input }: SaveAnnouncementInput & { file: File | null; send: SendVideo }) => {
      const video_url = file ? await send('announcement-videos', input.schoolId, file) : input.values.video_url;
      return saveAnnouncement(supabase, { ...input, values: { ...input.values, video_url } });
    },
    meta: { errorTitle: 'Erro ao salvar anúncio' },
    onSuccess: (_id, { id }) => {
      toast.success(id ? 'Anúncio atualizado!' : 'Anúncio criado!');
      void invalidate();
    },
  });
}

export function useDeleteAnnouncement() {
  const invalidate = useInvalidateAnnouncements();
  return useMutation({
    mutationFn: (a: Pick<AdminAnnouncement, 'id' | 'video_type' | 'video_url'>) => deleteAnnouncement(supabase, a),
    meta: { errorTitle: 'Erro ao excluir' },
    onSuccess: () => {
      toast.success('Anúncio excluído!');
      void invalidate();
    },
  });
}
