// TanStack Query over Notas fiscais (queries.ts). Keys, under rootKeys.invoices:
//   ['invoices', 'settings', schoolId]             Configurações → Notas fiscais (the row)
//   ['invoices', 'check', schoolId]                Asaas's fiscal check (what is missing)
//   ['invoices', 'services', schoolId, q]          the municipality's services, searched
//   ['invoices', 'sales', paymentIds…]             the invoices of Vendas' page
//   ['invoices', 'list', schoolId, status, from, to, page]   "Notas com erro"
//   ['invoices', 'totals', schoolId, from, to]     the period's "Notas fiscais"
//   ['invoices', 'mine', userId, page]             Minhas compras
// "Emitir novamente" and the switch refresh every invoice key.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { toast } from '@/platform/toast';
import { downloadCsv } from '@/utils/csv';
import { formatDateTime } from '@/utils/format';
import { invoicesCsv } from '../lib/csv';
import {
  checkFiscalInfo,
  fetchAdminInvoices,
  fetchAllAdminInvoices,
  fetchInvoiceSettings,
  fetchInvoiceTotals,
  fetchMyPurchases,
  fetchSaleInvoices,
  retryInvoice,
  saveInvoiceSettings,
  searchMunicipalServices,
  setInvoicesEnabled,
  type InvoicePeriod,
  type InvoiceSettingsWrite,
  type InvoiceStatus,
} from './queries';

export const invoiceKeys = {
  all: rootKeys.invoices,
  settings: (schoolId: string) => [...invoiceKeys.all, 'settings', schoolId] as const,
  check: (schoolId: string) => [...invoiceKeys.all, 'check', schoolId] as const,
  services: (schoolId: string, q: string) => [...invoiceKeys.all, 'services', schoolId, q] as const,
  sales: (paymentIds: string[]) => [...invoiceKeys.all, 'sales', ...paymentIds] as const,
  list: (schoolId: string, status: string, p: InvoicePeriod, page: number) =>
    [...invoiceKeys.all, 'list', schoolId, status, p.from, p.to, page] as const,
  totals: (schoolId: string, p: InvoicePeriod) => [...invoiceKeys.all, 'totals', schoolId, p.from, p.to] as const,
  mine: (userId: string, page: number) => [...invoiceKeys.all, 'mine', userId, page] as const,
};

export function useInvoiceSettings(schoolId: string) {
  return useQuery({
    queryKey: invoiceKeys.settings(schoolId),
    queryFn: () => fetchInvoiceSettings(supabase, schoolId),
  });
}

export function useFiscalCheck(schoolId: string) {
  return useQuery({ queryKey: invoiceKeys.check(schoolId), queryFn: () => checkFiscalInfo(schoolId) });
}

export function useMunicipalServices(schoolId: string, q: string, enabled: boolean) {
  return useQuery({
    queryKey: invoiceKeys.services(schoolId, q),
    queryFn: () => searchMunicipalServices(schoolId, q),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** The switch; a refusal (something missing) reads the check again, so the list shows why. */
export function useSetInvoicesEnabled(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => setInvoicesEnabled(schoolId, enabled),
    onSuccess: ({ enabled }) =>
      queryClient.setQueryData(
        invoiceKeys.settings(schoolId),
        (s: Awaited<ReturnType<typeof fetchInvoiceSettings>> | undefined) => s && { ...s, enabled },
      ),
    onError: () => void queryClient.invalidateQueries({ queryKey: invoiceKeys.check(schoolId) }),
    meta: { errorTitle: 'Erro ao salvar' },
  });
}

/** The form's "Salvar"; the check reads again (the municipal service is one of its items). */
export function useSaveInvoiceSettings(schoolId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: InvoiceSettingsWrite) => saveInvoiceSettings(supabase, schoolId, settings),
    onSuccess: (saved) => {
      queryClient.setQueryData(invoiceKeys.settings(schoolId), saved);
      void queryClient.invalidateQueries({ queryKey: invoiceKeys.check(schoolId) });
      toast.success('Notas fiscais salvas!');
    },
    meta: { errorTitle: 'Erro ao salvar' },
  });
}

/** The invoices of Vendas' page: one request for the page, whichever row asks. */
export function useSaleInvoices(paymentIds: string[]) {
  return useQuery({
    queryKey: invoiceKeys.sales(paymentIds),
    queryFn: () => fetchSaleInvoices(supabase, paymentIds),
    placeholderData: keepPreviousData,
  });
}

export function useAdminInvoices(
  schoolId: string,
  status: InvoiceStatus | '',
  period: InvoicePeriod,
  page: number,
  enabled = true,
) {
  return useQuery({
    queryKey: invoiceKeys.list(schoolId, status, period, page),
    queryFn: () => fetchAdminInvoices(supabase, { schoolId, status, period, page }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useInvoiceTotals(schoolId: string, period: InvoicePeriod) {
  return useQuery({
    queryKey: invoiceKeys.totals(schoolId, period),
    queryFn: () => fetchInvoiceTotals(supabase, { schoolId, period }),
    placeholderData: keepPreviousData,
  });
}

export function useRetryInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoiceId: string) => retryInvoice(supabase, invoiceId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
      toast.success('A nota será emitida novamente em até um minuto.');
    },
    meta: { errorTitle: 'Erro ao emitir a nota' },
  });
}

/** "Exportar notas do mês": every invoice of the month (aaaa-mm), as `notas-fiscais-{aaaa-mm}.csv`. */
export function useExportMonthInvoices() {
  return useMutation({
    mutationFn: async ({ schoolId, month }: { schoolId: string; month: string }) => {
      const [y, m] = month.split('-').map(Number) as [number, number];
      const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
      const period = { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
      downloadCsv(
        `notas-fiscais-${month}.csv`,
        await invoicesCsv(await fetchAllAdminInvoices(supabase, { schoolId, period }), formatDateTime),
      );
    },
    meta: { errorTitle: 'Erro ao exportar' },
  });
}

export function useMyPurchases(userId: string, page: number) {
  return useQuery({
    queryKey: invoiceKeys.mine(userId, page),
    queryFn: () => fetchMyPurchases(supabase, page),
    placeholderData: keepPreviousData,
  });
}
