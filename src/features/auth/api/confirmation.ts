// E-mail confirmation of a new account (issue 19): a sign-up has no session until its owner opens the
// link mailed to the address; "Reenviar e-mail" asks for another one (POST /auth/v1/resend). Loaded
// with the lazy sign-up form and the not-confirmed notice.
import { useMutation } from '@tanstack/react-query';
import { loadSupabase } from '@/platform/api-config';
import { toast } from '@/platform/toast';
import { confirmationRedirect } from './auth';

export const confirmationSentMessage = (email: string) => `Enviamos um link de confirmação para ${email}. Abra-o para ativar sua conta.`;
export const RESEND_WAIT_MESSAGE = 'Aguarde um minuto antes de pedir outro e-mail.';
export const RESEND_FAILED_MESSAGE = 'Não foi possível enviar o e-mail. Tente novamente.';

/** Mails the confirmation link again. The server answers alike for every address (no enumeration). */
export function useResendConfirmation(schoolSlug?: string) {
  return useMutation({
    mutationFn: async (email: string) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.auth.resend({ type: 'signup', email, options: { emailRedirectTo: confirmationRedirect(schoolSlug) } });
      if (error) throw new Error(error.status === 429 ? RESEND_WAIT_MESSAGE : RESEND_FAILED_MESSAGE);
    },
    meta: { errorTitle: 'Erro ao reenviar e-mail' },
    onSuccess: (_, email) => {
      toast.success('E-mail reenviado', { description: `Enviamos um novo link de confirmação para ${email}.` });
    },
  });
}
