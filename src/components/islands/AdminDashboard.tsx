import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { apiRequest, errorText } from '../../lib/api';
import { formatDateTime, formatShortDate } from '../../lib/format';
import { queryClient } from '../../lib/query-client';
import type { CampaignRow, DeliverySetup, ListPage, OutboxItem, Overview, SpamPage } from '../../shared/api';
import type {
  Attribution,
  ContentCheck,
  Delivery,
  DeliveryKind,
  Lead,
  Subscriber,
  SubscriberStatus,
} from '../../shared/records';
import { toast } from '../../stores/toasts';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/field';
import { RecordList, type Column } from '../ui/record-list';

const loadChart = () => import('./ActivityChart').then((module) => ({ default: module.ActivityChart }));
const ActivityChart = lazy(loadChart);

/**
 * The owner's dashboard, loaded by the admin page once the session is good: the login form
 * never downloads the data layer, the tables or the chart.
 */
export default function AdminDashboard({ analyticsUrl, onLogout }: { analyticsUrl?: string; onLogout: () => void }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Dashboard analyticsUrl={analyticsUrl} onLogout={onLogout} />
    </QueryClientProvider>
  );
}

function Dashboard({ analyticsUrl, onLogout }: { analyticsUrl?: string; onLogout: () => void }) {
  const client = useQueryClient();
  const overview = useQuery<Overview>({ queryKey: ['/api/admin/overview'] });
  // The chart's code downloads while the figures are on their way.
  useEffect(() => void loadChart(), []);

  async function logout() {
    try {
      await apiRequest('POST', '/api/admin/logout', {});
    } finally {
      // Nothing the owner saw stays in memory once they have logged out.
      client.clear();
      onLogout();
    }
  }

  return (
    <div className="grid min-w-0 gap-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-2xl font-extrabold tracking-tight">Insights</h2>
        <Button variant="secondary" onClick={logout}>
          Logout
        </Button>
      </div>
      {overview.isPending && <p className="text-ink-600">Loading the figures…</p>}
      {overview.error && (
        <FormAlert tone="error">The figures could not be loaded: {errorText(overview.error)}</FormAlert>
      )}
      {overview.data && <DeliveryPanel setup={overview.data.delivery} outbox={overview.data.outbox} />}
      {overview.data && <Figures data={overview.data} />}
      <Records<Lead>
        title="Leads"
        endpoint="/api/admin/leads"
        initial={overview.data?.leads}
        emptyText="No leads yet. They appear here as soon as someone sends the contact form or asks for the Zoho guide."
        columns={LEAD_COLUMNS}
        rowKey={(lead) => lead.id}
        cardTitle={(lead) => <CardTitle title={lead.name} when={when(lead.createdAt)} />}
        action={deleteLead}
        csv
      />
      <Spam held={overview.data?.spam.held} />
      <Records<Subscriber>
        title="Subscribers"
        endpoint="/api/admin/subscribers"
        initial={overview.data?.subscribers}
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
      <Outbox counts={overview.data?.outbox} />
      <section aria-labelledby="analytics-title" className="grid gap-4">
        <h3 id="analytics-title" className="text-xl font-bold">
          Analytics
        </h3>
        {analyticsUrl ? (
          <iframe
            src={analyticsUrl}
            title="Analytics dashboard"
            className="h-[40rem] w-full rounded-(--radius-card) ring-1 ring-ink-100"
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : (
          <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">
            No analytics dashboard is configured. Set{' '}
            <code className="rounded bg-white px-1.5 py-0.5 wrap-anywhere">PUBLIC_ANALYTICS_DASHBOARD_URL</code> to the
            shareable link of your analytics dashboard (for example a public Plausible or Umami share link) and redeploy
            to see it here.
          </p>
        )}
      </section>
    </div>
  );
}

const count = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, one: string, many = `${one}s`) => `${count(value)} ${value === 1 ? one : many}`;

/** How e-mail and the webhook are set up, and a warning above it all when e-mails cannot reach people. */
function DeliveryPanel({ setup, outbox }: { setup: DeliverySetup; outbox: Overview['outbox'] }) {
  const mail = {
    smtp: 'Sent through your SMTP server',
    file: 'Not sent: written to the local outbox folder (read them under Outbox below)',
    none: 'Off: no SMTP server is configured',
  }[setup.mail];
  return (
    <section aria-labelledby="delivery-title" className="grid gap-4">
      {setup.warning && (
        <div role="alert" className="rounded-(--radius-card) bg-danger-50 p-5 ring-2 ring-danger-700/40 ring-inset">
          <p className="font-bold text-danger-700">{setup.warning.title}</p>
          <p className="mt-1 text-ink-800">{setup.warning.text}</p>
        </div>
      )}
      <div className="rounded-(--radius-card) bg-white p-5 text-sm ring-1 ring-ink-100">
        <h3 id="delivery-title" className="font-semibold">
          Delivery
        </h3>
        <dl className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-[auto_minmax(0,1fr)]">
          <dt className="font-semibold text-ink-600">E-mail</dt>
          <dd className="text-ink-800">{mail}</dd>
          <dt className="font-semibold text-ink-600">Lead notifications to</dt>
          <dd className="wrap-anywhere text-ink-800">
            {setup.notifyTo.length > 0 ? setup.notifyTo.join(', ') : 'nobody (LEADS_NOTIFY_TO is not set)'}
          </dd>
          <dt className="font-semibold text-ink-600">Webhook</dt>
          <dd className="text-ink-800">
            {setup.webhook ? 'On: leads and confirmed subscribers are posted to your webhook' : 'Off'}
          </dd>
          <dt className="font-semibold text-ink-600">Outbox</dt>
          <dd className="text-ink-800">
            {plural(outbox.pending, 'message')} waiting to be sent, {count(outbox.dead)} failed
          </dd>
        </dl>
      </div>
    </section>
  );
}

function Figures({ data }: { data: Overview }) {
  const status = data.subscriberStatus;
  const cards = [
    {
      label: 'Confirmed subscribers',
      figures: data.totals.subscribers,
      note: `${count(status.pending)} awaiting confirmation · ${count(status.unsubscribed)} unsubscribed`,
    },
    { label: 'Leads', figures: data.totals.leads },
  ];
  return (
    <>
      <dl className="grid gap-6 sm:grid-cols-2">
        {cards.map(({ label, figures, note }) => (
          <div key={label} className="rounded-(--radius-card) bg-white p-6 shadow-(--shadow-card) ring-1 ring-ink-100">
            <dt className="text-sm font-semibold tracking-wide text-ink-600 uppercase">{label}</dt>
            <dd className="mt-2 text-4xl font-extrabold tracking-tight">{count(figures.total)}</dd>
            <dd className="mt-2 text-sm text-ink-600">
              +{count(figures.last7)} in the last 7 days · +{count(figures.last30)} in the last 30 days
            </dd>
            {note && <dd className="mt-1 text-sm text-ink-600">{note}</dd>}
          </div>
        ))}
      </dl>
      <section
        aria-labelledby="activity-title"
        className="rounded-(--radius-card) bg-white p-6 shadow-(--shadow-card) ring-1 ring-ink-100"
      >
        <h3 id="activity-title" className="text-xl font-bold">
          Last 90 days
        </h3>
        <Suspense fallback={<div className="h-[260px]" />}>
          <ActivityChart
            days={data.daily.map((row) => row.day)}
            subscribers={data.daily.map((row) => row.subscribers)}
            leads={data.daily.map((row) => row.leads)}
          />
        </Suspense>
      </section>
      <section aria-labelledby="sources-title" className="grid gap-4">
        <h3 id="sources-title" className="text-xl font-bold">
          By source, last 90 days
        </h3>
        <div className="grid gap-6 sm:grid-cols-2">
          <SourceList label="Newsletter sign-ups" counts={data.sources.subscribers} />
          <SourceList label="Leads" counts={data.sources.leads} />
        </div>
      </section>
      <Campaigns rows={data.campaigns} />
    </>
  );
}

function SourceList({ label, counts }: { label: string; counts: Record<string, number> }) {
  const rows = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...rows.map(([, value]) => value));
  return (
    <div className="rounded-(--radius-card) bg-white p-6 ring-1 ring-ink-100">
      <h4 className="font-semibold">{label}</h4>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-ink-600">Nothing in the last 90 days.</p>
      ) : (
        <ul className="mt-4 grid gap-3">
          {rows.map(([source, value]) => (
            <li key={source} className="grid gap-1">
              <span className="flex justify-between gap-3 text-sm">
                <span className="min-w-0 font-medium wrap-anywhere">{source}</span>
                <span className="text-ink-600">{count(value)}</span>
              </span>
              <span className="h-2 rounded-full bg-ink-100">
                <span className="block h-2 rounded-full bg-brand-600" style={{ width: `${(value / max) * 100}%` }} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const CAMPAIGN_COLUMNS: Column<CampaignRow>[] = [
  { header: 'Campaign', cell: (row) => row.campaign, inCard: false },
  { header: 'Source', cell: (row) => row.source },
  { header: 'Medium', cell: (row) => row.medium },
  { header: 'Leads', cell: (row) => count(row.leads), className: 'text-right tabular-nums' },
  { header: 'Sign-ups', cell: (row) => count(row.subscribers), className: 'text-right tabular-nums' },
];

/** Leads and newsletter sign-ups (confirmed or not) per first-touch campaign (utm_campaign, utm_source, utm_medium). */
function Campaigns({ rows }: { rows: CampaignRow[] }) {
  return (
    <section aria-labelledby="campaigns-title" className="grid gap-4">
      <h3 id="campaigns-title" className="text-xl font-bold">
        By campaign
      </h3>
      {rows.length === 0 ? (
        <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">
          No campaigns yet. Links to the site with <code>utm_source</code>, <code>utm_medium</code> and{' '}
          <code>utm_campaign</code> parameters are counted here.
        </p>
      ) : (
        <RecordList
          label="Leads and newsletter sign-ups by campaign"
          rows={rows}
          rowKey={(row) => `${row.source}\n${row.medium}\n${row.campaign}`}
          columns={CAMPAIGN_COLUMNS}
          cardTitle={(row) => <CardTitle title={row.campaign} />}
        />
      )}
    </section>
  );
}

const when = (iso: string) => formatShortDate(new Date(iso));
const moment = (iso: string) => formatDateTime(new Date(iso));

/** The first line of a record's card on a phone: who or what, and when. */
function CardTitle({ title, when: time }: { title: string; when?: string }) {
  return (
    <>
      <span className="min-w-0 wrap-anywhere">{title}</span>
      {time && <span className="font-normal text-ink-600">{time}</span>}
    </>
  );
}

/** What each kind of outbox entry is, as a noun, and as done when delivered. */
const KINDS: Record<DeliveryKind, { name: string; done: string }> = {
  'lead-notification': { name: 'Team notification', done: 'Team notified' },
  guide: { name: 'Guide e-mail', done: 'Guide sent' },
  confirmation: { name: 'Confirmation e-mail', done: 'Confirmation sent' },
  webhook: { name: 'Webhook', done: 'Webhook delivered' },
};

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
  }
}

const DELIVERY_TONE = { delivered: 'success', pending: 'waiting', dead: 'danger' } as const;
const DELIVERY_WORD = { delivered: 'Sent', pending: 'Pending', dead: 'Failed' } as const;
const DELIVERY_DOT = { delivered: 'bg-brand-600', pending: 'bg-amber-400', dead: 'bg-danger-700' } as const;

/** An entry's progress line and its last error, after a title saying what it is and how it stands. */
function DeliveryProgress({ delivery, title }: { delivery: Delivery; title?: string }) {
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

/** A lead's e-mails and webhook, each with its state, and Retry on those that failed for good. */
function LeadDelivery({ deliveries }: { deliveries?: Delivery[] }) {
  if (!deliveries || deliveries.length === 0) return <span className="text-ink-600">Nothing sent</span>;
  return (
    <ul className="grid min-w-52 gap-2">
      {deliveries.map((delivery) => {
        const kind = KINDS[delivery.kind];
        const title = { delivered: kind.done, pending: `${kind.name} pending`, dead: `${kind.name} failed` }[
          delivery.status
        ];
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

/** Where a person came from, compactly (campaign, referring host, first page), or '' when nothing is known. */
function origin(page: string | undefined, attribution: Attribution | undefined): ReactNode {
  const via = attribution && [attribution.utm_source, attribution.utm_medium].filter(Boolean).join(' / ');
  const lines = [
    page && ['Page', page],
    attribution?.utm_campaign && ['Campaign', attribution.utm_campaign],
    via && ['Via', via],
    attribution?.utm_term && ['Term', attribution.utm_term],
    attribution?.utm_content && ['Content', attribution.utm_content],
    attribution?.referrer && ['Referrer', attribution.referrer],
    attribution?.landingPage && ['Landed on', attribution.landingPage],
  ].filter((line): line is [string, string] => Boolean(line));
  if (lines.length === 0) return '';
  return (
    <span className="grid gap-0.5 text-xs">
      {lines.map(([label, value]) => (
        <span key={label} className="wrap-anywhere">
          <span className="text-ink-600">{label}:</span> {value}
        </span>
      ))}
    </span>
  );
}

const LEAD_COLUMNS: Column<Lead>[] = [
  { header: 'Date', cell: (lead) => when(lead.createdAt), className: 'whitespace-nowrap', inCard: false },
  { header: 'Name', cell: (lead) => lead.name, inCard: false },
  { header: 'E-mail', cell: (lead) => lead.email },
  { header: 'Company', cell: (lead) => lead.company ?? '' },
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

/** What the content check said, in a line: `Akismet: spam`, `Akismet: not checked (HTTP 500)`. */
function verdictText(check: ContentCheck): string {
  const service = { akismet: 'Akismet' }[check.service];
  if (check.verdict === 'unchecked') return `${service}: not checked${check.error ? ` (${check.error})` : ''}`;
  return `${service}: ${check.verdict === 'spam' ? 'spam' : 'not spam'}`;
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
  { header: 'Name', cell: (lead) => lead.name, inCard: false },
  { header: 'E-mail', cell: (lead) => lead.email },
  { header: 'Company', cell: (lead) => lead.company ?? '' },
  {
    header: 'Message',
    cell: (lead) => lead.notes && <span className="min-w-40 md:line-clamp-4 md:max-w-xs">{lead.notes}</span>,
    stackInCard: true,
  },
  {
    header: 'Source',
    cell: (lead) => (
      <span className="grid min-w-40 gap-1">
        {lead.source}
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

/**
 * Leads judged spam, held apart: not counted, notified or sent to the webhook until the owner
 * says "Not spam". Above them, what the honeypot and the proof of work refused outright.
 */
function Spam({ held }: { held?: number }) {
  const [page, setPage] = useState(1);
  const query = useQuery<SpamPage>({
    queryKey: [`/api/admin/spam?page=${page}`],
    placeholderData: (previous) => previous,
  });
  const data = query.data;
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
      {query.error && <FormAlert tone="error">{errorText(query.error)}</FormAlert>}
      {data && (
        <dl className="grid gap-4 sm:grid-cols-2">
          <Refused label="Caught by the honeypot" counts={data.honeypot} />
          <Refused label="Refused for their proof of work" counts={data.challengeFailures} />
        </dl>
      )}
      {!data ? (
        !query.error && <p className="text-ink-600">Loading…</p>
      ) : data.leads.items.length === 0 ? (
        <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">
          No spam held. Messages judged spam wait here for your look instead of reaching your inbox.
        </p>
      ) : (
        <RecordList
          label="Held as spam"
          rows={data.leads.items}
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
      )}
      {data && <Pages title="Spam" list={data.leads} page={page} onPage={setPage} />}
    </section>
  );
}

const STATUS_TONE: Record<SubscriberStatus, 'success' | 'waiting' | 'neutral'> = {
  confirmed: 'success',
  pending: 'waiting',
  unsubscribed: 'neutral',
};
const STATUS_WORD: Record<SubscriberStatus, string> = {
  confirmed: 'Confirmed',
  pending: 'Pending',
  unsubscribed: 'Unsubscribed',
};

/** A subscriber's status, and since when for a confirmed or unsubscribed one. */
function subscriberState(subscriber: Subscriber): ReactNode {
  const since =
    subscriber.status === 'confirmed'
      ? subscriber.consent.confirmedAt
      : subscriber.status === 'unsubscribed'
        ? subscriber.consent.unsubscribedAt
        : undefined;
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
      <Badge tone={STATUS_TONE[subscriber.status]}>{STATUS_WORD[subscriber.status]}</Badge>
      {since && <span className="text-xs whitespace-nowrap text-ink-600">{when(since)}</span>}
    </span>
  );
}

const SUBSCRIBER_COLUMNS: Column<Subscriber>[] = [
  { header: 'Since', cell: (subscriber) => when(subscriber.createdAt), className: 'whitespace-nowrap', inCard: false },
  { header: 'E-mail', cell: (subscriber) => subscriber.email, inCard: false },
  { header: 'Name', cell: (subscriber) => [subscriber.firstName, subscriber.lastName].filter(Boolean).join(' ') },
  { header: 'Status', cell: subscriberState },
  { header: 'Sources', cell: (subscriber) => subscriber.sources.join(', ') },
  {
    header: 'Origin',
    cell: (subscriber) => origin(subscriber.consent.page, subscriber.attribution),
  },
];

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
function Outbox({ counts }: { counts?: Overview['outbox'] }) {
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

/**
 * A newest-first list, page by page, with a heading. Page 1 may come with the overview; later
 * pages (and lists the overview does not carry) are fetched when shown.
 */
function Records<T>({
  title,
  endpoint,
  initial,
  emptyText,
  columns,
  rowKey,
  action,
  cardTitle,
  csv = false,
  open = true,
  summary,
  tools,
}: {
  title: string;
  endpoint: string;
  initial?: ListPage<T>;
  emptyText: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  action?: (row: T) => ReactNode;
  cardTitle?: (row: T) => ReactNode;
  /** A link to the whole list as CSV (`?format=csv`). */
  csv?: boolean;
  /** A closed list shows its heading only and fetches nothing. */
  open?: boolean;
  /** After the title in the heading, instead of the total. */
  summary?: ReactNode;
  tools?: ReactNode;
}) {
  const [page, setPage] = useState(1);
  const query = useQuery<ListPage<T>>({
    queryKey: [`${endpoint}?page=${page}`],
    enabled: open && (page > 1 || !initial),
    placeholderData: (previous) => previous,
  });
  const data = page === 1 && initial ? initial : query.data;
  const id = `${title.toLowerCase()}-title`;

  return (
    <section aria-labelledby={id} className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={id} className="text-xl font-bold">
          {title}{' '}
          {summary ??
            (data && <span className="font-normal text-ink-600">({data.total.toLocaleString('en-US')})</span>)}
        </h3>
        {csv && (
          <a
            href={`${endpoint}?format=csv`}
            download
            className="rounded text-sm font-semibold text-brand-700 underline underline-offset-2"
          >
            Export {title.toLowerCase()} (CSV)
          </a>
        )}
        {tools}
      </div>
      {open && (
        <div id={`${title.toLowerCase()}-list`} className="grid min-w-0 gap-4">
          {query.error && <FormAlert tone="error">{errorText(query.error)}</FormAlert>}
          {!data ? (
            !query.error && <p className="text-ink-600">Loading…</p>
          ) : data.items.length === 0 ? (
            <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">{emptyText}</p>
          ) : (
            <RecordList
              label={title}
              rows={data.items}
              rowKey={rowKey}
              columns={columns}
              action={action}
              cardTitle={cardTitle}
            />
          )}
          {data && <Pages title={title} list={data} page={page} onPage={setPage} />}
        </div>
      )}
    </section>
  );
}

/** Previous and Next under a list of more than one page. */
function Pages<T>({
  title,
  list,
  page,
  onPage,
}: {
  title: string;
  list: ListPage<T>;
  page: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  if (pages <= 1) return null;
  return (
    <nav aria-label={`${title} pages`} className="flex flex-wrap items-center gap-3 text-sm">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        Page {count(page)} of {count(pages)}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

/** Puts an entry that failed for good back in the queue, then reloads what the dashboard shows. */
function RetryDelivery({ delivery }: { delivery: Delivery }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const what = `${KINDS[delivery.kind].name.toLowerCase()} to ${delivery.to}`;

  async function retry() {
    setBusy(true);
    try {
      await apiRequest('POST', `/api/admin/outbox/${encodeURIComponent(delivery.id)}/retry`, {});
      toast({ title: 'Sending again', description: `The ${what} is back in the queue.` });
      await client.invalidateQueries();
    } catch (failure) {
      toast({ title: 'Could not retry', description: errorText(failure), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="secondary" size="sm" disabled={busy} onClick={retry} aria-label={`Retry the ${what}`}>
      Retry
    </Button>
  );
}

/** "Not spam": the held lead joins the leads and its notifications go out; then the lists reload. */
function ReleaseSpam({ lead }: { lead: Lead }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  async function release() {
    setBusy(true);
    try {
      await apiRequest('POST', `/api/admin/spam/${encodeURIComponent(lead.id)}/release`, {});
      toast({
        title: 'Moved to the leads',
        description: `${lead.name} is among the leads; the notifications are on their way.`,
      });
      await client.invalidateQueries();
    } catch (failure) {
      toast({ title: 'Could not release the lead', description: errorText(failure), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="secondary" size="sm" disabled={busy} onClick={release} aria-label={`Not spam: ${lead.name}`}>
      Not spam
    </Button>
  );
}

/** What deleting a record erases, as the question before it says. */
const ERASES = { subscriber: 'the subscriber', lead: 'the lead, its message and its e-mails' } as const;

/** Erases a record after the owner confirms (an erasure request), then reloads what the dashboard shows. */
function DeleteRecord({ path, name, what }: { path: string; name: string; what: keyof typeof ERASES }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  async function remove() {
    if (!window.confirm(`Delete ${name}? This erases ${ERASES[what]} and cannot be undone.`)) return;
    setBusy(true);
    try {
      await apiRequest('DELETE', path, {});
      toast({ title: `${what === 'lead' ? 'Lead' : 'Subscriber'} deleted`, description: `${name} was erased.` });
      await client.invalidateQueries();
    } catch (failure) {
      toast({ title: `Could not delete the ${what}`, description: errorText(failure), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="ghost" size="sm" disabled={busy} onClick={remove} aria-label={`Delete ${name}`}>
      Delete
    </Button>
  );
}

/** A lead's Delete, naming it by its name and address (which tells two of one name apart). */
const deleteLead = (lead: Lead) => (
  <DeleteRecord
    path={`/api/admin/leads/${encodeURIComponent(lead.id)}`}
    name={`${lead.name} <${lead.email}>`}
    what="lead"
  />
);
