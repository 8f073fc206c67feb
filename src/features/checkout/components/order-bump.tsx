// The order bump (issue 24): another course of the school at a special price, paid in the same charge.
// Ticking it asks the database for a new quote with the bump in it.
import { useId } from 'react';
import { StorageImage } from '@/components/ui/storage-image';
import { formatMoney } from '@/utils/format';
import type { CheckoutQuote } from '../api/hooks';

export function OrderBump({
  bump,
  checked,
  disabled,
  onChange,
}: {
  bump: NonNullable<CheckoutQuote['bump']>;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  const discounted = bump.list_price > bump.price;
  return (
    <section
      aria-label="Oferta especial"
      className="grid gap-3 rounded-2xl border-2 border-dashed border-primary bg-primary/5 p-4"
    >
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          className="mt-0.5 size-5 shrink-0 cursor-pointer accent-primary disabled:cursor-not-allowed"
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={`${id}-price${bump.description ? ` ${id}-text` : ''}`}
        />
        <label htmlFor={id} className="cursor-pointer font-semibold">
          Leve também: {bump.title}
        </label>
      </div>
      <div className="grid grid-cols-[6rem_minmax(0,1fr)] items-start gap-3">
        {bump.thumbnail_url ? (
          <StorageImage src={bump.thumbnail_url} sizes="6rem" className="aspect-video w-full rounded-lg object-cover" />
        ) : (
          <div className="aspect-video w-full rounded-lg bg-gradient-to-br from-primary to-secondary" />
        )}
        <div className="grid gap-1">
          {bump.description && (
            <p id={`${id}-text`} className="line-clamp-3 text-sm text-muted-foreground">
              {bump.description}
            </p>
          )}
          <p id={`${id}-price`} className="text-sm">
            {discounted ? (
              <>
                de <s className="whitespace-nowrap text-muted-foreground">{formatMoney(bump.list_price)}</s> por{' '}
                <strong className="text-base whitespace-nowrap text-primary-on-tint">{formatMoney(bump.price)}</strong>
              </>
            ) : (
              <>
                por <strong className="text-base whitespace-nowrap text-primary-on-tint">{formatMoney(bump.price)}</strong>
              </>
            )}{' '}
            no mesmo pagamento
          </p>
        </div>
      </div>
    </section>
  );
}
