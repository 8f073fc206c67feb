import { MutationCache, QueryClient } from '@tanstack/react-query';
import { isNetworkError } from './network-error';

declare module '@tanstack/react-query' {
  interface Register {
    /**
     * The SPEC §8 title of a mutation's error toast; its description comes from describeError()
     * (src/platform/errors.ts). A mutation without it shows no toast of its own.
     */
    mutationMeta: {
      errorTitle?: string;
      /** SPEC §8 writes a few titles with the message inline ('Erro ao enviar material: ...'). */
      messageInTitle?: boolean;
    };
  }
}

/** Between two tries of a read the server did not answer: 1 s, 2 s, then every 5 s. */
const MAX_RETRY_DELAY_MS = 5_000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // The one error path of every mutation (ARCHITECTURE.md, "Errors").
    mutationCache: new MutationCache({
      // errors.ts is loaded with the first failure: the first paint does not wait for it.
      onError: (error, _variables, _context, { meta }) =>
        meta?.errorTitle && import('./errors').then((m) => m.toastError(meta.errorTitle!, error, meta.messageInTitle)),
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          // The server is down or unreachable: keep trying (the banner says so) until it is back.
          if (isNetworkError(error)) return true;
          // Row-level security and "not found" answers will not change on a retry.
          const status = (error as { status?: number; code?: string } | null)?.status;
          if (status && status >= 400 && status < 500) return false;
          return failureCount < 2;
        },
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS),
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
