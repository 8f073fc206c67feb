// TanStack Query over the content editor (queries.ts). Keys:
//   ['course-content', 'course', courseId]   the outline of modules and lessons
//   ['course-content', 'lesson', lessonId]   a lesson with its contents (lesson dialog)
// Every write refreshes the editor and the student pages' cached course data.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import type { SendVideo } from '@/concepts/video-source';
import {
  attachUploadedVideo,
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
};

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

/** Sends a lesson's video file (resumable) to lesson-videos/{school}/{course}/{lesson}/ and attaches it. */
export function useUploadLessonVideo() {
  const invalidate = useInvalidateContent();
  return useMutation({
    mutationFn: async ({
      schoolId,
      courseId,
      lessonId,
      file,
      send,
    }: {
      schoolId: string;
      courseId: string;
      lessonId: string;
      file: File;
      send: SendVideo;
    }) => {
      const path = await send('lesson-videos', `${schoolId}/${courseId}/${lessonId}`, file);
      await attachUploadedVideo(supabase, lessonId, path);
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
