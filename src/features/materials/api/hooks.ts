// TanStack Query over the materials (queries.ts). Keys:
//   ['materials', 'school', schoolId, search, page]   one page of the Materiais screen
//   ['materials', 'lesson', lessonId]                  a lesson's materials (lesson dialog)
// Every write invalidates both, and the content editor (rootKeys.courseContent).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import {
  addLessonLink,
  deleteMaterial,
  fetchLessonMaterials,
  fetchSchoolMaterials,
  materialHref,
  saveMaterial,
  uploadLessonMaterial,
  type LessonRef,
  type MaterialValues,
} from './queries';

export type { MaterialValues };

export const materialKeys = {
  all: rootKeys.materials,
  school: (schoolId: string, search: string, page: number) =>
    [...rootKeys.materials, 'school', schoolId, search, page] as const,
  lesson: (lessonId: string) => [...rootKeys.materials, 'lesson', lessonId] as const,
};

export const schoolMaterialsQuery = (schoolId: string, search: string, page: number) =>
  queryOptions({
    queryKey: materialKeys.school(schoolId, search, page),
    queryFn: () => fetchSchoolMaterials(supabase, schoolId, { search, page }),
    placeholderData: keepPreviousData,
  });

/** One page of the Materiais screen. */
export function useSchoolMaterials(schoolId: string | null | undefined, search: string, page: number) {
  return useQuery({ ...schoolMaterialsQuery(schoolId ?? '', search, page), enabled: !!schoolId });
}

export function useLessonMaterials(lessonId: string) {
  return useQuery({ queryKey: materialKeys.lesson(lessonId), queryFn: () => fetchLessonMaterials(supabase, lessonId) });
}

function useInvalidateMaterials() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: materialKeys.all }),
      queryClient.invalidateQueries({ queryKey: rootKeys.courseContent }),
    ]);
}

export function useSaveMaterial() {
  const invalidate = useInvalidateMaterials();
  return useMutation({
    mutationFn: (input: { id?: string; values: MaterialValues; isFile?: boolean }) => saveMaterial(supabase, input),
    meta: { errorTitle: 'Erro ao salvar material' },
    onSuccess: (_d, { id }) => {
      toast.success(id ? 'Material atualizado!' : 'Material adicionado!');
      void invalidate();
    },
  });
}

export function useAddLessonLink(lesson: LessonRef) {
  const invalidate = useInvalidateMaterials();
  return useMutation({
    mutationFn: (link: { title: string; url: string }) => addLessonLink(supabase, lesson, link),
    meta: { errorTitle: 'Erro ao adicionar link', messageInTitle: true },
    onSuccess: () => {
      toast.success('Link adicionado!');
      void invalidate();
    },
  });
}

export function useUploadLessonMaterial(lesson: LessonRef) {
  const invalidate = useInvalidateMaterials();
  return useMutation({
    mutationFn: (file: File) => uploadLessonMaterial(supabase, lesson, file),
    meta: { errorTitle: 'Erro ao enviar material', messageInTitle: true },
    onSuccess: () => {
      toast.success('Material enviado!');
      void invalidate();
    },
  });
}

/** The Materiais screen's delete (SPEC §8 'Erro ao excluir'). */
export function useDeleteMaterial() {
  const invalidate = useInvalidateMaterials();
  return useMutation({
    mutationFn: (material: { id: string; file_path: string | null }) => deleteMaterial(supabase, material),
    meta: { errorTitle: 'Erro ao excluir' },
    onSuccess: () => {
      toast.success('Material excluído!');
      void invalidate();
    },
  });
}

/** The lesson dialog's remove (SPEC §8 'Erro ao remover material: ...'): the same delete. */
export function useRemoveLessonMaterial() {
  const invalidate = useInvalidateMaterials();
  return useMutation({
    mutationFn: (material: { id: string; file_path: string | null }) => deleteMaterial(supabase, material),
    meta: { errorTitle: 'Erro ao remover material', messageInTitle: true },
    onSuccess: () => {
      toast.success('Material removido!');
      void invalidate();
    },
  });
}

/** Opens a material in a new tab (a stored file through a short-lived signed URL). */
export function useOpenMaterial() {
  return useMutation({
    mutationFn: async (material: { url: string | null; file_path: string | null }) => {
      window.open(await materialHref(supabase, material), '_blank', 'noopener');
    },
    meta: { errorTitle: 'Erro ao abrir material' },
  });
}

/** The material's link, for 'Copiar link'. */
export const materialLink = (material: { url: string | null; file_path: string | null }) =>
  materialHref(supabase, material);
