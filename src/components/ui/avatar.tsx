import * as AvatarPrimitive from '@radix-ui/react-avatar';
import { cn, initials } from '@/lib/utils';

export interface AvatarProps {
  name?: string | null;
  src?: string | null;
  className?: string;
  fallbackClassName?: string;
  /** Inside a control that names itself: the initials are hidden from assistive technology. */
  decorative?: boolean;
}

/** Round avatar: the photo when it loads, otherwise the name's initials. */
export function Avatar({ name, src, className, fallbackClassName, decorative }: AvatarProps) {
  return (
    <AvatarPrimitive.Root className={cn('relative flex size-9 shrink-0 overflow-hidden rounded-full', className)}>
      {src ? <AvatarPrimitive.Image src={src} alt={decorative ? '' : (name ?? '')} className="aspect-square size-full object-cover" /> : null}
      <AvatarPrimitive.Fallback
        delayMs={src ? 300 : undefined}
        // Solid brand shade with white initials: ≥ 4.5:1 for any school colour (src/lib/brand.ts).
        className={cn('flex size-full items-center justify-center rounded-full bg-primary text-sm font-semibold text-white', fallbackClassName)}
        aria-label={decorative ? undefined : (name ?? undefined)}
        aria-hidden={decorative || undefined}
      >
        {initials(name)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
