/**
 * Fills the local store with made-up subscribers and leads, spread over the last 120 days, to
 * see the admin dashboard at scale: most subscribers confirmed, some pending or unsubscribed, and
 * a share of both arriving from a few campaigns (three, or as many as --campaigns says). Nothing
 * is queued for delivery, so no e-mail is written or sent for them. Uses Upstash when
 * UPSTASH_REDIS_REST_* are set (never point it at production), otherwise the embedded store
 * (.data/ or LOCAL_STORE_DIR).
 *
 *   npm run seed -- --subscribers 10000 --leads 10000
 *   npm run seed -- --subscribers 1000 --leads 1000 --campaigns 30
 *   npm run seed -- --subscribers 300 --leads 300 --worked --visit-days 30
 *
 * `--worked` gives the leads companies, messages and statuses (all but the newest tenth marked);
 * `--visit-days n` counts views on each of the last n days.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Attribution, LeadStatus } from '../../src/shared/records.ts';
import type * as StoreModule from '../../functions/_lib/store/get-store.ts';
import { importBundled } from '../harness/functions.ts';
import { PROJECT_ROOT } from '../harness/project.ts';

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Katherine',
  'Linus',
  'Margaret',
  'Tim',
  'Radia',
  'Barbara',
  'Ken',
  'Zoë',
  'José',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Berners-Lee',
  'Perlman',
  'Liskov',
  'Thompson',
];
const SUBSCRIBER_SOURCES = ['website_footer', 'newsletter_footer'];
const LEAD_SOURCES = ['contact_form', 'zoho_guide'];
const DAY_MS = 86_400_000;
/** First touches, in turn: three campaigns, a search engine, and direct visits (no attribution). */
const ORIGINS: (Attribution | undefined)[] = [
  {
    utm_source: 'linkedin',
    utm_medium: 'social',
    utm_campaign: 'spring-launch',
    landingPage: '/zoho?utm_source=linkedin&utm_medium=social&utm_campaign=spring-launch',
    referrer: 'www.linkedin.com',
  },
  {
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: 'november-issue',
    landingPage: '/blog/what-to-automate-first?utm_source=newsletter&utm_medium=email&utm_campaign=november-issue',
  },
  {
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'zoho-workflows',
    utm_term: 'zoho google workspace',
    landingPage: '/zoho?utm_source=google&utm_medium=cpc&utm_campaign=zoho-workflows&utm_term=zoho+google+workspace',
  },
  { referrer: 'www.google.com', landingPage: '/sectors/saas' },
  undefined,
  undefined,
];
/** Campaigns past the three above, as a business that has run a few dozen leaves them. */
const moreCampaigns = (count: number): Attribution[] =>
  Array.from({ length: count }, (_, index) => ({
    utm_source: pick(['linkedin', 'newsletter', 'google', 'partner-site'], index),
    utm_medium: pick(['social', 'email', 'cpc', 'referral'], index),
    utm_campaign: `campaign-${index + 1}`,
  }));
const LEAD_PAGES: Record<string, string> = { contact_form: '/contact', zoho_guide: '/zoho' };
const COMPANIES = ['Harbour Dental', 'Pennine Lettings', 'Northern Joinery', 'Calder Accountants', 'Mill Street Cafe'];
const MESSAGES = [
  'We re-key every invoice from email into Xero. Could you automate that?',
  'Looking to move our bookings from spreadsheets to something that sends reminders.',
  'Interested in the Zoho and Google Workspace guide for a team of twelve.',
  'Our onboarding is forty manual steps. Can we talk about automating half of them?',
];
/**
 * Where the owner is with the seeded leads of a worked desk, older ones first: of every 20, the
 * newest stay New, and the rest are replied to, booked, won or lost.
 */
const WORKED: (LeadStatus | undefined)[] = [
  ...(['replied', 'replied', 'replied', 'replied', 'replied', 'booked', 'booked', 'won', 'won', 'won'] as const),
  ...(['lost', 'lost', 'lost', 'lost', 'replied', 'won', 'booked', 'lost', 'replied', 'lost'] as const),
];
/** Pages of the build that visits land on, the first ones most. */
const VISITED = ['/', '/zoho', '/contact', '/sectors/saas', '/blog/what-to-automate-first', '/mini-apps'];
const TRAFFIC = [
  { source: 'Direct' },
  { source: 'www.google.com' },
  { source: 'linkedin', campaign: 'spring-launch' },
  { source: 'newsletter', campaign: 'november-issue' },
  { source: 'google', campaign: 'zoho-workflows' },
];
const DEVICES = ['phone', 'desktop', 'desktop', 'phone', 'tablet'] as const;
const SUBSCRIBER_PAGES = ['/', '/blog/what-to-automate-first'];

const pick = <T>(list: T[], index: number): T => list[index % list.length] as T;

export async function seedStore({
  subscribers,
  leads,
  campaigns = 3,
  worked = false,
  visitDays = 0,
  env = process.env,
}: {
  subscribers: number;
  leads: number;
  /** How many campaigns the records arrive from (at least the three above). */
  campaigns?: number;
  /** Leads as an owner has worked them: companies, messages, and statuses on all but the newest. */
  worked?: boolean;
  /** Views on each of the last this many days (up to today, UTC), for the Visits figures. */
  visitDays?: number;
  env?: NodeJS.ProcessEnv;
}) {
  const origins = [...ORIGINS, ...moreCampaigns(campaigns - 3)];
  const { getBackend } = await importBundled<typeof StoreModule>(PROJECT_ROOT, 'functions/_lib/store/get-store.ts');
  Object.assign(process.env, env);
  // The seeding script is a local run: it fills the embedded store unless Upstash is configured.
  process.env.SITE_LOCAL_RUN ??= 'true';
  const backend = await getBackend();
  if (!backend) throw new Error('No store is configured');
  const now = Date.now();
  const when = (index: number, count: number) => new Date(now - Math.floor(((count - index) / count) * 120 * DAY_MS));
  const CHUNK = 1000;
  for (let start = 0; start < subscribers; start += CHUNK) {
    const batch = [];
    for (let index = start; index < Math.min(subscribers, start + CHUNK); index += 1) {
      const subscribed = when(index, subscribers);
      const input = {
        email: `seed-${index}@example.com`,
        firstName: pick(FIRST, index),
        lastName: pick(LAST, index * 7),
        source: pick(SUBSCRIBER_SOURCES, index * 3),
      };
      batch.push(
        (async () => {
          await backend.store.subscribe(
            { ...input, page: pick(SUBSCRIBER_PAGES, index), attribution: pick(origins, index * 5) },
            subscribed,
          );
          // One in ten never opens the confirmation link; one in twenty confirms and later leaves.
          if (index % 10 === 3) return;
          await backend.store.confirmSubscriber(input, new Date(subscribed.getTime() + 3_600_000));
          if (index % 20 === 7)
            await backend.store.unsubscribe(input.email, new Date(subscribed.getTime() + 7_200_000));
        })(),
      );
    }
    await Promise.all(batch);
  }
  for (let start = 0; start < leads; start += CHUNK) {
    const batch = [];
    for (let index = start; index < Math.min(leads, start + CHUNK); index += 1) {
      const name = `${pick(FIRST, index * 5)} ${pick(LAST, index)}`;
      const source = pick(LEAD_SOURCES, index);
      batch.push(
        backend.store.createLead(
          {
            name,
            email: `lead-${index}@example.com`,
            source,
            notes: worked ? pick(MESSAGES, index) : `Seeded lead ${index}: wants to automate invoicing.`,
            ...(worked ? { company: pick(COMPANIES, index * 3) } : {}),
            page: LEAD_PAGES[source],
            attribution: pick(origins, index),
          },
          when(index, leads),
        ),
      );
    }
    const created = await Promise.all(batch);
    if (worked) {
      // The newest tenth of the leads is still New, as a desk worked every few days leaves it.
      const marked = created.filter((_, offset) => start + offset < leads * 0.9);
      await Promise.all(
        marked.map((result, offset) => {
          const status = pick(WORKED, start + offset);
          return status && backend.store.updateLead(result.record.id, { status }, new Date(now));
        }),
      );
    }
  }
  for (let back = visitDays - 1; back >= 0; back -= 1) {
    const day = new Date(now - back * DAY_MS).toISOString().slice(0, 10);
    // Forty to eighty visitors a day, each seeing one to three pages.
    const visitors = 40 + ((back * 37) % 41);
    const views = [];
    for (let visitor = 0; visitor < visitors; visitor += 1) {
      const traffic = pick(TRAFFIC, visitor * 7 + back);
      for (let page = 0; page <= visitor % 3; page += 1)
        views.push(
          backend.store.recordView({
            day,
            visitor: `seed-${day}-${visitor}`,
            path: pick(VISITED, visitor + page * 2),
            source: traffic.source,
            campaign: traffic.campaign,
            device: pick([...DEVICES], visitor),
          }),
        );
    }
    await Promise.all(views);
  }
  return backend.kind;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      subscribers: { type: 'string', default: '10000' },
      leads: { type: 'string', default: '10000' },
      campaigns: { type: 'string', default: '3' },
      worked: { type: 'boolean', default: false },
      'visit-days': { type: 'string', default: '0' },
    },
  });
  try {
    process.loadEnvFile(path.join(PROJECT_ROOT, '.env'));
  } catch {
    // No .env: the embedded store in .data/.
  }
  const started = Date.now();
  const kind = await seedStore({
    subscribers: Number(values.subscribers),
    leads: Number(values.leads),
    campaigns: Number(values.campaigns),
    worked: values.worked,
    visitDays: Number(values['visit-days']),
  });
  console.log(
    `Seeded ${values.subscribers} subscribers and ${values.leads} leads into the ${kind} store in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
}
