import { useCallback, useEffect, useState } from 'react';
import { errorText, throwIfResNotOk } from '../../../lib/api-client';
import { BOOKING_SLOTS_PATH, type BookingSlots } from '../../../shared/booking-api';

/** The open times as the booking views hold them: on their way, here, or why they are not. */
export type OpenTimes =
  | { state: 'loading'; previous?: BookingSlots }
  | { state: 'ready'; slots: BookingSlots }
  | { state: 'failed'; error: string };

async function readSlots(signal: AbortSignal): Promise<BookingSlots> {
  const response = await fetch(BOOKING_SLOTS_PATH, { signal });
  await throwIfResNotOk(response);
  return (await response.json()) as BookingSlots;
}

/**
 * The open times (GET /api/booking/slots), read once the view is on screen, and `reload`, which
 * reads them again (after a time was taken by someone else). While they are read again the times
 * already shown stay, so that the view does not jump.
 */
export function useOpenTimes(): { times: OpenTimes; reload: () => void } {
  const [times, setTimes] = useState<OpenTimes>({ state: 'loading' });
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    readSlots(controller.signal)
      .then((slots) => setTimes({ state: 'ready', slots }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setTimes({ state: 'failed', error: errorText(error) });
      });
    return () => controller.abort();
  }, [round]);

  const reload = useCallback(() => {
    setTimes((current) => ({ state: 'loading', previous: current.state === 'ready' ? current.slots : undefined }));
    setRound((value) => value + 1);
  }, []);

  return { times, reload };
}
