// Sign-in, sign-up and the forced password change (SPEC §4 login transitions, §8 messages).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { loadSupabase } from '@/lib/api-config';
import { profileQuery, rememberSchoolSlug, sessionKeys, useSession } from '@/lib/session';
import { errorMessage } from '@/lib/utils';
import type { LoginValues, SignUpValues } from '../rules';
import type { ChangePasswordValues } from '../schemas';

export const INACTIVE_MESSAGE = 'Sua conta está inativa. Entre em contato com o administrador.';
export const MISSING_PROFILE_MESSAGE = 'Perfil não encontrado. Entre em contato com o administrador.';
/** GoTrue's per-IP limit (429 over_request_rate_limit: 30 sign-ins and sign-ups per 5 minutes). */
export const SIGN_IN_RATE_LIMIT_MESSAGE = 'Muitas tentativas de login. Aguarde alguns minutos e tente de novo.';
export const SIGN_UP_RATE_LIMIT_MESSAGE = 'Muitas tentativas de cadastro. Aguarde alguns minutos e tente de novo.';

const isRateLimited = (error: unknown) => (error as { status?: number } | null)?.status === 429;

export interface SignInResult {
  mustChangePassword: boolean;
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
        if (error) throw error;
        const profile = await queryClient.fetchQuery({ ...profileQuery(data.user.id), staleTime: 0 });
        if (!profile || !profile.is_active) {
          await supabase.auth.signOut();
          queryClient.clear();
          throw new Error(profile ? INACTIVE_MESSAGE : MISSING_PROFILE_MESSAGE);
        }
        if (schoolSlug) rememberSchoolSlug(schoolSlug);
        return { mustChangePassword: profile.must_change_password || data.user.user_metadata?.must_change_password === true };
      } finally {
        setAuthFlowPending(false);
      }
    },
    onSuccess: ({ mustChangePassword }) => {
      // With a pending change the login page keeps the user and opens the "Alterar Senha" dialog.
      if (!mustChangePassword) navigate('/', { replace: true });
    },
    onError: (error) => {
      toast.error('Erro ao fazer login', { description: isRateLimited(error) ? SIGN_IN_RATE_LIMIT_MESSAGE : errorMessage(error) });
    },
  });
}

/** Creates an account of the school (school_id in the metadata), then goes to /. */
export function useSignUp(schoolId: string | undefined, schoolSlug?: string) {
  const navigate = useNavigate();
  const { setAuthFlowPending } = useSession();
  return useMutation({
    mutationFn: async ({ name, email, password }: SignUpValues) => {
      const supabase = await loadSupabase();
      setAuthFlowPending(true);
      try {
        const { data, error } = await supabase.auth.signUp({
          email,
          password,
          options: { data: { name, ...(schoolId ? { school_id: schoolId } : {}) }, emailRedirectTo: window.location.origin },
        });
        if (error) throw error;
        if (schoolSlug) rememberSchoolSlug(schoolSlug);
        return { signedIn: !!data.session };
      } finally {
        setAuthFlowPending(false);
      }
    },
    onSuccess: ({ signedIn }) => {
      if (signedIn) {
        toast.success('Conta criada com sucesso!');
        navigate('/', { replace: true });
      } else {
        toast.success('Conta criada com sucesso!', { description: 'Confirme seu email para entrar.' });
      }
    },
    onError: (error) => {
      toast.error('Erro ao criar conta', { description: isRateLimited(error) ? SIGN_UP_RATE_LIMIT_MESSAGE : errorMessage(error) });
    },
  });
}

/** GoTrue refuses a new password equal to the current one (422 same_password). */
export const SAME_PASSWORD_MESSAGE = 'A nova senha deve ser diferente da senha atual.';

/**
 * The forced password change, and the new password after a recovery link: new password, flag
 * cleared in the metadata and on the profile (a recovered account has chosen its own password).
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { user, endPasswordRecovery } = useSession();
  return useMutation({
    mutationFn: async ({ password }: ChangePasswordValues) => {
      const supabase = await loadSupabase();
      if (!user) throw new Error('Não autenticado');
      const { error } = await supabase.auth.updateUser({ password, data: { must_change_password: false } });
      if (error) throw error;
      const { error: profileError } = await supabase.from('profiles').update({ must_change_password: false }).eq('id', user.id);
      if (profileError) throw profileError;
      return user.id;
    },
    onSuccess: async (userId) => {
      endPasswordRecovery();
      await queryClient.invalidateQueries({ queryKey: sessionKeys.profile(userId) });
      toast.success('Senha alterada!', { description: 'Sua senha foi atualizada com sucesso' });
      navigate('/', { replace: true });
    },
    onError: (error) => {
      const same = (error as { code?: string }).code === 'same_password';
      toast.error('Erro ao alterar senha', { description: same ? SAME_PASSWORD_MESSAGE : errorMessage(error) });
    },
  });
}
