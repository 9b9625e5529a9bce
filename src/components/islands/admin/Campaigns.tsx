import { useState, type FormEvent } from 'react';
import type { CampaignRow, CampaignSummary, ListPage } from '../../../shared/api-responses';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/field';
import { RecordList, type Column } from '../../ui/record-list';
import { PagedList, usePagedQuery } from './PagedList';
import { CardTitle, count, plural } from './record-text';

/** A row of the table: a campaign, or the others summed (`others` says how many they are). */
type ShownRow = CampaignRow & { others?: number };

const isOthers = (row: ShownRow) => row.others !== undefined;
const nameOf = (row: ShownRow) => (isOthers(row) ? `Other campaigns (${count(row.others ?? 0)})` : row.campaign);

const COLUMNS: Column<ShownRow>[] = [
  {
    header: 'Campaign',
    cell: (row) => (isOthers(row) ? <span className="font-semibold">{nameOf(row)}</span> : row.campaign),
    className: 'wrap-anywhere',
    inCard: false,
  },
  { header: 'Source', cell: (row) => row.source, className: 'wrap-anywhere' },
  { header: 'Medium', cell: (row) => row.medium, className: 'wrap-anywhere' },
  { header: 'Leads', cell: (row) => count(row.leads), className: 'text-right tabular-nums' },
  { header: 'Sign-ups', cell: (row) => count(row.subscribers), className: 'text-right tabular-nums' },
];

/** Campaign values cannot hold a line break, so no campaign's key is another's, nor the others' row's. */
const rowKey = (row: ShownRow) => (isOthers(row) ? 'others' : `${row.source}\n${row.medium}\n${row.campaign}`);
const cardTitle = (row: ShownRow) => <CardTitle title={nameOf(row)} />;

/** Every campaign, 20 to a page, and a search of their sources, mediums and names. */
function AllCampaigns() {
  const [search, setSearch] = useState('');
  const [text, setText] = useState('');
  const endpoint = search ? `/api/admin/campaigns?q=${encodeURIComponent(search)}` : '/api/admin/campaigns';
  const { page, setPage, data, error } = usePagedQuery<ListPage<CampaignRow>>(endpoint);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSearch(text.trim());
    setPage(1);
  }

  return (
    <div id="all-campaigns" className="grid min-w-0 gap-4">
      <h4 className="text-lg font-bold">All campaigns</h4>
      <form role="search" aria-label="Campaigns" onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <Field label="Search by source, medium or campaign" className="min-w-0 flex-1 basis-56">
          {(control) => (
            <Input
              {...control}
              type="search"
              value={text}
              maxLength={200}
              onChange={(event) => setText(event.target.value)}
            />
          )}
        </Field>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      <p role="status" className="text-sm text-ink-600 empty:hidden">
        {data &&
          (search
            ? `${plural(data.total, 'campaign')} ${data.total === 1 ? 'matches' : 'match'} “${search}”`
            : plural(data.total, 'campaign'))}
      </p>
      <PagedList
        title="All campaigns"
        list={data}
        error={error}
        page={page}
        onPage={setPage}
        emptyText={search ? `No campaign’s source, medium or name holds “${search}”.` : 'No campaigns yet.'}
        rowKey={rowKey}
        columns={COLUMNS}
        cardTitle={cardTitle}
      />
    </div>
  );
}

/**
 * Leads and newsletter sign-ups (confirmed or not) per first-touch campaign (utm_campaign,
 * utm_source, utm_medium): the 20 with most leads, the others in one row, and on demand every
 * campaign page by page, with a search.
 */
export function Campaigns({ summary: { top, other } }: { summary: CampaignSummary }) {
  const [open, setOpen] = useState(false);
  const rows: ShownRow[] =
    other.campaigns > 0 ? [...top, { ...other, source: '', medium: '', campaign: '', others: other.campaigns }] : top;
  return (
    <section aria-labelledby="campaigns-title" className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="campaigns-title" className="text-xl font-bold">
          By campaign
        </h3>
        {other.campaigns > 0 && (
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={open}
            aria-controls={open ? 'all-campaigns' : undefined}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide all campaigns' : 'Show all campaigns'}
          </Button>
        )}
      </div>
      {rows.length === 0 ? (
        <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">
          No campaigns yet. Links to the site with <code>utm_source</code>, <code>utm_medium</code> and{' '}
          <code>utm_campaign</code> parameters are counted here.
        </p>
      ) : (
        <RecordList
          label="Leads and newsletter sign-ups by campaign"
          rows={rows}
          rowKey={rowKey}
          columns={COLUMNS}
          cardTitle={cardTitle}
        />
      )}
      {open && <AllCampaigns />}
    </section>
  );
}
