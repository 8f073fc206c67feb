// The admin dashboard's four counters (queries.ts). Key: ['dashboard', 'counts', schoolId]; writes of
// other features that change a count invalidate rootKeys.dashboard.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { rootKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { fetchDashboardCounts } from './queries';

export const dashboardKeys = {
  all: rootKeys.dashboard,
  counts: (schoolId: string) => [...dashboardKeys.all, 'counts', schoolId] as const,
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
