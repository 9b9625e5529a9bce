import { useState } from 'react';
import type { VisitOutcomes, VisitPageRow, VisitsReport } from '../../../shared/api-responses';
import { Button } from '../../ui/button';
import { RecordTable, type Column } from '../../ui/record-list';
import { count } from './record-text';
import { conversionRate, noRateNote, share } from './visits-figures';

/** Rows a table shows until the owner asks for all of them. */
const FIRST_ROWS = 10;

/**
 * A column of figures. On a phone a table keeps its name, Visitors, Leads and Won (`wideOnly`
 * leaves the others out there), which fit 375 px side by side.
 */
const figure = <T,>(header: string, value: (row: T) => number, wideOnly = false): Column<T> => ({
  header,
  cell: (row) => count(value(row)),
  numeric: true,
  wideOnly,
});

function outcomeColumns<T extends VisitOutcomes>(): Column<T>[] {
  return [
    figure('Leads', (row) => row.leads),
    figure('Won', (row) => row.won),
    figure('Subscribers', (row) => row.subscribers, true),
    { header: 'Conversion', cell: (row) => conversionRate(row), numeric: true, wideOnly: true },
  ];
}

/** A name that may be long and unbroken (a path, a campaign): it wraps, but keeps a readable width. */
const nameColumn = <T,>(header: string, name: (row: T) => string): Column<T> => ({
  header,
  cell: name,
  rowHeader: true,
  className: 'min-w-28 wrap-anywhere md:min-w-40',
});

const pageName = (row: VisitPageRow) => (row.path === 'other' ? 'Other addresses' : row.path);
const PAGE_COLUMNS: Column<VisitPageRow>[] = [
  nameColumn('Page', pageName),
  figure('Visitors', (row) => row.visitors),
  figure('Views', (row) => row.pageviews, true),
  figure('Entries', (row) => row.entries, true),
  ...outcomeColumns<VisitPageRow>(),
];

type SourceRow = VisitsReport['sources'][number];
const SOURCE_COLUMNS: Column<SourceRow>[] = [
  nameColumn('Source', (row) => row.source),
  figure('Visitors', (row) => row.visitors),
  ...outcomeColumns<SourceRow>(),
];

type CampaignRow = VisitsReport['campaigns'][number];
const CAMPAIGN_COLUMNS: Column<CampaignRow>[] = [
  nameColumn('Campaign', (row) => row.campaign),
  figure('Visitors', (row) => row.visitors),
  ...outcomeColumns<CampaignRow>(),
];

type DeviceRow = VisitsReport['devices'][number];
const DEVICE_NAMES: Partial<Record<string, string>> = { phone: 'Phone', tablet: 'Tablet', desktop: 'Desktop' };

/** A table of figures under its heading: the first rows, and all of them on demand; `note` says what its figures leave out. */
function FigureTable<T>({
  title,
  rows,
  rowKey,
  columns,
  emptyText,
  note,
}: {
  title: string;
  rows: T[];
  rowKey: (row: T) => string;
  columns: Column<T>[];
  emptyText: string;
  note?: string | undefined;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, FIRST_ROWS);
  return (
    // Not a section: the table's own box is the region of this name.
    <div className="grid min-w-0 content-start gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h4 className="text-lg font-bold">{title}</h4>
        {rows.length > FIRST_ROWS && (
          <Button variant="secondary" size="sm" aria-expanded={all} onClick={() => setAll(!all)}>
            {all ? `Show the first ${FIRST_ROWS}` : `Show all ${count(rows.length)}`}
            <span className="sr-only"> {title.toLowerCase()}</span>
          </Button>
        )}
      </div>
      {rows.length === 0 ? (
        <p className="rounded-(--radius-card) bg-ink-50 p-5 text-sm text-ink-700 ring-1 ring-ink-100">{emptyText}</p>
      ) : (
        <RecordTable label={title} rows={shown} rowKey={rowKey} columns={columns} />
      )}
      {note && <p className="text-sm text-ink-600">{note}</p>}
      {rows.length > 0 && columns.some((column) => column.wideOnly) && (
        <p className="text-xs text-ink-600 md:hidden">
          {columns
            .filter((column) => column.wideOnly)
            .map((column) => column.header)
            .join(', ')}{' '}
          on a wider screen.
        </p>
      )}
    </div>
  );
}

/** The report's tables: top pages, sources, campaigns and devices. */
export function VisitsTables({ report }: { report: VisitsReport }) {
  const deviceVisitors = report.devices.reduce((sum, row) => sum + row.visitors, 0);
  const deviceColumns: Column<DeviceRow>[] = [
    nameColumn('Device', (row) => DEVICE_NAMES[row.device] ?? row.device),
    figure('Visitors', (row) => row.visitors),
    { header: 'Share', cell: (row) => share(row.visitors, deviceVisitors), numeric: true },
  ];
  return (
    <>
      <FigureTable
        title="Top pages"
        rows={report.pages}
        rowKey={(row) => row.path}
        columns={PAGE_COLUMNS}
        emptyText="No page was visited in this range."
        note={noRateNote(report.pages, pageName)}
      />
      <FigureTable
        title="Sources"
        rows={report.sources}
        rowKey={(row) => row.source}
        columns={SOURCE_COLUMNS}
        emptyText="No visit in this range."
        note={noRateNote(report.sources, (row) => row.source)}
      />
      <FigureTable
        title="Campaigns"
        rows={report.campaigns}
        rowKey={(row) => row.campaign}
        columns={CAMPAIGN_COLUMNS}
        emptyText="No visit in this range came from a link with a utm_campaign parameter."
        note={noRateNote(report.campaigns, (row) => row.campaign)}
      />
      <FigureTable
        title="Devices"
        rows={report.devices}
        rowKey={(row) => row.device}
        columns={deviceColumns}
        emptyText="No visit in this range."
      />
    </>
  );
}
