// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * What a booked call puts in the outbox when it is booked, moved or cancelled: the person's
 * calendar message, the owner's notice with the same event, the reminder a day before, and the
 * webhook. As with leads (entries.ts), every message is composed here, once, with its record.
 */
import type { Booking, Lead } from '../../../src/shared/records';
import type { BookingOutbox } from '../store/bookings';
import type { NewOutboxEntry } from '../store/types';
import type { Cancellation } from './booking-mail';
import { bookingCancellation } from './emails/booking-cancellation';
import { bookingInvitation } from './emails/booking-invitation';
import { bookingCancelledNotice, bookingMovedNotice, bookingNotification } from './emails/booking-notification';
import { bookingReminder } from './emails/booking-reminder';
import { webhookBody } from './entries';
import type { DeliverySettings } from './settings';

export type { Cancellation } from './booking-mail';

/** The webhook's events of a booking. */
export type BookingEvent = 'booking.created' | 'booking.moved' | 'booking.cancelled';

/** A booking as its webhook sends it: without the hash of the person's link, or the outbox's id of its reminder. */
function published(booking: Booking) {
  const { tokenHash: _tokenHash, reminder: _reminder, ...rest } = booking;
  return rest;
}

/** The booking's webhook, when a webhook is set: the same shape and signature as lead.created. */
function bookingWebhook(
  type: BookingEvent,
  booking: Booking,
  at: Date,
  data: Record<string, unknown>,
  settings: DeliverySettings,
): NewOutboxEntry[] {
  if (!settings.webhookHost) return [];
  return [
    {
      id: crypto.randomUUID(),
      kind: 'webhook',
      ref: booking.leadId,
      to: settings.webhookHost,
      message: { channel: 'webhook', type, body: webhookBody(type, at, { booking: published(booking), ...data }) },
    },
  ];
}

/** The entries, with the reminder's id (for `booking.reminder`) when one was queued. */
function withReminder(entries: NewOutboxEntry[], reminder: NewOutboxEntry | undefined): BookingOutbox {
  return reminder ? { entries, reminder: reminder.id } : { entries };
}

/**
 * A new booking's entries: the person's invitation (REQUEST, SEQUENCE 0), the owner's notice with
 * the lead's fields, the reminder when its time is still ahead, and `booking.created` (with the
 * booking and its lead). `token` is the secret of the person's link, which only the e-mails carry.
 */
export function bookingEntries(
  booking: Booking,
  lead: Lead,
  token: string,
  settings: DeliverySettings,
  ownerTimeZone: string,
): BookingOutbox {
  const at = new Date(booking.createdAt);
  const { delivery: _delivery, ...leadData } = lead;
  const reminder = bookingReminder(booking, token, settings, at);
  return withReminder(
    [
      bookingInvitation(booking, token, settings, at),
      bookingNotification(booking, lead, settings, ownerTimeZone, at),
      ...(reminder ? [reminder] : []),
      ...bookingWebhook('booking.created', booking, at, { lead: leadData }, settings),
    ],
    reminder,
  );
}

/**
 * A moved booking's entries: the REQUEST of its new time, with the raised SEQUENCE, to the person
 * and to the owner, a reminder for the new time, and `booking.moved` (with the time it had).
 * `previous` is the booking before the move; its reminder, if still waiting, is the store's to
 * stop in the same step.
 */
export function movedEntries(
  booking: Booking,
  previous: Booking,
  token: string,
  settings: DeliverySettings,
  ownerTimeZone: string,
): BookingOutbox {
  const at = new Date(booking.updatedAt ?? Date.now());
  const was = { start: previous.start, end: previous.end };
  const reminder = bookingReminder(booking, token, settings, at);
  return withReminder(
    [
      bookingInvitation(booking, token, settings, at, was),
      bookingMovedNotice(booking, was, settings, ownerTimeZone, at),
      ...(reminder ? [reminder] : []),
      ...bookingWebhook('booking.moved', booking, at, { previous: was }, settings),
    ],
    reminder,
  );
}

/**
 * A cancelled booking's entries: the CANCEL (same UID, the raised SEQUENCE) to the person and the
 * owner's notice, and `booking.cancelled`. The owner's message goes to the person and the webhook.
 */
export function cancelledEntries(
  booking: Booking,
  cancellation: Cancellation,
  settings: DeliverySettings,
  ownerTimeZone: string,
): BookingOutbox {
  const at = new Date(booking.cancelled?.at ?? booking.updatedAt ?? Date.now());
  const message = cancellation.by === 'owner' && cancellation.message ? { message: cancellation.message } : {};
  return {
    entries: [
      bookingCancellation(booking, cancellation, settings, at),
      bookingCancelledNotice(booking, cancellation, settings, ownerTimeZone, at),
      ...bookingWebhook('booking.cancelled', booking, at, { cancelledBy: cancellation.by, ...message }, settings),
    ],
  };
}
