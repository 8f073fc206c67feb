// Checkout (SPEC §2/§4/§5/§8, issue 11): the order summary and the payment form. PIX is the default
// method; Cartão adds the card and holder fields. On success the browser goes to Asaas's invoice,
// which brings the student back to the course page afterwards.
import { useEffect, useRef, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { Barcode, CreditCard, Loader2, Lock, QrCode, SearchX, ShieldCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { StorageImage } from '@/components/ui/storage-image';
import { formatMoney, maskCardNumber, maskCep, maskCpf, maskPhone, onlyDigits } from '@/lib/format';
import { enrollmentAccess } from '@/lib/enrollment';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';
import { useCheckoutCourse, useCreateCharge, type BillingType, type CheckoutCourse, type CourseRef } from '../api';
import { BUYER_FIELDS, CARD_FIELDS, CARD_REQUIRED, REQUIRED, checkoutSchema, installmentValue, type CheckoutValues } from '../schema';

const METHODS: { value: BillingType; label: string; icon: typeof QrCode; hint: string }[] = [
  { value: 'PIX', label: 'PIX', icon: QrCode, hint: 'Pague com o QR Code ou o código copia e cola. A liberação é imediata após a confirmação.' },
  { value: 'BOLETO', label: 'Boleto', icon: Barcode, hint: 'O boleto vence em 3 dias. A liberação acontece após a compensação (até 3 dias úteis).' },
  { value: 'CREDIT_CARD', label: 'Cartão', icon: CreditCard, hint: 'Pagamento com cartão de crédito, à vista ou parcelado.' },
];

export function CheckoutPage({ courseRef }: { courseRef: CourseRef | null }) {
  const navigate = useNavigate();
  const { user, profile } = useSession();
  const course = useCheckoutCourse(courseRef, profile?.school_id, user?.id);
  const warned = useRef(false);

  // SPEC §8: with neither slug nor id, 'Redirecionando...' and back to the home page.
  useEffect(() => {
    if (courseRef) return;
    toast.message('Redirecionando...');
    navigate('/', { replace: true });
  }, [courseRef, navigate]);

  useEffect(() => {
    if (course.data === null && !warned.current) {
      warned.current = true;
      toast.error('Curso não encontrado');
    }
  }, [course.data]);

  if (!courseRef) return null;
  if (course.isPending) return <CheckoutSkeleton />;
  if (course.isError)
    return (
      <Centered icon={SearchX} title="Não foi possível carregar o curso">
        <Button variant="outline" onClick={() => void course.refetch()}>
          Tentar novamente
        </Button>
      </Centered>
    );
  if (!course.data)
    return (
      <Centered icon={SearchX} title="Curso não encontrado" text="Este curso não existe ou não está disponível para você.">
        <Button asChild variant="outline">
          <Link to="/">Voltar</Link>
        </Button>
      </Centered>
    );
  // Already enrolled: to the course instead of paying twice.
  if (enrollmentAccess(course.data.enrollments[0]) === 'active') return <AlreadyEnrolled courseId={course.data.id} />;
  if (course.data.status !== 'PUBLISHED' || !(course.data.price > 0))
    return (
      <Centered icon={Lock} title="Este curso não está à venda" text="Fale com a sua escola para saber como ter acesso.">
        <Button asChild variant="outline">
          <Link to={`/course/${course.data.id}`}>Ver curso</Link>
        </Button>
      </Centered>
    );
  return <CheckoutForm course={course.data} email={user?.email ?? ''} profile={profile} />;
}

function AlreadyEnrolled({ courseId }: { courseId: string }) {
  useEffect(() => {
    toast.info('Você já está matriculado neste curso');
  }, []);
  return <Navigate to={`/course/${courseId}`} replace />;
}

function CheckoutForm({ course, email, profile }: { course: CheckoutCourse; email: string; profile: { name: string | null; cpf: string | null; phone: string | null } | null }) {
  const navigate = useNavigate();
  const charge = useCreateCharge();
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

  function onInvalid(errs: Partial<Record<keyof CheckoutValues, unknown>>, values: CheckoutValues) {
    if (BUYER_FIELDS.some((f) => !values[f].trim())) {
      toast.error(REQUIRED, { description: 'Preencha nome, e-mail, CPF e telefone.' });
    } else if (isCard && CARD_FIELDS.some((f) => errs[f] && !values[f].trim())) {
      toast.error(CARD_REQUIRED, { description: 'Preencha todos os dados do cartão e do titular.' });
    }
  }

  function onSubmit(v: CheckoutValues) {
    const customer = { name: v.name, email: v.email, cpfCnpj: onlyDigits(v.cpf), phone: onlyDigits(v.phone) };
    charge.mutate(
      {
        course_id: course.id,
        billing_type: v.method,
        value: course.price,
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
      <OrderSummary course={course} className="lg:order-2" />
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
            {course.max_installments > 1 && (
              <FormField label="Parcelas">
                <Select {...register('installments')}>
                  {Array.from({ length: course.max_installments }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={n}>
                      {n === 1 ? `À vista: ${formatMoney(course.price)}` : `${n}x de ${formatMoney(installmentValue(course.price, n))}`}
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

        <Button type="submit" size="lg" disabled={busy} className="w-full">
          {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
          {redirecting ? 'Redirecionando para o pagamento...' : charge.isPending ? 'Processando...' : `Pagar ${formatMoney(course.price)}${isCard && Number(installments) > 1 ? ` em ${installments}x` : ''}`}
        </Button>
      </form>
    </div>
  );
}

/** On a phone a compact row (small thumbnail, title, price) so the form starts on the first screen. */
function OrderSummary({ course, className }: { course: CheckoutCourse; className?: string }) {
  return (
    <aside aria-label="Resumo do pedido" className={cn('grid gap-4 rounded-2xl border border-border bg-white p-4 sm:p-6', className)}>
      <h2 className="text-lg font-semibold">Resumo do pedido</h2>
      <div className="grid grid-cols-[6rem_minmax(0,1fr)] items-start gap-3 lg:grid-cols-1">
        {course.thumbnail_url ? (
          <StorageImage
            src={course.thumbnail_url}
            // 6rem beside the title on a phone; the summary column (about 24rem) from lg.
            sizes="(min-width: 1024px) 24rem, 6rem"
            className="aspect-video w-full rounded-lg object-cover"
            style={{ objectPosition: course.thumbnail_position || '50% 50%' }}
          />
        ) : (
          <div className="aspect-video w-full rounded-lg bg-gradient-to-br from-primary to-secondary" />
        )}
        <div className="grid gap-1">
          <p className="font-semibold">{course.title}</p>
          {course.description && <p className="line-clamp-2 text-sm text-muted-foreground lg:line-clamp-4">{course.description}</p>}
        </div>
      </div>
      <div className="grid gap-1 border-t border-border pt-4">
        <p className="flex items-baseline justify-between gap-2">
          <span className="text-sm text-muted-foreground">Total</span>
          <span className="text-2xl font-bold" data-testid="checkout-price">
            {formatMoney(course.price)}
          </span>
        </p>
        {course.max_installments > 1 && (
          <p className="text-right text-sm text-muted-foreground">
            em até {course.max_installments}x de {formatMoney(installmentValue(course.price, course.max_installments))}
          </p>
        )}
      </div>
    </aside>
  );
}

function Centered({ icon: Icon, title, text, children }: { icon: typeof SearchX; title: string; text?: string; children?: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3 px-4 py-20 text-center">
      <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-xl font-semibold">{title}</h1>
      {text && <p className="text-sm text-muted-foreground">{text}</p>}
      {children}
    </div>
  );
}

function CheckoutSkeleton() {
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem]" aria-busy="true" aria-label="Carregando">
      <Skeleton className="h-[32rem] rounded-2xl" />
      <Skeleton className="h-80 rounded-2xl" />
    </div>
  );
}
