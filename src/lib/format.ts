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

const shortDateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A calendar date where space is short, e.g. "Jun 16, 2026" (UTC, as formatDate). */
export function formatShortDate(date: Date): string {
  return shortDateFormat.format(date);
}

const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** A moment for the person reading, in their own time zone, e.g. "Jun 16, 3:05 PM". */
export function formatDateTime(date: Date): string {
  return dateTimeFormat.format(date);
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
