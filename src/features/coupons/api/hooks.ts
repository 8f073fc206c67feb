// TanStack Query over the coupons (queries.ts). Keys:
//   ['coupons', 'list', schoolId]   every coupon of the school with its numbers (Cupons)
// Every write invalidates the root (a refund in Vendas does too: it gives a use back).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/platform/toast';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import {
  deleteCoupon,
  fetchCoupons,
  saveCoupon,
  setCouponActive,
  type AdminCoupon,
  type SaveCouponInput,
} from './queries';

export type { AdminCoupon };

export const couponKeys = {
  all: rootKeys.coupons,
  list: (schoolId: string) => [...rootKeys.coupons, 'list', schoolId] as const,
};

export const couponsQuery = (schoolId: string) =>
  queryOptions({ queryKey: couponKeys.list(schoolId), queryFn: () => fetchCoupons(supabase, schoolId) });

export function useCoupons(schoolId: string) {
  return useQuery(couponsQuery(schoolId));
}

function useInvalidateCoupons() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: couponKeys.all });
}

export function useSaveCoupon() {
  const invalidate = useInvalidateCoupons();
  return useMutation({
    mutationFn: (input: SaveCouponInput) => saveCoupon(supabase, input),
    meta: { errorTitle: 'Erro ao salvar cupom' },
    onSuccess: (_d, { coupon }) => {
      toast.success(coupon ? 'Cupom atualizado!' : 'Cupom criado!');
      void invalidate();
    },
  });
}

export function useSetCouponActive() {
  const invalidate = useInvalidateCoupons();
  return useMutation({
    mutationFn: (input: { id: string; is_active: boolean }) => setCouponActive(supabase, input),
    meta: { errorTitle: 'Erro ao atualizar cupom' },
    onSuccess: (_d, { is_active }) => {
      toast.success(is_active ? 'Cupom ativado!' : 'Cupom desativado!');
      void invalidate();
    },
  });
}

export function useDeleteCoupon() {
  const invalidate = useInvalidateCoupons();
  return useMutation({
    mutationFn: (id: string) => deleteCoupon(supabase, id),
    meta: { errorTitle: 'Erro ao excluir' },
    onSuccess: () => {
      toast.success('Cupom excluído!');
      void invalidate();
    },
  });
}
