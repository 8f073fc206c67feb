// The school's appearance writes. The school itself is cached by the session (src/platform/session.ts,
// ['schools', 'detail', id]) and by the login page (['schools', 'by-slug', slug]): a save replaces the
// first and marks the second stale, so the login page shows the new banner at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import { sessionKeys } from '@/platform/session';
import { videoSettingsKey, type VideoSettings } from '@/concepts/video-settings';
import { saveVideoSettings, updateSchool, type SchoolUpdate } from './queries';

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

/** Settings' switch of the lesson videos' watermark (issue 39): it says "Salvo" itself, so no toast. */
export function useVideoWatermarkSetting(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => updateSchool(supabase, schoolId, { video_watermark: on }),
    meta: { errorTitle: 'Erro ao atualizar' },
    onSuccess: (school) => queryClient.setQueryData(sessionKeys.school(schoolId), school),
  });
}

/** Settings → Vídeos das aulas: the screens limit and the sharing report's limits, saved by their "Salvar". */
export function useSaveVideoSettings(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: VideoSettings) => saveVideoSettings(supabase, schoolId, settings),
    meta: { errorTitle: 'Erro ao salvar' },
    onSuccess: (saved) => {
      queryClient.setQueryData(videoSettingsKey(schoolId), saved);
      // The sharing report lists by these limits.
      void queryClient.invalidateQueries({ queryKey: rootKeys.sharedLogins });
      toast.success('Configurações dos vídeos salvas!');
    },
  });
}
