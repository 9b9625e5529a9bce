import type { SpamPage } from '../../../shared/api-responses';
import type { Lead } from '../../../shared/records';
import { sourceName } from '../../../shared/schemas';
import { Button } from '../../ui/button';
import type { Column } from '../../ui/record-list';
import { deleteLead } from './DeleteRecord';
import { PagedList, usePagedQuery } from './PagedList';
import { CardTitle, count, moment, origin, verdictText } from './record-text';
import { useAdminAction } from './use-admin-action';

/** Why a held lead was judged spam: each reason, and the content check's verdict if it was not one of them. */
function SpamReasons({ lead }: { lead: Lead }) {
  const reasons = lead.spam?.reasons ?? [];
  const verdict = lead.contentCheck && verdictText(lead.contentCheck);
  return (
    <span className="grid min-w-48 gap-1">
      {reasons.length > 0 && (
        <ul className="grid list-disc gap-0.5 pl-4">
          {reasons.map((reason) => (
            <li key={reason} className="wrap-anywhere">
              {reason}
            </li>
          ))}
        </ul>
      )}
      {verdict && !reasons.includes(verdict) && <span className="text-xs text-ink-600">Content check: {verdict}</span>}
    </span>
  );
}

const SPAM_COLUMNS: Column<Lead>[] = [
  { header: 'Date', cell: (lead) => moment(lead.createdAt), className: 'whitespace-nowrap', inCard: false },
  { header: 'Name', cell: (lead) => lead.name, inCard: false, wrapAnywhere: true },
  { header: 'E-mail', cell: (lead) => lead.email },
  { header: 'Company', cell: (lead) => lead.company ?? '', wrapAnywhere: true },
  {
    header: 'Message',
    cell: (lead) => lead.notes && <span className="min-w-40 md:line-clamp-4 md:max-w-xs">{lead.notes}</span>,
    stackInCard: true,
  },
  {
    header: 'Form',
    cell: (lead) => (
      <span className="grid min-w-40 gap-1">
        {sourceName(lead.source)}
        {origin(lead.page, lead.attribution)}
      </span>
    ),
  },
  { header: 'Why', cell: (lead) => <SpamReasons lead={lead} />, stackInCard: true },
];

/** How the form endpoints are named to the owner; an endpoint not listed shows its own name. */
const ENDPOINT_NAMES: Partial<Record<string, string>> = {
  'leads-create': 'Contact form and guide requests',
  'newsletter-subscribe': 'Footer newsletter sign-ups',
  subscribers: 'Blog newsletter sign-ups',
};

/** Submissions refused before anything was stored, in all and per form. */
function Refused({ label, counts }: { label: string; counts: Record<string, number> }) {
  const rows = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, value]) => sum + value, 0);
  return (
    <div className="rounded-(--radius-card) bg-white p-5 text-sm ring-1 ring-ink-100">
      <dt className="font-semibold text-ink-600">{label}</dt>
      <dd className="mt-1 text-2xl font-extrabold tracking-tight">{count(total)}</dd>
      {rows.length > 0 && (
        <dd>
          <ul className="mt-2 grid gap-1">
            {rows.map(([endpoint, value]) => (
              <li key={endpoint} className="flex justify-between gap-3">
                <span className="min-w-0 wrap-anywhere">{ENDPOINT_NAMES[endpoint] ?? endpoint}</span>
                <span className="text-ink-600 tabular-nums">{count(value)}</span>
              </li>
            ))}
          </ul>
        </dd>
      )}
    </div>
  );
}

/** "Not spam": the held lead joins the leads and its notifications go out; then the lists reload. */
function ReleaseSpam({ lead }: { lead: Lead }) {
  const release = useAdminAction({
    method: 'POST',
    path: `/api/admin/spam/${encodeURIComponent(lead.id)}/release`,
    done: {
      title: 'Moved to the leads',
      description: `${lead.name} is among the leads; the notifications are on their way.`,
    },
    failed: 'Could not release the lead',
  });

  return (
    <Button
      variant="secondary"
      size="sm"
      disabled={release.isPending}
      onClick={() => release.mutate()}
      aria-label={`Not spam: ${lead.name}`}
    >
      Not spam
    </Button>
  );
}

/**
 * Leads judged spam, held apart: not counted, notified or sent to the webhook until the owner
 * says "Not spam". Above them, what the honeypot and the proof of work refused outright.
 */
export function Spam({ held }: { held?: number }) {
  const { page, setPage, data, error } = usePagedQuery<SpamPage>('/api/admin/spam');
  const total = data?.leads.total ?? held;
  return (
    <section aria-labelledby="spam-title" className="grid min-w-0 gap-4">
      <div className="grid gap-1">
        <h3 id="spam-title" className="text-xl font-bold">
          Spam {total !== undefined && <span className="font-normal text-ink-600">({count(total)} held)</span>}
        </h3>
        <p className="text-sm text-ink-600">
          Held leads are not counted, notified or sent to your webhook. &ldquo;Not spam&rdquo; moves one to the leads
          and sends its notifications.
        </p>
      </div>
      <PagedList
        title="Spam"
        label="Held as spam"
        list={data?.leads}
        error={error}
        page={page}
        onPage={setPage}
        emptyText="No spam held. Messages judged spam wait here for your look instead of reaching your inbox."
        above={
          data && (
            <dl className="grid gap-4 sm:grid-cols-2">
              <Refused label="Caught by the honeypot" counts={data.honeypot} />
              <Refused label="Refused for their proof of work" counts={data.challengeFailures} />
            </dl>
          )
        }
        rowKey={(lead) => lead.id}
        columns={SPAM_COLUMNS}
        action={(lead) => (
          <>
            <ReleaseSpam lead={lead} />
            {deleteLead(lead)}
          </>
        )}
        cardTitle={(lead) => <CardTitle title={lead.name} when={moment(lead.createdAt)} />}
      />
    </section>
  );
}
