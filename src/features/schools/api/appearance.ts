// The school's own appearance (SPEC §2 "Member area" and "Login settings"): one update call per save,
// then the session's school and the login page's cached school are refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { supabase } from '@/lib/supabase';
import { sessionKeys, type SchoolRow } from '@/lib/session';
import { fileExtension } from '@/lib/upload';
import { errorMessage } from '@/lib/utils';
import type { TablesUpdate } from '@/types/database';
import { rootKeys } from '@/lib/query-keys';

export type SchoolUpdate = Pick<
  TablesUpdate<'schools'>,
  | 'name'
  | 'description'
  | 'slug'
  | 'primary_color'
  | 'secondary_color'
  | 'banner_url'
  | 'banner_position'
  | 'member_area_name'
  | 'logo_url'
  | 'login_banner_url'
  | 'login_banner_position'
  | 'support_whatsapp'
>;

export async function updateSchool(schoolId: string, patch: SchoolUpdate): Promise<SchoolRow> {
  const { data, error } = await supabase.from('schools').update(patch).eq('id', schoolId).select('*').single();
  if (error) throw error;
  return data;
}

/** SPEC §7 path for school images: '{schoolId}/{schoolId}-{timestamp}.{ext}' (a new name per upload, so caches never serve the old one). */
export function schoolImageName(schoolId: string, file: File, now = Date.now()): string {
  const ext = fileExtension(file.name) || file.type.split('/')[1] || 'jpg';
  return `${schoolId}-${now}.${ext.replace(/[^a-z0-9]/g, '')}`;
}

export function isDuplicateSchoolSlug(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' && /schools_slug_key|slug/.test(e.message ?? '');
}

/** Saves a patch of the school with the SPEC §8 toasts given (title on success, title on error). */
export function useUpdateSchool(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ patch }: { patch: SchoolUpdate; success: string; failure: string }) => updateSchool(schoolId, patch),
    onSuccess: (school, { success }) => {
      queryClient.setQueryData(sessionKeys.school(schoolId), school);
      void queryClient.invalidateQueries({ queryKey: [...rootKeys.schools, 'by-slug'] });
      toast.success(success);
    },
    onError: (error, { failure }) =>
      toast.error(failure, { description: isDuplicateSchoolSlug(error) ? 'Este slug já é usado por outra escola. Escolha outro.' : errorMessage(error) }),
  });
}
