import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';

/** Content changes only with a deploy and admin data on demand: no retries, no refetching, never stale. */
export const queryClient = new QueryClient({
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
