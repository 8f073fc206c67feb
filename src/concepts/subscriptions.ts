// Subscriptions (issue 24, docs/selling.md "Subscriptions") as two features show them: the staff's
// Assinantes of a plan (features/plans) and the student's "Minha assinatura" (features/profile). One
// cancellation (edge function cancel-asaas-subscription: Asaas removes it, then the database keeps the
// access until the end of the paid period), one wording of a status, a cycle and a payment method.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { BadgeVariant } from '@/components/ui/badge';
import { Constants, type Tables } from '@/types/database';
import { formatDate, formatMoney } from '@/utils/format';
import { invokeFunction } from '@/platform/functions';
import { toast } from '@/platform/toast';

export type SubscriptionStatus = Tables<'subscriptions'>['status'];
export type PlanCycle = Tables<'plans'>['cycle'];
export type BillingType = Tables<'subscriptions'>['billing_type'];

/** A plan's own fields as the staff's Planos and the student's checkout read them (billing_types typed). */
export type PlanRow = Pick<
  Tables<'plans'>,
  'id' | 'slug' | 'name' | 'description' | 'cycle' | 'price' | 'is_active'
> & {
  billing_types: BillingType[];
};

export const PLAN_CYCLES = Constants.public.Checks.plans.cycle;
export const BILLING_TYPES = Constants.public.Checks.subscriptions.billing_type;

export const CYCLE_LABEL: Record<PlanCycle, string> = { MONTHLY: 'Mensal', YEARLY: 'Anual' };
export const BILLING_TYPE_LABEL: Record<BillingType, string> = { PIX: 'PIX', BOLETO: 'Boleto', CREDIT_CARD: 'Cartão' };

/** "R$ 49,90/mês" or "R$ 478,80/ano". */
export function pricePerCycle(price: number, cycle: PlanCycle): string {
  return `${formatMoney(price)}/${cycle === 'YEARLY' ? 'ano' : 'mês'}`;
}

/** Asaas may still charge it: PENDING (first invoice unpaid), ACTIVE or OVERDUE. */
export const isRunning = (status: SubscriptionStatus) =>
  status === 'PENDING' || status === 'ACTIVE' || status === 'OVERDUE';

const STATUS: Record<SubscriptionStatus, { label: string; variant: BadgeVariant }> = {
  PENDING: { label: 'Pendente', variant: 'secondary' },
  ACTIVE: { label: 'Ativa', variant: 'success' },
  OVERDUE: { label: 'Em atraso', variant: 'warning' },
  CANCELLED: { label: 'Cancelada', variant: 'outline' },
  EXPIRED: { label: 'Encerrada', variant: 'secondary' },
  FAILED: { label: 'Falhou', variant: 'destructive' },
};

/** The status badge: "Cancelada — acesso até dd/mm/aaaa" while a cancelled one still opens the courses. */
export function subscriptionStatus(s: { status: SubscriptionStatus; paid_until: string | null }): {
  label: string;
  variant: BadgeVariant;
} {
  const status = STATUS[s.status] ?? { label: s.status, variant: 'secondary' as const };
  if (s.status === 'CANCELLED' && s.paid_until)
    return { ...status, label: `${status.label} — acesso até ${formatDate(s.paid_until)}` };
  return status;
}

/** The access kept until the end of the paid period, if any. */
function cancelConsequence(paidUntil: string | null, subject: string, now: number): string {
  return paidUntil && new Date(paidUntil).getTime() > now
    ? `${subject} mantém o acesso até ${formatDate(paidUntil)}.`
    : 'Nenhum período foi pago: a cobrança em aberto é cancelada e o acesso aos cursos do plano não é liberado.';
}

/** The subscription a confirmation is about: a subscriber's, for the staff (Assinantes), or the student's own plan. */
export type CancelTarget = { paid_until: string | null } & (
  { name: string; email: string | null } | { plan_name: string }
);

/** What the confirmation says before cancelling: no more charges, and the access kept until the end of the paid period. */
export function cancelConfirmation(t: CancelTarget, now = Date.now()): string {
  return 'plan_name' in t
    ? `Não haverá novas cobranças de ${t.plan_name}. ${cancelConsequence(t.paid_until, 'Você', now)}`
    : `${t.name || t.email || 'O assinante'} não será mais cobrado(a) pelo Asaas. ${cancelConsequence(t.paid_until, 'O assinante', now)}`;
}

/** Asaas stops charging it; the database keeps the access until paid_until (CANCELLED) or ends it (EXPIRED). */
export function cancelSubscription(subscriptionId: string): Promise<Tables<'subscriptions'>> {
  return invokeFunction<Tables<'subscriptions'>>('cancel-asaas-subscription', { subscription_id: subscriptionId });
}

/** "Cancelar assinatura": each screen refreshes its own lists (`invalidate`). */
export function useCancelSubscription(invalidate: QueryKey[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    meta: { errorTitle: 'Erro ao cancelar assinatura' },
    onSuccess: (sub) => {
      toast.success(
        sub.status === 'CANCELLED' && sub.paid_until
          ? `Assinatura cancelada. O acesso continua até ${formatDate(sub.paid_until)}.`
          : 'Assinatura cancelada.',
      );
      return Promise.all(invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
