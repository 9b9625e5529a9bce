import type { CampaignRow } from '../../../shared/api';
import { RecordList, type Column } from '../../ui/record-list';
import { CardTitle, count } from './record-text';

const CAMPAIGN_COLUMNS: Column<CampaignRow>[] = [
  { header: 'Campaign', cell: (row) => row.campaign, inCard: false },
  { header: 'Source', cell: (row) => row.source },
  { header: 'Medium', cell: (row) => row.medium },
  { header: 'Leads', cell: (row) => count(row.leads), className: 'text-right tabular-nums' },
  { header: 'Sign-ups', cell: (row) => count(row.subscribers), className: 'text-right tabular-nums' },
];

/** Leads and newsletter sign-ups (confirmed or not) per first-touch campaign (utm_campaign, utm_source, utm_medium). */
export function Campaigns({ rows }: { rows: CampaignRow[] }) {
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
