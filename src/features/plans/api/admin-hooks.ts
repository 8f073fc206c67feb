// TanStack Query over the staff's plans (admin-queries.ts). Keys:
//   ['plans', 'admin', schoolId]                    every plan of the school with its numbers (Planos)
//   ['plans', 'subscribers', planId, view, page]    a page of a plan's subscribers, or of its failed attempts (Assinantes)
// Every write invalidates the root (the home's offers are under it too).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rootKeys } from '@/platform/query-keys';
import { useCancelSubscription } from '@/concepts/subscriptions';
import { supabase } from '@/platform/supabase';
import { toast } from '@/platform/toast';
import {
  fetchAdminPlans,
  fetchPlanSubscribers,
  savePlan,
  setPlanActive,
  type AdminPlan,
  type PlanSubscriber,
  type SavePlanInput,
  type SubscribersView,
} from './admin-queries';

export type { AdminPlan, PlanSubscriber, SubscribersView };
export { SUBSCRIBERS_PAGE_SIZE } from './admin-queries';

export const adminPlanKeys = {
  all: rootKeys.plans,
  list: (schoolId: string) => [...rootKeys.plans, 'admin', schoolId] as const,
  subscribers: (planId: string, view: SubscribersView, page: number) => [...rootKeys.plans, 'subscribers', planId, view, page] as const,
};

export const adminPlansQuery = (schoolId: string) =>
  queryOptions({ queryKey: adminPlanKeys.list(schoolId), queryFn: () => fetchAdminPlans(supabase, schoolId) });

export function useAdminPlans(schoolId: string) {
  return useQuery(adminPlansQuery(schoolId));
}

export function usePlanSubscribers(planId: string, view: SubscribersView, page: number) {
  return useQuery({
    queryKey: adminPlanKeys.subscribers(planId, view, page),
    queryFn: () => fetchPlanSubscribers(supabase, planId, page, view),
    placeholderData: keepPreviousData,
  });
}

function useInvalidatePlans() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminPlanKeys.all });
}

export function useSavePlan() {
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (input: SavePlanInput) => savePlan(supabase, input),
    meta: { errorTitle: 'Erro ao salvar plano' },
    onSuccess: (_d, { plan }) => {
      toast.success(plan ? 'Plano atualizado!' : 'Plano criado!');
      void invalidate();
    },
  });
}

export function useSetPlanActive() {
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (input: { id: string; is_active: boolean }) => setPlanActive(supabase, input),
    meta: { errorTitle: 'Erro ao atualizar plano' },
    onSuccess: (_d, { is_active }) => {
      toast.success(is_active ? 'Plano ativado!' : 'Plano desativado!');
      void invalidate();
    },
  });
}

/** Staff cancel a subscriber's subscription: the plan's numbers and subscribers refresh. */
export function useCancelPlanSubscription() {
  return useCancelSubscription([adminPlanKeys.all]);
}
