import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, getQueryFn } from './api-client';

/**
 * Whether a call failed because the admin session is over: logged out everywhere, expired, or
 * opened with a password that has changed since. Every admin endpoint answers 401 then.
 */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

const sessionEndListeners = new Set<() => void>();

/**
 * Calls `listener` whenever a query or a mutation of this client finds the session over, so the
 * page returns to the login form at once instead of showing data it can no longer refresh.
 * Returns the function that stops it.
 */
export function onSessionEnd(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

function endSessionIfOver(error: unknown) {
  if (!isSessionEnded(error)) return;
  for (const listener of [...sessionEndListeners]) listener();
}

/**
 * The admin dashboard's client. Content changes only with a deploy and admin data on demand: no
 * retries, no refetching, never stale. Every query and mutation, refetches included, goes through
 * its caches, so a 401 from any of them ends the session in one place.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: endSessionIfOver }),
  mutationCache: new MutationCache({ onError: endSessionIfOver }),
  defaultOptions: {
    queries: {
      queryFn: getQueryFn(),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    },
    mutations: {
      retry: false,
    },
  },
});
