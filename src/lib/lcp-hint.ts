// The largest image a page painted last time, remembered per path, so that the next visit's HTML can
// ask for it before any JavaScript has run (the inline script of scripts/vite/first-visit-preload.ts
// reads this key). Without it, a banner's URL is known only after the code, the session and the
// page's data: on a phone, the image's request starts a second or more after the HTML.
// With where it was painted, that script also paints it there (the "shell", behind the app): on a
// phone the banner shows as soon as the HTML, the stylesheet and the image are in, not after the
// code has downloaded and run. Only at the same viewport width, where the page lays it out the same.

/** Where the image was painted: the viewport's width, and in the document, its top, left, width and
 * height (CSS px) with its object-fit and object-position. */
export type LcpBox = [
  viewportWidth: number,
  top: number,
  left: number,
  width: number,
  height: number,
  objectFit: string,
  objectPosition: string,
];
/** localStorage: { [pathname]: LcpHint }, the most recent paths last. */
export type LcpHint = [srcset: string, sizes: string, box?: LcpBox];

export const LCP_HINTS_KEY = 'plataforma:lcp-image';
/** The id of the image the inline script paints; the app removes it (removeLcpShell). */
export const LCP_SHELL_ID = 'lcp-shell';
const MAX_PATHS = 20;

/** Fractions kept: the shell must be exactly the image's size, or the image painted later at a larger
 * size would be the page's largest paint again. */
const px = (n: number) => Math.round(n * 100) / 100;

function boxOf(img: HTMLImageElement): LcpBox | undefined {
  const rect = img.getBoundingClientRect();
  if (rect.width <= 0 || rect.height <= 0) return undefined;
  const style = getComputedStyle(img);
  return [
    window.innerWidth,
    px(rect.top + window.scrollY),
    px(rect.left + window.scrollX),
    px(rect.width),
    px(rect.height),
    style.objectFit,
    style.objectPosition,
  ];
}

/** Called when a page's priority image has loaded (StorageImage). */
export function rememberLcpImage(img: HTMLImageElement, srcSet: string, sizes: string): void {
  try {
    const path = window.location.pathname;
    const hints = JSON.parse(localStorage.getItem(LCP_HINTS_KEY) ?? '{}') as Record<string, LcpHint>;
    const box = boxOf(img);
    const hint: LcpHint = box ? [srcSet, sizes, box] : [srcSet, sizes];
    if (JSON.stringify(hints[path]) === JSON.stringify(hint)) return;
    delete hints[path];
    hints[path] = hint;
    const paths = Object.keys(hints);
    for (const old of paths.slice(0, Math.max(0, paths.length - MAX_PATHS))) delete hints[old];
    localStorage.setItem(LCP_HINTS_KEY, JSON.stringify(hints));
  } catch {
    // Storage full or unavailable: the next visit simply finds the image later.
  }
}

/** Takes the HTML's early copy of the image away: the page now shows its own, or another page is open. */
export function removeLcpShell(): void {
  document.getElementById(LCP_SHELL_ID)?.remove();
}
