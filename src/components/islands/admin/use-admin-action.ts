import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorText } from '../../../lib/api';
import { toast } from '../../../stores/toasts';

/** An owner's action on a record: the request that does it, and what the toasts say. */
export interface AdminAction {
  method: 'POST' | 'DELETE';
  path: string;
  /** The toast once it is done. */
  done: { title: string; description: string };
  /** The title of the toast when it fails; the error is its description. */
  failed: string;
}

/**
 * Does an admin action: the request, a toast saying how it went, and on success a reload of
 * everything the dashboard shows. `isPending` holds until the reload is done, so the button
 * stays disabled until the lists show the change.
 */
export function useAdminAction({ method, path, done, failed }: AdminAction) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(method, path, {}),
    onSuccess: async () => {
      toast(done);
      await client.invalidateQueries();
    },
    onError: (failure) => toast({ title: failed, description: errorText(failure), variant: 'destructive' }),
  });
}
