import { useQuery } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client';
import type { AdminBookings } from '../../../shared/api-responses';
import { BOOK_PAGE } from '../../../shared/booking-api';
import { FormAlert } from '../../ui/field';
import { BookingCard } from './BookingCard';
import { count } from './record-text';

/** GET: the calls to come and the last ones past or cancelled; `/{id}/cancel` cancels one. */
export const BOOKINGS_ENDPOINT = '/api/admin/bookings';

/**
 * The calls booked on the site: those to come first, soonest first, each with its lead and a
 * Cancel call; then the last ones held or cancelled, latest first.
 */
export function Bookings() {
  const query = useQuery<AdminBookings>({ queryKey: [BOOKINGS_ENDPOINT] });
  const list = query.data;
  return (
    <section aria-labelledby="bookings-title" className="grid min-w-0 gap-4">
      <h3 id="bookings-title" className="text-xl font-bold">
        Bookings {list && <span className="font-normal text-ink-600">({count(list.upcoming.length)} to come)</span>}
      </h3>
      {query.error && <FormAlert tone="error">{errorText(query.error)}</FormAlert>}
      {!list ? (
        !query.error && <p className="text-ink-600">Loading…</p>
      ) : (
        <>
          {list.upcoming.length === 0 ? (
            <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">
              No call to come. Calls appear here as soon as someone books one on {BOOK_PAGE}.
            </p>
          ) : (
            <ul aria-label="Calls to come" className="grid gap-3" aria-busy={query.isFetching || undefined}>
              {list.upcoming.map((booking) => (
                <li key={booking.id}>
                  <BookingCard booking={booking} timeZone={list.timeZone} upcoming />
                </li>
              ))}
            </ul>
          )}
          {list.past.length > 0 && (
            <div className="grid gap-3">
              <h4 className="text-base font-semibold text-ink-800">Past and cancelled</h4>
              <ul aria-label="Past and cancelled calls" className="grid gap-3">
                {list.past.map((booking) => (
                  <li key={booking.id}>
                    <BookingCard booking={booking} timeZone={list.timeZone} upcoming={false} />
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}
