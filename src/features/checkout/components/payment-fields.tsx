// The buyer's part of every checkout (SPEC §4/§5/§8): "Seus dados", "Forma de pagamento" and, for
// Cartão, "Dados do cartão" with its holder, over the form of payment-form.ts (course and plan checkout).
import type { ReactNode } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { ShieldCheck } from 'lucide-react';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { maskCardNumber, maskCep, maskCpf, maskPhone } from '@/utils/format';
import { cn } from '@/utils/cn';
import type { BillingType } from '../api/hooks';
import { METHODS, type PaymentForm } from './payment-form';

/**
 * The fieldsets: the buyer, the methods offered (`methods`, in this order; `hints` may say them for
 * the page) and, for Cartão, the card. `cardExtra` goes at the end of the card's fields (the course's
 * installments).
 */
export function PaymentFields({
  form,
  busy,
  methods = METHODS.map((m) => m.value),
  hints,
  cardExtra,
}: {
  form: PaymentForm;
  busy: boolean;
  methods?: readonly BillingType[];
  hints?: Partial<Record<BillingType, string>>;
  cardExtra?: ReactNode;
}) {
  const {
    register,
    control,
    setValue,
    formState: { errors },
  } = form;
  const method = useWatch({ control, name: 'method' });
  const offered = METHODS.filter((m) => methods.includes(m.value));
  const selected = METHODS.find((m) => m.value === method);

  /** A masked text field: the Controller keeps the masked value, FormField links label and errors. */
  const masked = (
    name: 'cpf' | 'phone' | 'postalCode' | 'cardNumber',
    label: string,
    mask: (v: string) => string,
    input: Record<string, string> = {},
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormField label={label} error={errors[name]?.message} required>
          <Input
            inputMode="numeric"
            {...input}
            name={field.name}
            ref={field.ref}
            value={field.value}
            onBlur={field.onBlur}
            onChange={(e) => field.onChange(mask(e.target.value))}
          />
        </FormField>
      )}
    />
  );

  return (
    <>
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
          {masked('phone', 'Telefone', maskPhone, {
            type: 'tel',
            autoComplete: 'tel-national',
            placeholder: '(00) 00000-0000',
          })}
        </div>
      </fieldset>

      <fieldset className="grid gap-3" disabled={busy}>
        <legend className="mb-2 text-lg font-semibold">Forma de pagamento</legend>
        <div className="grid grid-cols-3 gap-2" role="group" aria-label="Forma de pagamento">
          {offered.map((m) => (
            <button
              key={m.value}
              type="button"
              aria-pressed={method === m.value}
              onClick={() => setValue('method', m.value, { shouldValidate: false })}
              className={cn(
                'flex min-h-16 flex-col items-center justify-center gap-1 rounded-xl border-2 px-2 py-3 text-sm font-semibold transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                method === m.value
                  ? // text-primary on its own 5% tint was 4.34:1 (issue 46): the shade made for tints.
                    'border-primary bg-primary/5 text-primary-on-tint'
                  : 'border-border text-foreground hover:bg-muted',
              )}
            >
              <m.icon className="size-5" aria-hidden="true" />
              {m.label}
            </button>
          ))}
        </div>
        <p className="text-sm text-muted-foreground">{selected && (hints?.[selected.value] ?? selected.hint)}</p>
      </fieldset>

      {method === 'CREDIT_CARD' && (
        <fieldset className="grid gap-4" disabled={busy}>
          <legend className="mb-2 text-lg font-semibold">Dados do cartão</legend>
          <FormField label="Nome impresso no cartão" error={errors.holderName?.message} required>
            <Input autoComplete="cc-name" {...register('holderName')} />
          </FormField>
          {masked('cardNumber', 'Número do cartão', maskCardNumber, {
            autoComplete: 'cc-number',
            placeholder: '0000 0000 0000 0000',
          })}
          <div className="grid grid-cols-3 gap-3">
            <FormField label="Mês" error={errors.expiryMonth?.message} required>
              <Input
                inputMode="numeric"
                autoComplete="cc-exp-month"
                placeholder="MM"
                maxLength={2}
                {...register('expiryMonth')}
              />
            </FormField>
            <FormField label="Ano" error={errors.expiryYear?.message} required>
              <Input
                inputMode="numeric"
                autoComplete="cc-exp-year"
                placeholder="AAAA"
                maxLength={4}
                {...register('expiryYear')}
              />
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
          {cardExtra}
          <p className="flex items-start gap-2 text-xs text-muted-foreground">
            <ShieldCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Os dados do cartão vão direto para o processador de pagamentos (Asaas) e não ficam guardados na plataforma.
          </p>
        </fieldset>
      )}
    </>
  );
}
