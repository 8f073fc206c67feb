// TanStack Query over the student's side of plans (queries.ts). Keys:
//   ['plans', 'offers', schoolId, userId]   the home's "Assine" offers
import { queryOptions, useQuery } from '@tanstack/react-query';
import { rootKeys } from '@/platform/query-keys';
import { supabase } from '@/platform/supabase';
import { fetchPlanOffers, type PlanOffer } from './queries';

export type { PlanOffer };

export const planKeys = {
  all: rootKeys.plans,
  offers: (schoolId: string, userId: string) => [...rootKeys.plans, 'offers', schoolId, userId] as const,
};

export const planOffersQuery = (schoolId: string, userId: string) =>
  queryOptions({
    queryKey: planKeys.offers(schoolId, userId),
    queryFn: () => fetchPlanOffers(supabase, schoolId, userId),
  });

export function usePlanOffers(schoolId: string, userId: string) {
  return useQuery(planOffersQuery(schoolId, userId));
}
