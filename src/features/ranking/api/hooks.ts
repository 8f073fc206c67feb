// Key factory: ['ranking', 'school', schoolId, userId] — the school's month ranking as this account
// sees it (its own position and opt-out are in the same answer).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { dismissRankingNotice, fetchRanking, setRankingVisibility } from './queries';

export const rankingKeys = {
  all: rootKeys.ranking,
  school: (schoolId: string, userId: string) => [...rankingKeys.all, 'school', schoolId, userId] as const,
};

export const rankingQuery = (schoolId: string, userId: string) =>
  queryOptions({ queryKey: rankingKeys.school(schoolId, userId), queryFn: () => fetchRanking(supabase, schoolId), staleTime: 60_000 });

export function useRanking(schoolId: string | null | undefined, userId: string | null | undefined) {
  return useQuery({ ...rankingQuery(schoolId ?? '', userId ?? ''), enabled: !!schoolId && !!userId });
}

/** "Aparecer no ranking da escola": off inserts the opt-out, on deletes it; the ranking refreshes. */
export function useSetRankingVisibility(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (visible: boolean) => setRankingVisibility(supabase, userId, visible),
    meta: { errorTitle: 'Erro ao atualizar perfil' },
    onSettled: () => queryClient.invalidateQueries({ queryKey: rankingKeys.all }),
  });
}

/** The notice that the student appears in the ranking, dismissed for good (their ranking_notices row). */
export function useDismissRankingNotice(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dismissRankingNotice(supabase, userId),
    meta: { errorTitle: 'Erro ao atualizar perfil' },
    onSettled: () => queryClient.invalidateQueries({ queryKey: rankingKeys.all }),
  });
}
