// The first visit (docs/first-visit.md): what runs before the app's code (the HTML's inline script of
// ./vite-plugin.ts, the supabase-js stand-ins of ./stand-ins/) and what the app takes from it. This file
// is the module's one door for the app's code; the build's is ./vite-plugin.ts. What each page asks for
// first is the app's to say: src/app/first-visit-pages.ts.

/** Every API request goes through it (src/platform/connection.ts's trackedFetch): the early answer to the same request, once. */
export { takeFirstVisitAnswer } from './answers';
/** Code no first paint needs waits for the page's one "settled" moment. */
export { afterIdle, whenPageSettled } from './page-settled';
/** The largest image or video frame a page painted, remembered for the next visit's HTML. */
export { forgetLcpFrames, LCP_SHELL_ID, rememberLcpFrame, rememberLcpImage, rememberVideoBox, removeLcpShell } from './lcp-hint';
