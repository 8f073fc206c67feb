// Keys, queries and mutations of two-factor sign-in. The session (and with it `aal` and the user's
// factors) changes through supabase-js's auth events, which the session provider listens to.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { sessionKeys, type SchoolRow } from '@/platform/session';
import { supabase } from '@/platform/supabase';
import { disableTotp, enrollTotp, fetchVerifiedFactor, setStaffRequirement, signInFactorId, verifyTotp } from './queries';
import type { DbClient } from '@/platform/db';
import { rootKeys } from '@/platform/query-keys';

export const mfaKeys = {
  all: rootKeys.mfa,
  factor: (userId: string) => [...mfaKeys.all, 'factor', userId] as const,
};

export const verifiedFactorQuery = (userId: string) =>
  queryOptions({ queryKey: mfaKeys.factor(userId), queryFn: () => fetchVerifiedFactor(supabase) });

export function useVerifiedFactor(userId: string | undefined) {
  return useQuery({ ...verifiedFactorQuery(userId ?? ''), enabled: !!userId });
}

/** "Ativar": a new secret and its QR code (an earlier unfinished setup is dropped). */
export function useStartEnrollment() {
  return useMutation({
    mutationFn: (issuer: string) => enrollTotp(supabase, issuer),
    meta: { errorTitle: 'Erro ao ativar a verificação em duas etapas' },
  });
}

/** A change of the account's factor proved by a code of the app; the factor is read again after it. */
function useFactorCodeChange(
  userId: string,
  { change, errorTitle, onChanged }: { change: (client: DbClient, factorId: string, code: string) => Promise<void>; errorTitle: string; onChanged: () => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ factorId, code }: { factorId: string; code: string }) => change(supabase, factorId, code),
    meta: { errorTitle },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mfaKeys.factor(userId) });
      onChanged();
    },
  });
}

/** "Confirmar": the first code verifies the factor; the session becomes aal2. */
export function useConfirmEnrollment(userId: string) {
  return useFactorCodeChange(userId, {
    change: verifyTotp,
    errorTitle: 'Erro ao confirmar o código',
    onChanged: () => toast.success('Verificação em duas etapas ativada!', { description: 'Nas próximas entradas, peça o código ao seu aplicativo autenticador.' }),
  });
}

/** "Desativar": a code, then the factor is removed. */
export function useDisableTwoFactor(userId: string) {
  return useFactorCodeChange(userId, {
    change: disableTotp,
    errorTitle: 'Erro ao desativar',
    onChanged: () => toast.success('Verificação em duas etapas desativada.'),
  });
}

/** The sign-in step: the code of the account's factor turns this session into a complete one. */
export function useSecondFactorSignIn() {
  return useMutation({
    mutationFn: async (code: string) => verifyTotp(supabase, await signInFactorId(supabase), code),
    meta: { errorTitle: 'Erro ao verificar o código' },
  });
}

/** The school admin's switch "Exigir verificação em duas etapas da equipe" (it says "Salvo" itself). */
export function useStaffRequirement(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) => setStaffRequirement(supabase, schoolId, required),
    onSuccess: (required) => {
      queryClient.setQueryData<SchoolRow | null>(sessionKeys.school(schoolId), (old) => (old ? { ...old, require_staff_mfa: required } : old));
    },
    meta: { errorTitle: 'Erro ao atualizar' },
  });
}
