// The admin dashboard's four counters and its trends (queries.ts). Keys:
//   ['dashboard', 'counts', schoolId]                  the four counters
//   ['dashboard', 'chart', schoolId, chart, period]    one trend chart of a period
//   ['dashboard', 'recovered', schoolId, from, to]     the revenue recovered in the Receita chart's period
// Writes of other features that change a count invalidate rootKeys.dashboard (the charts with it).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { fetchDashboardChart, fetchDashboardCounts, fetchRecoveredRevenue, type ChartPeriod, type DashboardChart } from './queries';

export const dashboardKeys = {
  all: rootKeys.dashboard,
  counts: (schoolId: string) => [...dashboardKeys.all, 'counts', schoolId] as const,
  chart: (schoolId: string, chart: DashboardChart, period: ChartPeriod) => [...dashboardKeys.all, 'chart', schoolId, chart, period] as const,
  recovered: (schoolId: string, from: string, to: string) => [...dashboardKeys.all, 'recovered', schoolId, from, to] as const,
};

export const dashboardCountsQuery = (schoolId: string) =>
  queryOptions({
    queryKey: dashboardKeys.counts(schoolId),
    queryFn: async () => {
      try {
        return await fetchDashboardCounts(supabase, schoolId);
      } catch (error) {
        // SPEC §8: count failures are only logged (no toast); the counters show "—" and a retry.
        console.error('Erro ao carregar contadores do dashboard', error);
        throw error;
      }
    },
    retry: false,
  });

export function useDashboardCounts(schoolId: string | null | undefined) {
  return useQuery({ ...dashboardCountsQuery(schoolId ?? ''), enabled: !!schoolId });
}

/** One trend of the dashboard; the previous period's chart stays on screen while another loads. */
export function useDashboardChart(schoolId: string | null | undefined, chart: DashboardChart, period: ChartPeriod) {
  return useQuery({
    queryKey: dashboardKeys.chart(schoolId ?? '', chart, period),
    queryFn: async () => {
      try {
        return await fetchDashboardChart(supabase, chart, schoolId ?? '', period);
      } catch (error) {
        // SPEC §8: like the counters, a failed chart is only logged; the card shows LoadError.
        console.error('Erro ao carregar gráfico do dashboard', error);
        throw error;
      }
    },
    enabled: !!schoolId,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Recovered revenue of the revenue chart's period (its from/to), once the chart has said them. */
export function useRecoveredRevenue(schoolId: string | null | undefined, period: { from: string; to: string } | undefined) {
  return useQuery({
    queryKey: dashboardKeys.recovered(schoolId ?? '', period?.from ?? '', period?.to ?? ''),
    queryFn: () => fetchRecoveredRevenue(supabase, { schoolId: schoolId ?? '', from: period!.from, to: period!.to }),
    enabled: !!schoolId && !!period,
  });
}
