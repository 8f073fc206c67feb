// 'Esqueci minha senha': asks the auth server to e-mail a recovery link. Loaded with its dialog.
import { useMutation } from '@tanstack/react-query';
import { loadSupabase } from '@/platform/api-config';

export const TOO_MANY_REQUESTS_MESSAGE = 'Muitas tentativas. Aguarde um minuto e tente de novo.';
export const SEND_FAILED_MESSAGE = 'Não foi possível enviar o link. Tente novamente.';

/** Where the link lands: the school's login page (or /auth), which then asks for the new password. */
export function recoveryRedirect(schoolSlug?: string): string {
  return `${window.location.origin}/${schoolSlug || 'auth'}`;
}

/** The pt-BR message for a refused request: the per-address limit (429) or anything else. */
export function recoveryErrorMessage(error: unknown): string {
  return (error as { status?: number } | null)?.status === 429 ? TOO_MANY_REQUESTS_MESSAGE : SEND_FAILED_MESSAGE;
}

/** Succeeds alike whether or not the address has an account (the server never tells). */
export function useRequestPasswordRecovery(schoolSlug?: string) {
  return useMutation({
    mutationFn: async (email: string) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: recoveryRedirect(schoolSlug) });
      if (error) throw error;
    },
  });
}
