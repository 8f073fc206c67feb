// Whether the API answers: every supabase-js request goes through trackedFetch, so the first
// request that cannot reach the server turns the "Sem conexão" banner on and the next answer (any
// status: the server is there) turns it off. Reads retry on their own meanwhile (query-client.ts).
import { useSyncExternalStore } from 'react';
import { takeFirstVisitAnswer } from './first-visit';

let lost = false;
const listeners = new Set<() => void>();

function setLost(value: boolean): void {
  if (lost === value) return;
  lost = value;
  for (const listener of listeners) listener();
}

/** A request the browser aborted on purpose (timeouts, navigation) says nothing about the server. */
const isAbort = (e: unknown) => (e as { name?: string } | null)?.name === 'AbortError';

export const trackedFetch: typeof fetch = async (input, init) => {
  // Asked already by the HTML's inline script, before the app's code ran (./first-visit/answers.ts).
  const answered = await takeFirstVisitAnswer(input, init);
  if (answered) {
    setLost(false);
    return answered;
  }
  try {
    const res = await fetch(input, init);
    setLost(false);
    return res;
  } catch (e) {
    if (!isAbort(e)) setLost(true);
    throw e;
  }
};

export function useConnectionLost(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => lost,
  );
}
