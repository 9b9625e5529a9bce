import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { errorText } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { formatDay } from '../../../lib/format';
import type { VisitsReport } from '../../../shared/api-responses';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/field';
import { Chart } from './Chart';
import { count } from './record-text';
import { VisitsTables } from './VisitsTables';
import {
  conversionRate,
  noRateNote,
  percentChange,
  RANGES,
  rangesEndingOn,
  unmeasuredLeadsNote,
  visitsUrl,
  type RangeDays,
} from './visits-figures';

/** A day of the report (YYYY-MM-DD, the site's time zone's), e.g. "2 Nov 2026". */
const day = (iso: string) => formatDay(iso);

/** 7 days, 30 days or 12 months, each ending today; the one shown is pressed. */
function RangePicker({ value, onChange }: { value: RangeDays; onChange: (days: RangeDays) => void }) {
  return (
    <div role="group" aria-label="Range" className="flex flex-wrap gap-2">
      {RANGES.map(({ days, label }) => (
        <Button
          key={days}
          size="sm"
          variant={days === value ? 'primary' : 'secondary'}
          aria-pressed={days === value}
          onClick={() => onChange(days)}
        >
          {label}
        </Button>
      ))}
    </div>
  );
}

/**
 * The range's totals, each beside the period before (`before` names it, and is absent until it has
 * come), and why a conversion leaves leads out or has no rate.
 */
function Totals({ report, previous, before }: { report: VisitsReport; previous?: VisitsReport; before: string }) {
  const { totals } = report;
  const figures: { label: string; value: string; then?: string }[] = [
    ...(
      [
        ['Visitors', 'visitors'],
        ['Views', 'pageviews'],
        ['Leads', 'leads'],
        ['Leads won', 'won'],
        ['New subscribers', 'subscribers'],
      ] as const
    ).map(([label, key]) => ({
      label,
      value: count(totals[key]),
      then: previous && `${percentChange(totals[key], previous.totals[key])} on ${before}`,
    })),
    {
      label: 'Conversion',
      value: conversionRate(totals),
      then: previous && `${conversionRate(previous.totals)} in ${before}`,
    },
  ];
  const notes = [unmeasuredLeadsNote(report), noRateNote([totals], () => 'the whole range')].filter(Boolean);
  return (
    <div className="grid gap-3">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-6">
        {figures.map(({ label, value, then }) => (
          <div
            key={label}
            className="min-w-0 rounded-(--radius-card) bg-white p-4 shadow-(--shadow-card) ring-1 ring-ink-100"
          >
            <dt className="text-sm font-semibold text-ink-600">{label}</dt>
            <dd className="mt-1 text-2xl font-extrabold tracking-tight wrap-anywhere tabular-nums sm:text-3xl">
              {value}
            </dd>
            {then && <dd className="mt-1 text-sm text-ink-600">{then}</dd>}
          </div>
        ))}
      </dl>
      {notes.map((note) => (
        <p key={note} className="text-sm text-ink-600">
          {note}
        </p>
      ))}
    </div>
  );
}

/** Visitors and views per day, in a card. */
function PerDay({ report }: { report: VisitsReport }) {
  const days = useMemo(() => report.days.map((row) => row.date), [report.days]);
  const series = useMemo(
    () => [
      {
        label: 'Visitors',
        stroke: '#0f766e',
        fill: 'rgba(20,184,166,0.12)',
        values: report.days.map((row) => row.visitors),
      },
      { label: 'Views', stroke: '#b7791f', values: report.days.map((row) => row.pageviews) },
    ],
    [report.days],
  );
  return (
    <div className="rounded-(--radius-card) bg-white p-6 shadow-(--shadow-card) ring-1 ring-ink-100">
      <h4 className="text-lg font-bold">Per day</h4>
      <Chart
        days={days}
        series={series}
        label={`Visitors and views per day from ${day(report.from)} to ${day(report.to)}`}
      />
    </div>
  );
}

/**
 * The site's own visits figures over 7 days, 30 days or 12 months ending `today` (in the site's
 * time zone, as the dashboard's overview says), each total
 * against the period before: visitors, views, leads, leads won, new subscribers and conversion; the days in a
 * chart; the pages, sources, campaigns and devices in tables.
 */
export function Visits({ today }: { today: string }) {
  const [days, setDays] = useState<RangeDays>(30);
  const ranges = rangesEndingOn(today, days);
  // The last range stays on screen, dimmed, while the next one is on its way.
  const report = useQuery<VisitsReport>({ queryKey: [visitsUrl(ranges.current)], placeholderData: keepPreviousData });
  const before = useQuery<VisitsReport>({ queryKey: [visitsUrl(ranges.previous)], placeholderData: keepPreviousData });
  const label = RANGES.find((range) => range.days === days)?.label ?? '';
  const data = report.data;
  const switching = report.isPlaceholderData || before.isPlaceholderData;
  const nothing = data && Object.values(data.totals).every((total) => total === 0);

  return (
    <section aria-labelledby="visits-title" className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="visits-title" className="text-xl font-bold">
          Visits
        </h3>
        <RangePicker value={days} onChange={setDays} />
      </div>
      <p className="text-sm text-ink-600">
        {data && `${day(data.from)} to ${day(data.to)}, in the site’s time zone. `}
        Visitors over several days add up each day&rsquo;s visitors: a person who visits on two days counts once on each
        day, since the count uses a salt that changes daily and nothing is kept on the visitor&rsquo;s device.
      </p>
      <p role="status" className="text-sm text-ink-600 empty:hidden">
        {switching && `Loading the last ${label}…`}
      </p>
      {report.isPending && <p className="text-ink-600">Loading…</p>}
      {report.error && <FormAlert tone="error">The visits could not be loaded: {errorText(report.error)}</FormAlert>}
      {data && (
        <div className={cn('grid min-w-0 gap-6 transition-opacity', switching && 'opacity-60')}>
          {nothing ? (
            <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">
              No visits counted yet in the last {label}. Each page a person opens is counted here, without cookies.
            </p>
          ) : (
            <>
              <Totals report={data} previous={before.data} before={`the ${label} before`} />
              {data.totals.pageviews > 0 && <PerDay report={data} />}
              <VisitsTables report={data} />
            </>
          )}
        </div>
      )}
    </section>
  );
}
