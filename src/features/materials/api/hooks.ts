import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { supabase } from '@/lib/supabase';
import { fetchSchoolMaterials } from './queries';
import { rootKeys } from '@/lib/query-keys';
import { expectRows } from '@/lib/db';

export const materialKeys = {
  all: rootKeys.materials,
  school: (schoolId: string, search: string, page: number) => [...rootKeys.materials, 'school', schoolId, search, page] as const,
};

export const schoolMaterialsQuery = (schoolId: string, search: string, page: number) =>
  queryOptions({ queryKey: materialKeys.school(schoolId, search, page), queryFn: () => fetchSchoolMaterials(supabase, schoolId, { search, page }), placeholderData: keepPreviousData });

/** One page of the Materiais screen. */
export function useSchoolMaterials(schoolId: string | null | undefined, search: string, page: number) {
  return useQuery({ ...schoolMaterialsQuery(schoolId ?? '', search, page), enabled: !!schoolId });
}

export interface MaterialValues {
  title: string;
  url: string;
  type: 'PDF' | 'VIDEO' | 'LINK' | 'OTHER' | 'SLIDE' | 'SHEET';
  course_id: string;
}

export function useSaveMaterial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, values, isFile }: { id?: string; values: MaterialValues; isFile?: boolean }) => {
      const row = { title: values.title.trim(), type: values.type, course_id: values.course_id, ...(isFile ? {} : { url: values.url.trim() }) };
      // A stored file keeps its file; only links have an editable URL.
      const { error } = id
        ? await supabase.from('materials').update(row).eq('id', id).select('id').single()
        : await supabase.from('materials').insert({ ...row, url: values.url.trim() }).select('id').single();
      if (error) throw error;
    },
    onSuccess: (_d, { id }) => {
      void queryClient.invalidateQueries({ queryKey: materialKeys.all });
      void queryClient.invalidateQueries({ queryKey: rootKeys.courseContent });
      toast.success(id ? 'Material atualizado!' : 'Material adicionado!');
    },
    meta: { errorTitle: 'Erro ao salvar material' },
  });
}

export function useDeleteMaterial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (material: { id: string; file_path: string | null }) => {
      expectRows(await supabase.from('materials').delete().eq('id', material.id).select('id'), 'Material não encontrado ou sem permissão para excluí-lo');
      if (material.file_path) await supabase.storage.from('lesson-materials').remove([material.file_path]);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: materialKeys.all });
      void queryClient.invalidateQueries({ queryKey: rootKeys.courseContent });
      toast.success('Material excluído!');
    },
    meta: { errorTitle: 'Erro ao excluir' },
  });
}

/** A link to open the material: its URL, or a short-lived signed URL of the stored file. */
export async function materialHref(material: { url: string | null; file_path: string | null }): Promise<string> {
  if (material.url) return material.url;
  const { data, error } = await supabase.storage.from('lesson-materials').createSignedUrl(material.file_path!, 3600);
  if (error) throw error;
  return data.signedUrl;
}
