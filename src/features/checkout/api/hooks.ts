// TanStack Query over the checkout (queries.ts). Keys:
//   ['checkout', 'course', ref, schoolId, userId]   the course being bought
//   ['payments', 'latest', courseId, userId]         the student's latest charge for a course (course page)
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { rootKeys } from '@/lib/query-keys';
import { createCharge, fetchCheckoutCourse, fetchLatestPayment, type ChargeRequest, type CourseRef } from './queries';

export type { BillingType, CheckoutCourse, CourseRef } from './queries';

export const checkoutKeys = {
  all: rootKeys.checkout,
  course: (ref: CourseRef | null, schoolId: string, userId: string) => [...checkoutKeys.all, 'course', ref, schoolId, userId] as const,
};

export const paymentKeys = {
  all: rootKeys.payments,
  latest: (courseId: string, userId: string) => [...paymentKeys.all, 'latest', courseId, userId] as const,
};

export function useCheckoutCourse(ref: CourseRef | null, schoolId: string | null | undefined, userId: string | null | undefined) {
  return useQuery({
    queryKey: checkoutKeys.course(ref, schoolId ?? '', userId ?? ''),
    enabled: !!ref && !!schoolId && !!userId,
    queryFn: () => fetchCheckoutCourse(supabase, ref!, schoolId!, userId!),
  });
}

export function useCreateCharge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChargeRequest) => createCharge(body),
    meta: { errorTitle: 'Erro ao processar pagamento' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentKeys.all }),
  });
}

export function useLatestPayment(courseId: string, userId: string | null | undefined, { poll, enabled }: { poll: boolean; enabled: boolean }) {
  return useQuery({
    queryKey: paymentKeys.latest(courseId, userId ?? ''),
    enabled: enabled && !!courseId && !!userId,
    refetchInterval: poll ? 3000 : false,
    queryFn: () => fetchLatestPayment(supabase, courseId, userId!),
  });
}
