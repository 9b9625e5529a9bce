import { useId, useState, type FormEvent } from 'react';
import { cn } from '../../../lib/cn';
import { sourceName } from '../../../shared/schemas';
import { LEAD_NOTE_MAX, LEAD_STATUS_NAMES, LEAD_STATUSES, type Delivery, type Lead } from '../../../shared/records';
import { site } from '../../../site.config';
import { buttonVariants } from '../../ui/button-variants';
import { Button } from '../../ui/button';
import { Textarea } from '../../ui/field';
import { deleteLead } from './DeleteRecord';
import { DELIVERY_DOT, DeliveryProgress, KINDS, RetryDelivery } from './deliveries';
import { count, origin, verdictText, when } from './record-text';
import { replyLink } from './lead-reply';
import { useLeadUpdate } from './use-lead-update';

/** A lead's e-mails and webhook, each with its state, and Retry on those that failed for good. */
function LeadDelivery({ deliveries }: { deliveries?: Delivery[] }) {
  if (!deliveries || deliveries.length === 0) return <p className="text-ink-600">Nothing sent</p>;
  return (
    <ul className="grid gap-2">
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

/** How a lead's deliveries went, in a few words: `all sent`, `1 failed`, `nothing sent`. */
function deliverySummary(deliveries: Delivery[] = []): string {
  if (deliveries.length === 0) return 'nothing sent';
  const count = (status: Delivery['status']) => deliveries.filter((delivery) => delivery.status === status).length;
  const parts = [
    count('dead') && `${count('dead')} failed`,
    count('pending') && `${count('pending')} pending`,
    count('cancelled') && `${count('cancelled')} not sent`,
  ].filter(Boolean);
  return parts.length === 0 ? 'all sent' : parts.join(', ');
}

/**
 * What the owner should know about a lead's checks: its content could not be checked (kept as if
 * it had passed), or it was judged spam and released by hand.
 */
function LeadChecks({ lead }: { lead: Lead }) {
  const unchecked = lead.contentCheck?.verdict === 'unchecked';
  const releasedAt = lead.spam?.releasedAt;
  if (!unchecked && !releasedAt) return null;
  return (
    <p className="grid gap-0.5 text-xs text-ink-600">
      {unchecked && lead.contentCheck && <span className="wrap-anywhere">{verdictText(lead.contentCheck)}</span>}
      {releasedAt && <span>Released from spam {when(releasedAt)}</span>}
    </p>
  );
}

/** The five statuses, each set with one press; the lead's own is pressed. */
function StatusPicker({ lead, update }: { lead: Lead; update: ReturnType<typeof useLeadUpdate> }) {
  const status = lead.status ?? 'new';
  const asked = update.isPending ? update.variables.status : undefined;
  return (
    <div role="group" aria-label={`Status of ${lead.name}`} className="flex flex-wrap gap-1.5">
      {LEAD_STATUSES.map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={option === status}
          aria-busy={option === asked || undefined}
          onClick={() => option !== status && update.mutate({ status: option })}
          className={cn(
            'min-h-9 rounded-full px-3 text-sm font-medium ring-1 ring-inset aria-busy:cursor-progress aria-busy:opacity-70',
            option === status
              ? 'bg-brand-700 text-white ring-brand-700'
              : 'bg-white text-ink-700 ring-ink-200 hover:bg-ink-100',
          )}
        >
          {LEAD_STATUS_NAMES[option]}
        </button>
      ))}
    </div>
  );
}

/** The owner's private note: saved with its button, and said so. */
function NoteEditor({ lead, update }: { lead: Lead; update: ReturnType<typeof useLeadUpdate> }) {
  const id = useId();
  const [note, setNote] = useState(lead.note ?? '');
  const [saved, setSaved] = useState(false);
  const changed = note.trim() !== (lead.note ?? '');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    update.mutate({ note }, { onSuccess: () => setSaved(true) });
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-ink-800">
        Private note <span className="font-normal text-ink-600">(only you see it)</span>
      </label>
      <Textarea
        id={id}
        value={note}
        maxLength={LEAD_NOTE_MAX}
        onChange={(event) => {
          setNote(event.target.value);
          setSaved(false);
        }}
        className="min-h-20 text-sm"
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary" size="sm" aria-busy={update.isPending || undefined}>
          Save note
        </Button>
        <p role="status" className="text-sm text-ink-600">
          {saved && !changed ? 'Note saved' : changed ? `${count(note.length)} / ${count(LEAD_NOTE_MAX)}` : ''}
        </p>
      </div>
    </form>
  );
}

/**
 * One lead as the owner works it: who, what they asked and where they came from; its status, a
 * private note, a reply from the owner's own mail program and the delivery of its e-mails.
 */
export function LeadCard({ lead: listed }: { lead: Lead }) {
  const update = useLeadUpdate(listed);
  // The lead as last saved here, unless the list has brought a later change since: a list that
  // was on its way while the owner pressed a status may arrive after the answer, and is older.
  const lead = update.data && (update.data.updatedAt ?? '') >= (listed.updatedAt ?? '') ? update.data : listed;
  const headingId = `lead-${lead.id}`;
  const written = when(lead.createdAt);
  const touch = origin(lead.page, lead.attribution);
  const failed = lead.delivery?.some((delivery) => delivery.status === 'dead') ?? false;
  return (
    <article
      aria-labelledby={headingId}
      className="grid gap-5 rounded-(--radius-card) bg-white p-4 text-sm ring-1 ring-ink-100 sm:p-5 lg:grid-cols-[minmax(0,1fr)_minmax(18rem,24rem)]"
    >
      <div className="grid min-w-0 content-start gap-3">
        <div className="grid gap-0.5">
          <h4 id={headingId} className="text-base font-bold wrap-anywhere">
            {lead.name}
            {lead.company && <span className="font-normal text-ink-700">, {lead.company}</span>}
          </h4>
          <p className="text-ink-600">
            {written} · {sourceName(lead.source)}
          </p>
          <p className="wrap-anywhere">
            <a href={`mailto:${lead.email}`} className="text-brand-700 underline underline-offset-2">
              {lead.email}
            </a>
          </p>
        </div>
        {lead.notes && (
          <blockquote className="border-l-4 border-ink-200 pl-3 wrap-anywhere whitespace-pre-line text-ink-800">
            {lead.notes}
          </blockquote>
        )}
        {touch}
        <LeadChecks lead={lead} />
        {/* Open from the start when something failed for good: its Retry is inside. */}
        <details open={failed}>
          <summary className="cursor-pointer text-ink-700 marker:text-ink-500">
            E-mails and webhook: {deliverySummary(lead.delivery)}
          </summary>
          <div className="mt-2">
            <LeadDelivery deliveries={lead.delivery} />
          </div>
        </details>
      </div>
      <div className="grid min-w-0 content-start gap-4 lg:border-l lg:border-ink-100 lg:pl-5">
        <StatusPicker lead={lead} update={update} />
        <NoteEditor lead={lead} update={update} />
        <div className="flex flex-wrap items-center gap-2">
          <a
            href={replyLink(lead, { siteName: site.name, written })}
            className={buttonVariants({ size: 'sm' })}
            aria-label={`Reply to ${lead.name}`}
          >
            Reply
          </a>
          {deleteLead(lead)}
        </div>
      </div>
    </article>
  );
}
