// A failure to reach the server, told apart from the server's own refusals: the reads' retries
// (query-client.ts) and the error toasts (errors.ts) ask it. Without imports, so that the query client
// does not depend on the API's fetch (connection.ts, which takes the first visit's answers).
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
