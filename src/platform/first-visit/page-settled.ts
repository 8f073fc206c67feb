// "The page has settled": its code, its data and what they rendered are in. Code that no first paint
// needs (the toaster, the header's menus, auth-js, supabase-js on a signed-out page, the HTML's early
// copy of the largest image) waits for this, so on a phone's first visit it does not share the network
// and the main thread with the page's own downloads (issue 21: a first visit's largest paint waited
// behind the header's menu code). The browser's `load` event is not enough: a single-page app fires it
// before its data is asked for. One watch serves every waiter of the page: they start at that moment,
// one per idle moment, and the page pays for one set of listeners however many wait.
import { queryClient } from '../query-client';

/** However busy the page stays, deferred work starts after this long. */
const LATEST_MS = 8_000;

/** Runs `run` when the browser is idle (within 2 s however busy; 200 ms where it cannot tell); returns a cancel. */
export function afterIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback !== 'function') {
    const timer = setTimeout(run, 200);
    return () => clearTimeout(timer);
  }
  const idle = window.requestIdleCallback(run, { timeout: 2_000 });
  return () => window.cancelIdleCallback(idle);
}

/** What waits for the watch under way, and how to stop it when nothing does any more. */
const waiting = new Set<{ run: () => void }>();
let stopWatch: (() => void) | null = null;

/** Runs `run` once the window has loaded, no query is fetching, the priority images have painted and
 * the browser is idle; returns a cancel. Every call while the page is settling joins the same watch. */
export function whenPageSettled(run: () => void): () => void {
  const waiter = { run };
  waiting.add(waiter);
  stopWatch ??= watchPage(() => {
    stopWatch = null;
    runOneByOne();
  });
  return () => {
    waiting.delete(waiter);
    if (waiting.size === 0 && stopWatch) {
      stopWatch();
      stopWatch = null;
    }
  };
}

/** The waiters in turn, each in an idle moment of its own: together (a menu's code, the toaster,
 * auth-js) they made one long task on a phone (issue 38). One cancelled meanwhile does not run. */
function runOneByOne() {
  const [next] = waiting;
  if (!next) return;
  waiting.delete(next);
  try {
    next.run();
  } catch (error) {
    // One waiter's failure does not keep the others waiting; it is still reported.
    setTimeout(() => {
      throw error;
    });
  }
  if (waiting.size > 0) afterIdle(runOneByOne);
}

/** Calls `settled` once, when the page has settled; returns a cancel. */
function watchPage(settled: () => void): () => void {
  const timers: ReturnType<typeof setTimeout>[] = [];
  let stopIdle: (() => void) | undefined;
  let stopWatching: (() => void) | undefined;
  let stopObserving: (() => void) | undefined;
  const cancel = () => {
    timers.forEach(clearTimeout);
    window.removeEventListener('load', onLoad);
    stopWatching?.();
    stopObserving?.();
    stopIdle?.();
  };
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    cancel();
    settled();
  };
  const whenIdle = () => {
    stopIdle = afterIdle(finish);
  };
  // The page's largest paint has happened: the browser's largest-contentful-paint entry for a priority
  // image (a banner) or a video's first frame (a lesson), or a second without a larger paint (a page of
  // text). Its code may still be arriving when the data is in, so this waits for the paint itself, not
  // for a frame.
  const afterLargestPaint = () => {
    if (
      typeof PerformanceObserver === 'undefined' ||
      !PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')
    )
      return void requestAnimationFrame(() => timers.push(setTimeout(whenIdle, 0)));
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(quiet);
      observer.disconnect();
      whenIdle();
    };
    const waitForQuiet = () => {
      clearTimeout(quiet);
      timers.push((quiet = setTimeout(settle, 1_000)));
    };
    const observer = new PerformanceObserver((list) => {
      const painted = (list.getEntries() as LargestContentfulPaint[]).some(
        (e) => (e.element instanceof HTMLImageElement && e.element.getAttribute('fetchpriority') === 'high') || e.element instanceof HTMLVideoElement,
      );
      if (painted) settle();
      else waitForQuiet();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
    stopObserving = () => observer.disconnect();
    waitForQuiet();
  };
  const whenQueriesDone = () => {
    if (queryClient.isFetching() === 0) return afterLargestPaint();
    stopWatching = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() > 0) return;
      stopWatching?.();
      stopWatching = undefined;
      afterLargestPaint();
    });
  };
  // The page's first queries start in the render after `load` at the latest: look after it.
  const onLoad = () => timers.push(setTimeout(whenQueriesDone, 0));
  timers.push(setTimeout(finish, LATEST_MS));
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });
  return () => {
    done = true;
    cancel();
  };
}
