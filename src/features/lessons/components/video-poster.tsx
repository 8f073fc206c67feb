// The uploaded video's poster (issue 38): a frame the lesson editor made at upload, painted over the
// player until the video shows its own first frame, so a student opening the lesson for the first time
// sees the picture at once. The HTML's inline script preloads the same srcset as soon as the lesson's
// row names the poster (src/app/first-visit-pages.ts), and paints it where a lesson's video was laid out
// before (this <img> keeps that box): it is the page's largest paint. Back on a lesson, the HTML paints the
// frame where the student left it instead (a data: URL, lcp-hint.ts): then no poster over it.
import { useState } from 'react';
import { StorageImage } from '@/components/ui/storage-image';
import { LCP_SHELL_ID, rememberVideoBox } from '@/platform/first-visit';
import { publicObjectUrl } from '@/platform/image';
import { POSTER_SIZES, POSTER_WIDTHS } from '../api/lesson-urls';

export function VideoPoster({ path }: { path: string }) {
  const [frameRemembered] = useState(() =>
    !!document.getElementById(LCP_SHELL_ID)?.getAttribute('src')?.startsWith('data:'),
  );
  if (frameRemembered) return null;
  return (
    <StorageImage
      src={publicObjectUrl('course-thumbnails', path)}
      sizes={POSTER_SIZES}
      widths={POSTER_WIDTHS}
      priority
      remember={false}
      onLoad={(e) => rememberVideoBox(e.currentTarget, e.currentTarget.parentElement ?? undefined)}
      data-testid="video-poster"
      // Clicks reach the player's controls underneath.
      className="pointer-events-none absolute inset-0 size-full object-contain"
    />
  );
}
