// Staff side of courses (SPEC §2 "Courses list" / "Course form"): list, read, create, update,
// publish toggle and delete. Row-level security limits every call to the staff's own school.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { supabase } from '@/lib/supabase';
import type { TablesInsert } from '@/types/database';
import { fetchAdminCourses, fetchCourseOptions, type AdminCourse, type CourseRow } from './admin-queries';
import { courseKeys } from './hooks';
import { parsePrice, type CourseFormValues, type CourseStatus } from '../admin-schemas';
import { rootKeys } from '@/lib/query-keys';
import { expectRows } from '@/lib/db';

export type { AdminCourse, CourseRow };

export const adminCourseKeys = {
  all: rootKeys.adminCourses,
  list: (schoolId: string, search: string, page: number) => [...rootKeys.adminCourses, 'list', schoolId, search, page] as const,
  options: (schoolId: string) => [...rootKeys.adminCourses, 'options', schoolId] as const,
  detail: (courseId: string) => [...rootKeys.adminCourses, 'detail', courseId] as const,
};

export async function fetchCourse(courseId: string): Promise<CourseRow | null> {
  const { data, error } = await supabase.from('courses').select('*').eq('id', courseId).maybeSingle();
  if (error) throw error;
  return data;
}

export const adminCoursesQuery = (schoolId: string, search: string, page: number) =>
  queryOptions({ queryKey: adminCourseKeys.list(schoolId, search, page), queryFn: () => fetchAdminCourses(supabase, schoolId, { search, page }), placeholderData: keepPreviousData });

export const courseDetailQuery = (courseId: string) => queryOptions({ queryKey: adminCourseKeys.detail(courseId), queryFn: () => fetchCourse(courseId) });

/** One page of the course list (Cursos). */
export function useAdminCourses(schoolId: string | null | undefined, search: string, page: number) {
  return useQuery({ ...adminCoursesQuery(schoolId ?? '', search, page), enabled: !!schoolId });
}

/** Every course of the school, for the course pickers of other screens. */
export function useCourseOptions(schoolId: string | null | undefined) {
  return useQuery({ queryKey: adminCourseKeys.options(schoolId ?? ''), queryFn: () => fetchCourseOptions(supabase, schoolId!), enabled: !!schoolId });
}

export function useCourse(courseId: string | undefined) {
  return useQuery({ ...courseDetailQuery(courseId ?? ''), enabled: !!courseId });
}

/** The database row of the form's values. */
export function courseRowFromForm(values: CourseFormValues) {
  return {
    title: values.title,
    slug: values.slug,
    description: values.description.trim() || null,
    purchase_url: values.purchase_url || null,
    price: parsePrice(values.price),
    max_installments: values.max_installments,
    status: values.status,
    total_lessons: values.total_lessons,
    thumbnail_url: values.thumbnail_url || null,
    thumbnail_position: values.thumbnail_position,
    banner_url: values.banner_url || null,
    banner_position: values.banner_position,
    certificate_enabled: values.certificate_enabled,
  };
}

/** A unique-violation of the slug of a school (Postgres 23505 on courses_school_slug_key). */
export function isDuplicateSlug(error: unknown): boolean {
  const e = error as { code?: string; message?: string; details?: string } | null;
  return e?.code === '23505' && /courses_school_slug_key|slug/.test(`${e.message ?? ''} ${e.details ?? ''}`);
}

export const DUPLICATE_SLUG_MESSAGE = 'Já existe um curso com este slug nesta escola. Escolha outro.';

export async function saveCourse(args: { id?: string; schoolId: string; instructorId: string; values: CourseFormValues }): Promise<CourseRow> {
  const row = courseRowFromForm(args.values);
  if (args.id) {
    const { data, error } = await supabase.from('courses').update(row).eq('id', args.id).select('*').single();
    if (error) throw error;
    return data;
  }
  const insert: TablesInsert<'courses'> = { ...row, school_id: args.schoolId, instructor_id: args.instructorId };
  const { data, error } = await supabase.from('courses').insert(insert).select('*').single();
  if (error) throw error;
  return data;
}

export function useSaveCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCourse,
    onSuccess: (course, args) => {
      queryClient.setQueryData(adminCourseKeys.detail(course.id), course);
      void queryClient.invalidateQueries({ queryKey: adminCourseKeys.all });
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
      toast.success(args.id ? 'Curso atualizado!' : 'Curso criado!');
    },
    meta: { errorTitle: 'Erro ao salvar curso' },
  });
}

/** SPEC §4 list toggle: DRAFT becomes PUBLISHED, any other status becomes DRAFT. */
export function toggledStatus(status: CourseStatus): CourseStatus {
  return status === 'DRAFT' ? 'PUBLISHED' : 'DRAFT';
}

export function useToggleCourseStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (course: Pick<AdminCourse, 'id' | 'status'>) => {
      const { error } = await supabase.from('courses').update({ status: toggledStatus(course.status) }).eq('id', course.id).select('id').single();
      if (error) throw error;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminCourseKeys.all });
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
      toast.success('Status do curso atualizado!');
    },
    meta: { errorTitle: 'Erro ao atualizar status' },
  });
}

export function useDeleteCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (courseId: string) => {
      expectRows(await supabase.from('courses').delete().eq('id', courseId).select('id'), 'Curso não encontrado ou sem permissão para excluí-lo');
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminCourseKeys.all });
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
      toast.success('Curso excluído!');
    },
    meta: { errorTitle: 'Erro ao excluir curso' },
  });
}
