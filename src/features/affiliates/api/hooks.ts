// TanStack Query over Afiliados (queries.ts). Keys, under rootKeys.affiliates:
//   ['affiliates', 'panel', userId, from, to]   the caller's affiliation and panel
//   ['affiliates', 'approved', userId]          whether the account menu offers "Painel do afiliado"
// "Quero ser afiliado" refreshes the caller's panel.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { settleReferral } from '../lib/settle-referral';
import { applyAsAffiliate, fetchAffiliatePanel, fetchIsApprovedAffiliate, saveAffiliateWallet } from './queries';

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
    placeholderData: keepPreviousData, // a new period keeps the page while it loads
  });
}

/** Whether the account is an approved affiliate: the account menu's "Painel do afiliado" (read once a session). */
export function useIsApprovedAffiliate(userId: string) {
  return useQuery({
    queryKey: [...affiliateKeys.all, 'approved', userId],
    queryFn: () => fetchIsApprovedAffiliate(supabase, userId),
    enabled: !!userId,
    staleTime: Infinity,
  });
}

/** "Quero ser afiliado" on a course. */
export function useApplyAsAffiliate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (courseId: string) => applyAsAffiliate(supabase, courseId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: affiliateKeys.all }),
    meta: { errorTitle: 'Erro ao pedir afiliação' },
  });
}

/** "Salvar carteira": a refused wallet or key is also shown under its field (the error's `field`). */
export function useSaveAffiliateWallet(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: { wallet_id: string; asaas_api_key: string }) => saveAffiliateWallet(values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...affiliateKeys.all, 'panel', userId] }),
    meta: { errorTitle: 'Erro ao salvar carteira' },
  });
}

/** Counts and attaches the affiliate code this browser kept, for the signed-in account (no cache: nothing to show). */
export const settleKeptReferral = () => settleReferral(supabase);
