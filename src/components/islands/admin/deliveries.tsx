/** An outbox entry's kind, state and progress, as the leads and the outbox show them, and its Retry. */
import type { Delivery, DeliveryKind } from '../../../shared/records';
import { Button } from '../../ui/button';
import { moment, plural } from './record-text';
import { useAdminAction } from './use-admin-action';

/** What each kind of outbox entry is, as a noun, and as done when delivered. */
export const KINDS: Record<DeliveryKind, { name: string; done: string }> = {
  'lead-notification': { name: 'Team notification', done: 'Team notified' },
  guide: { name: 'Guide e-mail', done: 'Guide sent' },
  confirmation: { name: 'Confirmation e-mail', done: 'Confirmation sent' },
  webhook: { name: 'Webhook', done: 'Webhook delivered' },
  newsletter: { name: 'Newsletter', done: 'Newsletter sent' },
  'weekly-report': { name: 'Weekly letter', done: 'Weekly letter sent' },
  invitation: { name: 'Calendar e-mail', done: 'Calendar e-mail sent' },
  reminder: { name: 'Reminder', done: 'Reminder sent' },
};

export const DELIVERY_TONE = {
  delivered: 'success',
  pending: 'waiting',
  dead: 'danger',
  cancelled: 'neutral',
} as const;
export const DELIVERY_WORD = { delivered: 'Sent', pending: 'Pending', dead: 'Failed', cancelled: 'Not sent' } as const;
export const DELIVERY_DOT = {
  delivered: 'bg-brand-600',
  pending: 'bg-amber-400',
  dead: 'bg-danger-700',
  cancelled: 'bg-ink-300',
} as const;

/** When an entry went, or how its attempts are going, and its last error. */
function progress(delivery: Delivery): { line: string; error?: string } {
  const error = delivery.lastError && `Last error: ${delivery.lastError}`;
  switch (delivery.status) {
    case 'delivered':
      return {
        line: [
          delivery.deliveredAt && moment(delivery.deliveredAt),
          delivery.via === 'file' && 'written to the local outbox folder',
        ]
          .filter(Boolean)
          .join(', '),
      };
    case 'pending':
      return {
        line: [
          delivery.attempts === 0 ? 'not tried yet' : `${plural(delivery.attempts, 'attempt')} so far`,
          delivery.nextAttemptAt && `next try ${moment(delivery.nextAttemptAt)}`,
        ]
          .filter(Boolean)
          .join(', '),
        error,
      };
    case 'dead':
      return { line: `after ${plural(delivery.attempts, 'attempt')}`, error };
    case 'cancelled':
      return { line: delivery.lastError ?? 'not sent' };
  }
}

/** An entry's progress line and its last error, after a title saying what it is and how it stands. */
export function DeliveryProgress({ delivery, title }: { delivery: Delivery; title?: string }) {
  const { line, error } = progress(delivery);
  return (
    <span className="grid min-w-0 justify-items-start gap-0.5">
      <span>
        {title && <span className="font-semibold">{title}</span>}
        {title && line && ' · '}
        {line}
      </span>
      {error && <span className="text-xs wrap-anywhere text-ink-600">{error}</span>}
    </span>
  );
}

/** Puts an entry that failed for good back in the queue, then reloads what the dashboard shows. */
export function RetryDelivery({ delivery }: { delivery: Delivery }) {
  const what = `${KINDS[delivery.kind].name.toLowerCase()} to ${delivery.to}`;
  const retry = useAdminAction({
    method: 'POST',
    path: `/api/admin/outbox/${encodeURIComponent(delivery.id)}/retry`,
    done: { title: 'Sending again', description: `The ${what} is back in the queue.` },
    failed: 'Could not retry',
  });

  return (
    <Button
      variant="secondary"
      size="sm"
      disabled={retry.isPending}
      onClick={() => retry.mutate()}
      aria-label={`Retry the ${what}`}
    >
      Retry
    </Button>
  );
}
