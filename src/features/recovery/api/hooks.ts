// TanStack Query over Recuperação (queries.ts). Keys, under rootKeys.recovery:
//   ['recovery', 'list', schoolId, filters…, page]   one page of the checkout sessions
//   ['recovery', 'totals', schoolId, filters…]       the period's numbers (the stage aside)
//   ['recovery', 'settings', schoolId]               Configurações → Recuperação de vendas
// A staff contact or "Não contatar" refreshes both (the touches and the numbers change).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { downloadCsv } from '@/utils/csv';
import { formatDateTime } from '@/utils/format';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { toast } from '@/platform/toast';
import { recoveryCsv } from '../lib/csv';
import {
  fetchAllCheckoutSessions,
  fetchCheckoutSessions,
  fetchRecoverySettings,
  fetchRecoveryTotals,
  recordStaffContact,
  saveRecoverySettings,
  setDoNotContact,
  type RecoveryFilters,
  type RecoverySettings,
} from './queries';

export const recoveryKeys = {
  all: rootKeys.recovery,
  list: (schoolId: string, f: RecoveryFilters, page: number) =>
    [...recoveryKeys.all, 'list', schoolId, f.stage, f.courseId, f.from, f.to, page] as const,
  totals: (schoolId: string, f: Pick<RecoveryFilters, 'courseId' | 'from' | 'to'>) =>
    [...recoveryKeys.all, 'totals', schoolId, f.courseId, f.from, f.to] as const,
  settings: (schoolId: string) => [...recoveryKeys.all, 'settings', schoolId] as const,
};

export function useCheckoutSessions(schoolId: string, filters: RecoveryFilters, page: number) {
  return useQuery({
    queryKey: recoveryKeys.list(schoolId, filters, page),
    queryFn: () => fetchCheckoutSessions(supabase, { schoolId, filters, page }),
    placeholderData: keepPreviousData,
  });
}

export function useRecoveryTotals(schoolId: string, filters: Pick<RecoveryFilters, 'courseId' | 'from' | 'to'>) {
  return useQuery({
    queryKey: recoveryKeys.totals(schoolId, filters),
    queryFn: () => fetchRecoveryTotals(supabase, { schoolId, filters }),
    placeholderData: keepPreviousData,
  });
}

export function useRecordStaffContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (what: { sessionId: string; channel: 'whatsapp' | 'link' }) => recordStaffContact(supabase, what),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: recoveryKeys.all }),
    meta: { errorTitle: 'Erro ao registrar o contato' },
  });
}

export function useSetDoNotContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (what: { sessionId: string; doNotContact: boolean }) => setDoNotContact(supabase, what),
    onSuccess: (_, { doNotContact }) => {
      void queryClient.invalidateQueries({ queryKey: recoveryKeys.all });
      toast.success(
        doNotContact
          ? 'Este comprador não receberá mais mensagens de recuperação desta compra.'
          : 'Os contatos de recuperação voltaram para este comprador.',
      );
    },
    meta: { errorTitle: 'Erro ao salvar' },
  });
}

/** "Exportar CSV": every session of the filters (not just the page shown), as `recuperacao-{aaaa-mm-dd}.csv`. */
export function useExportCheckoutSessions() {
  return useMutation({
    mutationFn: async (what: { schoolId: string; filters: RecoveryFilters }) =>
      downloadCsv(
        `recuperacao-${new Date().toISOString().slice(0, 10)}.csv`,
        await recoveryCsv(await fetchAllCheckoutSessions(supabase, what), formatDateTime),
      ),
    meta: { errorTitle: 'Erro ao exportar' },
  });
}

export function useRecoverySettings(schoolId: string) {
  return useQuery({ queryKey: recoveryKeys.settings(schoolId), queryFn: () => fetchRecoverySettings(supabase, schoolId) });
}

/** The switch: only `enabled` changes (SettingSwitch says "Salvo"); what the server kept becomes the cache. */
export function useSetRecoveryEnabled(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => saveRecoverySettings(supabase, schoolId, { enabled }),
    onSuccess: (saved) => queryClient.setQueryData(recoveryKeys.settings(schoolId), saved),
    meta: { errorTitle: 'Erro ao salvar' },
  });
}

/** The form's "Salvar": the delays and the coupon. */
export function useSaveRecoverySettings(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: Pick<RecoverySettings, 'delays_minutes' | 'coupon_percent'>) => saveRecoverySettings(supabase, schoolId, settings),
    onSuccess: (saved) => {
      queryClient.setQueryData(recoveryKeys.settings(schoolId), saved);
      toast.success('Recuperação de vendas salva!');
    },
    meta: { errorTitle: 'Erro ao salvar' },
  });
}
