import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { apiRequest, errorText } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { queryClient } from '../../lib/query-client';
import type { ListPage, Overview } from '../../shared/api';
import type { Lead, Subscriber } from '../../shared/records';
import { toast } from '../../stores/toasts';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/field';

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
    <div className="grid gap-10">
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
      {overview.data && <Figures data={overview.data} />}
      <Records<Lead>
        title="Leads"
        endpoint="/api/admin/leads"
        initial={overview.data?.leads}
        emptyText="No leads yet. They appear here as soon as someone sends the contact form or asks for the Zoho guide."
        columns={LEAD_COLUMNS}
      />
      <Records<Subscriber>
        title="Subscribers"
        endpoint="/api/admin/subscribers"
        initial={overview.data?.subscribers}
        emptyText="No subscribers yet. Newsletter signups from the footer and the blog appear here."
        columns={SUBSCRIBER_COLUMNS}
        action={(subscriber) => <DeleteSubscriber email={subscriber.email} />}
      />
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
            <code className="rounded bg-white px-1.5 py-0.5">PUBLIC_ANALYTICS_DASHBOARD_URL</code> to the shareable link
            of your analytics dashboard (for example a public Plausible or Umami share link) and redeploy to see it
            here.
          </p>
        )}
      </section>
    </div>
  );
}

function Figures({ data }: { data: Overview }) {
  const cards = [
    { label: 'Subscribers', figures: data.totals.subscribers },
    { label: 'Leads', figures: data.totals.leads },
  ];
  return (
    <>
      <dl className="grid gap-6 sm:grid-cols-2">
        {cards.map(({ label, figures }) => (
          <div key={label} className="rounded-(--radius-card) bg-white p-6 shadow-(--shadow-card) ring-1 ring-ink-100">
            <dt className="text-sm font-semibold tracking-wide text-ink-600 uppercase">{label}</dt>
            <dd className="mt-2 text-4xl font-extrabold tracking-tight">{figures.total.toLocaleString('en-US')}</dd>
            <dd className="mt-2 text-sm text-ink-600">
              +{figures.last7.toLocaleString('en-US')} in the last 7 days · +{figures.last30.toLocaleString('en-US')} in
              the last 30 days
            </dd>
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
          <SourceList label="Subscribers" counts={data.sources.subscribers} />
          <SourceList label="Leads" counts={data.sources.leads} />
        </div>
      </section>
    </>
  );
}

function SourceList({ label, counts }: { label: string; counts: Record<string, number> }) {
  const rows = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...rows.map(([, count]) => count));
  return (
    <div className="rounded-(--radius-card) bg-white p-6 ring-1 ring-ink-100">
      <h4 className="font-semibold">{label}</h4>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-ink-600">Nothing in the last 90 days.</p>
      ) : (
        <ul className="mt-4 grid gap-3">
          {rows.map(([source, count]) => (
            <li key={source} className="grid gap-1">
              <span className="flex justify-between text-sm">
                <span className="font-medium">{source}</span>
                <span className="text-ink-600">{count.toLocaleString('en-US')}</span>
              </span>
              <span className="h-2 rounded-full bg-ink-100">
                <span className="block h-2 rounded-full bg-brand-600" style={{ width: `${(count / max) * 100}%` }} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

const when = (iso: string) => formatDate(new Date(iso));

const LEAD_COLUMNS: Column<Lead>[] = [
  { header: 'Date', cell: (lead) => when(lead.createdAt) },
  { header: 'Name', cell: (lead) => lead.name },
  { header: 'E-mail', cell: (lead) => lead.email },
  { header: 'Company', cell: (lead) => lead.company ?? '' },
  { header: 'Source', cell: (lead) => lead.source },
  { header: 'Notes', cell: (lead) => <span className="line-clamp-2 max-w-xs">{lead.notes ?? ''}</span> },
];

const SUBSCRIBER_COLUMNS: Column<Subscriber>[] = [
  { header: 'Since', cell: (subscriber) => when(subscriber.createdAt) },
  { header: 'E-mail', cell: (subscriber) => subscriber.email },
  { header: 'Name', cell: (subscriber) => [subscriber.firstName, subscriber.lastName].filter(Boolean).join(' ') },
  { header: 'Sources', cell: (subscriber) => subscriber.sources.join(', ') },
];

function Records<T extends { email: string; createdAt: string }>({
  title,
  endpoint,
  initial,
  emptyText,
  columns,
  action,
}: {
  title: string;
  endpoint: string;
  initial?: ListPage<T>;
  emptyText: string;
  columns: Column<T>[];
  action?: (row: T) => ReactNode;
}) {
  const [page, setPage] = useState(1);
  // Page 1 comes with the overview; later pages are fetched on demand.
  const query = useQuery<ListPage<T>>({
    queryKey: [`${endpoint}?page=${page}`],
    enabled: page > 1 || !initial,
    placeholderData: (previous) => previous,
  });
  const data = page === 1 && initial ? initial : query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const id = `${title.toLowerCase()}-title`;

  return (
    <section aria-labelledby={id} className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={id} className="text-xl font-bold">
          {title} {data && <span className="font-normal text-ink-600">({data.total.toLocaleString('en-US')})</span>}
        </h3>
        <a
          href={`${endpoint}?format=csv`}
          download
          className="rounded text-sm font-semibold text-brand-700 underline underline-offset-2"
        >
          Export {title.toLowerCase()} (CSV)
        </a>
      </div>
      {query.error && <FormAlert tone="error">{errorText(query.error)}</FormAlert>}
      {!data ? (
        <p className="text-ink-600">Loading…</p>
      ) : data.items.length === 0 ? (
        <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">{emptyText}</p>
      ) : (
        <div className="overflow-x-auto rounded-(--radius-card) ring-1 ring-ink-100">
          <table className="w-full text-left text-sm">
            <thead className="bg-ink-50 text-ink-700">
              <tr>
                {columns.map((column) => (
                  <th key={column.header} scope="col" className="px-4 py-3 font-semibold whitespace-nowrap">
                    {column.header}
                  </th>
                ))}
                {action && (
                  <th scope="col" className="px-4 py-3">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-100 bg-white">
              {data.items.map((row) => (
                <tr key={`${row.email}-${row.createdAt}`}>
                  {columns.map((column) => (
                    <td key={column.header} className="px-4 py-3 align-top break-words text-ink-800">
                      {column.cell(row)}
                    </td>
                  ))}
                  {action && <td className="px-4 py-3 text-right">{action(row)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && pages > 1 && (
        <nav aria-label={`${title} pages`} className="flex items-center gap-3 text-sm">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span>
            Page {page} of {pages}
          </span>
          <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </nav>
      )}
    </section>
  );
}

function DeleteSubscriber({ email }: { email: string }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  async function remove() {
    if (!window.confirm(`Delete ${email}? This erases the subscriber and cannot be undone.`)) return;
    setBusy(true);
    try {
      await apiRequest('DELETE', `/api/admin/subscribers/${encodeURIComponent(email)}`, {});
      toast({ title: 'Subscriber deleted', description: `${email} was erased.` });
      await client.invalidateQueries();
    } catch (failure) {
      toast({ title: 'Could not delete the subscriber', description: errorText(failure), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="ghost" size="sm" disabled={busy} onClick={remove} aria-label={`Delete ${email}`}>
      Delete
    </Button>
  );
}
