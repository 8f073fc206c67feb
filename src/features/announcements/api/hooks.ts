// Key factory: ['announcements', 'active', schoolId] and ['announcements', 'video-url', path].
import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { fetchActiveAnnouncements, signAnnouncementVideo } from './queries';
import { rootKeys } from '@/lib/query-keys';

export const announcementKeys = {
  all: rootKeys.announcements,
  active: (schoolId: string) => [...announcementKeys.all, 'active', schoolId] as const,
  videoUrl: (path: string) => [...announcementKeys.all, 'video-url', path] as const,
};

export const activeAnnouncementsQuery = (schoolId: string) =>
  queryOptions({
    queryKey: announcementKeys.active(schoolId),
    queryFn: () => fetchActiveAnnouncements(supabase, schoolId),
    staleTime: 5 * 60_000,
  });

export function useActiveAnnouncements(schoolId: string | null | undefined) {
  return useQuery({ ...activeAnnouncementsQuery(schoolId ?? ''), enabled: !!schoolId });
}

export function useAnnouncementVideoUrl(path: string | null) {
  return useQuery({
    queryKey: announcementKeys.videoUrl(path ?? ''),
    queryFn: () => signAnnouncementVideo(supabase, path!),
    enabled: !!path,
    staleTime: 20 * 60_000,
    gcTime: 20 * 60_000,
    retry: false,
  });
}
