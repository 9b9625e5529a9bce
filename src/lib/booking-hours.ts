/** The owner's bookable hours (content/booking/hours.yaml), for the pages and the functions' build copy. */
import { getEntry } from 'astro:content';
import { HOURS_MISSING, type BookingHours } from '../shared/booking';

/** The owner's hours and the rules of a booking (the content sync has stopped a build without them). */
export async function getBookingHours(): Promise<BookingHours> {
  const entry = await getEntry('booking', 'hours');
  if (!entry) throw new Error(HOURS_MISSING);
  return entry.data;
}
