// The payment form of the checkout (SPEC §4/§5/§8): the buyer, the method, and for Cartão the card and
// its holder; the coupon and the order bump (issue 24) change the database's quote, whose total is what
// the page shows and sends. On success the browser goes to Asaas's invoice; a 409 (already enrolled)
// goes to the course. Each step (opened, coupon, bump) is recorded as the buyer's checkout session
// (issue 41); a reopened checkout starts with the session's bump and method, and offers its charge still payable.
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/platform/toast';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Select } from '@/components/ui/select';
import { formatMoney } from '@/utils/format';
import { useCheckoutQuote, useCreateCharge, useRecordCheckoutStep, type CheckoutCourse, type ResumedCheckout } from '../api/hooks';
import { installmentValue, type CheckoutValues } from '../schemas';
import { CouponField } from './coupon-field';
import { OrderBump } from './order-bump';
import { OrderSummary } from './order-summary';
import { PaymentFields } from './payment-fields';
import { PaymentRefusal } from './payment-refusal';
import { TurmaOffer } from './turma-offer';
import { paymentPayload, reportMissingFields, usePaymentForm } from './payment-form';

export function CheckoutForm({
  course,
  userId,
  email,
  profile,
  coupon: linkCoupon,
  resumed,
}: {
  course: CheckoutCourse;
  userId: string | undefined;
  email: string;
  profile: { name: string | null; cpf: string | null; phone: string | null } | null;
  /** The link's ?cupom=: applied as the page opens. */
  coupon: string | null;
  /** The session a reopen link named (?retomar=): its bump, method and payable charge. */
  resumed?: ResumedCheckout;
}) {
  const navigate = useNavigate();
  const charge = useCreateCharge();
  const [couponCode, setCouponCode] = useState(() => linkCoupon?.trim() || null);
  const [withBump, setWithBump] = useState(() => resumed?.with_bump ?? false);
  const quote = useCheckoutQuote(course.id, userId, couponCode, withBump);
  const q = quote.data;
  // The quote on screen is the one asked for (not the last one kept while the next loads).
  const quoting = quote.isFetching || quote.isPlaceholderData;
  const refusal = couponCode && !quote.isPlaceholderData ? (q?.coupon_error ?? null) : null;
  const form = usePaymentForm({ email, profile, method: resumed?.billing_type ?? undefined });
  useRecordCheckoutStep({ courseId: course.id, userId, couponCode, withBump });
  const pendingCharge = resumed?.pending_charge;
  const [method, installments] = useWatch({ control: form.control, name: ['method', 'installments'] });
  const isCard = method === 'CREDIT_CARD';
  const redirecting = charge.isSuccess;
  const busy = charge.isPending || redirecting;
  const total = q?.total;
  // A course with turmas sells only while one has a seat (issue 40): else the turma says why.
  const onSale = !q?.turmas || q.turmas.state === 'open';

  function onSubmit(v: CheckoutValues) {
    if (!q || quoting || !onSale) return;
    charge.mutate(
      {
        course_id: course.id,
        billing_type: v.method,
        value: q.total,
        coupon_code: q.coupon?.code ?? null,
        with_bump: q.with_bump,
        ...paymentPayload(v),
        ...(v.method === 'CREDIT_CARD' ? { installment_count: Number(v.installments) || 1 } : {}),
      },
      {
        onSuccess: (result) => {
          if (result.alreadyEnrolled === undefined) return window.location.assign(result.invoiceUrl);
          toast.info(result.alreadyEnrolled);
          navigate(`/course/${course.id}`, { replace: true });
        },
      },
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-6 sm:px-6 sm:py-10 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
      <h1 className="text-2xl font-bold tracking-tight lg:col-span-2">Finalizar compra</h1>
      <OrderSummary course={course} quote={q} quoteFailed={quote.isError} onRetry={() => (withBump ? setWithBump(false) : void quote.refetch())} className="lg:order-2">
        {q?.turmas && <TurmaOffer offer={q.turmas} courseId={course.id} userId={userId ?? ''} />}
        <CouponField
          initialCode={couponCode}
          applied={q?.coupon && q.coupon.code.toUpperCase() === couponCode?.toUpperCase() ? q.coupon : null}
          refusal={refusal}
          pending={quoting && !!couponCode}
          disabled={busy || !q}
          // The same code again asks again (a minute after the guess limit, say).
          onApply={(code) => (code === couponCode ? void quote.refetch() : setCouponCode(code))}
          onRemove={() => setCouponCode(null)}
        />
      </OrderSummary>
      <form noValidate aria-label="Pagamento" className="grid gap-6 rounded-2xl border border-border bg-white p-4 sm:p-6 lg:order-1" onSubmit={form.handleSubmit(onSubmit, reportMissingFields(form))}>
        <PaymentFields
          form={form}
          busy={busy}
          cardExtra={
            course.max_installments > 1 &&
            total !== undefined && (
              <FormField label="Parcelas">
                <Select {...form.register('installments')}>
                  {Array.from({ length: course.max_installments }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={n}>
                      {n === 1 ? `À vista: ${formatMoney(total)}` : `${n}x de ${formatMoney(installmentValue(total, n))}`}
                    </option>
                  ))}
                </Select>
              </FormField>
            )
          }
        />

        {q?.bump && <OrderBump bump={q.bump} checked={withBump} disabled={busy} onChange={setWithBump} />}

        {pendingCharge && (
          <p role="status" className="rounded-lg border border-border bg-muted/40 p-3 text-sm">
            Sua cobrança de {formatMoney(pendingCharge.value)} ainda pode ser paga.{' '}
            <a href={pendingCharge.invoice_url} className="font-medium text-primary underline">
              Abrir cobrança
            </a>
          </p>
        )}
        <PaymentRefusal error={charge.error} form={form} onDismiss={charge.reset} />
        <Button type="submit" size="lg" disabled={busy || !q || quoting || !onSale} className="w-full">
          {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
          {redirecting ? 'Redirecionando para o pagamento...' : charge.isPending ? 'Processando...' : total === undefined ? 'Pagar' : `Pagar ${formatMoney(total)}${isCard && Number(installments) > 1 ? ` em ${installments}x` : ''}`}
        </Button>
      </form>
    </div>
  );
}
