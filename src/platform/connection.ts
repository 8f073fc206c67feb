// Whether the API answers: every supabase-js request goes through trackedFetch, so the first
// request that cannot reach the server turns the "Sem conexão" banner on and the next answer (any
// status: the server is there) turns it off. Reads retry on their own meanwhile (query-client.ts).
import { useSyncExternalStore } from 'react';
import { takeFirstVisitAnswer } from '@/platform/first-visit/answers';

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

/**
 * A failure to reach the server, as each client reports it: fetch's TypeError, postgrest-js's
 * `{message: 'TypeError: Failed to fetch', code: ''}`, auth-js's AuthRetryableFetchError (status 0)
 * and the FunctionsFetchError / StorageUnknownError that wrap fetch's error.
 */
export function isNetworkError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { name?: string; message?: string; status?: number; code?: string };
  if (e instanceof TypeError) return true;
  if (e.name === 'AuthRetryableFetchError' || e.name === 'FunctionsFetchError') return true;
  if (typeof e.message === 'string' && /^(TypeError|FetchError): /.test(e.message) && !e.code) return true;
  return e.name === 'StorageUnknownError' && (error as { originalError?: unknown }).originalError instanceof TypeError;
}

export function useConnectionLost(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => lost,
  );
}
