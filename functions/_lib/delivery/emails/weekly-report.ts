// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * The owner's Monday letter: last week's visits, leads (and those already won) and subscribers
 * against the week before, and the newsletter's sendings.
 */
import type { MailingProgress, VisitOutcomes, VisitsReport } from '../../../../src/shared/api-responses';
import { conversionOf, MORE_LEADS_WHY } from '../../../../src/shared/visits-conversion';
import { site } from '../../../../src/site.config';
import type { NewOutboxEntry } from '../../store/types';
import { OTHER_VALUE } from '../../store/visits';
import { renderMail, type Block } from '../mail-layout';

/** A newsletter sending the letter reports on. */
export interface SendingLine {
  subject: string;
  requestedAt: string;
  progress: MailingProgress;
}

const number = (value: number) => value.toLocaleString('en-GB');
/** `1 lead`, `3 leads`. */
const counted = (value: number, noun: string) => `${number(value)} ${noun}${value === 1 ? '' : 's'}`;

/** `+25 %`, `-10 %`, `no change`, or `new` when the week before had none. */
export function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? 'no change' : 'new';
  const percent = Math.round(((now - before) / before) * 100);
  return percent === 0 ? 'no change' : `${percent > 0 ? '+' : ''}${percent} %`;
}

const against = (now: number, before: number) =>
  `${number(now)} (week before: ${number(before)}, ${change(now, before)})`;

/** The share of visitors who became leads, of the leads measured against visits (src/shared/visits-conversion.ts). */
function rate(row: VisitOutcomes): string {
  const { rate: share, none } = conversionOf(row);
  if (share !== undefined) return `, ${Math.round(share * 100)} % became leads`;
  return none === 'more-leads-than-visitors' ? ', more leads than visitors (see below)' : '';
}

/** A page's or a source's visitors and leads: `21 visitors, 2 leads (1 won), 10 % became leads`. */
const outcome = (row: VisitOutcomes) =>
  `${counted(row.visitors, 'visitor')}, ${counted(row.leads, 'lead')}${row.won ? ` (${number(row.won)} won)` : ''}${rate(row)}`;

/** The rows the figures gather past their caps, in words. */
const pageLabel = (path: string) => (path === 'other' ? 'Other addresses' : path);
const sourceLabel = (source: string) => (source === OTHER_VALUE ? 'Other sources' : source);

/** `15 Nov` */
const shortDate = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * What the week's rates leave out, in words: the leads of days on which no visit was counted,
 * and why a row may bring more leads than visitors.
 */
function rateNotes(week: VisitsReport, shown: VisitOutcomes[]): Block[] {
  const notes: string[] = [];
  const left = week.totals.leads - week.totals.measuredLeads;
  if (left > 0)
    notes.push(
      week.countedFrom
        ? `No visit was counted last week before ${shortDate(week.countedFrom)}: ${counted(left, 'lead')} came before then, and ${left === 1 ? 'is' : 'are'} not in the shares of visitors who became leads.`
        : `No visit was counted last week: its ${counted(left, 'lead')} ${left === 1 ? 'is' : 'are'} counted, with no share of visitors.`,
    );
  if (shown.some((row) => conversionOf(row).none === 'more-leads-than-visitors'))
    notes.push(`Where more leads came than visitors, no share is given. ${MORE_LEADS_WHY}`);
  return notes.map((text) => ({ kind: 'paragraph', text }));
}

function progressText({ queued, sent, failed, bounced, cancelled }: MailingProgress): string {
  const parts = [`${number(sent)} of ${number(queued)} sent`];
  if (failed) parts.push(`${number(failed)} failed`);
  if (bounced) parts.push(`${number(bounced)} bounced`);
  if (cancelled) parts.push(`${number(cancelled)} not sent (left before it went)`);
  return parts.join(', ');
}

/** The letter, for LEADS_NOTIFY_TO: once a week, kept from being queued twice by its throttle key. */
export function weeklyReport(
  week: VisitsReport,
  before: VisitsReport,
  sendings: SendingLine[],
  { origin, notifyTo }: { origin: string; notifyTo: string[] },
): NewOutboxEntry {
  const { totals } = week;
  const heading = `Your week: ${shortDate(week.from)} to ${shortDate(week.to)}`;
  const pages = week.pages.slice(0, 5);
  const sources = week.sources.slice(0, 5);
  const blocks: Block[] = [
    {
      kind: 'fields',
      rows: [
        ['Visitors', against(totals.visitors, before.totals.visitors)],
        ['Views', against(totals.pageviews, before.totals.pageviews)],
        ['Leads', against(totals.leads, before.totals.leads)],
        ['Leads won so far', against(totals.won, before.totals.won)],
        ['New subscribers', against(totals.subscribers, before.totals.subscribers)],
      ],
    },
    {
      kind: 'paragraph',
      text: 'The pages read most, with the leads that first landed on them and how many you have won:',
    },
    {
      kind: 'fields',
      rows: pages.length
        ? pages.map((page): [string, string] => [pageLabel(page.path), outcome(page)])
        : [['No views', 'none were counted last week']],
    },
    { kind: 'paragraph', text: 'Where visitors came from, with the leads they brought:' },
    {
      kind: 'fields',
      rows: sources.length
        ? sources.map((source): [string, string] => [sourceLabel(source.source), outcome(source)])
        : [['No visits', 'none were counted last week']],
    },
    ...rateNotes(week, [...pages, ...sources]),
    sendings.length
      ? {
          kind: 'fields',
          rows: sendings.map((sending): [string, string] => [
            `Newsletter: ${sending.subject}`,
            progressText(sending.progress),
          ]),
        }
      : { kind: 'paragraph', text: 'No newsletter went out in the last four weeks.' },
    { kind: 'button', label: 'Open the Visits figures', url: `${origin}/admin/insights#visits` },
  ];
  const mail = renderMail(origin, heading, blocks, [
    {
      kind: 'small',
      text: `Visitors over a week add each day's visitors: someone who came on two days counts twice. Leads won are the week's leads you had marked Won on the admin page when this letter was written. Counted without cookies by ${site.name}'s website; WEEKLY_REPORT=off stops this letter.`,
    },
  ]);
  return {
    id: crypto.randomUUID(),
    kind: 'weekly-report',
    ref: `weekly-report:${week.from}`,
    to: notifyTo.join(', '),
    message: {
      channel: 'mail',
      to: notifyTo,
      subject: `${site.name}, week of ${shortDate(week.from)}: ${counted(totals.visitors, 'visitor')}, ${counted(totals.leads, 'lead')}`,
      ...mail,
    },
    // Once for each week, however many sweeps find it due.
    throttle: { key: `weekly-report:${week.from}`, seconds: 7 * 24 * 3600 },
  };
}
