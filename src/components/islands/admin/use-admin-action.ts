import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorText } from '../../../lib/api-client';
import { isSessionEnded } from '../../../lib/query-client';
import { toast } from '../../../stores/toasts';

/** What a toast says once an action is done. */
interface Done {
  title: string;
  description: string;
  /** An answer that says the action did not fully happen (a test the mail server did not take). */
  variant?: 'destructive';
}

/** An owner's action on a record: the request that does it, and what the toasts say. */
export interface AdminAction<Answer = unknown> {
  method: 'POST' | 'DELETE';
  path: string;
  /** The toast once it is done; a function of the JSON answer when the toast names what the server did. */
  done: Done | ((answer: Answer) => Done);
  /** The title of the toast when it fails; the error is its description. */
  failed: string;
}

/**
 * Does an admin action: the request, a toast saying how it went, and on success a reload of
 * everything the dashboard shows. `mutate()` sends `{}`; `mutate(body)` sends that body instead.
 * `isPending` holds until the reload is done, so the button stays disabled until the lists show
 * the change.
 */
export function useAdminAction<Answer = unknown>({ method, path, done, failed }: AdminAction<Answer>) {
  const client = useQueryClient();
  return useMutation<Done, Error, object | void>({
    mutationFn: async (body) => {
      const response = await apiRequest(method, path, body ?? {});
      // Only an answer the toast reads is parsed: some actions answer 204 with no body.
      return typeof done === 'function' ? done((await response.json()) as Answer) : done;
    },
    onSuccess: async (message) => {
      toast(message);
      await client.invalidateQueries();
    },
    onError: (failure) => {
      // The login form says the session ended; a toast would say it again, less clearly.
      if (!isSessionEnded(failure)) toast({ title: failed, description: errorText(failure), variant: 'destructive' });
    },
  });
}
