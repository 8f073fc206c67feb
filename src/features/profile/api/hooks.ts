// The own profile's writes. The profile is cached by the session (lib/session.ts,
// ['profiles', 'detail', userId]): a save replaces it, a new photo marks it stale.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { supabase } from '@/lib/supabase';
import { sessionKeys } from '@/lib/session';
import type { ProfileValues } from '../schemas';
import { updateProfile, uploadAvatar } from './queries';

export function useUpdateProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ProfileValues) => updateProfile(supabase, userId, values),
    meta: { errorTitle: 'Erro ao atualizar perfil' },
    onSuccess: (profile) => {
      queryClient.setQueryData(sessionKeys.profile(userId), profile);
      toast.success('Perfil atualizado com sucesso!');
    },
  });
}

export function useUploadAvatar(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, previousUrl }: { file: File; previousUrl: string | null }) => uploadAvatar(supabase, userId, file, previousUrl),
    meta: { errorTitle: 'Erro ao fazer upload da foto' },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sessionKeys.profile(userId) });
      toast.success('Foto de perfil atualizada!');
    },
  });
}
