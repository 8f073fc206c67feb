// "The page has settled": its code, its data and what they rendered are in. Code that no first paint
// needs (the toaster, the header's menus, supabase-js on a signed-out page) waits for this, so on a
// phone's first visit it does not share the network and the main thread with the page's own
// downloads (issue 21: a first visit's largest paint waited behind the header's menu code).
// The browser's `load` event is not enough: a single-page app fires it before its data is asked for.
import { queryClient } from './query-client';

/** However busy the page stays, deferred work starts after this long. */
const LATEST_MS = 8_000;

/** Runs `run` once the window has loaded, no query is fetching and the browser is idle; returns a cancel. */
export function whenPageSettled(run: () => void): () => void {
  const timers: ReturnType<typeof setTimeout>[] = [];
  let idle: number | undefined;
  let stopWatching: (() => void) | undefined;
  const cancel = () => {
    timers.forEach(clearTimeout);
    window.removeEventListener('load', onLoad);
    stopWatching?.();
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
  const finish = () => {
    cancel();
    run();
  };
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(finish, { timeout: 2_000 });
    else timers.push(setTimeout(finish, 200));
  };
  // The data's render painted first: the frame after the next one (a hidden tab paints none: LATEST_MS).
  const afterNextPaint = () => requestAnimationFrame(() => timers.push(setTimeout(whenIdle, 0)));
  const whenQueriesDone = () => {
    if (queryClient.isFetching() === 0) return afterNextPaint();
    stopWatching = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() > 0) return;
      stopWatching?.();
      stopWatching = undefined;
      afterNextPaint();
    });
  };
  // The page's first queries start in the render after `load` at the latest: look after it.
  const onLoad = () => timers.push(setTimeout(whenQueriesDone, 0));
  timers.push(setTimeout(finish, LATEST_MS));
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });
  return cancel;
}
