import { useState, type ImgHTMLAttributes } from 'react';
import { storedAccountId } from '@/platform/api-config';
import { failedRenders, IMAGE_WIDTHS, responsiveImage } from '@/platform/image';
import { rememberLcpImage, removeLcpShell } from '@/platform/first-visit';

export interface StorageImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'sizes' | 'fetchPriority'> {
  /** The stored URL (a public Storage object, or an image on another host). */
  src: string;
  /** The CSS width the image is painted at, e.g. `(min-width: 1024px) 400px, 100vw`. */
  sizes: string;
  widths?: readonly number[];
  /** The page's largest paint: fetched first and at once, and remembered for this path's next visit.
   * Other images load lazily, decoded off the main thread. */
  priority?: boolean;
  /** With `priority`: false when the page's first-visit template preloads it already (a lesson's poster). */
  remember?: boolean;
}

/**
 * An uploaded image served through Storage's image transformations (src/platform/image.ts), with a
 * srcset the browser picks from. A project without transformations (a hosted free plan answers the
 * render route with an error) gets the original file: on the first error the srcset goes and the
 * browser loads `src`; `onError` is called only when that fails too.
 */
export function StorageImage({ src, sizes, widths = IMAGE_WIDTHS, priority = false, remember = true, loading, alt = '', onError, onLoad, ...img }: StorageImageProps) {
  const [, rerender] = useState(0);
  const responsive = responsiveImage(src, sizes, widths);
  return (
    <img
      {...img}
      alt={alt}
      // Before src: a lazy image must not start loading as src is set.
      loading={loading ?? (priority ? 'eager' : 'lazy')}
      decoding={priority ? undefined : 'async'}
      fetchPriority={priority ? 'high' : undefined}
      // Our Storage's images come by CORS without credentials, as the API's requests do: over the
      // connection the HTML's preconnect opened (and the LCP preload's mode, or it would load twice).
      crossOrigin={responsive.srcSet ? 'anonymous' : undefined}
      srcSet={responsive.srcSet}
      sizes={responsive.sizes}
      src={responsive.src}
      onLoad={(e) => {
        if (priority) {
          // The page's largest image: the next visit's HTML asks for it, and paints it where this one
          // is, before the code (lcp-hint.ts). This visit's early copy goes once this one can paint.
          const image = e.currentTarget;
          if (remember && responsive.srcSet && responsive.sizes) rememberLcpImage(image, responsive.srcSet, responsive.sizes, storedAccountId());
          void image.decode().catch(() => undefined).then(removeLcpShell);
        }
        onLoad?.(e);
      }}
      onError={(e) => {
        if (!responsive.srcSet) return onError?.(e);
        failedRenders.add(src); // this image, here and on the next pages, is then the original
        rerender((n) => n + 1);
      }}
    />
  );
}

// Avatar takes its URL helper from here, so that this component and lib/image.ts share one chunk with
// it instead of two small ones: every byte counts on the first route (the login page, 150 KB budget).
// eslint-disable-next-line react-refresh/only-export-components
export { failedRenders, renderedImageUrl } from '@/platform/image';
