// "Tem um cupom?" (issue 24): reveals "Código do cupom" and "Aplicar". The database's quote says whether
// the code applies; its pt-BR reason shows under the field, which keeps what was typed.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2, TicketPercent, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import type { CheckoutQuote } from '../api/hooks';
import { couponCodeSchema, type CouponCodeValues } from '../schemas';

export function CouponField({
  initialCode,
  applied,
  refusal,
  pending,
  disabled,
  onApply,
  onRemove,
}: {
  /** From the link's ?cupom=: the field starts open with it. */
  initialCode: string | null;
  /** The coupon in the quote, once it applies. */
  applied: CheckoutQuote['coupon'];
  /** Why the code just tried does not apply. */
  refusal: string | null;
  pending: boolean;
  disabled: boolean;
  onApply: (code: string) => void;
  onRemove: () => void;
}) {
  const [open, setOpen] = useState(!!initialCode);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CouponCodeValues>({
    resolver: zodResolver(couponCodeSchema),
    defaultValues: { code: initialCode ?? '' },
  });

  if (applied)
    return (
      <div className="flex items-center justify-between gap-2 rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
        <p className="flex min-w-0 items-center gap-2">
          <TicketPercent className="size-4 shrink-0" aria-hidden="true" />
          {/* The discount is a line of the summary above. */}
          <span className="min-w-0 break-words">
            Cupom <strong>{applied.code}</strong> aplicado
          </span>
        </p>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="text-green-800"
          onClick={onRemove}
          disabled={disabled}
          aria-label={`Remover cupom ${applied.code}`}
        >
          <X aria-hidden="true" /> Remover
        </Button>
      </div>
    );
  if (!open)
    return (
      <Button
        type="button"
        variant="link"
        className="h-auto w-fit p-0"
        onClick={() => setOpen(true)}
        aria-expanded={false}
      >
        <TicketPercent aria-hidden="true" /> Tem um cupom?
      </Button>
    );
  return (
    <form
      noValidate
      aria-label="Cupom de desconto"
      className="flex items-start gap-2"
      onSubmit={handleSubmit((v) => onApply(v.code))}
    >
      <FormField
        label="Código do cupom"
        error={errors.code?.message ?? refusal ?? undefined}
        className="min-w-0 flex-1"
      >
        <Input
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          {...register('code')}
        />
      </FormField>
      <Button type="submit" variant="outline" className="mt-6" disabled={pending || disabled}>
        {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
        Aplicar
      </Button>
    </form>
  );
}
