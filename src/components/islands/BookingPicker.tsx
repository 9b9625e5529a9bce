import { useEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { submitForm } from '../../lib/api-client';
import { BOOKINGS_PATH, type BookingCreated, type Slot } from '../../shared/booking-api';
import { Button } from '../ui/button';
import { useHydrated } from '../ui/use-hydrated';
import { BookingDetails, type BookingDetailsValues } from './booking/BookingDetails';
import { failureText, timeTaken } from './booking/failure';
import { SlotPicker } from './booking/SlotPicker';
import { browserTimeZone, callTime, zoneLabel } from './booking/times';
import { TimeZonePicker } from './booking/TimeZonePicker';
import { useOpenTimes } from './booking/use-open-times';

/** A call booked here: its times, and where its invitation went. */
interface Booked extends BookingCreated {
  email: string;
  timeZone: string;
}

/**
 * The booking view of /book: the open times by day in the visitor's time zone (named, and
 * changeable), a time chosen with one press, then Name and E-mail and Confirm booking.
 *
 * `children` is the page's fallback, the contact form: it is the island's HTML, what a person
 * sees when the script never runs, and it comes back when the open times cannot be read or
 * there are none, so that they can still write to us.
 */
export function BookingPicker({ children }: { children?: ReactNode }) {
  // Unset in the HTML and until the island runs: the times are written in the visitor's zone.
  const hydrated = useHydrated();
  const [pickedZone, setTimeZone] = useState<string>();
  const timeZone = hydrated ? (pickedZone ?? browserTimeZone()) : undefined;
  const { times, reload } = useOpenTimes();
  const [chosen, setChosen] = useState<Slot>();
  const [failure, setFailure] = useState<string>();
  const [booked, setBooked] = useState<Booked>();
  const [said, setSaid] = useState('');
  const details = useRef<HTMLDivElement>(null);
  const confirmation = useRef<HTMLHeadingElement>(null);

  useEffect(() => confirmation.current?.focus(), [booked]);

  if (!timeZone) return <>{children}</>;
  if (booked) return <Confirmation booked={booked} heading={confirmation} />;

  const slots = times.state === 'ready' ? times.slots : times.state === 'loading' ? times.previous : undefined;
  const unavailable =
    times.state === 'failed'
      ? `We could not load the open times. ${times.error}`
      : slots && slots.slots.length === 0
        ? 'There is no open time in the next few weeks.'
        : undefined;
  const retry = times.state === 'failed' ? reload : undefined;
  // Once a time was chosen, what was typed stays on the page whatever the times do next.
  const typing = chosen !== undefined || failure !== undefined;
  if (unavailable && !typing)
    return (
      <Unavailable reason={unavailable} onRetry={retry}>
        {children}
      </Unavailable>
    );

  function choose(slot: Slot) {
    setChosen(slot);
    setFailure(undefined);
    setSaid(`Chosen: ${callTime(slot, timeZone ?? 'UTC')}. Your details are below.`);
    requestAnimationFrame(() => details.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  }

  async function book(values: BookingDetailsValues): Promise<boolean> {
    setFailure(undefined);
    if (!chosen || !timeZone) {
      setFailure('Pick a time first: press one of the times above.');
      return false;
    }
    try {
      const response = await submitForm(BOOKINGS_PATH, { ...values, start: chosen.start, timeZone });
      // A submission the honeypot caught is answered `{ ok: true }`, without the times.
      const created = (await response.json()) as Partial<BookingCreated>;
      setBooked({
        id: created.id ?? '',
        start: created.start ?? chosen.start,
        end: created.end ?? chosen.end,
        email: values.email,
        timeZone,
      });
      return true;
    } catch (error) {
      setFailure(failureText(error));
      if (timeTaken(error)) {
        setChosen(undefined);
        reload();
      }
      return false;
    }
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      <TimeZonePicker
        timeZone={timeZone}
        ownerTimeZone={slots?.timeZone ?? timeZone}
        onChange={(zone) => {
          setTimeZone(zone);
          setSaid(`Times are now in ${zoneLabel(zone)}.`);
        }}
      />
      {unavailable ? (
        <Unavailable reason={unavailable} onRetry={retry} />
      ) : slots ? (
        <div aria-busy={times.state === 'loading' || undefined}>
          <SlotPicker slots={slots.slots} timeZone={timeZone} chosen={chosen?.start} onChoose={choose} />
        </div>
      ) : (
        <p className="rounded-xl bg-ink-50 px-4 py-6 text-center text-ink-600">Loading the open times…</p>
      )}
      <p role="status" className="sr-only">
        {said}
      </p>
      {(chosen || failure) && (
        <div ref={details} className="scroll-mt-24 border-t border-ink-100 pt-6">
          <BookingDetails chosen={chosen && callTime(chosen, timeZone)} book={book} failure={failure} />
        </div>
      )}
    </div>
  );
}

/** Why no time can be offered, and the fallback (the contact form) under it. */
function Unavailable({ reason, onRetry, children }: { reason: string; onRetry?: () => void; children?: ReactNode }) {
  return (
    <div className="grid gap-6">
      <div className="grid justify-items-start gap-3 rounded-xl bg-amber-100 px-4 py-3 text-sm text-ink-900 ring-1 ring-amber-400 ring-inset">
        <div role="alert">
          <p className="font-semibold">{reason}</p>
          <p className="mt-1">Send us a message instead and we will suggest a time by e-mail.</p>
        </div>
        {onRetry && (
          <Button variant="secondary" size="sm" onClick={onRetry}>
            Try again
          </Button>
        )}
      </div>
      {children}
    </div>
  );
}

/** The call is booked: when, in the zone it was booked in, and where the invitation went. */
function Confirmation({ booked, heading }: { booked: Booked; heading: Ref<HTMLHeadingElement> }) {
  return (
    <div className="grid gap-4 rounded-(--radius-card) bg-brand-50 p-6 ring-1 ring-brand-600/30 ring-inset sm:p-8">
      <div role="status" className="grid gap-3">
        <h2
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-extrabold tracking-tight text-brand-800 focus:outline-none"
        >
          Your call is booked
        </h2>
        <p className="text-lg font-semibold text-ink-900">{callTime(booked, booked.timeZone)}</p>
        <p className="text-ink-700">{zoneLabel(booked.timeZone)}</p>
        <p className="text-ink-800">
          We have sent an invitation to <strong className="font-semibold wrap-anywhere">{booked.email}</strong>
        </p>
      </div>
      <p className="text-sm text-ink-700">
        Add it to your calendar from that e-mail. It also has a link to move or cancel the call if your plans change.
      </p>
    </div>
  );
}
