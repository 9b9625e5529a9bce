/** How the admin page writes a record's figures, dates, origin and checks, in every section alike. */
import type { ReactNode } from 'react';
import { formatDateTime, formatShortDate } from '../../../lib/format';
import type { Attribution, ContentCheck } from '../../../shared/records';

export const count = (value: number) => value.toLocaleString('en-US');
export const plural = (value: number, one: string, many = `${one}s`) => `${count(value)} ${value === 1 ? one : many}`;

/** A record's day, e.g. "Jun 16, 2026". */
export const when = (iso: string) => formatShortDate(new Date(iso));
/** A moment in the reader's time zone, e.g. "Jun 16, 3:05 PM". */
export const moment = (iso: string) => formatDateTime(new Date(iso));

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
