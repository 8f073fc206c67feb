// TanStack Query over the staff side of courses (admin-queries.ts). Keys:
//   ['admin-courses', 'list', schoolId, search, page]   one page of Cursos
//   ['admin-courses', 'options', schoolId]               every course, for the pickers of other screens
//   ['admin-courses', 'detail', courseId]                the course form's row
//   ['admin-courses', 'bump', courseId]                  the course's order bump (course form)
// Every write also invalidates the student side's courses (courseKeys.all).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import {
  CourseCreatedError,
  deleteCourse,
  fetchAdminCourses,
  fetchCourse,
  fetchCourseBump,
  fetchCourseOptions,
  saveCourse,
  toggleCourseStatus,
  type AdminCourse,
  type CourseBump,
  type CourseRow,
  type SaveCourseInput,
} from './admin-queries';
import { courseKeys } from './hooks';

export type { AdminCourse, CourseBump, CourseRow };
export { CourseCreatedError } from './admin-queries';

export const adminCourseKeys = {
  all: rootKeys.adminCourses,
  list: (schoolId: string, search: string, page: number) => [...rootKeys.adminCourses, 'list', schoolId, search, page] as const,
  options: (schoolId: string) => [...rootKeys.adminCourses, 'options', schoolId] as const,
  detail: (courseId: string) => [...rootKeys.adminCourses, 'detail', courseId] as const,
  bump: (courseId: string) => [...rootKeys.adminCourses, 'bump', courseId] as const,
};

export const adminCoursesQuery = (schoolId: string, search: string, page: number) =>
  queryOptions({ queryKey: adminCourseKeys.list(schoolId, search, page), queryFn: () => fetchAdminCourses(supabase, schoolId, { search, page }), placeholderData: keepPreviousData });

/** The course form's row (the student side's course page is courses/api/hooks.ts courseDetailQuery). */
export const adminCourseQuery = (courseId: string) => queryOptions({ queryKey: adminCourseKeys.detail(courseId), queryFn: () => fetchCourse(supabase, courseId) });

/** One page of the course list (Cursos). */
export function useAdminCourses(schoolId: string | null | undefined, search: string, page: number) {
  return useQuery({ ...adminCoursesQuery(schoolId ?? '', search, page), enabled: !!schoolId });
}

/** Every course of the school, for the course pickers of other screens. */
export function useCourseOptions(schoolId: string | null | undefined) {
  return useQuery({ queryKey: adminCourseKeys.options(schoolId ?? ''), queryFn: () => fetchCourseOptions(supabase, schoolId!), enabled: !!schoolId });
}

export function useAdminCourse(courseId: string | undefined) {
  return useQuery({ ...adminCourseQuery(courseId ?? ''), enabled: !!courseId });
}

/** The course's order bump, for the course form (null: none). */
export function useCourseBump(courseId: string | undefined) {
  return useQuery({ queryKey: adminCourseKeys.bump(courseId ?? ''), queryFn: () => fetchCourseBump(supabase, courseId!), enabled: !!courseId });
}

function useInvalidateCourses() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: adminCourseKeys.all }), queryClient.invalidateQueries({ queryKey: courseKeys.all })]);
}

export function useSaveCourse() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateCourses();
  return useMutation({
    mutationFn: (input: SaveCourseInput) => saveCourse(supabase, input),
    meta: { errorTitle: 'Erro ao salvar curso' },
    onSuccess: (course, input) => {
      queryClient.setQueryData(adminCourseKeys.detail(course.id), course);
      toast.success(input.id ? 'Curso atualizado!' : 'Curso criado!');
      void invalidate();
      // The order bump is priced in the checkout's quote.
      void queryClient.invalidateQueries({ queryKey: rootKeys.checkout });
    },
    // A new course saved without its order bump still exists: the lists show it.
    onError: (error) => error instanceof CourseCreatedError && void invalidate(),
  });
}

export function useToggleCourseStatus() {
  const invalidate = useInvalidateCourses();
  return useMutation({
    mutationFn: (course: Pick<AdminCourse, 'id' | 'status'>) => toggleCourseStatus(supabase, course),
    meta: { errorTitle: 'Erro ao atualizar status' },
    onSuccess: () => {
      toast.success('Status do curso atualizado!');
      void invalidate();
    },
  });
}

export function useDeleteCourse() {
  const invalidate = useInvalidateCourses();
  return useMutation({
    mutationFn: (courseId: string) => deleteCourse(supabase, courseId),
    meta: { errorTitle: 'Erro ao excluir curso' },
    onSuccess: () => {
      toast.success('Curso excluído!');
      void invalidate();
    },
  });
}
