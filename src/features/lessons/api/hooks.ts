// TanStack Query over the lesson player's reads and writes. Keys:
//   ['lessons', 'bundle', lessonId, userId]    content, video URL, materials, my rating
//   ['lessons', 'video-url', path]             signed URL of an uploaded video
// A rating patches the bundle entry (no refetch). The discussion is features/discussions.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { queryClient } from '@/platform/query-client';
import { supabase } from '@/platform/supabase';
import { downloadBlob } from '@/utils/download';
import { fetchLessonBundle, openMaterialFile, rateLesson, signLessonVideo, type LessonBundle, type MaterialType } from './queries';
import { isStoragePath, VIDEO_URL_TTL_SEC } from './lesson-urls';
import { rootKeys } from '@/platform/query-keys';

export const lessonKeys = {
  all: rootKeys.lessons,
  bundles: () => [...lessonKeys.all, 'bundle'] as const,
  bundle: (lessonId: string, userId: string) => [...lessonKeys.bundles(), lessonId, userId] as const,
  videoUrl: (path: string) => [...lessonKeys.all, 'video-url', path] as const,
};

export const lessonBundleQuery = (lessonId: string, userId: string) =>
  queryOptions({
    queryKey: lessonKeys.bundle(lessonId, userId),
    queryFn: async () => {
      const bundle = await fetchLessonBundle(supabase, { lessonId, userId });
      // An uploaded file (a Storage path, not a YouTube/Vimeo URL nor the video host's): sign it as soon
      // as the lesson data arrives, without waiting for the player to render and ask (useSignedVideoUrl finds it).
      const path = bundle?.contents?.video_url;
      if (isStoragePath(path)) void queryClient.prefetchQuery(signedVideoUrlQuery(path));
      return bundle;
    },
  });

const signedVideoUrlQuery = (path: string) =>
  queryOptions({
    queryKey: lessonKeys.videoUrl(path),
    queryFn: () => signLessonVideo(supabase, path, VIDEO_URL_TTL_SEC),
    staleTime: (VIDEO_URL_TTL_SEC - 5 * 60) * 1000,
    gcTime: (VIDEO_URL_TTL_SEC - 5 * 60) * 1000,
    retry: false,
  });

export function useLessonBundle(lessonId: string, userId: string | null | undefined) {
  return useQuery({ ...lessonBundleQuery(lessonId, userId ?? ''), enabled: !!lessonId && !!userId });
}

export function useSignedVideoUrl(path: string | null) {
  return useQuery({ ...signedVideoUrlQuery(path ?? ''), enabled: !!path, refetchOnMount: false });
}

export function useRateLesson(lessonId: string, userId: string | null | undefined) {
  const queryClient = useQueryClient();
  const key = lessonKeys.bundle(lessonId, userId ?? '');
  return useMutation({
    mutationFn: (rating: number) => rateLesson(supabase, { userId: userId!, lessonId, rating }),
    onMutate: async (rating) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<LessonBundle | null>(key);
      queryClient.setQueryData<LessonBundle | null>(key, (old) => (old ? { ...old, myRating: rating } : old));
      return { previous };
    },
    meta: { errorTitle: 'Erro ao enviar avaliação' },
    onError: (_error, _rating, context) => {
      if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: () => toast.success('Avaliação enviada!'),
  });
}

/** Opens a material file: a PDF is saved stamped with the student's name (issue 39), any other file
 * opens through a short-lived signed URL in the tab opened during the click. */
export function useOpenMaterial() {
  return useMutation({
    mutationFn: async ({ material, tab }: { material: { file_path: string; type: MaterialType }; tab: Window | null }) => ({
      opened: await openMaterialFile(supabase, material),
      tab,
    }),
    onSuccess: ({ opened, tab }) => {
      if ('file' in opened) {
        tab?.close();
        downloadBlob(opened.name, opened.file);
      } else if (tab && !tab.closed) tab.location.href = opened.url;
      else window.open(opened.url, '_blank', 'noopener');
    },
    meta: { errorTitle: 'Erro ao abrir material' },
    onError: (_error, { tab }) => {
      tab?.close();
    },
  });
}
