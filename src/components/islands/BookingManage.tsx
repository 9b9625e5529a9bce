import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, apiRequest } from '../../lib/api-client';
import { BOOK_PAGE, BOOKINGS_PATH, type BookingView } from '../../shared/booking-api';
import { Button } from '../ui/button';
import { useHydrated } from '../ui/use-hydrated';
import { failureText } from './booking/failure';
import { MoveCall } from './booking/MoveCall';
import { callTime } from './booking/times';
import { TimeZonePicker } from './booking/TimeZonePicker';

/** The e-mailed link's parts: the booking's id and the secret that opens it. */
interface Link {
  id: string;
  token: string;
}

type State =
  | { step: 'reading' }
  /** A link without its parts, or one the server does not know. */
  | { step: 'invalid'; message?: string }
  /** The server could not be asked: the link may be good. */
  | { step: 'unavailable'; message: string }
  | { step: 'shown'; booking: BookingView; done?: 'moved' | 'cancelled' };

/** The link's id and token, as the e-mail writes them (`?booking=<id>&token=<token>`); none when either is missing. */
function linkInAddress(): Link | undefined {
  const query = new URLSearchParams(window.location.search);
  const id = query.get('booking')?.trim();
  const token = query.get('token')?.trim();
  return id && token ? { id, token } : undefined;
}

const post = async (link: Link, action: 'view' | 'cancel', body: object = {}) =>
  (await (
    await apiRequest('POST', `${BOOKINGS_PATH}/${encodeURIComponent(link.id)}/${action}`, {
      token: link.token,
      ...body,
    })
  ).json()) as BookingView;

/**
 * The page an e-mailed booking link opens: it reads the call (a POST that changes nothing, so a
 * mail scanner opening the link changes nothing either) and shows it in the zone it was booked
 * in, which the person may change. Cancelling takes two presses; moving shows the open times.
 */
export function BookingManage({ contactEmail }: { contactEmail: string }) {
  const [state, setState] = useState<State>({ step: 'reading' });
  const [round, setRound] = useState(0);
  // Read from the address once the island runs; the HTML knows no address.
  const hydrated = useHydrated();
  const link = useMemo(() => (hydrated ? linkInAddress() : undefined), [hydrated]);

  useEffect(() => {
    if (!link) return;
    post(link, 'view').then(
      (booking) => setState({ step: 'shown', booking }),
      (error: unknown) =>
        setState(
          error instanceof ApiError && (error.status === 404 || error.status === 422)
            ? { step: 'invalid', message: failureText(error) }
            : { step: 'unavailable', message: failureText(error) },
        ),
    );
  }, [link, round]);

  if (hydrated && !link) return <InvalidLink contactEmail={contactEmail} />;
  if (state.step === 'reading') return <p className="text-lg text-ink-600">Looking up your booking…</p>;
  if (state.step === 'invalid') return <InvalidLink message={state.message} contactEmail={contactEmail} />;
  if (state.step === 'unavailable' || !link)
    return (
      <div role="alert" className="grid justify-items-start gap-4 rounded-(--radius-card) bg-danger-50 p-6">
        <p className="font-semibold text-danger-700">We could not look up your booking just now.</p>
        <p className="text-ink-700">{state.step === 'unavailable' ? state.message : ''}</p>
        <Button variant="secondary" onClick={() => setRound(round + 1)}>
          Try again
        </Button>
      </div>
    );
  return <ShownCall link={link} booking={state.booking} done={state.done} onChange={setState} />;
}

/** The call, in a zone the person may change, with Cancel the call and Move it; or what was just done to it. */
function ShownCall({
  link,
  booking,
  done,
  onChange,
}: {
  link: Link;
  booking: BookingView;
  done?: 'moved' | 'cancelled';
  onChange: (state: State) => void;
}) {
  const [timeZone, setTimeZone] = useState(booking.timeZone);
  const [asking, setAsking] = useState<'cancel' | 'move'>();
  const [cancelling, setCancelling] = useState(false);
  const [failure, setFailure] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const moveButton = useRef<HTMLButtonElement>(null);
  const cancelled = booking.status === 'cancelled';

  // What was just done is what the person reads next.
  useEffect(() => {
    if (done) heading.current?.focus();
  }, [done]);

  async function cancel() {
    setCancelling(true);
    setFailure(undefined);
    try {
      onChange({ step: 'shown', booking: await post(link, 'cancel'), done: 'cancelled' });
    } catch (error) {
      setFailure(failureText(error));
      setCancelling(false);
    }
  }

  const title = cancelled
    ? 'Your call is cancelled'
    : done === 'moved'
      ? 'Your call is moved'
      : `Your call, ${booking.name}`;
  return (
    <div className="grid grid-cols-1 gap-6">
      <div
        className={
          cancelled
            ? 'grid gap-2 rounded-(--radius-card) bg-ink-50 p-6 ring-1 ring-ink-200 ring-inset'
            : 'grid gap-2 rounded-(--radius-card) bg-brand-50 p-6 ring-1 ring-brand-600/30 ring-inset'
        }
      >
        <h2 ref={heading} tabIndex={-1} className="text-2xl font-extrabold tracking-tight focus:outline-none">
          {title}
        </h2>
        <p className={cancelled ? 'text-lg text-ink-600 line-through' : 'text-lg font-semibold text-ink-900'}>
          {callTime(booking, timeZone)}
        </p>
        {done === 'moved' && <p className="text-ink-700">Your calendar gets the new time by e-mail.</p>}
        {cancelled && (
          <p className="text-ink-700">
            {done === 'cancelled'
              ? 'We have let the team know, and your calendar gets the cancellation by e-mail. '
              : ''}
            Changed your mind?{' '}
            <a href={BOOK_PAGE} className="font-semibold text-brand-700 underline underline-offset-2">
              Book another time
            </a>
            .
          </p>
        )}
      </div>
      {!cancelled && <TimeZonePicker timeZone={timeZone} ownerTimeZone={booking.timeZone} onChange={setTimeZone} />}
      {!cancelled && (
        <div className="flex flex-wrap gap-3">
          <Button
            ref={moveButton}
            variant="secondary"
            size="lg"
            aria-expanded={asking === 'move'}
            aria-controls={asking === 'move' ? 'move-call' : undefined}
            onClick={() => setAsking(asking === 'move' ? undefined : 'move')}
          >
            Move it
          </Button>
          <Button
            ref={cancelButton}
            variant="secondary"
            size="lg"
            aria-expanded={asking === 'cancel'}
            aria-controls={asking === 'cancel' ? 'cancel-call' : undefined}
            onClick={() => setAsking(asking === 'cancel' ? undefined : 'cancel')}
          >
            Cancel the call
          </Button>
        </div>
      )}
      {!cancelled && asking === 'cancel' && (
        <div id="cancel-call" className="grid gap-4 border-t border-ink-100 pt-6">
          <p className="text-ink-800">
            Cancel the call on {callTime(booking, timeZone)}? The time becomes free for others, and your calendar gets
            the cancellation.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button size="lg" onClick={() => void cancel()} disabled={cancelling} aria-busy={cancelling || undefined}>
              Yes, cancel the call
            </Button>
            <Button
              variant="secondary"
              size="lg"
              onClick={() => {
                setAsking(undefined);
                cancelButton.current?.focus();
              }}
            >
              Keep it
            </Button>
          </div>
          <div role="alert" className="empty:hidden">
            {failure && <p className="rounded-xl bg-danger-50 px-4 py-3 text-sm text-danger-700">{failure}</p>}
          </div>
        </div>
      )}
      {!cancelled && asking === 'move' && (
        <MoveCall
          booking={booking}
          token={link.token}
          timeZone={timeZone}
          onMoved={(moved) => {
            setAsking(undefined);
            onChange({ step: 'shown', booking: moved, done: 'moved' });
          }}
          onClose={() => {
            setAsking(undefined);
            moveButton.current?.focus();
          }}
        />
      )}
    </div>
  );
}

/** A link without its parts, or one the server does not know: what to do instead. */
function InvalidLink({ message, contactEmail }: { message?: string; contactEmail: string }) {
  return (
    <div
      role="alert"
      className="grid gap-3 rounded-(--radius-card) bg-danger-50 p-6 ring-1 ring-danger-700/30 ring-inset"
    >
      <h2 className="text-xl font-bold text-danger-700">This booking link is not valid</h2>
      <p className="text-ink-700">
        {message ??
          'Part of it is missing. Open the link from your e-mail again, or copy the whole address into your browser.'}
      </p>
      <p className="text-ink-700">
        To change a call without the link, write to us at{' '}
        <a href={`mailto:${contactEmail}`} className="font-semibold underline underline-offset-2">
          {contactEmail}
        </a>
        . To book a new call,{' '}
        <a href={BOOK_PAGE} className="font-semibold underline underline-offset-2">
          pick a time
        </a>
        .
      </p>
    </div>
  );
}
