import type { Lead } from '../../../shared/records';
import { Button } from '../../ui/button';
import { useAdminAction } from './use-admin-action';

/** What deleting a record erases, as the question before it says. */
const ERASES = { subscriber: 'the subscriber', lead: 'the lead, its message and its e-mails' } as const;

/** Erases a record after the owner confirms (an erasure request), then reloads what the dashboard shows. */
export function DeleteRecord({ path, name, what }: { path: string; name: string; what: keyof typeof ERASES }) {
  const remove = useAdminAction({
    method: 'DELETE',
    path,
    done: { title: `${what === 'lead' ? 'Lead' : 'Subscriber'} deleted`, description: `${name} was erased.` },
    failed: `Could not delete the ${what}`,
  });

  function confirmAndRemove() {
    if (window.confirm(`Delete ${name}? This erases ${ERASES[what]} and cannot be undone.`)) remove.mutate();
  }

  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={remove.isPending}
      onClick={confirmAndRemove}
      aria-label={`Delete ${name}`}
    >
      Delete
    </Button>
  );
}

/** A lead's Delete, naming it by its name and address (which tells two of one name apart). */
export const deleteLead = (lead: Lead) => (
  <DeleteRecord
    path={`/api/admin/leads/${encodeURIComponent(lead.id)}`}
    name={`${lead.name} <${lead.email}>`}
    what="lead"
  />
);
