/** The owner's weekly hours in a line or two for the booking page: "Monday to Friday: 9:00–12:30 and 13:30–17:00". */
import { WEEKDAYS, type BookingHours, type Weekday } from '../shared/booking';

const DAY_NAMES: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

/** "09:00" → "9:00". */
const clock = (time: string) => time.replace(/^0(?=\d)/, '');

/** Days in a row as "Monday to Friday", two as "Monday and Tuesday", one by its name. */
function dayRun(days: Weekday[]): string {
  const first = DAY_NAMES[days[0] ?? 'monday'];
  const last = DAY_NAMES[days.at(-1) ?? 'monday'];
  if (days.length === 1) return first;
  return days.length === 2 ? `${first} and ${last}` : `${first} to ${last}`;
}

/**
 * One line per run of weekdays that share their hours, in the week's order: days with the same
 * hours next to each other are written together, a closed day is left out.
 */
export function hoursSummary(hours: Pick<BookingHours, 'weeklyHours'>): string[] {
  const hoursOf = (day: Weekday) =>
    hours.weeklyHours
      .filter((stretch) => stretch.day === day)
      .sort((a, b) => a.from.localeCompare(b.from))
      .map(({ from, to }) => `${clock(from)}–${clock(to)}`)
      .join(' and ');
  const runs: { days: Weekday[]; hours: string }[] = [];
  for (const day of WEEKDAYS) {
    const open = hoursOf(day);
    const last = runs.at(-1);
    const follows = last && WEEKDAYS.indexOf(last.days.at(-1) ?? 'sunday') === WEEKDAYS.indexOf(day) - 1;
    if (!open) continue;
    if (last && follows && last.hours === open) last.days.push(day);
    else runs.push({ days: [day], hours: open });
  }
  return runs.map((run) => `${dayRun(run.days)}: ${run.hours}`);
}
