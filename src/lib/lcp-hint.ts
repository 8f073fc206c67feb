// The largest image a page painted last time, remembered per path, so that the next visit's HTML can
// ask for it before any JavaScript has run (the inline script of scripts/vite/first-visit-preload.ts
// reads this key). Without it, a banner's URL is known only after the code, the session and the
// page's data: on a phone, the image's request starts a second or more after the HTML.

/** localStorage: { [pathname]: [srcset, sizes] }, the most recent paths last. */
export const LCP_HINTS_KEY = 'plataforma:lcp-image';
const MAX_PATHS = 20;

/** Called when a page's priority image has loaded (StorageImage). */
export function rememberLcpImage(srcSet: string, sizes: string): void {
  try {
    const path = window.location.pathname;
    const hints = JSON.parse(localStorage.getItem(LCP_HINTS_KEY) ?? '{}') as Record<string, [string, string]>;
    const known = hints[path];
    if (known?.[0] === srcSet && known[1] === sizes) return;
    delete hints[path];
    hints[path] = [srcSet, sizes];
    const paths = Object.keys(hints);
    for (const old of paths.slice(0, Math.max(0, paths.length - MAX_PATHS))) delete hints[old];
    localStorage.setItem(LCP_HINTS_KEY, JSON.stringify(hints));
  } catch {
    // Storage full or unavailable: the next visit simply finds the image later.
  }
}
