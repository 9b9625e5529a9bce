import { useMutation, useQueryClient, type Query } from '@tanstack/react-query';
import { useRef } from 'react';
import { apiRequest, errorText } from '../../../lib/api-client';
import { isSessionEnded } from '../../../lib/query-client';
import type { LeadsPage, Overview } from '../../../shared/api-responses';
import type { Lead, LeadStatus } from '../../../shared/records';
import type { LeadUpdateRequest } from '../../../shared/schemas';
import { toast } from '../../../stores/toasts';
import { OVERVIEW_KEY } from './record-text';

/** The lists of leads the dashboard has fetched, whatever their filters. */
export const LEADS_ENDPOINT = '/api/admin/leads';
const isLeadsList = (query: Query) => String(query.queryKey[0]).startsWith(`${LEADS_ENDPOINT}?`);

/** The counts per status after one lead moved from `from` to `to`. */
function moved(statuses: Record<LeadStatus, number>, from: LeadStatus, to: LeadStatus) {
  if (from === to) return statuses;
  return { ...statuses, [from]: Math.max(0, statuses[from] - 1), [to]: statuses[to] + 1 };
}

/**
 * Sets a lead's status or note (PATCH /api/admin/leads/{id}). The lead keeps its place in the
 * list shown, with what was set, rather than leaving a list of New leads the moment it is marked
 * Replied: the owner may still be writing its note. The counts move at once; other lists are
 * fetched again when next shown.
 */
export function useLeadUpdate(lead: Lead) {
  const client = useQueryClient();
  // The status the counts last moved from: this card's own answers are newer than a list's copy.
  const saved = useRef<Lead | undefined>(undefined);
  return useMutation<Lead, Error, LeadUpdateRequest>({
    mutationFn: async (update) =>
      (await (await apiRequest('PATCH', `${LEADS_ENDPOINT}/${encodeURIComponent(lead.id)}`, update)).json()) as Lead,
    onSuccess: (updated) => {
      const known = saved.current && (saved.current.updatedAt ?? '') >= (lead.updatedAt ?? '') ? saved.current : lead;
      saved.current = updated;
      const from = known.status ?? 'new';
      const to = updated.status ?? 'new';
      client.setQueriesData<LeadsPage>({ predicate: isLeadsList }, (page) =>
        page
          ? {
              ...page,
              items: page.items.map((item) =>
                item.id === updated.id && (item.updatedAt ?? '') <= (updated.updatedAt ?? '') ? updated : item,
              ),
              statuses: moved(page.statuses, from, to),
            }
          : page,
      );
      client.setQueryData<Overview>([OVERVIEW_KEY], (overview) =>
        overview ? { ...overview, leadStatuses: moved(overview.leadStatuses, from, to) } : overview,
      );
      void client.invalidateQueries({ predicate: isLeadsList, refetchType: 'none' });
    },
    onError: (failure) => {
      // The login form says the session ended; a toast would say it again, less clearly.
      if (!isSessionEnded(failure))
        toast({ title: `Could not save ${lead.name}'s lead`, description: errorText(failure), variant: 'destructive' });
    },
  });
}
