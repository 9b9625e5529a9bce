import type { APIRoute } from 'astro';
import { getBookingHours } from '../lib/booking-hours';

/**
 * The owner's hours as the build checked them (BOOKING_HOURS_FILE, src/shared/booking.ts), for the
 * booking functions (functions/_lib/booking/hours.ts reads it; netlify.toml ships it with them).
 */
export const GET: APIRoute = async () => Response.json(await getBookingHours());
