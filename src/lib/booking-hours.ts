/** The owner's bookable hours (content/booking/hours.yaml), for the pages and the functions' build copy. */
import { getEntry } from 'astro:content';
import type { BookingHours } from '../shared/booking';

/** The owner's hours and the rules of a booking; the build fails, naming the file, when it is missing. */
export async function getBookingHours(): Promise<BookingHours> {
  const entry = await getEntry('booking', 'hours');
  if (!entry)
    throw new Error(
      'content/booking/hours.yaml is missing: the booking page and /api/booking/slots need the owner’s hours. ' +
        'Restore it from the repository, or write a timeZone and weeklyHours in it.',
    );
  return entry.data;
}
