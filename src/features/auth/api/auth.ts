// Sign-in (SPEC §4 login transitions, §8 messages): on the login page's first download. Sign-up
// (./sign-up.ts), the password change (./change-password.ts) and "Reenviar e-mail" (./confirmation.ts)
// load with their lazy components.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { loadSupabase } from '@/platform/api-config';
import { profileQuery, rememberSchoolSlug, useSession } from '@/platform/session';
import type { LoginValues } from '../rules';

export const INACTIVE_MESSAGE = 'Sua conta está inativa. Entre em contato com o administrador.';
export const MISSING_PROFILE_MESSAGE = 'Perfil não encontrado. Entre em contato com o administrador.';
/** GoTrue's per-IP limit (429 over_request_rate_limit: 30 sign-ins and sign-ups per 5 minutes). */
export const SIGN_IN_RATE_LIMIT_MESSAGE = 'Muitas tentativas de login. Aguarde alguns minutos e tente de novo.';
export const SIGN_UP_RATE_LIMIT_MESSAGE = 'Muitas tentativas de cadastro. Aguarde alguns minutos e tente de novo.';

export const isRateLimited = (error: unknown) => (error as { status?: number } | null)?.status === 429;

/** Where an e-mailed link lands: the school's login page (or /auth), which sends a signed-in user to /. */
export function confirmationRedirect(schoolSlug?: string): string {
  return `${window.location.origin}/${schoolSlug || 'auth'}`;
}

/** GoTrue's 400 email_not_confirmed: the right password of an account whose link was never opened. */
export const isNotConfirmed = (error: unknown) => (error as { code?: string } | null)?.code === 'email_not_confirmed';
export const notConfirmedMessage = (email: string) => `Confirme seu e-mail antes de entrar. Enviamos o link para ${email}.`;

export interface SignInResult {
  mustChangePassword: boolean;
  /** Two-factor sign-in is on: the login page asks for the code before going on. */
  needsCode: boolean;
}

/** Signs in, then checks the profile: a missing or inactive one is signed out again. */
export function useSignIn(schoolSlug?: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { setAuthFlowPending } = useSession();
  return useMutation({
    mutationFn: async ({ email, password }: LoginValues): Promise<SignInResult> => {
      setAuthFlowPending(true);
      try {
        const supabase = await loadSupabase();
        const { data, error } = await supabase.auth.signInWithPassword({ email, password });
        // Said in pt-BR here (the error toast shows the message); the code stays for the form's notice.
        if (error) throw isRateLimited(error) ? new Error(SIGN_IN_RATE_LIMIT_MESSAGE) : isNotConfirmed(error) ? Object.assign(new Error(notConfirmedMessage(email)), { code: error.code }) : error;
        const profile = await queryClient.fetchQuery({ ...profileQuery(data.user.id), staleTime: 0 });
        if (!profile || !profile.is_active) {
          await supabase.auth.signOut();
          queryClient.clear();
          throw new Error(profile ? INACTIVE_MESSAGE : MISSING_PROFILE_MESSAGE);
        }
        if (schoolSlug) rememberSchoolSlug(schoolSlug);
        return {
          mustChangePassword: profile.must_change_password || data.user.user_metadata?.must_change_password === true,
          needsCode: (data.user.factors ?? []).some((f) => f.status === 'verified'),
        };
      } finally {
        setAuthFlowPending(false);
      }
    },
    onSuccess: ({ mustChangePassword, needsCode }) => {
      // With a pending change the login page keeps the user and opens the "Alterar Senha" dialog; with
      // two-factor on, it asks for the code.
      if (!mustChangePassword && !needsCode) navigate('/', { replace: true });
    },
    meta: { errorTitle: 'Erro ao fazer login' },
  });
}
