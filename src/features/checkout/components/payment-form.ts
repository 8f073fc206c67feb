// The buyer's form of every checkout (SPEC §4/§5/§8): one react-hook-form over checkoutSchema, shared by
// the course checkout (checkout-form.tsx) and the plan checkout (plan-checkout-page.tsx), whose fields
// are payment-fields.tsx. Each page adds its own summary, offers and submit.
import { useForm, type FieldErrors, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Barcode, CreditCard, QrCode } from 'lucide-react';
import { toast } from '@/platform/toast';
import { maskCpf, maskPhone, onlyDigits } from '@/utils/format';
import type { BillingType } from '../api/hooks';
import { cardExpiryYear, checkoutSchema, missingFields, type CheckoutValues } from '../schemas';

export type PaymentForm = UseFormReturn<CheckoutValues>;

export const METHODS: { value: BillingType; label: string; icon: typeof QrCode; hint: string }[] = [
  {
    value: 'PIX',
    label: 'PIX',
    icon: QrCode,
    hint: 'Pague com o QR Code ou o código copia e cola. A liberação é imediata após a confirmação.',
  },
  {
    value: 'BOLETO',
    label: 'Boleto',
    icon: Barcode,
    hint: 'O boleto vence em 3 dias. A liberação acontece após a compensação (até 3 dias úteis).',
  },
  {
    value: 'CREDIT_CARD',
    label: 'Cartão',
    icon: CreditCard,
    hint: 'Pagamento com cartão de crédito, à vista ou parcelado.',
  },
];

/** The form, pre-filled with what the profile knows; `method` is the one selected first. */
export function usePaymentForm({
  email,
  profile,
  method = 'PIX',
}: {
  email: string;
  profile: { name: string | null; cpf: string | null; phone: string | null } | null;
  method?: BillingType;
}): PaymentForm {
  return useForm<CheckoutValues>({
    resolver: zodResolver(checkoutSchema),
    defaultValues: {
      method,
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
}

/**
 * SPEC §5's 'Campos obrigatórios' / 'Dados do cartão obrigatórios' toast for a refused submit: a refused
 * form, not a failed request, so not the mutation error path; the fields also show their own messages.
 */
export function reportMissingFields(form: PaymentForm) {
  return (errs: FieldErrors<CheckoutValues>) => {
    const missing = missingFields(form.getValues(), errs);
    if (missing) toast.error(missing.title, { description: missing.description });
  };
}

/** What Asaas needs of the buyer (and, for Cartão, of the card and its holder), digits only. */
export function paymentPayload(v: CheckoutValues) {
  const customer = { name: v.name, email: v.email, cpfCnpj: onlyDigits(v.cpf), phone: onlyDigits(v.phone) };
  return {
    customer,
    ...(v.method === 'CREDIT_CARD'
      ? {
          creditCard: {
            holderName: v.holderName,
            number: onlyDigits(v.cardNumber),
            expiryMonth: v.expiryMonth,
            // '31' typed is 2031: Asaas takes the year with 4 digits.
            expiryYear: String(cardExpiryYear(v.expiryYear) ?? v.expiryYear),
            ccv: v.ccv,
          },
          creditCardHolderInfo: { ...customer, postalCode: onlyDigits(v.postalCode), addressNumber: v.addressNumber },
        }
      : {}),
  };
}
