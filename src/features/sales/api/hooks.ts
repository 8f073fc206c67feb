// TanStack Query over Vendas (queries.ts). Keys, under rootKeys.sales:
//   ['sales', 'list', schoolId, filters, page]   one page of the sales
//   ['sales', 'totals', schoolId, filters]       the totals of the filters (status aside)
// A refund refreshes both: the row then says "Reembolso pedido" until Asaas's event marks it refunded.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { downloadCsv } from '@/utils/csv';
import { formatDateTime } from '@/utils/format';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { toast } from '@/platform/toast';
import { salesCsv } from '../lib/csv';
import { fetchAllSales, fetchSales, fetchSalesTotals, refundSale, type SalesFilters } from './queries';

export const salesKeys = {
  all: rootKeys.sales,
  list: (schoolId: string, f: SalesFilters, page: number) => [...salesKeys.all, 'list', schoolId, f.status, f.method, f.courseId, f.from, f.to, page] as const,
  totals: (schoolId: string, f: SalesFilters) => [...salesKeys.all, 'totals', schoolId, f.method, f.courseId, f.from, f.to] as const,
};

export function useSales(schoolId: string, filters: SalesFilters, page: number) {
  return useQuery({
    queryKey: salesKeys.list(schoolId, filters, page),
    queryFn: () => fetchSales(supabase, { schoolId, filters, page }),
    placeholderData: keepPreviousData,
  });
}

export function useSalesTotals(schoolId: string, filters: SalesFilters) {
  return useQuery({
    queryKey: salesKeys.totals(schoolId, filters),
    queryFn: () => fetchSalesTotals(supabase, { schoolId, filters }),
    placeholderData: keepPreviousData,
  });
}

export const REFUND_REQUESTED_MESSAGE = 'Reembolso solicitado. O acesso do aluno é pausado quando o Asaas confirmar.';

export function useRefundSale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundSale,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: salesKeys.all });
      toast.success(REFUND_REQUESTED_MESSAGE);
    },
    meta: { errorTitle: 'Erro ao reembolsar' },
  });
}

/** "Exportar CSV": every sale of the filters (not just the page shown), as `vendas-{aaaa-mm-dd}.csv`. */
export function useExportSales() {
  return useMutation({
    mutationFn: async (what: { schoolId: string; filters: SalesFilters }) =>
      downloadCsv(`vendas-${new Date().toISOString().slice(0, 10)}.csv`, await salesCsv(await fetchAllSales(supabase, what), formatDateTime)),
    meta: { errorTitle: 'Erro ao exportar' },
  });
}
