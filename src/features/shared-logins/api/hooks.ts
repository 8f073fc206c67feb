// TanStack Query over "Compartilhamento suspeito" (queries.ts). Keys, under rootKeys.sharedLogins:
//   ['shared-logins', schoolId, page]   one page of the report
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSetAccountActive } from '@/concepts/accounts';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { toast } from '@/platform/toast';
import { endAccountSessions, fetchSuspiciousSharing } from './queries';

export const sharedLoginKeys = {
  all: rootKeys.sharedLogins,
  page: (schoolId: string, page: number) => [...rootKeys.sharedLogins, schoolId, page] as const,
};

export function useSuspiciousSharing(schoolId: string, page: number) {
  return useQuery({ queryKey: sharedLoginKeys.page(schoolId, page), queryFn: () => fetchSuspiciousSharing(supabase, schoolId, page), placeholderData: keepPreviousData });
}

/** "Encerrar sessões": the toast says how many playback sessions ended; the report shows them ended. */
export function useEndAccountSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => endAccountSessions(supabase, userId),
    meta: { errorTitle: 'Erro ao encerrar sessões' },
    onSuccess: (ended) => {
      const what = ended === 0 ? 'Nenhum vídeo estava aberto.' : `${ended} ${ended === 1 ? 'sessão de vídeo encerrada' : 'sessões de vídeo encerradas'}.`;
      toast.success(`${what} A conta sai de todos os dispositivos em até 1 hora.`);
      return queryClient.invalidateQueries({ queryKey: sharedLoginKeys.all });
    },
  });
}

/**
 * "Desativar conta" (and "Reativar conta"): the Students screen's own operation. The report shows the new
 * state at once, and the Students list (another feature's cache) is marked stale too.
 */
export function useSetSharingAccountActive() {
  const queryClient = useQueryClient();
  const setActive = useSetAccountActive({
    listKey: rootKeys.sharedLogins,
    activated: 'Conta reativada!',
    deactivated: 'Conta desativada! O acesso foi bloqueado.',
    errorTitle: 'Erro ao salvar aluno',
  });
  return {
    isPending: setActive.isPending,
    mutate: (input: { id: string; active: boolean }, options: { onSettled?: () => void } = {}) =>
      setActive.mutate(input, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: rootKeys.students }), onSettled: options.onSettled }),
  };
}
