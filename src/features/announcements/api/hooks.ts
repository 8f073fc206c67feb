// Key factory: ['announcements', 'active', schoolId, userId] (the bell's request, src/concepts/bell.ts) and
// ['announcements', 'video-url', path].
import { useQuery } from '@tanstack/react-query';
import { supabase } from '@/platform/supabase';
import type { BellFeed } from '@/concepts/bell';
import { useBell } from '@/concepts/use-bell';
import { signAnnouncementVideo } from './queries';
import { rootKeys } from '@/platform/query-keys';

export const announcementKeys = {
  all: rootKeys.announcements,
  videoUrl: (path: string) => [...announcementKeys.all, 'video-url', path] as const,
};

const announcementsOf = (feed: BellFeed) => feed.announcements;

/** The school's active announcements, from the bell's one request. */
export function useActiveAnnouncements(schoolId: string | null | undefined) {
  return useBell(schoolId, announcementsOf);
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
