// The largest image a page painted last time, remembered per path, so that the next visit's HTML can
// ask for it before any JavaScript has run (the inline script of ./vite-plugin.ts
// reads these keys). Without it, a banner's URL is known only after the code, the session and the
// page's data: on a phone, the image's request starts a second or more after the HTML.
// With where it was painted, that script also paints it there (the "shell", behind the app): on a
// phone the banner shows as soon as the HTML, the stylesheet and the image are in, not after the
// code has downloaded and run. Only at the same viewport width, where the page lays it out the same.
// A lesson's uploaded video is its page's largest paint: the frame where the student left it is kept
// as a small JPEG (per account and screen width, the 3 latest lessons, gone at sign-out), so that
// returning to it shows that frame at once, the video taking over from the same place.

/** Where the image was painted: the viewport's width, and in the document, its top, left, width and
 * height (CSS px) with its object-fit and object-position, the rounding of what clips it and its
 * background (a video's black bars). */
export type LcpBox = [
  viewportWidth: number,
  top: number,
  left: number,
  width: number,
  height: number,
  objectFit: string,
  objectPosition: string,
  borderRadius: string,
  background: string,
];
/** localStorage: { [pathname]: LcpHint }, the most recent paths last. `owner`: the account signed in
 * when it was painted (absent signed out): the home of another account may show another school. */
export type LcpHint = [srcset: string, sizes: string, box: LcpBox | null, owner?: string];

export const LCP_HINTS_KEY = 'plataforma:lcp-image';
/** The id of the image the inline script paints; the app removes it (removeLcpShell). */
export const LCP_SHELL_ID = 'lcp-shell';
const MAX_PATHS = 20;

/** Fractions kept: the shell must be exactly the image's size, or the image painted later at a larger
 * size would be the page's largest paint again. */
const px = (n: number) => Math.round(n * 100) / 100;

function boxOf(element: HTMLElement, clip: Element = element): LcpBox | undefined {
  const rect = element.getBoundingClientRect();
  if (rect.width <= 0 || rect.height <= 0) return undefined;
  const style = getComputedStyle(element);
  return [
    window.innerWidth,
    px(rect.top + window.scrollY),
    px(rect.left + window.scrollX),
    px(rect.width),
    px(rect.height),
    style.objectFit,
    style.objectPosition,
    getComputedStyle(clip).borderRadius,
    style.backgroundColor,
  ];
}

/** Called when a page's priority image has loaded (StorageImage), with the account signed in. */
export function rememberLcpImage(img: HTMLImageElement, srcSet: string, sizes: string, owner: string | null): void {
  try {
    const path = window.location.pathname;
    const hints = JSON.parse(localStorage.getItem(LCP_HINTS_KEY) ?? '{}') as Record<string, LcpHint>;
    const box = boxOf(img) ?? null;
    const hint: LcpHint = owner ? [srcSet, sizes, box, owner] : [srcSet, sizes, box];
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

/** A frame: [JPEG data URL, box, saved at (ms)]. */
export type LcpFrame = [src: string, box: LcpBox, savedAt: number];
/** localStorage, per account and path: the frames by viewport width (a phone turned has two). */
export type LcpFrames = Record<string, LcpFrame>;
export const LCP_FRAME_KEY = 'plataforma:lcp-frame:';
const MAX_FRAME_PATHS = 3;
const MAX_FRAME_WIDTHS = 2;
const frameKeys = () => Object.keys(localStorage).filter((k) => k.startsWith(LCP_FRAME_KEY));
const readFrames = (key: string) => (JSON.parse(localStorage.getItem(key) ?? 'null') as LcpFrames | null) ?? {};
const newest = (frames: LcpFrames) => Math.max(0, ...Object.values(frames).map((f) => f[2]));

/**
 * Keeps the frame the video shows now (where the student leaves it), at most as wide as it is painted,
 * for this account's next visit to this path at this viewport width. `clip` is what rounds its corners.
 */
export function rememberLcpFrame(video: HTMLVideoElement, userId: string, clip?: Element): void {
  try {
    if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || !video.videoWidth) return;
    const box = boxOf(video, clip);
    if (!box) return;
    const scale = Math.min(1, box[3] / video.videoWidth);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    const key = `${LCP_FRAME_KEY}${userId}:${window.location.pathname}`;
    const frames: LcpFrames = { ...readFrames(key), [box[0]]: [canvas.toDataURL('image/jpeg', 0.7), box, Date.now()] };
    rememberVideoBox(video, clip);
    const widths = Object.keys(frames).sort((a, b) => frames[b]![2] - frames[a]![2]);
    for (const width of widths.slice(MAX_FRAME_WIDTHS)) delete frames[width];
    localStorage.setItem(key, JSON.stringify(frames));
    const byAge = frameKeys()
      .map((k) => [k, newest(readFrames(k))] as const)
      .sort((a, b) => b[1] - a[1]);
    for (const [old] of byAge.slice(MAX_FRAME_PATHS)) localStorage.removeItem(old);
  } catch {
    // A canvas the video may not be read into, or storage full: the next visit waits for the video.
  }
}

/** localStorage: where a lesson's video was laid out, by viewport width ({ [width]: LcpBox }). Any lesson's
 * (the page lays every lesson out alike): a lesson never opened paints its poster there before the code. */
export const LCP_VIDEO_BOX_KEY = 'plataforma:lcp-video-box';

/** Keeps where the lesson's video (or its poster) is painted at this viewport width. */
export function rememberVideoBox(element: HTMLElement, clip?: Element): void {
  try {
    const box = boxOf(element, clip);
    if (!box) return;
    const boxes = JSON.parse(localStorage.getItem(LCP_VIDEO_BOX_KEY) ?? '{}') as Record<string, LcpBox>;
    if (JSON.stringify(boxes[box[0]]) === JSON.stringify(box)) return;
    localStorage.setItem(LCP_VIDEO_BOX_KEY, JSON.stringify({ ...boxes, [box[0]]: box }));
  } catch {
    // Storage full or unavailable: the poster waits for the page's code.
  }
}

/** At sign-out: a lesson's frames stay with the account, not on a shared device. */
export function forgetLcpFrames(): void {
  try {
    for (const key of frameKeys()) localStorage.removeItem(key);
  } catch {
    // Storage unavailable: nothing was kept either.
  }
}

/** Takes the HTML's early copy of the image away: the page now shows its own, or another page is open. */
export function removeLcpShell(): void {
  document.getElementById(LCP_SHELL_ID)?.remove();
}
