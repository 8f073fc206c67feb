import * as AvatarPrimitive from '@radix-ui/react-avatar';
import { cn, initials } from '@/lib/utils';

export interface AvatarProps {
  name?: string | null;
  src?: string | null;
  className?: string;
  fallbackClassName?: string;
}

/** Round avatar: the photo when it loads, otherwise the name's initials. */
export function Avatar({ name, src, className, fallbackClassName }: AvatarProps) {
  return (
    <AvatarPrimitive.Root className={cn('relative flex size-9 shrink-0 overflow-hidden rounded-full', className)}>
      {src ? <AvatarPrimitive.Image src={src} alt={name ?? ''} className="aspect-square size-full object-cover" /> : null}
      <AvatarPrimitive.Fallback
        delayMs={src ? 300 : undefined}
        className={cn('flex size-full items-center justify-center rounded-full bg-primary/15 text-sm font-semibold text-primary', fallbackClassName)}
        aria-label={name ?? undefined}
      >
        {initials(name)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
