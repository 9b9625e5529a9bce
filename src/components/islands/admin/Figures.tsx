import { useMemo } from 'react';
import { sourceName } from '../../../shared/schemas';
import type { Overview } from '../../../shared/api-responses';
import { Chart } from './Chart';
import { count } from './record-text';

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
                <span className="min-w-0 font-medium wrap-anywhere">{sourceName(source)}</span>
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

/** The totals (confirmed subscribers, leads), the last 90 days day by day, and where they came from. */
export function Figures({ data }: { data: Overview }) {
  const status = data.subscriberStatus;
  const days = useMemo(() => data.daily.map((row) => row.day), [data.daily]);
  const series = useMemo(
    () => [
      {
        label: 'New subscribers',
        stroke: '#0f766e',
        fill: 'rgba(20,184,166,0.12)',
        values: data.daily.map((row) => row.subscribers),
      },
      { label: 'Leads', stroke: '#b7791f', values: data.daily.map((row) => row.leads) },
    ],
    [data.daily],
  );
  const cards = [
    {
      label: 'Confirmed subscribers',
      figures: data.totals.subscribers,
      // What the week and month count: confirmations. Those who left since are in the note, not taken off.
      added: 'confirmed',
      note: `${count(status.pending)} awaiting confirmation · ${count(status.unsubscribed)} unsubscribed · ${count(status.bounced)} bounced`,
    },
    { label: 'Leads', figures: data.totals.leads, added: 'new' },
  ];
  return (
    <>
      <dl className="grid gap-6 sm:grid-cols-2">
        {cards.map(({ label, figures, added, note }) => (
          <div key={label} className="rounded-(--radius-card) bg-white p-6 shadow-(--shadow-card) ring-1 ring-ink-100">
            <dt className="text-sm font-semibold tracking-wide text-ink-600 uppercase">{label}</dt>
            <dd className="mt-2 text-4xl font-extrabold tracking-tight">{count(figures.total)}</dd>
            <dd className="mt-2 text-sm text-ink-600">
              +{count(figures.last7)} {added} in the last 7 days · +{count(figures.last30)} in the last 30 days
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
        <Chart
          days={days}
          series={series}
          label={`New subscribers and leads per day over the last ${days.length} days`}
        />
      </section>
      <section aria-labelledby="sources-title" className="grid gap-4">
        <h3 id="sources-title" className="text-xl font-bold">
          By form, last 90 days
        </h3>
        <div className="grid gap-6 sm:grid-cols-2">
          <SourceList label="New subscribers" counts={data.sources.subscribers} />
          <SourceList label="Leads" counts={data.sources.leads} />
        </div>
      </section>
    </>
  );
}
