// One set of account operations for every screen that manages people: a school's students and the
// super admin's clients (school admins) are the same thing underneath, a profile. Activating or
// deactivating it, and resetting its password to a temporary one (edge function admin-reset-password,
// which also ends its sessions). It lives in src/concepts because two features use it and features do not
// import each other; each screen says its own words (toasts) and refreshes its own list.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { expectRows, type DbClient } from '@/platform/db';
import { invokeFunction } from '@/platform/functions';
import { supabase } from '@/platform/supabase';
import { toast } from '@/platform/toast';

/** Blocks (false) or restores (true) the person's access; refused in pt-BR when RLS hides the profile. */
export async function setAccountActive(client: DbClient, { id, active }: { id: string; active: boolean }): Promise<void> {
  expectRows(await client.from('profiles').update({ is_active: active }).eq('id', id).select('id'), 'Usuário não encontrado ou sem permissão');
}

export interface TemporaryPassword {
  user_id: string;
  temporary_password: string;
}

/** A new temporary password the person must change at the next sign-in; their open sessions end. */
export function resetAccountPassword(userId: string): Promise<TemporaryPassword> {
  return invokeFunction<TemporaryPassword>('admin-reset-password', { user_id: userId });
}

export function useSetAccountActive({ listKey, activated, deactivated, errorTitle }: { listKey: QueryKey; activated: string; deactivated: string; errorTitle: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; active: boolean }) => setAccountActive(supabase, input),
    meta: { errorTitle },
    onSuccess: (_d, { active }) => {
      toast.success(active ? activated : deactivated);
      return queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
}

/**
 * What a new account's creator reads (issue 46): one thing, the "Acesso liberado" e-mail's link first,
 * the initial password (`rule`: which one it is, e.g. "o CPF, só os números") as the fallback.
 */
export function firstAccessText(who: string, rule: string): string {
  return `Enviamos a ${who} um e-mail com o link para criar a senha; se ele não chegar, a senha inicial abaixo (${rule}) também dá acesso, e uma nova senha será pedida no primeiro acesso.`;
}

/** The caller shows the temporary password (TemporaryPasswordDialog) from the mutation's result. */
export function useResetAccountPassword() {
  // SPEC §8 names this toast's title literally; the buttons say "Redefinir senha" (issue 46).
  return useMutation({ mutationFn: resetAccountPassword, meta: { errorTitle: 'Erro ao resetar senha' } });
}
