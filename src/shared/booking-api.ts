// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// Booking the free consultation: the paths and the answers of the booking API, without zod (the pages import it).
import type { BookingStatus } from './records';

/** GET: the open times (BookingSlots). */
export const BOOKING_SLOTS_PATH = '/api/booking/slots';
/** POST: a booking (BookingRequest, src/shared/schemas.ts); `${BOOKINGS_PATH}/{id}/view|cancel|move` with the link's token. */
export const BOOKINGS_PATH = '/api/bookings';
/** The booking page, whole in its HTML with the contact form as its fallback. */
export const BOOK_PAGE = '/book';
/** The page an e-mailed link opens, as `${BOOK_MANAGE_PAGE}?booking=<id>&token=<token>`: it changes nothing until a press. */
export const BOOK_MANAGE_PAGE = '/book/manage';

/** The build's copy of the owner's hours, for the functions (src/pages/booking-hours.json.ts). */
export const BOOKING_HOURS_FILE = 'booking-hours.json';

/** A time a call can start, and when it ends: ISO 8601 in UTC (`…Z`). */
export interface Slot {
  start: string;
  end: string;
}

/** GET /api/booking/slots. */
export interface BookingSlots {
  /** The owner's time zone. */
  timeZone: string;
  /** How long a call lasts, in minutes. */
  meetingMinutes: number;
  /** The open times from `from` to `to`, earliest first. */
  slots: Slot[];
}

/** POST /api/bookings: 201. */
export interface BookingCreated {
  id: string;
  start: string;
  end: string;
}

/** A booking as its e-mailed link shows it (POST /api/bookings/{id}/view, cancel and move). */
export interface BookingView {
  id: string;
  start: string;
  end: string;
  status: BookingStatus;
  /** The zone the person booked in: the page shows times in it until they pick another. */
  timeZone: string;
  name: string;
}
