// Criar Conta (loaded with the lazy sign-up form).
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/platform/toast';
import { loadSupabase } from '@/platform/api-config';
import { rememberSchoolSlug, useSession } from '@/platform/session';
import type { SignUpValues } from '../rules';
import { confirmationRedirect, isRateLimited, SIGN_UP_RATE_LIMIT_MESSAGE } from './auth';

/**
 * Creates an account of the school (school_id in the metadata). With e-mail confirmations on (the
 * platform's setting) there is no session yet: the form then says where the link went. Without them
 * (a project with autoconfirm) the user is signed in and goes to /.
 */
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
          options: { data: { name, ...(schoolId ? { school_id: schoolId } : {}) }, emailRedirectTo: confirmationRedirect(schoolSlug) },
        });
        if (error) throw isRateLimited(error) ? new Error(SIGN_UP_RATE_LIMIT_MESSAGE) : error;
        if (schoolSlug) rememberSchoolSlug(schoolSlug);
        return { signedIn: !!data.session, email };
      } finally {
        setAuthFlowPending(false);
      }
    },
    onSuccess: ({ signedIn }) => {
      toast.success('Conta criada com sucesso!');
      if (signedIn) navigate('/', { replace: true });
    },
    meta: { errorTitle: 'Erro ao criar conta' },
  });
}
