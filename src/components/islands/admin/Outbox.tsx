import { useState } from 'react';
import type { OutboxItem, Overview } from '../../../shared/api-responses';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import type { Column } from '../../ui/record-list';
import { DELIVERY_TONE, DELIVERY_WORD, DeliveryProgress, KINDS, RetryDelivery } from './deliveries';
import { CardTitle, count, moment } from './record-text';
import { Records } from './Records';

const OUTBOX_COLUMNS: Column<OutboxItem>[] = [
  { header: 'Created', cell: (item) => moment(item.createdAt), className: 'whitespace-nowrap', inCard: false },
  { header: 'Kind', cell: (item) => KINDS[item.kind].name, className: 'whitespace-nowrap', inCard: false },
  { header: 'To', cell: (item) => item.to },
  { header: 'Subject', cell: (item) => item.subject },
  {
    header: 'Status',
    cell: (item) => (
      <span className="grid min-w-44 justify-items-start gap-1">
        <Badge tone={DELIVERY_TONE[item.status]}>{DELIVERY_WORD[item.status]}</Badge>
        <DeliveryProgress delivery={item} />
      </span>
    ),
  },
  {
    header: 'Message',
    stackInCard: true,
    cell: (item) =>
      item.textKept === false ? (
        <span className="text-ink-600">Text not kept: deleted 30 days after delivery</span>
      ) : (
        <details className="md:min-w-96">
          <summary className="cursor-pointer rounded font-semibold text-brand-700">
            Read it<span className="sr-only">: {item.subject}</span>
          </summary>
          <pre className="mt-2 rounded-lg bg-ink-50 p-3 font-mono text-xs wrap-anywhere whitespace-pre-wrap text-ink-900">
            {item.text}
          </pre>
        </details>
      ),
  },
];

/**
 * Every e-mail and webhook the site sends, newest first. Without mail settings on a local run,
 * this is where the messages that would have gone out can be read. Fetched when opened.
 */
export function Outbox({ counts }: { counts?: Overview['outbox'] }) {
  const [open, setOpen] = useState(false);
  return (
    <Records<OutboxItem>
      title="Outbox"
      endpoint="/api/admin/outbox"
      emptyText="Nothing in the outbox yet. E-mails and webhooks appear here as soon as a form is sent."
      columns={OUTBOX_COLUMNS}
      rowKey={(item) => item.id}
      cardTitle={(item) => <CardTitle title={KINDS[item.kind].name} when={moment(item.createdAt)} />}
      action={(item) => item.status === 'dead' && <RetryDelivery delivery={item} />}
      open={open}
      summary={
        counts && (
          <span className="font-normal text-ink-600">
            ({count(counts.pending)} waiting, {count(counts.dead)} failed)
          </span>
        )
      }
      tools={
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={open}
          aria-controls={open ? 'outbox-list' : undefined}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide the outbox' : 'Show the outbox'}
        </Button>
      }
    />
  );
}
