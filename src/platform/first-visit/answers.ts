// The answers to what the HTML's inline script asked for before the app's code ran
// (./vite-plugin.ts, from src/app/first-visit-pages.ts's templates). Every API
// request of the app goes through trackedFetch (../connection.ts), which takes a matching answer here
// instead of asking again: same method, URL, body and Authorization (the same account's token), once
// (a refetch asks again), and only in the visit's first seconds: an answer the page did not take then
// (a request it ended up not making) would be stale later. An answer that failed or is not 2xx (an
// expired token, say) is not used: the app then asks itself.

declare global {
  interface Window {
    /** By "METHOD url body": the Authorization the request was made with, and its response. */
    __firstVisit?: Record<string, { auth: string; response: Promise<Response> }>;
  }
}

/** The key of a request; the inline script writes the same. */
export const firstVisitKey = (method: string, url: string, body: string) => `${method} ${url} ${body}`;

/** How long after the page started loading its early answers may be taken. */
export const FIRST_VISIT_ANSWERS_FOR_MS = 30_000;

export function takeFirstVisitAnswer(input: RequestInfo | URL, init?: RequestInit): Promise<Response | null> | null {
  const answers = typeof window === 'undefined' ? undefined : window.__firstVisit;
  if (!answers) return null;
  if (performance.now() > FIRST_VISIT_ANSWERS_FOR_MS) {
    delete window.__firstVisit;
    return null;
  }
  if (!(typeof input === 'string' || input instanceof URL)) return null;
  const body = init?.body ?? '';
  if (typeof body !== 'string') return null;
  const key = firstVisitKey((init?.method ?? 'GET').toUpperCase(), String(input), body);
  const answer = answers[key];
  if (!answer || answer.auth !== new Headers(init?.headers).get('Authorization')) return null;
  delete answers[key];
  return answer.response.then(
    (res) => (res.ok ? res : null),
    () => null,
  );
}
