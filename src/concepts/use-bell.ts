// The header bell's query (src/concepts/bell.ts): one cache entry per school and account, read by the
// bell, its notifications and the home's announcement popup through `select`.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bellKeys, fetchBell, type BellFeed } from '@/concepts/bell';
import { useSession } from '@/platform/session';
import { supabase } from '@/platform/supabase';

export const bellQuery = (schoolId: string, userId: string) =>
  queryOptions({
    queryKey: bellKeys.feed(schoolId, userId),
    queryFn: () => fetchBell(supabase, schoolId),
    staleTime: 60_000,
  });

/** The bell's feed of the signed-in account at `schoolId`; `select` picks the part a component shows. */
export function useBell<T = BellFeed>(schoolId: string | null | undefined, select?: (feed: BellFeed) => T) {
  const { user } = useSession();
  const userId = user?.id ?? '';
  return useQuery({ ...bellQuery(schoolId ?? '', userId), enabled: !!schoolId && !!userId, select });
}
