import { useState } from 'react';
import { apiRequest } from '../../../lib/api-client';
import { BOOKINGS_PATH, type BookingView, type Slot } from '../../../shared/booking-api';
import { Button } from '../../ui/button';
import { failureText, timeTaken } from './failure';
import { SlotPicker } from './SlotPicker';
import { shortDay, timeOfDay } from './times';
import { useOpenTimes } from './use-open-times';

interface MoveCallProps {
  booking: BookingView;
  token: string;
  timeZone: string;
  onMoved: (moved: BookingView) => void;
  onClose: () => void;
}

/** The open times to move a call to (read once Move it is pressed), then "Move to <time>". */
export function MoveCall({ booking, token, timeZone, onMoved, onClose }: MoveCallProps) {
  const { times, reload } = useOpenTimes();
  const [chosen, setChosen] = useState<Slot>();
  const [moving, setMoving] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function move() {
    if (!chosen) return;
    setMoving(true);
    setFailure(undefined);
    try {
      const response = await apiRequest('POST', `${BOOKINGS_PATH}/${encodeURIComponent(booking.id)}/move`, {
        token,
        start: chosen.start,
      });
      onMoved((await response.json()) as BookingView);
    } catch (error) {
      setFailure(failureText(error));
      if (timeTaken(error)) {
        setChosen(undefined);
        reload();
      }
      setMoving(false);
    }
  }

  const slots = times.state === 'ready' ? times.slots : times.state === 'loading' ? times.previous : undefined;
  return (
    <section
      id="move-call"
      aria-labelledby="move-title"
      className="grid grid-cols-1 gap-5 border-t border-ink-100 pt-6"
    >
      <h2 id="move-title" className="text-xl font-bold">
        Pick a new time
      </h2>
      {times.state === 'failed' ? (
        <p role="alert" className="rounded-xl bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700">
          We could not load the open times just now. {times.error}
        </p>
      ) : !slots ? (
        <p className="text-ink-600">Loading the open times…</p>
      ) : slots.slots.length === 0 ? (
        <p className="text-ink-700">There is no other open time in the next few weeks.</p>
      ) : (
        <div aria-busy={times.state === 'loading' || undefined}>
          <SlotPicker
            slots={slots.slots}
            timeZone={timeZone}
            chosen={chosen?.start}
            onChoose={(slot) => {
              setChosen(slot);
              setFailure(undefined);
            }}
          />
        </div>
      )}
      <div className="flex flex-wrap gap-3">
        {chosen && (
          <Button size="lg" onClick={() => void move()} aria-busy={moving || undefined} disabled={moving}>
            Move to {shortDay(chosen.start, timeZone)}, {timeOfDay(chosen.start, timeZone)}
          </Button>
        )}
        <Button variant="secondary" size="lg" onClick={onClose}>
          Keep the time I have
        </Button>
      </div>
      <div role="alert" className="empty:hidden">
        {failure && (
          <p className="rounded-xl bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700 ring-1 ring-danger-700/30 ring-inset">
            {failure}
          </p>
        )}
      </div>
    </section>
  );
}
