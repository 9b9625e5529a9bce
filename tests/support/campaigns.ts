/** Records spread over campaigns, for the specs of the dashboard's "By campaign" table and GET /api/admin/campaigns. */
import type { Store } from './stores';
import type { CampaignRow } from '../../src/shared/api-responses';
import type { Attribution } from '../../src/shared/records';

const row = (campaign: string, source: string, medium: string, leads: number, subscribers: number): CampaignRow => ({
  source,
  medium,
  campaign,
  leads,
  subscribers,
});

const fillers = Array.from({ length: 24 }, (_, index) =>
  row(`filler-${String(index + 1).padStart(2, '0')}`, 'partner-site', 'referral', 1, 0),
);

/**
 * 29 campaigns in the order the dashboard lists them: most leads, then most sign-ups, then by
 * name. `(none)` counts the records that came without a campaign.
 */
export const CAMPAIGNS: CampaignRow[] = [
  row('alpha', 'LinkedIn', 'social', 3, 0),
  row('bravo', 'newsletter', 'Email', 2, 2),
  row('charlie', 'google', 'cpc', 2, 1),
  row('(none)', '(none)', '(none)', 1, 1),
  ...fillers,
  row('zulu', 'Podcast', 'audio', 0, 1),
];

/** The attribution a record of a campaign row came with. */
const attributionOf = ({ source, medium, campaign }: CampaignRow): Attribution | undefined =>
  campaign === '(none)' ? undefined : { utm_source: source, utm_medium: medium, utm_campaign: campaign };

/** Stores the leads and sign-ups of every row, at `now`. */
export async function seedCampaigns(store: Store, rows: CampaignRow[], now: Date): Promise<void> {
  let index = 0;
  for (const campaign of rows) {
    const attribution = attributionOf(campaign);
    for (let lead = 0; lead < campaign.leads; lead += 1, index += 1)
      await store.createLead(
        { name: `Lead ${index}`, email: `campaign-lead-${index}@example.com`, source: 'contact_form', attribution },
        now,
      );
    for (let subscriber = 0; subscriber < campaign.subscribers; subscriber += 1, index += 1)
      await store.subscribe(
        { email: `campaign-reader-${index}@example.com`, firstName: 'Reader', source: 'website_footer', attribution },
        now,
      );
  }
}

/** `count` campaigns of one sign-up each, as a script sending made-up campaigns leaves them. */
export const madeUpCampaigns = (count: number): CampaignRow[] =>
  Array.from({ length: count }, (_, index) =>
    row(`made-up-${String(index).padStart(4, '0')}`, `source-${index}`, `medium-${index}`, 0, 1),
  );
