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
