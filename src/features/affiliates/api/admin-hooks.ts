// TanStack Query over the staff's Afiliados (admin-queries.ts). Keys, under rootKeys.affiliates:
//   ['affiliates', 'admin', schoolId, status, page]   one tab's page
// A decision refreshes every affiliates key (the tabs' lists and counts).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/platform/supabase';
import { downloadCsv } from '@/utils/csv';
import { formatDateTime } from '@/utils/format';
import { commissionsCsv } from '../lib/csv';
import { decideAffiliate, fetchAdminAffiliates, fetchAllAdminCommissions, type AffiliateStatus } from './admin-queries';
import { affiliateKeys } from './hooks';

export function useAdminAffiliates(schoolId: string, status: AffiliateStatus, page: number) {
  return useQuery({
    queryKey: [...affiliateKeys.all, 'admin', schoolId, status, page],
    queryFn: () => fetchAdminAffiliates(supabase, schoolId, status, page),
    placeholderData: keepPreviousData,
  });
}

export function useDecideAffiliate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: Exclude<AffiliateStatus, 'pending'> }) =>
      decideAffiliate(supabase, id, status),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: affiliateKeys.all }),
    meta: { errorTitle: 'Erro ao atualizar status' },
  });
}

/** "Exportar comissões (CSV)": every share of the school's sales, as `comissoes.csv`. */
export function useExportCommissions() {
  return useMutation({
    mutationFn: async (schoolId: string) =>
      downloadCsv(
        'comissoes.csv',
        await commissionsCsv(await fetchAllAdminCommissions(supabase, schoolId), formatDateTime),
      ),
    meta: { errorTitle: 'Erro ao exportar' },
  });
}
