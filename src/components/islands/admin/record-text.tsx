/** How the admin page writes a record's figures, dates, origin and checks, in every section alike. */
import type { ReactNode } from 'react';
import { CALENDAR_DAY, formatDay, formatDayOf, formatMoment, formatNumber } from '../../../lib/format';
import { queryClient } from '../../../lib/query-client';
import type { Overview } from '../../../shared/api-responses';
import type { Attribution, ContentCheck } from '../../../shared/records';

/** A figure in the site's locale, e.g. "1,234". */
export const count = (value: number) => formatNumber(value);
export const plural = (value: number, one: string, many = `${one}s`) => `${count(value)} ${value === 1 ? one : many}`;

/** The overview's address, its query's key: the dashboard's first call, whose answer names the site's time zone. */
export const OVERVIEW_KEY = '/api/admin/overview';

/**
 * The site's time zone (SITE_TIME_ZONE), as the overview names it; until it has come, the
 * reader's own. It is read from the dashboard's query cache each time a date is written rather
 * than passed down: every section renders again when the overview arrives, so a date written
 * before then is written again, in the site's zone.
 */
export function siteTimeZone(): string | undefined {
  return queryClient.getQueryData<Overview>([OVERVIEW_KEY])?.timeZone;
}

/**
 * A record's day in the site's time zone, e.g. "2 Nov 2026"; a calendar day (YYYY-MM-DD, a
 * post's `publishedDate`) is written as the date it is.
 */
export const when = (iso: string) =>
  CALENDAR_DAY.test(iso) ? formatDay(iso) : formatDayOf(new Date(iso), siteTimeZone());
/** A moment in the site's time zone, e.g. "2 Nov, 15:05". */
export const moment = (iso: string) => formatMoment(new Date(iso), siteTimeZone());

/** The first line of a record's card on a phone: who or what, and when. */
export function CardTitle({ title, when: time }: { title: string; when?: string }) {
  return (
    <>
      <span className="min-w-0 wrap-anywhere">{title}</span>
      {time && <span className="font-normal text-ink-600">{time}</span>}
    </>
  );
}

/**
 * Where a person came from, compactly (campaign, source and medium, referring host, first page),
 * or '' when nothing is known. The lists send each value cut to 32 characters; the CSV has them
 * whole, with the term and content.
 */
export function origin(page: string | undefined, attribution: Attribution | undefined): ReactNode {
  const via = attribution && [attribution.utm_source, attribution.utm_medium].filter(Boolean).join(' / ');
  const lines = [
    page && ['Page', page],
    attribution?.utm_campaign && ['Campaign', attribution.utm_campaign],
    via && ['Via', via],
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

/** What the content check said, in a line: `Akismet: spam`, `Akismet: not checked (HTTP 500)`. */
export function verdictText(check: ContentCheck): string {
  const service = { akismet: 'Akismet' }[check.service];
  if (check.verdict === 'unchecked') return `${service}: not checked${check.error ? ` (${check.error})` : ''}`;
  return `${service}: ${check.verdict === 'spam' ? 'spam' : 'not spam'}`;
}
