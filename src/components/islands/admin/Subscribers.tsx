import type { ReactNode } from 'react';
import type { ListPage } from '../../../shared/api-responses';
import { sourceName } from '../../../shared/schemas';
import type { Subscriber, SubscriberStatus } from '../../../shared/records';
import { Badge } from '../../ui/badge';
import type { Column } from '../../ui/record-list';
import { DeleteRecord } from './DeleteRecord';
import { CardTitle, origin, when } from './record-text';
import { Records } from './Records';

const STATUS_TONE: Record<SubscriberStatus, 'success' | 'waiting' | 'neutral'> = {
  confirmed: 'success',
  pending: 'waiting',
  unsubscribed: 'neutral',
  bounced: 'neutral',
};
const STATUS_WORD: Record<SubscriberStatus, string> = {
  confirmed: 'Confirmed',
  pending: 'Pending',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
};

/** Since when a subscriber has had their status, where the record says. */
const SINCE: Partial<Record<SubscriberStatus, (subscriber: Subscriber) => string | undefined>> = {
  confirmed: (subscriber) => subscriber.consent.confirmedAt,
  unsubscribed: (subscriber) => subscriber.consent.unsubscribedAt,
  bounced: (subscriber) => subscriber.consent.bouncedAt,
};

/** A subscriber's status, since when for a confirmed, unsubscribed or bounced one, and what a bounce's server said. */
function subscriberState(subscriber: Subscriber): ReactNode {
  const since = SINCE[subscriber.status]?.(subscriber);
  const bounce = subscriber.status === 'bounced' && subscriber.consent.bounce;
  return (
    <span className="grid justify-items-start gap-0.5">
      <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
        <Badge tone={STATUS_TONE[subscriber.status]}>{STATUS_WORD[subscriber.status]}</Badge>
        {since && <span className="text-xs whitespace-nowrap text-ink-600">{when(since)}</span>}
      </span>
      {bounce && <span className="min-w-40 text-xs wrap-anywhere text-ink-600">{bounce}</span>}
    </span>
  );
}

const SUBSCRIBER_COLUMNS: Column<Subscriber>[] = [
  { header: 'Since', cell: (subscriber) => when(subscriber.createdAt), className: 'whitespace-nowrap', inCard: false },
  { header: 'E-mail', cell: (subscriber) => subscriber.email, inCard: false },
  {
    header: 'Name',
    cell: (subscriber) => [subscriber.firstName, subscriber.lastName].filter(Boolean).join(' '),
    wrapAnywhere: true,
  },
  { header: 'Status', cell: subscriberState },
  { header: 'Forms', cell: (subscriber) => subscriber.sources.map(sourceName).join(', ') },
  {
    header: 'Origin',
    cell: (subscriber) => origin(subscriber.consent.page, subscriber.attribution),
  },
];

/** The newsletter's subscribers, newest first, whatever their status; page 1 comes with the overview. */
export function Subscribers({ initial }: { initial?: ListPage<Subscriber> }) {
  return (
    <Records<Subscriber>
      title="Subscribers"
      endpoint="/api/admin/subscribers"
      initial={initial}
      emptyText="No subscribers yet. Newsletter signups from the footer and the blog appear here."
      columns={SUBSCRIBER_COLUMNS}
      rowKey={(subscriber) => subscriber.email}
      cardTitle={(subscriber) => <CardTitle title={subscriber.email} when={when(subscriber.createdAt)} />}
      action={(subscriber) => (
        <DeleteRecord
          path={`/api/admin/subscribers/${encodeURIComponent(subscriber.email)}`}
          name={subscriber.email}
          what="subscriber"
        />
      )}
      csv
    />
  );
}
