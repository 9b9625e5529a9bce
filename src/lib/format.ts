import { site } from '../site.config';

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A calendar date for people, e.g. "June 16, 2026". Content dates are UTC days. */
export function formatDate(date: Date): string {
  return dateFormat.format(date);
}

/**
 * The admin page's dates and numbers, in the site's locale (PUBLIC_SITE_LOCALE, src/site.config.ts).
 * Each format is made once per locale and options: a list of records writes hundreds of dates.
 */
const adminFormats = new Map<string, Intl.DateTimeFormat>();

function adminFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify([locale, options]);
  let format = adminFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    adminFormats.set(key, format);
  }
  return format;
}

/** A calendar day, YYYY-MM-DD: a date, not a moment. */
export const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A calendar day (YYYY-MM-DD), e.g. "2 Nov 2026" in en-GB, or "2 Nov" without the year (a chart's
 * axis). A day is a date in no time zone: it is written as the UTC midnight it names, in UTC, so
 * no reader's zone can move it to the day before.
 */
export function formatDay(day: string, { year = true, locale = site.locale } = {}): string {
  const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', timeZone: 'UTC' };
  return adminFormat(locale, year ? { ...options, year: 'numeric' } : options).format(new Date(`${day}T00:00:00Z`));
}

/** The day a moment falls on in `timeZone` (the reader's own when undefined), e.g. "2 Nov 2026". */
export function formatDayOf(moment: Date, timeZone?: string, locale = site.locale): string {
  return adminFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(moment);
}

/**
 * A moment in `timeZone` (the reader's own when undefined), e.g. "2 Nov, 15:05" or "2 Nov, 04:05"
 * in en-GB, "Nov 2, 3:05 PM" in en-US. A 24-hour clock is written with two digits for the hour,
 * as its readers write it; Intl's `numeric` hour would give "4:05".
 */
export function formatMoment(moment: Date, timeZone?: string, locale = site.locale): string {
  const twelveHours = adminFormat(locale, { hour: 'numeric' }).resolvedOptions().hour12;
  const hour = twelveHours ? 'numeric' : '2-digit';
  return adminFormat(locale, { day: 'numeric', month: 'short', hour, minute: '2-digit', timeZone }).format(moment);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A figure, e.g. "1,234" in en-GB, "1 234" in fr-FR. */
export function formatNumber(value: number, locale = site.locale): string {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format.format(value);
}

/** The machine-readable form of a calendar date, for `<time datetime>`. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The fixed reading-time label on blog cards and posts. */
export const READING_TIME_LABEL = '5 min read';

/** Plain text with blank-line paragraph breaks, as paragraphs. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean);
}
