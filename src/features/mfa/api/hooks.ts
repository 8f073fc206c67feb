// Keys, queries and mutations of two-factor sign-in. The session (and with it `aal` and the user's
// factors) changes through supabase-js's auth events, which the session provider listens to.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { sessionKeys, type SchoolRow } from '@/lib/session';
import { supabase } from '@/lib/supabase';
import { errorMessage } from '@/lib/utils';
import { disableTotp, enrollTotp, fetchVerifiedFactor, setStaffRequirement, signInFactorId, verifyTotp } from './queries';
import { rootKeys } from '@/lib/query-keys';

export const mfaKeys = {
  all: rootKeys.mfa,
  factor: (userId: string) => [...rootKeys.mfa, 'factor', userId] as const,
};

export const verifiedFactorQuery = (userId: string) =>
  queryOptions({ queryKey: mfaKeys.factor(userId), queryFn: () => fetchVerifiedFactor(supabase) });

export function useVerifiedFactor(userId: string | undefined) {
  return useQuery({ ...verifiedFactorQuery(userId ?? ''), enabled: !!userId });
}

/** GoTrue's answers to a code, in pt-BR. */
export function codeErrorMessage(error: unknown): string {
  const e = error as { code?: string; status?: number } | null;
  if (e?.status === 429) return 'Muitas tentativas. Aguarde alguns minutos e tente de novo.';
  if (e?.code === 'mfa_verification_failed') return 'Código inválido. Confira o código no aplicativo e tente de novo.';
  if (e?.code === 'mfa_challenge_expired') return 'O código expirou. Digite o código atual do aplicativo.';
  if (e?.code === 'insufficient_aal') return 'Confirme primeiro o código do aplicativo autenticador.';
  return errorMessage(error);
}

/** "Ativar": a new secret and its QR code (an earlier unfinished setup is dropped). */
export function useStartEnrollment() {
  return useMutation({
    mutationFn: (issuer: string) => enrollTotp(supabase, issuer),
    meta: { errorTitle: 'Erro ao ativar a verificação em duas etapas' },
  });
}

/** "Confirmar": the first code verifies the factor; the session becomes aal2. */
export function useConfirmEnrollment(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ factorId, code }: { factorId: string; code: string }) => verifyTotp(supabase, factorId, code),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mfaKeys.factor(userId) });
      toast.success('Verificação em duas etapas ativada!', { description: 'Nas próximas entradas, peça o código ao seu aplicativo autenticador.' });
    },
    onError: (error) => toast.error('Erro ao confirmar o código', { description: codeErrorMessage(error) }),
  });
}

/** "Desativar": a code, then the factor is removed. */
export function useDisableTwoFactor(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ factorId, code }: { factorId: string; code: string }) => disableTotp(supabase, factorId, code),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mfaKeys.factor(userId) });
      toast.success('Verificação em duas etapas desativada.');
    },
    onError: (error) => toast.error('Erro ao desativar', { description: codeErrorMessage(error) }),
  });
}

/** The sign-in step: the code of the account's factor turns this session into a complete one. */
export function useSecondFactorSignIn() {
  return useMutation({
    mutationFn: async (code: string) => verifyTotp(supabase, await signInFactorId(supabase), code),
    onError: (error) => toast.error('Erro ao verificar o código', { description: codeErrorMessage(error) }),
  });
}

/** The school admin's switch "Exigir verificação em duas etapas da equipe". */
export function useStaffRequirement(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) => setStaffRequirement(supabase, schoolId, required),
    onSuccess: (required) => {
      queryClient.setQueryData<SchoolRow | null>(sessionKeys.school(schoolId), (old) => (old ? { ...old, require_staff_mfa: required } : old));
      toast.success(required ? 'Verificação em duas etapas exigida da equipe.' : 'Exigência de verificação em duas etapas removida.');
    },
    meta: { errorTitle: 'Erro ao atualizar' },
  });
}
