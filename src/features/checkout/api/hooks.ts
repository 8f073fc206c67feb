// TanStack Query over the checkout (queries.ts). Keys:
//   ['checkout', 'course', ref, schoolId, userId]   the course being bought
//   ['checkout', 'quote', courseId, userId, coupon, withBump]   what it costs (coupon, order bump)
//   ['checkout', 'plan', slug, schoolId, userId]     the plan being subscribed (/checkout/plano/:slug)
//   ['checkout', 'waitlist', courseId, userId]       the student's place on the course's waiting list (issue 40)
//   ['checkout', 'resume', sessionId, userId]        the session a reopen link names (?retomar=, issue 41)
//   ['payments', 'latest', courseId, userId]         the student's latest charge for a course (course page)
import { useEffect, useRef } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/platform/supabase';
import { rootKeys } from '@/platform/query-keys';
import {
  createCharge,
  createSubscription,
  fetchCheckoutCourse,
  fetchCheckoutPlan,
  fetchCheckoutQuote,
  fetchLatestPayment,
  fetchWaitlistEntry,
  joinWaitlist,
  leaveWaitlist,
  openCheckoutSession,
  openPlanCheckoutSession,
  resumeCheckoutSession,
  type ChargeRequest,
  type CourseRef,
  type SubscriptionRequest,
} from './queries';

export type { BillingType, CheckoutCourse, CheckoutPlan, CheckoutQuote, CourseRef, ResumedCheckout, TurmaOffer } from './queries';
export { RESUME_NOT_FOUND } from './queries';

export const checkoutKeys = {
  all: rootKeys.checkout,
  course: (ref: CourseRef | null, schoolId: string, userId: string) => [...checkoutKeys.all, 'course', ref, schoolId, userId] as const,
  quotes: [...rootKeys.checkout, 'quote'] as const,
  quote: (courseId: string, userId: string, coupon: string | null, withBump: boolean) => [...checkoutKeys.quotes, courseId, userId, coupon, withBump] as const,
  plans: [...rootKeys.checkout, 'plan'] as const,
  plan: (slug: string, schoolId: string, userId: string) => [...checkoutKeys.plans, slug, schoolId, userId] as const,
  waitlist: (courseId: string, userId: string) => [...rootKeys.checkout, 'waitlist', courseId, userId] as const,
  resume: (sessionId: string, userId: string) => [...rootKeys.checkout, 'resume', sessionId, userId] as const,
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

/** The quote for a coupon code (null: none) with or without the bump. While another quote loads the
 * last one stays on screen (isPlaceholderData), so the summary does not blink. */
export function useCheckoutQuote(courseId: string, userId: string | null | undefined, coupon: string | null, withBump: boolean) {
  return useQuery({
    queryKey: checkoutKeys.quote(courseId, userId ?? '', coupon, withBump),
    enabled: !!userId,
    queryFn: () => fetchCheckoutQuote(supabase, courseId, coupon, withBump),
    placeholderData: keepPreviousData,
  });
}

export function useCreateCharge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChargeRequest) => createCharge(body),
    meta: { errorTitle: 'Erro ao processar pagamento' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentKeys.all }),
    // A refusal may be the coupon's (used up meanwhile) or a new price: quote again, so the page shows why.
    onError: () => queryClient.invalidateQueries({ queryKey: checkoutKeys.quotes }),
  });
}

/** Read only while the turmas are sold out (the only time the list is offered). */
export function useWaitlistEntry(courseId: string, userId: string | null | undefined, enabled: boolean) {
  return useQuery({
    queryKey: checkoutKeys.waitlist(courseId, userId ?? ''),
    enabled: enabled && !!userId,
    queryFn: () => fetchWaitlistEntry(supabase, courseId, userId!),
  });
}

export function useJoinWaitlist(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => joinWaitlist(supabase, courseId),
    meta: { errorTitle: 'Erro ao entrar na lista de espera' },
    // A seat may have opened meanwhile: the quote says so.
    onSettled: () => queryClient.invalidateQueries({ queryKey: rootKeys.checkout }),
  });
}

export function useLeaveWaitlist(courseId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => leaveWaitlist(supabase, courseId, userId),
    meta: { errorTitle: 'Erro ao sair da lista de espera' },
    onSettled: () => queryClient.invalidateQueries({ queryKey: checkoutKeys.waitlist(courseId, userId) }),
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

export function useCheckoutPlan(slug: string, schoolId: string | null | undefined, userId: string | null | undefined) {
  return useQuery({
    queryKey: checkoutKeys.plan(slug, schoolId ?? '', userId ?? ''),
    enabled: !!slug && !!schoolId && !!userId,
    queryFn: () => fetchCheckoutPlan(supabase, slug, schoolId!, userId!),
  });
}

export function useCreateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubscriptionRequest) => createSubscription(body),
    meta: { errorTitle: 'Erro ao processar pagamento' },
    // A refusal may be "already subscribed" (another tab) or a plan changed meanwhile: read it again.
    onError: () => queryClient.invalidateQueries({ queryKey: checkoutKeys.plans }),
    onSuccess: () => Promise.all([rootKeys.subscriptions, rootKeys.plans].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** The reopen link's session (docs/recovery.md): its choices, read once; another account's link is P0002. */
export function useResumedCheckout(sessionId: string | null, userId: string | null | undefined) {
  return useQuery({
    queryKey: checkoutKeys.resume(sessionId ?? '', userId ?? ''),
    enabled: !!sessionId && !!userId,
    queryFn: () => resumeCheckoutSession(supabase, sessionId!),
    retry: false,
    staleTime: Infinity,
  });
}

/**
 * open_checkout_session at the steps docs/recovery.md names: the page opened, the coupon or the bump
 * changed; one write per step (the same choices are not written twice). Its errors are the quote's to show.
 */
export function useRecordCheckoutStep({ courseId, userId, couponCode, withBump }: { courseId: string; userId: string | undefined; couponCode: string | null; withBump: boolean }) {
  const written = useRef('');
  useEffect(() => {
    const step = JSON.stringify([courseId, couponCode, withBump]);
    if (!userId || written.current === step) return;
    written.current = step;
    openCheckoutSession(supabase, { courseId, couponCode, withBump }).catch(() => undefined);
  }, [courseId, userId, couponCode, withBump]);
}

/** open_plan_checkout_session once when a plan's checkout opens (docs/recovery.md "Plans"); its errors are the page's to ignore. */
export function useRecordPlanCheckoutStep({ planId, userId }: { planId: string; userId: string | undefined }) {
  const written = useRef('');
  useEffect(() => {
    if (!userId || written.current === planId) return;
    written.current = planId;
    openPlanCheckoutSession(supabase, planId).catch(() => undefined);
  }, [planId, userId]);
}
