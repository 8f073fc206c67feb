// TanStack Query over the content editor (queries.ts). Keys:
//   ['course-content', 'course', courseId]   the outline of modules and lessons
//   ['course-content', 'lesson', lessonId]   a lesson with its contents (lesson dialog)
//   ['course-content', 'lesson-video', lessonId]   its video at the video host, polled while processing
//   ['course-content', 'course-videos', courseId]  the course's hosted videos (the outline's badges), polled too
//   ['video-host']                           whether lesson videos go to the video host or to Storage (a root of
//                                            its own: the editor's writes, which refresh course-content, never change it)
// Every write refreshes the editor and the student pages' cached course data.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import type { VideoSource } from '@/concepts/video-source';
import { storePublicImage } from '@/platform/storage';
import { captureVideoPoster } from '../lib/video-poster';
import {
  attachUploadedVideo,
  fetchCourseLessonVideos,
  fetchLessonVideo,
  fetchVideoHostAvailable,
  requestHostedUpload,
  setLessonPoster,
  deleteContent,
  fetchCourseContent,
  fetchLessonForEdit,
  reorderCourseContent,
  saveLesson,
  saveModule,
  type EditorModule,
  type ModuleValues,
  type SaveLessonInput,
} from './queries';

export type { LessonValues, ModuleValues } from './queries';

export const contentKeys = {
  all: rootKeys.courseContent,
  course: (courseId: string) => [...rootKeys.courseContent, 'course', courseId] as const,
  lesson: (lessonId: string) => [...rootKeys.courseContent, 'lesson', lessonId] as const,
  lessonVideo: (lessonId: string) => [...rootKeys.courseContent, 'lesson-video', lessonId] as const,
  courseVideos: (courseId: string) => [...rootKeys.courseContent, 'course-videos', courseId] as const,
  videoHost: rootKeys.videoHost,
};

/**
 * How often the editor reads hosted videos while one waits for its file or is processed. Only the host's
 * webhooks move a video's row, and Bunny sends one per stage (upload finished, encoding, each resolution):
 * the percent shown is the one of the last stage.
 */
export const LESSON_VIDEO_POLL_MS = 3000;
const unsettled = (status: string | undefined) => status === 'waiting' || status === 'processing';

export const courseContentQuery = (courseId: string) =>
  queryOptions({ queryKey: contentKeys.course(courseId), queryFn: () => fetchCourseContent(supabase, courseId) });

export function useCourseContent(courseId: string) {
  return useQuery(courseContentQuery(courseId));
}

export function useLessonForEdit(lessonId: string | null) {
  return useQuery({
    queryKey: contentKeys.lesson(lessonId ?? ''),
    queryFn: () => fetchLessonForEdit(supabase, lessonId!),
    enabled: !!lessonId,
  });
}

/** Refreshes the editor and the student pages' cached course data after a change. */
function useInvalidateContent() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: contentKeys.all }),
      queryClient.invalidateQueries({ queryKey: rootKeys.courses }),
      queryClient.invalidateQueries({ queryKey: rootKeys.lessons }),
    ]);
}

export function useSaveModule(courseId: string) {
  const invalidate = useInvalidateContent();
  return useMutation({
    mutationFn: (input: { id?: string; values: ModuleValues; orderIndex: number }) =>
      saveModule(supabase, courseId, input),
    meta: { errorTitle: 'Erro ao salvar módulo' },
    onSuccess: (_data, { id }) => {
      toast.success(id ? 'Módulo atualizado!' : 'Módulo criado!');
      void invalidate();
    },
  });
}

/** Saves the lesson (without its new video file); resolves with the lesson id. */
export function useSaveLesson() {
  const invalidate = useInvalidateContent();
  return useMutation({
    mutationFn: (input: SaveLessonInput) => saveLesson(supabase, input),
    meta: { errorTitle: 'Erro ao salvar aula' },
    onSettled: () => void invalidate(),
  });
}

/** Whether lesson videos go to the video host (protected) or to Storage; the platform's setting, read once. */
export function useVideoHostAvailable() {
  return useQuery({ queryKey: contentKeys.videoHost, queryFn: fetchVideoHostAvailable, staleTime: Infinity, retry: 1 });
}

/** The lesson's hosted video, read again every few seconds while it waits for its file or is processed. */
export function useLessonVideo(lessonId: string | null) {
  return useQuery({
    queryKey: contentKeys.lessonVideo(lessonId ?? ''),
    queryFn: () => fetchLessonVideo(supabase, lessonId!),
    enabled: !!lessonId,
    refetchInterval: (query) => (unsettled(query.state.data?.status) ? LESSON_VIDEO_POLL_MS : false),
  });
}

/** The course's hosted videos by lesson, read again every few seconds while one is not ready or failed. */
export function useCourseLessonVideos(courseId: string) {
  return useQuery({
    queryKey: contentKeys.courseVideos(courseId),
    queryFn: () => fetchCourseLessonVideos(supabase, courseId),
    select: (videos) => new Map(videos.map((v) => [v.lesson_id, v])),
    refetchInterval: (query) => (query.state.data?.some((v) => unsettled(v.status)) ? LESSON_VIDEO_POLL_MS : false),
  });
}

/**
 * Sends a lesson's video file (resumable): to the video host when the platform has one (video-upload signs
 * the upload and makes the new video the lesson's), else to lesson-videos/{school}/{course}/{lesson}/ in
 * Storage, attached once stored. A frame of it, drawn here meanwhile, becomes the lesson's poster
 * (course-thumbnails/{school}/): what a student's first visit shows until the video plays (issue 38).
 */
export function useUploadLessonVideo() {
  const invalidate = useInvalidateContent();
  return useMutation({
    mutationFn: async ({
      schoolId,
      courseId,
      lessonId,
      file,
      source,
    }: {
      schoolId: string;
      courseId: string;
      lessonId: string;
      file: File;
      source: Pick<VideoSource, 'send' | 'sendHosted'>;
    }): Promise<'host' | 'storage'> => {
      const poster = captureVideoPoster(file).then((frame) =>
        // A poster that cannot be stored is no reason to lose the upload: the lesson plays without it.
        frame ? storePublicImage('course-thumbnails', schoolId, frame, `poster-${lessonId}-${Date.now()}.jpg`).catch(() => null) : null,
      );
      const target = await requestHostedUpload(lessonId);
      if (target) {
        await source.sendHosted(target, file);
        const path = await poster;
        if (path) await setLessonPoster(supabase, lessonId, path);
        return 'host';
      }
      const path = await source.send('lesson-videos', `${schoolId}/${courseId}/${lessonId}`, file);
      await attachUploadedVideo(supabase, lessonId, path, await poster);
      return 'storage';
    },
    meta: { errorTitle: 'Erro ao enviar vídeo' },
    onSettled: () => void invalidate(),
  });
}

export function useDeleteContent() {
  const invalidate = useInvalidateContent();
  return useMutation({
    mutationFn: (item: { table: 'modules' | 'lessons'; id: string }) => deleteContent(supabase, item),
    meta: { errorTitle: 'Erro ao excluir' },
    onSuccess: (_d, { table }) => {
      toast.success(table === 'modules' ? 'Módulo excluído!' : 'Aula excluída!');
      void invalidate();
    },
  });
}

/** Saves a new order in one request; the outline is shown in its new order at once and restored on failure. */
export function useReorderContent(courseId: string) {
  const queryClient = useQueryClient();
  const key = contentKeys.course(courseId);
  return useMutation({
    mutationFn: (modules: EditorModule[]) =>
      reorderCourseContent(
        supabase,
        courseId,
        modules.map((m) => ({ id: m.id, lessons: m.lessons.map((l) => l.id) })),
      ),
    meta: { errorTitle: 'Erro ao salvar a nova ordem' },
    onMutate: async (modules) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Awaited<ReturnType<typeof fetchCourseContent>>>(key);
      if (previous) queryClient.setQueryData(key, { ...previous, modules });
      return { previous };
    },
    onError: (_error, _m, ctx) => {
      if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: rootKeys.courses });
    },
  });
}
