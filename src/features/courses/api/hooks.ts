// TanStack Query over the course reads and progress writes. Keys:
//   ['courses', 'catalog', schoolId, userId]   home page (course list with progress)
//   ['courses', 'detail', courseId, userId]    course page and lesson player (outline + enrollment + progress)
// The lesson player reads the same detail entry, so moving between lessons of a course does not
// refetch the outline. Writes patch the detail entry in place and mark the catalog stale.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { SUPABASE_ANON_KEY, SUPABASE_URL, supabase } from '@/platform/supabase';
import { CATALOG_AVAILABLE_PAGE } from './course-urls';
import { completeLesson, fetchCatalog, fetchCourseDetail, saveLessonPosition, saveLessonPositionOnUnload, type CourseDetail, type ProgressRow } from './queries';
import { rootKeys } from '@/platform/query-keys';
import { useSession } from '@/platform/session';

export const courseKeys = {
  all: rootKeys.courses,
  catalogs: () => [...courseKeys.all, 'catalog'] as const,
  catalog: (schoolId: string, userId: string, availableLimit: number) => [...courseKeys.catalogs(), schoolId, userId, availableLimit] as const,
  details: () => [...courseKeys.all, 'detail'] as const,
  detail: (courseId: string, userId: string) => [...courseKeys.details(), courseId, userId] as const,
};

export const catalogQuery = (schoolId: string, userId: string, availableLimit = CATALOG_AVAILABLE_PAGE) =>
  queryOptions({
    queryKey: courseKeys.catalog(schoolId, userId, availableLimit),
    queryFn: () => fetchCatalog(supabase, { schoolId, availableLimit }),
  });

export const courseDetailQuery = (courseId: string, userId: string) =>
  queryOptions({
    queryKey: courseKeys.detail(courseId, userId),
    queryFn: () => fetchCourseDetail(supabase, { courseId, userId }),
    // The outline changes rarely; progress in it is patched by the writes below.
    staleTime: 5 * 60_000,
  });

/** The home page's courses; a larger `availableLimit` ('Ver mais cursos') keeps the shown cards while it loads. */
export function useCatalog(schoolId: string | null | undefined, userId: string | null | undefined, availableLimit = CATALOG_AVAILABLE_PAGE) {
  return useQuery({ ...catalogQuery(schoolId ?? '', userId ?? '', availableLimit), enabled: !!schoolId && !!userId, placeholderData: keepPreviousData });
}

export function useCourseDetail(courseId: string, userId: string | null | undefined) {
  return useQuery({ ...courseDetailQuery(courseId, userId ?? ''), enabled: !!courseId && !!userId });
}

/** Writes a progress row into the cached course detail (insert or replace by lesson). */
export function patchDetailProgress(client: QueryClient, courseId: string, userId: string, row: ProgressRow) {
  client.setQueryData<CourseDetail | null>(courseKeys.detail(courseId, userId), (old) => {
    if (!old) return old;
    const rest = old.progress.filter((p) => p.lesson_id !== row.lesson_id);
    const prev = old.progress.find((p) => p.lesson_id === row.lesson_id);
    // Completion is final: never let a late write erase it in the cache.
    const merged: ProgressRow = { ...row, completed_at: prev?.completed_at ?? row.completed_at };
    return { ...old, progress: [...rest, merged] };
  });
}

/** Marks a lesson completed: optimistic, final, toast 'Aula marcada como concluída!'. */
export function useCompleteLesson(courseId: string, userId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['progress', 'complete', courseId],
    meta: { errorTitle: 'Erro ao marcar aula como concluída' },
    mutationFn: (lessonId: string) => completeLesson(supabase, userId!, lessonId),
    onMutate: async (lessonId) => {
      if (!userId) return;
      const key = courseKeys.detail(courseId, userId);
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CourseDetail | null>(key);
      const existing = previous?.progress.find((p) => p.lesson_id === lessonId);
      patchDetailProgress(queryClient, courseId, userId, {
        lesson_id: lessonId,
        completed_at: new Date().toISOString(),
        last_position_sec: existing?.last_position_sec ?? 0,
        updated_at: new Date().toISOString(),
      });
      return { previous };
    },
    onError: (_error, _lessonId, context) => {
      if (userId && context?.previous !== undefined) queryClient.setQueryData(courseKeys.detail(courseId, userId), context.previous);
    },
    onSuccess: (row) => {
      if (userId) patchDetailProgress(queryClient, courseId, userId, row);
      toast.success('Aula marcada como concluída!');
    },
    onSettled: () => {
      // The home page's numbers come from the catalog: refetch it when it is next shown.
      void queryClient.invalidateQueries({ queryKey: courseKeys.catalogs() });
    },
  });
}

/** Saves the playback position quietly (no toast); keeps the cached position for a later resume. */
export function useSaveLessonPosition(courseId: string, userId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['progress', 'position', courseId],
    mutationFn: ({ lessonId, positionSec }: { lessonId: string; positionSec: number }) => saveLessonPosition(supabase, userId!, lessonId, positionSec),
    onSuccess: (row) => {
      if (!userId) return;
      patchDetailProgress(queryClient, courseId, userId, row);
      void queryClient.invalidateQueries({ queryKey: courseKeys.catalogs(), refetchType: 'none' });
    },
    onError: (error) => console.warn('Não foi possível salvar a posição do vídeo', error),
  });
}

/** Last-chance save while the page is being closed (pagehide): a keepalive request (queries.ts says why
 * it is not supabase-js), with this SPA's API address. */
export function savePositionOnUnload({ accessToken, userId, lessonId, positionSec }: { accessToken: string; userId: string; lessonId: string; positionSec: number }) {
  void saveLessonPositionOnUnload({ url: SUPABASE_URL, anonKey: SUPABASE_ANON_KEY, accessToken }, { userId, lessonId, positionSec });
}

/** The course side of the lesson player (features/lessons' LessonPage, composed by its route): the
 * course detail, the completion, and the position saved on the way and when the page is closed. */
export function useCourseForLessonPlayer(courseId: string) {
  const { user, session } = useSession();
  const userId = user?.id;
  const course = useCourseDetail(courseId, userId);
  const complete = useCompleteLesson(courseId, userId);
  const savePosition = useSaveLessonPosition(courseId, userId);
  return {
    course,
    complete,
    onSavePosition: (lessonId: string, positionSec: number) => savePosition.mutate({ lessonId, positionSec }),
    onUnload: (lessonId: string, positionSec: number) => {
      if (session && userId) savePositionOnUnload({ accessToken: session.access_token, userId, lessonId, positionSec });
    },
  };
}
