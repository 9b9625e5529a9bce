/** The owner's bookable hours, from the build's copy of content/booking/hours.yaml. */
import { BookingHours } from '../../../src/shared/booking';
import { BOOKING_HOURS_FILE } from '../../../src/shared/booking-api';
import { readBuildJson } from '../platform/build-files';

const parsed = new WeakMap<object, BookingHours>();

/**
 * The owner's hours and the rules of a booking (dist/booking-hours.json, which netlify.toml ships
 * with the booking functions), checked with the schema the build checked them with: a copy that
 * no longer fits it (a build older than the code) fails loudly rather than offer wrong times.
 * Parsed once per version of the file.
 */
export async function readBookingHours(): Promise<BookingHours> {
  const value = await readBuildJson(BOOKING_HOURS_FILE);
  if (typeof value !== 'object' || value === null) return BookingHours.parse(value);
  let hours = parsed.get(value);
  if (!hours) {
    hours = BookingHours.parse(value);
    parsed.set(value, hours);
  }
  return hours;
}
