/**
 * Netlify's schedules, read the way Netlify reads them: five cron fields in UTC (minute, hour,
 * day of month, month, day of week) with `*`, lists, ranges and steps, or one of the shortcuts
 * `@yearly`, `@monthly`, `@weekly`, `@daily`, `@hourly`.
 */
const SHORTCUTS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const RANGES: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

/** The values one field allows; throws on a field that is not valid cron. */
function values(field: string, [min, max]: [number, number]): Set<number> {
  const allowed = new Set<number>();
  for (const part of field.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new Error(`"${field}" is not a cron field`);
    const step = Number(match[4] ?? 1);
    const from = match[1] === '*' ? min : Number(match[2]);
    const to = match[1] === '*' ? max : match[3] !== undefined ? Number(match[3]) : match[4] ? max : from;
    if (from < min || to > max || from > to || step < 1) throw new Error(`"${field}" is out of range`);
    for (let value = from; value <= to; value += step) allowed.add(value);
  }
  return allowed;
}

/** A matcher for a schedule; throws when the schedule is not valid. */
export function parseSchedule(schedule: string): (date: Date) => boolean {
  const fields = (SHORTCUTS[schedule.trim()] ?? schedule).trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`"${schedule}" does not have five cron fields`);
  const [minutes, hours, days, months, weekdays] = fields.map((field, index) => values(field, RANGES[index] ?? [0, 0]));
  if (weekdays?.has(7)) weekdays.add(0);
  const restrictedDay = fields[2] !== '*';
  const restrictedWeekday = fields[4] !== '*';
  return (date) => {
    const dayMatches = days?.has(date.getUTCDate()) ?? false;
    const weekdayMatches = weekdays?.has(date.getUTCDay()) ?? false;
    // Cron's rule: when both day fields are restricted, either one matching is enough.
    const day = restrictedDay && restrictedWeekday ? dayMatches || weekdayMatches : dayMatches && weekdayMatches;
    return (
      Boolean(minutes?.has(date.getUTCMinutes())) &&
      Boolean(hours?.has(date.getUTCHours())) &&
      Boolean(months?.has(date.getUTCMonth() + 1)) &&
      day
    );
  };
}
