import { useEffect, useId, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';
import { formatMoment } from '../../../lib/format';
import type { AdminBooking } from '../../../shared/api-responses';
import { LEAD_STATUS_NAMES, type Lead } from '../../../shared/records';
import { LIMITS, sourceName } from '../../../shared/schemas';
import { site } from '../../../site.config';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Textarea } from '../../ui/field';
import { origin, when } from './record-text';
import { dayKey } from '../booking/times';
import { useAdminAction } from './use-admin-action';

/** The calendar day of a moment in `timeZone`, as the UTC midnight it names. */
const dayOf = (moment: number, timeZone: string): number =>
  Date.parse(`${dayKey(new Date(moment).toISOString(), timeZone)}T00:00:00Z`);

/**
 * How far a call is from now: "in 20 minutes", "in 5 hours" within a day, else in calendar days
 * of the owner's zone ("tomorrow", "in 3 days", "2 days ago").
 */
export function fromNow(iso: string, timeZone: string, now = Date.now()): string {
  const at = Date.parse(iso);
  const minutes = Math.round((at - now) / 60_000);
  const format = new Intl.RelativeTimeFormat(site.locale, { numeric: 'auto' });
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute');
  if (Math.abs(minutes) < 24 * 60) return format.format(Math.round(minutes / 60), 'hour');
  return format.format(Math.round((dayOf(at, timeZone) - dayOf(now, timeZone)) / 86_400_000), 'day');
}

/** The call's time in the person's own zone, e.g. "Thu 9:30 AM their time (America/New_York)". */
function theirTime(booking: AdminBooking): string {
  const time = new Intl.DateTimeFormat(site.locale, {
    hour: 'numeric',
    minute: '2-digit',
    weekday: 'short',
    timeZone: booking.timeZone,
  }).format(new Date(booking.start));
  return `${time} their time (${booking.timeZone})`;
}

/** What became of a call: booked, held (its time passed) or cancelled, and by whom. */
function callState(booking: AdminBooking, upcoming: boolean) {
  if (booking.status === 'cancelled')
    return <Badge tone="neutral">{booking.cancelled?.by === 'owner' ? 'Cancelled by you' : 'Cancelled by them'}</Badge>;
  return upcoming ? <Badge tone="success">Booked</Badge> : <Badge tone="neutral">Held</Badge>;
}

/** The lead the booking made: its status, its form and where the person first came from. */
function LeadLine({ lead }: { lead?: Lead }) {
  if (!lead) return <p className="text-xs text-ink-600">Its lead was erased.</p>;
  return (
    <div className="grid gap-1 text-xs text-ink-700">
      <p>
        <span className="text-ink-600">Lead:</span> {LEAD_STATUS_NAMES[lead.status ?? 'new']} ·{' '}
        {sourceName(lead.source)} · since {when(lead.createdAt)}
      </p>
      {origin(lead.page, lead.attribution)}
    </div>
  );
}

/** The owner cancels a call, with an optional message the person's cancellation e-mail carries; a second press confirms. */
function CancelCall({ booking }: { booking: AdminBooking }) {
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState('');
  const id = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  // The question takes the focus when it opens, and gives it back to Cancel call when the owner keeps the call.
  const opened = useRef(false);
  useEffect(() => {
    if (asking) field.current?.focus();
    else if (opened.current) opener.current?.focus();
    opened.current = asking;
  }, [asking]);
  const cancel = useAdminAction({
    method: 'POST',
    path: `/api/admin/bookings/${encodeURIComponent(booking.id)}/cancel`,
    done: { title: 'Call cancelled', description: `${booking.name} gets the cancellation by e-mail.` },
    failed: 'Could not cancel the call',
  });

  if (!asking)
    return (
      <Button
        ref={opener}
        variant="secondary"
        size="sm"
        className="justify-self-start"
        onClick={() => setAsking(true)}
        aria-label={`Cancel call with ${booking.name}`}
      >
        Cancel call
      </Button>
    );
  return (
    <form
      className="grid gap-2 rounded-xl bg-ink-50 p-3 ring-1 ring-ink-100"
      onSubmit={(event) => {
        event.preventDefault();
        cancel.mutate(message.trim() ? { message } : {});
      }}
    >
      <label htmlFor={id} className="text-sm font-semibold text-ink-800">
        Message to {booking.name} <span className="font-normal text-ink-600">(optional)</span>
      </label>
      <Textarea
        ref={field}
        id={id}
        value={message}
        maxLength={LIMITS.notes}
        onChange={(event) => setMessage(event.target.value)}
        placeholder="Sorry, something came up. Could we find another time?"
        className="min-h-20 text-sm"
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={cancel.isPending}>
          Cancel the call
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setAsking(false)}>
          Keep it
        </Button>
      </div>
    </form>
  );
}

/**
 * One booked call as the owner reads it: when, in the owner's zone and how far off, with whom,
 * what they wrote and the lead it made; Cancel call while it is still to come.
 */
export function BookingCard({
  booking,
  timeZone,
  upcoming,
}: {
  booking: AdminBooking;
  /** The owner's zone, which the calls' times are shown in. */
  timeZone: string;
  upcoming: boolean;
}) {
  const headingId = `booking-${booking.id}`;
  const cancelled = booking.status === 'cancelled';
  return (
    <article
      aria-labelledby={headingId}
      className="grid gap-4 rounded-(--radius-card) bg-white p-4 text-sm ring-1 ring-ink-100 sm:p-5 md:grid-cols-[minmax(0,1fr)_minmax(14rem,20rem)]"
    >
      <div className="grid min-w-0 content-start gap-2">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className={cn('text-base font-bold text-ink-900', cancelled && 'text-ink-600 line-through')}>
            {formatMoment(new Date(booking.start), timeZone)}
          </span>
          <span className="text-ink-600">{fromNow(booking.start, timeZone)}</span>
          {callState(booking, upcoming)}
        </p>
        <h4 id={headingId} className="text-base font-semibold wrap-anywhere">
          {booking.name}
          {booking.company && <span className="font-normal text-ink-700">, {booking.company}</span>}
        </h4>
        <p className="wrap-anywhere">
          <a href={`mailto:${booking.email}`} className="text-brand-700 underline underline-offset-2">
            {booking.email}
          </a>
          <span className="text-ink-600"> · {theirTime(booking)}</span>
        </p>
        {booking.notes && (
          <blockquote className="border-l-4 border-ink-200 pl-3 wrap-anywhere whitespace-pre-line text-ink-800">
            {booking.notes}
          </blockquote>
        )}
      </div>
      <div className="grid min-w-0 content-start gap-3 md:border-l md:border-ink-100 md:pl-5">
        <LeadLine lead={booking.lead} />
        {upcoming && !cancelled && <CancelCall booking={booking} />}
      </div>
    </article>
  );
}
