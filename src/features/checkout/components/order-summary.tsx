import { StorageImage } from '@/components/ui/storage-image';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { CheckoutCourse } from '../api/hooks';
import { installmentValue } from '../schemas';

/** On a phone a compact row (small thumbnail, title, price) so the form starts on the first screen. */
export function OrderSummary({ course, className }: { course: CheckoutCourse; className?: string }) {
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
