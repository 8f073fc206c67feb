// The admin dashboard's four counters, in one RPC (public.admin_dashboard_counts).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { fetchDashboardCounts } from './queries';
import { rootKeys } from '@/lib/query-keys';

export const dashboardKeys = { counts: (schoolId: string) => [...rootKeys.dashboard, 'counts', schoolId] as const };

export const dashboardCountsQuery = (schoolId: string) =>
  queryOptions({
    queryKey: dashboardKeys.counts(schoolId),
    queryFn: async () => {
      try {
        return await fetchDashboardCounts(supabase, schoolId);
      } catch (error) {
        // SPEC §8: count failures are only logged; the counters show "—".
        console.error('Erro ao carregar contadores do dashboard', error);
        throw error;
      }
    },
    retry: false,
  });

export function useDashboardCounts(schoolId: string | null | undefined) {
  return useQuery({ ...dashboardCountsQuery(schoolId ?? ''), enabled: !!schoolId });
}
