// A plan's checkout (issue 24, /checkout/plano/:slug): the plan (its courses, the price per month or
// year) and the buyer's form of the course checkout, with only the plan's payment methods. Submit
// creates the subscription at Asaas (create-asaas-subscription) and goes to its first invoice, as the
// course checkout does. A plan the student already has points to the profile's "Minha assinatura".
// Issue 41: opening it records the buyer's checkout session; a reopen link (?retomar=<session>) continues
// it with the method they chose (a plan has no coupon), and offers its first invoice while it can be paid.
import { Link, useNavigate } from 'react-router-dom';
import { CheckCircle2, Loader2, Lock, SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { useSession } from '@/platform/session';
import { CYCLE_LABEL, pricePerCycle } from '@/concepts/subscriptions';
import { toast } from '@/platform/toast';
import { cn } from '@/utils/cn';
import { formatMoney } from '@/utils/format';
import {
  useCheckoutPlan,
  useCreateSubscription,
  useRecordPlanCheckoutStep,
  useResumedCheckout,
  type BillingType,
  type CheckoutPlan,
  type ResumedCheckout,
} from '../api/hooks';
import type { CheckoutValues } from '../schemas';
import { Centered, CheckoutSkeleton, ResumeError } from './checkout-page';
import { PaymentFields } from './payment-fields';
import { PaymentRefusal } from './payment-refusal';
import { paymentPayload, reportMissingFields, usePaymentForm } from './payment-form';

const SUBSCRIPTION_HINTS: Record<BillingType, string> = {
  PIX: 'Cada cobrança chega com um PIX para pagar. O acesso é liberado assim que o primeiro pagamento for confirmado.',
  BOLETO:
    'Cada cobrança gera um boleto; o primeiro vence em 3 dias. O acesso é liberado após a compensação (até 3 dias úteis).',
  CREDIT_CARD: 'O cartão é cobrado agora e, depois, automaticamente a cada renovação.',
};

export function PlanCheckoutPage({ slug, resume = null }: { slug: string; resume?: string | null }) {
  const { user, profile } = useSession();
  const plan = useCheckoutPlan(slug, profile?.school_id, user?.id);
  const resumed = useResumedCheckout(resume, user?.id);

  if (plan.isPending || (resume && resumed.isPending)) return <CheckoutSkeleton />;
  if (resumed.isError) return <ResumeError error={resumed.error} onRetry={resumed.refetch} />;
  if (plan.isError)
    return (
      <div className="mx-auto max-w-lg px-4 py-20">
        <LoadError title="Não foi possível carregar o plano" onRetry={plan.refetch} />
      </div>
    );
  if (!plan.data)
    return (
      <Centered
        icon={SearchX}
        title="Plano não encontrado"
        text="Este plano não existe ou não está disponível para você."
      >
        <Button asChild variant="outline">
          <Link to="/">Voltar</Link>
        </Button>
      </Centered>
    );
  const r = resumed.data?.plan_id === plan.data.id ? resumed.data : undefined;
  if (plan.data.running)
    return (
      <Centered
        icon={CheckCircle2}
        title="Você já assina este plano."
        text="A situação da assinatura e as cobranças estão em Minha assinatura, no seu perfil."
      >
        {r?.pending_charge && (
          <p role="status" className="text-sm">
            Sua cobrança de {formatMoney(r.pending_charge.value)} ainda pode ser paga.{' '}
            <a href={r.pending_charge.invoice_url} className="font-medium text-primary underline">
              Abrir cobrança
            </a>
          </p>
        )}
        <Button asChild variant="outline">
          <Link to="/profile">Ver minha assinatura</Link>
        </Button>
      </Centered>
    );
  if (!plan.data.is_active || plan.data.courses.length === 0)
    return (
      <Centered
        icon={Lock}
        title="Este plano não está à venda"
        text="Fale com a sua escola para saber como ter acesso."
      >
        <Button asChild variant="outline">
          <Link to="/">Voltar</Link>
        </Button>
      </Centered>
    );
  return <PlanCheckoutForm plan={plan.data} userId={user?.id} email={user?.email ?? ''} profile={profile} resumed={r} />;
}

function PlanSummary({ plan, className }: { plan: CheckoutPlan; className?: string }) {
  const n = plan.courses.length;
  return (
    <aside
      aria-label="Resumo da assinatura"
      className={cn('grid gap-4 rounded-2xl border border-border bg-white p-4 sm:p-6', className)}
    >
      <h2 className="text-lg font-semibold">Resumo da assinatura</h2>
      <div className="grid gap-1">
        <p className="font-semibold">{plan.name}</p>
        {plan.description && (
          <p className="line-clamp-2 text-sm text-muted-foreground lg:line-clamp-4">{plan.description}</p>
        )}
      </div>
      <div className="grid gap-2">
        <p className="text-sm font-medium">{n === 1 ? 'Acesso a 1 curso' : `Acesso a ${n} cursos`}</p>
        <ul className="grid gap-1 text-sm">
          {plan.courses.map((c) => (
            <li key={c.id} className="flex items-start gap-2">
              <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
              <span className="min-w-0 break-words">{c.title}</span>
            </li>
          ))}
        </ul>
      </div>
      <div className="grid gap-2 border-t border-border pt-4">
        <div className="flex items-baseline justify-between gap-2">
          <span className="text-sm text-muted-foreground">{CYCLE_LABEL[plan.cycle]}</span>
          <span className="text-2xl font-bold" data-testid="checkout-price">
            {pricePerCycle(plan.price, plan.cycle)}
          </span>
        </div>
        <p className="text-sm text-muted-foreground">
          Renovação automática {plan.cycle === 'YEARLY' ? 'a cada ano' : 'a cada mês'}. Cancele quando quiser no seu
          perfil: o acesso continua até o fim do período pago.
        </p>
      </div>
    </aside>
  );
}

function PlanCheckoutForm({
  plan,
  userId,
  email,
  profile,
  resumed,
}: {
  plan: CheckoutPlan;
  userId: string | undefined;
  email: string;
  profile: { name: string | null; cpf: string | null; phone: string | null } | null;
  /** The session a reopen link named (?retomar=): the method chosen last, when the plan still takes it. */
  resumed?: ResumedCheckout;
}) {
  const navigate = useNavigate();
  const subscribe = useCreateSubscription();
  const method = resumed?.billing_type && plan.billing_types.includes(resumed.billing_type) ? resumed.billing_type : plan.billing_types[0];
  const form = usePaymentForm({ email, profile, method });
  useRecordPlanCheckoutStep({ planId: plan.id, userId });
  const redirecting = subscribe.isSuccess;
  const busy = subscribe.isPending || redirecting;

  function onSubmit(v: CheckoutValues) {
    subscribe.mutate(
      { plan_id: plan.id, billing_type: v.method, ...paymentPayload(v) },
      {
        onSuccess: ({ invoiceUrl }) => {
          if (invoiceUrl) return window.location.assign(invoiceUrl);
          // Created at Asaas, its first invoice not listed yet: the profile shows it as it arrives,
          // with the word of it at the top, as when Asaas's invoice page sends the buyer back.
          toast.success('Assinatura criada! Acompanhe a cobrança em Minha assinatura.');
          navigate('/profile?assinatura=retorno', { replace: true });
        },
      },
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-6 sm:px-6 sm:py-10 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
      <h1 className="text-2xl font-bold tracking-tight lg:col-span-2">Assinar {plan.name}</h1>
      <PlanSummary plan={plan} className="lg:order-2" />
      <form
        noValidate
        aria-label="Pagamento"
        className="grid gap-6 rounded-2xl border border-border bg-white p-4 sm:p-6 lg:order-1"
        onSubmit={form.handleSubmit(onSubmit, reportMissingFields(form))}
      >
        <PaymentFields form={form} busy={busy} methods={plan.billing_types} hints={SUBSCRIPTION_HINTS} />
        <PaymentRefusal error={subscribe.error} form={form} onDismiss={subscribe.reset} />
        <Button type="submit" size="lg" disabled={busy} className="w-full">
          {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
          {redirecting
            ? 'Redirecionando para o pagamento...'
            : subscribe.isPending
              ? 'Processando...'
              : `Assinar por ${pricePerCycle(plan.price, plan.cycle)}`}
        </Button>
      </form>
    </div>
  );
}
