import type { ReactNode } from 'react';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { StorageImage } from '@/components/ui/storage-image';
import { formatMoney } from '@/utils/format';
import { cn } from '@/utils/cn';
import type { CheckoutCourse, CheckoutQuote } from '../api/hooks';
import { installmentValue } from '../schemas';

function Line({ label, value, className }: { label: ReactNode; value: string; className?: string }) {
  return (
    <div className={cn('flex items-baseline justify-between gap-3 text-sm', className)}>
      <dt className="min-w-0 break-words">{label}</dt>
      <dd className="shrink-0 tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * The order: the course, and from the database's quote the items, the coupon's discount and the total
 * (never computed here). On a phone a compact row (small thumbnail, title) so the form starts on the
 * first screen. `children` is the coupon field.
 */
export function OrderSummary({ course, quote, quoteFailed, onRetry, className, children }: { course: CheckoutCourse; quote: CheckoutQuote | undefined; quoteFailed: boolean; onRetry: () => void; className?: string; children?: ReactNode }) {
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
      {quoteFailed && !quote ? (
        <LoadError title="Não foi possível calcular o total" onRetry={onRetry} className="py-6" />
      ) : !quote ? (
        <Skeleton className="h-24 rounded-lg" aria-label="Calculando o total" />
      ) : (
        <div className="grid gap-2 border-t border-border pt-4" aria-live="polite">
          <dl className="grid gap-2">
            {/* The course's title is above: here, what each part costs. */}
            <Line label="Curso" value={formatMoney(quote.course.price)} />
            {quote.with_bump && quote.bump && <Line label={quote.bump.title} value={formatMoney(quote.bump.price)} />}
            {quote.coupon && <Line label={`Desconto (cupom ${quote.coupon.code})`} value={`− ${formatMoney(quote.coupon.discount)}`} className="font-medium text-green-700" />}
            <div className="flex items-baseline justify-between gap-2 border-t border-border pt-2">
              <dt className="text-sm text-muted-foreground">Total</dt>
              <dd className="text-2xl font-bold" data-testid="checkout-price">
                {formatMoney(quote.total)}
              </dd>
            </div>
          </dl>
          {course.max_installments > 1 && (
            <p className="text-right text-sm text-muted-foreground">
              em até {course.max_installments}x de {formatMoney(installmentValue(quote.total, course.max_installments))}
            </p>
          )}
        </div>
      )}
      {children}
    </aside>
  );
}
