// The payment form of the checkout (SPEC §4/§5/§8): the buyer, the method, and for Cartão the card and
// its holder; the coupon and the order bump (issue 24) change the database's quote, whose total is what
// the page shows and sends. On success the browser goes to Asaas's invoice; a 409 (already enrolled)
// goes to the course.
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { Barcode, CreditCard, Loader2, QrCode, ShieldCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { formatMoney, maskCardNumber, maskCep, maskCpf, maskPhone, onlyDigits } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useCheckoutQuote, useCreateCharge, type BillingType, type CheckoutCourse } from '../api/hooks';
import { checkoutSchema, installmentValue, missingFields, type CheckoutValues } from '../schemas';
import { CouponField } from './coupon-field';
import { OrderBump } from './order-bump';
import { OrderSummary } from './order-summary';

const METHODS: { value: BillingType; label: string; icon: typeof QrCode; hint: string }[] = [
  { value: 'PIX', label: 'PIX', icon: QrCode, hint: 'Pague com o QR Code ou o código copia e cola. A liberação é imediata após a confirmação.' },
  { value: 'BOLETO', label: 'Boleto', icon: Barcode, hint: 'O boleto vence em 3 dias. A liberação acontece após a compensação (até 3 dias úteis).' },
  { value: 'CREDIT_CARD', label: 'Cartão', icon: CreditCard, hint: 'Pagamento com cartão de crédito, à vista ou parcelado.' },
];

export function CheckoutForm({
  course,
  userId,
  email,
  profile,
  coupon: linkCoupon,
}: {
  course: CheckoutCourse;
  userId: string | undefined;
  email: string;
  profile: { name: string | null; cpf: string | null; phone: string | null } | null;
  /** The link's ?cupom=: applied as the page opens. */
  coupon: string | null;
}) {
  const navigate = useNavigate();
  const charge = useCreateCharge();
  const [couponCode, setCouponCode] = useState(() => linkCoupon?.trim() || null);
  const [withBump, setWithBump] = useState(false);
  const quote = useCheckoutQuote(course.id, userId, couponCode, withBump);
  const q = quote.data;
  // The quote on screen is the one asked for (not the last one kept while the next loads).
  const quoting = quote.isFetching || quote.isPlaceholderData;
  const refusal = couponCode && !quote.isPlaceholderData ? (q?.coupon_error ?? null) : null;
  const {
    register,
    control,
    handleSubmit,
    setValue,
    getValues,
    formState: { errors },
  } = useForm<CheckoutValues>({
    resolver: zodResolver(checkoutSchema),
    defaultValues: {
      method: 'PIX',
      name: profile?.name ?? '',
      email,
      cpf: maskCpf(profile?.cpf ?? ''),
      phone: maskPhone(profile?.phone ?? ''),
      holderName: '',
      cardNumber: '',
      expiryMonth: '',
      expiryYear: '',
      ccv: '',
      postalCode: '',
      addressNumber: '',
      installments: '1',
    },
  });
  const [method, installments] = useWatch({ control, name: ['method', 'installments'] });
  const isCard = method === 'CREDIT_CARD';
  const redirecting = charge.isSuccess;
  const busy = charge.isPending || redirecting;
  const total = q?.total;

  // SPEC §5's 'Campos obrigatórios' / 'Dados do cartão obrigatórios' toast: a refused form, not a failed
  // request, so not the mutation error path; the fields also show their own messages.
  function onInvalid(errs: Partial<Record<keyof CheckoutValues, unknown>>, values: CheckoutValues) {
    const missing = missingFields(values, errs);
    if (missing) toast.error(missing.title, { description: missing.description });
  }

  function onSubmit(v: CheckoutValues) {
    if (!q || quoting) return;
    const customer = { name: v.name, email: v.email, cpfCnpj: onlyDigits(v.cpf), phone: onlyDigits(v.phone) };
    charge.mutate(
      {
        course_id: course.id,
        billing_type: v.method,
        value: q.total,
        coupon_code: q.coupon?.code ?? null,
        with_bump: q.with_bump,
        customer,
        ...(v.method === 'CREDIT_CARD'
          ? {
              installment_count: Number(v.installments) || 1,
              creditCard: { holderName: v.holderName, number: onlyDigits(v.cardNumber), expiryMonth: v.expiryMonth, expiryYear: v.expiryYear, ccv: v.ccv },
              creditCardHolderInfo: { ...customer, postalCode: onlyDigits(v.postalCode), addressNumber: v.addressNumber },
            }
          : {}),
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

  /** A masked text field: the Controller keeps the masked value, FormField links label and errors. */
  const masked = (name: 'cpf' | 'phone' | 'postalCode' | 'cardNumber', label: string, mask: (v: string) => string, input: Record<string, string> = {}) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormField label={label} error={errors[name]?.message} required>
          <Input inputMode="numeric" {...input} name={field.name} ref={field.ref} value={field.value} onBlur={field.onBlur} onChange={(e) => field.onChange(mask(e.target.value))} />
        </FormField>
      )}
    />
  );

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-6 sm:px-6 sm:py-10 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
      <h1 className="text-2xl font-bold tracking-tight lg:col-span-2">Finalizar compra</h1>
      <OrderSummary course={course} quote={q} quoteFailed={quote.isError} onRetry={() => (withBump ? setWithBump(false) : void quote.refetch())} className="lg:order-2">
        <CouponField
          initialCode={couponCode}
          applied={q?.coupon && q.coupon.code.toUpperCase() === couponCode?.toUpperCase() ? q.coupon : null}
          refusal={refusal}
          pending={quoting && !!couponCode}
          disabled={busy || !q}
          onApply={setCouponCode}
          onRemove={() => setCouponCode(null)}
        />
      </OrderSummary>
      <form noValidate aria-label="Pagamento" className="grid gap-6 rounded-2xl border border-border bg-white p-4 sm:p-6 lg:order-1" onSubmit={handleSubmit(onSubmit, (errs) => onInvalid(errs, getValues()))}>
        <fieldset className="grid gap-4" disabled={busy}>
          <legend className="mb-2 text-lg font-semibold">Seus dados</legend>
          <FormField label="Nome Completo" error={errors.name?.message} required>
            <Input autoComplete="name" {...register('name')} />
          </FormField>
          <FormField label="E-mail" error={errors.email?.message} required>
            <Input type="email" autoComplete="email" {...register('email')} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            {masked('cpf', 'CPF', maskCpf, { placeholder: '000.000.000-00' })}
            {masked('phone', 'Telefone', maskPhone, { type: 'tel', autoComplete: 'tel-national', placeholder: '(00) 00000-0000' })}
          </div>
        </fieldset>

        <fieldset className="grid gap-3" disabled={busy}>
          <legend className="mb-2 text-lg font-semibold">Forma de pagamento</legend>
          <div className="grid grid-cols-3 gap-2" role="group" aria-label="Forma de pagamento">
            {METHODS.map((m) => (
              <button
                key={m.value}
                type="button"
                aria-pressed={method === m.value}
                onClick={() => setValue('method', m.value, { shouldValidate: false })}
                className={cn(
                  'flex min-h-16 flex-col items-center justify-center gap-1 rounded-xl border-2 px-2 py-3 text-sm font-semibold transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  method === m.value ? 'border-primary bg-primary/5 text-primary' : 'border-border text-foreground hover:bg-muted',
                )}
              >
                <m.icon className="size-5" aria-hidden="true" />
                {m.label}
              </button>
            ))}
          </div>
          <p className="text-sm text-muted-foreground">{METHODS.find((m) => m.value === method)?.hint}</p>
        </fieldset>

        {isCard && (
          <fieldset className="grid gap-4" disabled={busy}>
            <legend className="mb-2 text-lg font-semibold">Dados do cartão</legend>
            <FormField label="Nome impresso no cartão" error={errors.holderName?.message} required>
              <Input autoComplete="cc-name" {...register('holderName')} />
            </FormField>
            {masked('cardNumber', 'Número do cartão', maskCardNumber, { autoComplete: 'cc-number', placeholder: '0000 0000 0000 0000' })}
            <div className="grid grid-cols-3 gap-3">
              <FormField label="Mês" error={errors.expiryMonth?.message} required>
                <Input inputMode="numeric" autoComplete="cc-exp-month" placeholder="MM" maxLength={2} {...register('expiryMonth')} />
              </FormField>
              <FormField label="Ano" error={errors.expiryYear?.message} required>
                <Input inputMode="numeric" autoComplete="cc-exp-year" placeholder="AAAA" maxLength={4} {...register('expiryYear')} />
              </FormField>
              <FormField label="CVV" error={errors.ccv?.message} required>
                <Input inputMode="numeric" autoComplete="cc-csc" maxLength={4} {...register('ccv')} />
              </FormField>
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              {masked('postalCode', 'CEP do titular', maskCep, { autoComplete: 'postal-code', placeholder: '00000-000' })}
              <FormField label="Número do endereço" error={errors.addressNumber?.message} required>
                <Input autoComplete="address-line2" {...register('addressNumber')} />
              </FormField>
            </div>
            {course.max_installments > 1 && total !== undefined && (
              <FormField label="Parcelas">
                <Select {...register('installments')}>
                  {Array.from({ length: course.max_installments }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={n}>
                      {n === 1 ? `À vista: ${formatMoney(total)}` : `${n}x de ${formatMoney(installmentValue(total, n))}`}
                    </option>
                  ))}
                </Select>
              </FormField>
            )}
            <p className="flex items-start gap-2 text-xs text-muted-foreground">
              <ShieldCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              Os dados do cartão vão direto para o processador de pagamentos (Asaas) e não ficam guardados na plataforma.
            </p>
          </fieldset>
        )}

        {q?.bump && <OrderBump bump={q.bump} checked={withBump} disabled={busy} onChange={setWithBump} />}

        <Button type="submit" size="lg" disabled={busy || !q || quoting} className="w-full">
          {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
          {redirecting ? 'Redirecionando para o pagamento...' : charge.isPending ? 'Processando...' : total === undefined ? 'Pagar' : `Pagar ${formatMoney(total)}${isCard && Number(installments) > 1 ? ` em ${installments}x` : ''}`}
        </Button>
      </form>
    </div>
  );
}
