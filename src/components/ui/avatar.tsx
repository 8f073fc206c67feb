import { useState } from 'react';
import * as AvatarPrimitive from '@radix-ui/react-avatar';
import { failedRenders, renderedImageUrl } from './storage-image';
import { ownAvatarUrl } from '@/platform/image';
import { cn } from '@/utils/cn';
import { initials } from '@/utils/format';

export interface AvatarProps {
  name?: string | null;
  src?: string | null;
  className?: string;
  fallbackClassName?: string;
  /** Inside a control that names itself: the initials are hidden from assistive technology. */
  decorative?: boolean;
  /** Width of the photo asked from Storage: 128 px covers the 2-3rem avatars at 3x. */
  imageWidth?: number;
}

/** Round avatar: the photo when it loads, otherwise the name's initials. */
export function Avatar({ name, src: stored, className, fallbackClassName, decorative, imageWidth = 128 }: AvatarProps) {
  // Only a photo of our own avatars bucket: any other address would learn who looked at it.
  const src = ownAvatarUrl(stored);
  // One small transformed photo (Radix checks a single src before showing it); the original when the
  // project has no image transformations.
  const [, rerender] = useState(0);
  const small = renderedImageUrl(src, imageWidth);
  return (
    <AvatarPrimitive.Root className={cn('relative flex size-9 shrink-0 overflow-hidden rounded-full', className)}>
      {src ? (
        <AvatarPrimitive.Image
          src={small ?? src}
          // By CORS without credentials, as StorageImage: the API's preconnected connection, not a second.
          crossOrigin={small ? 'anonymous' : undefined}
          alt={decorative ? '' : (name ?? '')}
          className="aspect-square size-full object-cover"
          onLoadingStatusChange={(status) => {
            if (status !== 'error' || !small) return;
            failedRenders.add(src);
            rerender((n) => n + 1);
          }}
        />
      ) : null}
      <AvatarPrimitive.Fallback
        delayMs={src ? 300 : undefined}
        // Solid brand shade with white initials: ≥ 4.5:1 for any school colour (src/concepts/brand.ts).
        className={cn('flex size-full items-center justify-center rounded-full bg-primary text-sm font-semibold text-white', fallbackClassName)}
        aria-label={decorative ? undefined : (name ?? undefined)}
        aria-hidden={decorative || undefined}
      >
        {initials(name)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
