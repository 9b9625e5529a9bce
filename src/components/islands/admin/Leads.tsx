import type { ListPage } from '../../../shared/api-responses';
import type { Delivery, Lead } from '../../../shared/records';
import type { Column } from '../../ui/record-list';
import { deleteLead } from './DeleteRecord';
import { DELIVERY_DOT, DeliveryProgress, KINDS, RetryDelivery } from './deliveries';
import { CardTitle, origin, verdictText, when } from './record-text';
import { Records } from './Records';

/** A lead's e-mails and webhook, each with its state, and Retry on those that failed for good. */
function LeadDelivery({ deliveries }: { deliveries?: Delivery[] }) {
  if (!deliveries || deliveries.length === 0) return <span className="text-ink-600">Nothing sent</span>;
  return (
    <ul className="grid min-w-52 gap-2">
      {deliveries.map((delivery) => {
        const kind = KINDS[delivery.kind];
        const title = {
          delivered: kind.done,
          pending: `${kind.name} pending`,
          dead: `${kind.name} failed`,
          cancelled: `${kind.name} not sent`,
        }[delivery.status];
        return (
          <li key={delivery.id} className="flex items-start gap-2">
            <span
              aria-hidden="true"
              className={`mt-1.5 size-2 shrink-0 rounded-full ${DELIVERY_DOT[delivery.status]}`}
            />
            <span className="grid min-w-0 justify-items-start gap-1">
              <DeliveryProgress delivery={delivery} title={title} />
              {delivery.status === 'dead' && <RetryDelivery delivery={delivery} />}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * What the owner should know about an ordinary lead's checks: its content could not be checked
 * (kept as if it had passed), or it was judged spam and released by hand.
 */
function LeadChecks({ lead }: { lead: Lead }) {
  const unchecked = lead.contentCheck?.verdict === 'unchecked';
  const releasedAt = lead.spam?.releasedAt;
  if (!unchecked && !releasedAt) return null;
  return (
    <span className="grid gap-0.5 text-xs text-ink-600">
      {unchecked && lead.contentCheck && <span className="wrap-anywhere">{verdictText(lead.contentCheck)}</span>}
      {releasedAt && <span>Released from spam {when(releasedAt)}</span>}
    </span>
  );
}

const LEAD_COLUMNS: Column<Lead>[] = [
  { header: 'Date', cell: (lead) => when(lead.createdAt), className: 'whitespace-nowrap', inCard: false },
  { header: 'Name', cell: (lead) => lead.name, inCard: false, wrapAnywhere: true },
  { header: 'E-mail', cell: (lead) => lead.email },
  { header: 'Company', cell: (lead) => lead.company ?? '', wrapAnywhere: true },
  {
    header: 'Source',
    cell: (lead) => (
      <span className="grid min-w-40 gap-1">
        {lead.source}
        {origin(lead.page, lead.attribution)}
        <LeadChecks lead={lead} />
      </span>
    ),
  },
  {
    header: 'Notes',
    // A table row shows the start of a note; a phone's card shows all of it.
    cell: (lead) => lead.notes && <span className="min-w-40 md:line-clamp-3 md:max-w-xs">{lead.notes}</span>,
  },
  { header: 'Delivery', cell: (lead) => <LeadDelivery deliveries={lead.delivery} />, stackInCard: true },
];

/** The leads, newest first, each with how its e-mails and webhook went; page 1 comes with the overview. */
export function Leads({ initial }: { initial?: ListPage<Lead> }) {
  return (
    <Records<Lead>
      title="Leads"
      endpoint="/api/admin/leads"
      initial={initial}
      emptyText="No leads yet. They appear here as soon as someone sends the contact form or asks for the Zoho guide."
      columns={LEAD_COLUMNS}
      rowKey={(lead) => lead.id}
      cardTitle={(lead) => <CardTitle title={lead.name} when={when(lead.createdAt)} />}
      action={deleteLead}
      csv
    />
  );
}
