/** The booking's records (a call, its lead, the same call moved and cancelled) and the owner's hours, as the tests compose them. */
import type { Booking, Lead } from '../../src/shared/records';
import { BookingHours } from '../../src/shared/booking';

/** Booked on 1 December for Tuesday 8 December, 13:30 UTC: 08:30 in New York, where the person is. */
export const BOOKING: Booking = {
  id: '0f8e2c4a-1b3d-4e5f-8a9b-0c1d2e3f4a5b',
  leadId: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
  start: '2026-12-08T13:30:00.000Z',
  end: '2026-12-08T14:00:00.000Z',
  heldUntil: '2026-12-08T14:15:00.000Z',
  day: '2026-12-08',
  status: 'booked',
  name: 'Zoë Ångström',
  email: 'zoe@bücher.example',
  emailAscii: 'zoe@xn--bcher-kva.example',
  company: 'Ångström & Söhne',
  notes: 'We sell books online and by phone.\nCan the orders meet in one place?',
  timeZone: 'America/New_York',
  uid: '0f8e2c4a-1b3d-4e5f-8a9b-0c1d2e3f4a5b@loopwork.example',
  sequence: 0,
  tokenHash: 'hash-of-the-token',
  createdAt: '2026-12-01T10:00:00.000Z',
};

export const LEAD: Lead = {
  id: BOOKING.leadId,
  name: BOOKING.name,
  email: BOOKING.email,
  emailAscii: BOOKING.emailAscii,
  company: BOOKING.company,
  notes: BOOKING.notes,
  source: 'booking',
  page: '/book',
  status: 'booked',
  createdAt: BOOKING.createdAt,
  attribution: { landingPage: '/zoho?utm_campaign=winter', utm_campaign: 'winter', referrer: 'www.linkedin.com' },
};

/** The booking moved to Wednesday 9 December, 15:00 UTC, its sequence raised. */
export const MOVED: Booking = {
  ...BOOKING,
  start: '2026-12-09T15:00:00.000Z',
  end: '2026-12-09T15:30:00.000Z',
  heldUntil: '2026-12-09T15:45:00.000Z',
  day: '2026-12-09',
  sequence: 1,
  updatedAt: '2026-12-02T09:00:00.000Z',
};

export const CANCELLED: Booking = {
  ...BOOKING,
  status: 'cancelled',
  sequence: 1,
  updatedAt: '2026-12-03T09:00:00.000Z',
  cancelled: { at: '2026-12-03T09:00:00.000Z', by: 'owner' },
};

/** The owner's hours as content/booking/hours.yaml sets them, with `changes`. */
export function hoursWith(changes: Partial<BookingHours> = {}): BookingHours {
  return BookingHours.parse({
    timeZone: 'Europe/London',
    weeklyHours: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].flatMap((day) => [
      { day, from: '09:00', to: '12:30' },
      { day, from: '13:30', to: '17:00' },
    ]),
    meetingMinutes: 30,
    bufferMinutes: 15,
    minimumNoticeHours: 24,
    bookingWindowDays: 30,
    slotIntervalMinutes: 30,
    daysOff: [{ from: '2026-12-24', to: '2026-12-26' }, { from: '2027-01-01' }],
    ...changes,
  });
}
