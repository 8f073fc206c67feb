// TanStack Query over Afiliados (queries.ts). Keys, under rootKeys.affiliates:
//   ['affiliates', 'panel', userId, from, to]   the caller's affiliation and panel
// "Quero ser afiliado" refreshes the caller's panel.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { settleReferral } from '../lib/settle-referral';
import { applyAsAffiliate, fetchAffiliatePanel } from './queries';

export const affiliateKeys = {
  all: rootKeys.affiliates,
  panel: (userId: string, from = '', to = '') => [...affiliateKeys.all, 'panel', userId, from, to] as const,
};

/** The caller's affiliation and, once approved, their courses' links and numbers. */
export function useAffiliatePanel(userId: string, period: { from?: string; to?: string } = {}) {
  return useQuery({
    queryKey: affiliateKeys.panel(userId, period.from, period.to),
    queryFn: () => fetchAffiliatePanel(supabase, period),
    enabled: !!userId,
  });
}

/** "Quero ser afiliado" on a course. */
export function useApplyAsAffiliate(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (courseId: string) => applyAsAffiliate(supabase, courseId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...affiliateKeys.all, 'panel', userId] }),
    meta: { errorTitle: 'Erro ao pedir afiliação' },
  });
}

/** Counts and attaches the affiliate code this browser kept, for the signed-in account (no cache: nothing to show). */
export const settleKeptReferral = () => settleReferral(supabase);
