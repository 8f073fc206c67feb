// The forced password change and the new password after a recovery link (loaded with the lazy dialog).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/platform/toast';
import { loadSupabase } from '@/platform/api-config';
import { sessionKeys, useSession } from '@/platform/session';
import type { ChangePasswordValues } from '../schemas';

/** GoTrue refuses a new password equal to the current one (422 same_password). */
export const SAME_PASSWORD_MESSAGE = 'A nova senha deve ser diferente da senha atual.';

/**
 * The forced password change, and the new password after a recovery link: only the password is sent.
 * The server clears must_change_password itself when the password really changes (the client can no
 * longer clear it); the session is refreshed (its metadata carries the flag) and the profile re-read,
 * so the dialog closes on the server's word.
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { user, endPasswordRecovery } = useSession();
  return useMutation({
    mutationFn: async ({ password }: ChangePasswordValues) => {
      const supabase = await loadSupabase();
      if (!user) throw new Error('Não autenticado');
      const { error } = await supabase.auth.updateUser({ password });
      if (error) throw error.code === 'same_password' ? new Error(SAME_PASSWORD_MESSAGE) : error;
      await supabase.auth.refreshSession();
      await queryClient.invalidateQueries({ queryKey: sessionKeys.profile(user.id) });
      return user.id;
    },
    onSuccess: () => {
      endPasswordRecovery();
      toast.success('Senha alterada!', { description: 'Sua senha foi atualizada com sucesso' });
      navigate('/', { replace: true });
    },
    meta: { errorTitle: 'Erro ao alterar senha' },
  });
}
