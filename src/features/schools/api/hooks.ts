// The school's appearance writes. The school itself is cached by the session (lib/session.ts,
// ['schools', 'detail', id]) and by the login page (['schools', 'by-slug', slug]): a save replaces the
// first and marks the second stale, so the login page shows the new banner at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { supabase } from '@/lib/supabase';
import { rootKeys } from '@/lib/query-keys';
import { sessionKeys } from '@/lib/session';
import { updateSchool, type SchoolUpdate } from './queries';

export { uploadSchoolImage } from './queries';

/**
 * Saves a patch of the school. Each screen's save has its own SPEC §8 texts (`success` toast, error
 * toast `errorTitle`), so each save is its own mutation.
 */
export function useUpdateSchool(schoolId: string, { success, errorTitle }: { success: string; errorTitle: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: SchoolUpdate) => updateSchool(supabase, schoolId, patch),
    meta: { errorTitle },
    onSuccess: (school) => {
      queryClient.setQueryData(sessionKeys.school(schoolId), school);
      void queryClient.invalidateQueries({ queryKey: [...rootKeys.schools, 'by-slug'] });
      toast.success(success);
    },
  });
}
