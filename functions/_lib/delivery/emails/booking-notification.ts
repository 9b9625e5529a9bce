// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * The owner's e-mails about a booked call: booked, moved, cancelled. Each carries the event for
 * the owner's calendar (the REQUEST of its current SEQUENCE, or the CANCEL), the time in the
 * owner's zone, and Reply-To the person.
 */
import type { Booking, Lead } from '../../../../src/shared/records';
import { site } from '../../../../src/site.config';
import type { NewOutboxEntry } from '../../store/types';
import { displayName, sendable } from '../addresses';
import { longTime, ownersEvent, shortTime, type Cancellation } from '../booking-mail';
import { renderMail, type Block } from '../mail-layout';
import type { DeliverySettings } from '../settings';
import { attributionRows } from './lead-notification';

/** What the owner's e-mails say of the call and the person, whatever happened to it. */
function callRows(booking: Booking, ownerTimeZone: string): Block {
  return {
    kind: 'fields',
    rows: [
      ['When', longTime(booking, ownerTimeZone)],
      // Their own clock, for a reply that names the time: only when it reads differently.
      ['Their time', booking.timeZone === ownerTimeZone ? undefined : longTime(booking, booking.timeZone)],
      ['Name', booking.name],
      ['E-mail', booking.email],
      ['Company', booking.company],
    ],
  };
}

/** An e-mail to the owner about the call, Reply-To the person, its text and calendar file given. */
function ownerEntry(
  booking: Booking,
  settings: DeliverySettings,
  mail: { subject: string; heading: string; blocks: Block[]; method: 'REQUEST' | 'CANCEL'; stamp: Date },
): NewOutboxEntry {
  const body = renderMail(
    settings.origin,
    mail.heading,
    [...mail.blocks, { kind: 'button', label: 'Open the bookings', url: `${settings.origin}/admin/insights#bookings` }],
    [{ kind: 'small', text: `Sent to the team by ${site.name}'s website for every booked call.` }],
  );
  return {
    id: crypto.randomUUID(),
    kind: 'lead-notification',
    ref: booking.leadId,
    to: settings.notifyTo.join(', '),
    message: {
      channel: 'mail',
      to: settings.notifyTo,
      replyTo: `${displayName(booking.name)} <${sendable(booking)}>`,
      subject: mail.subject,
      ...body,
      calendar: { method: mail.method, content: ownersEvent(mail.method, booking, settings.origin, mail.stamp) },
    },
  };
}

/** The owner's notice of a new booking: the call, the person's note, and the lead's first touch. */
export function bookingNotification(
  booking: Booking,
  lead: Lead,
  settings: DeliverySettings,
  ownerTimeZone: string,
  stamp: Date,
): NewOutboxEntry {
  return ownerEntry(booking, settings, {
    subject: `Call booked: ${booking.name} – ${shortTime(booking.start, ownerTimeZone)}`,
    heading: 'Call booked',
    blocks: [
      {
        kind: 'paragraph',
        text: `${booking.name} booked a free consultation. The invitation in this e-mail puts it in your calendar; reply to this e-mail to write to them.`,
      },
      callRows(booking, ownerTimeZone),
      ...(booking.notes ? [{ kind: 'quote', text: booking.notes } satisfies Block] : []),
      {
        kind: 'fields',
        rows: [
          ['Sent from', lead.page ? `${settings.origin}${lead.page}` : undefined],
          ...attributionRows(lead.attribution),
        ],
      },
    ],
    method: 'REQUEST',
    stamp,
  });
}

/** The owner's notice that the person moved the call: the new time, the old one, and the event's new revision. */
export function bookingMovedNotice(
  booking: Booking,
  previous: Pick<Booking, 'start' | 'end'>,
  settings: DeliverySettings,
  ownerTimeZone: string,
  stamp: Date,
): NewOutboxEntry {
  return ownerEntry(booking, settings, {
    subject: `Call moved: ${booking.name} – ${shortTime(booking.start, ownerTimeZone)}`,
    heading: 'Call moved',
    blocks: [
      {
        kind: 'paragraph',
        text: `${booking.name} moved their call. The invitation in this e-mail moves it in your calendar.`,
      },
      callRows(booking, ownerTimeZone),
      { kind: 'fields', rows: [['Was', longTime(previous, ownerTimeZone)]] },
    ],
    method: 'REQUEST',
    stamp,
  });
}

/** The owner's notice that the call is cancelled, by the person or by the owner (then with the message the person got). */
export function bookingCancelledNotice(
  booking: Booking,
  cancellation: Cancellation,
  settings: DeliverySettings,
  ownerTimeZone: string,
  stamp: Date,
): NewOutboxEntry {
  const byOwner = cancellation.by === 'owner';
  return ownerEntry(booking, settings, {
    subject: `Call cancelled: ${booking.name} – ${shortTime(booking.start, ownerTimeZone)}`,
    heading: 'Call cancelled',
    blocks: [
      {
        kind: 'paragraph',
        text: byOwner
          ? `You cancelled the call with ${booking.name}; they have been told. The time is offered again.`
          : `${booking.name} cancelled their call. The time is offered again.`,
      },
      callRows(booking, ownerTimeZone),
      ...(byOwner && cancellation.message
        ? [
            { kind: 'paragraph', text: 'Your message to them:' } satisfies Block,
            { kind: 'quote', text: cancellation.message } satisfies Block,
          ]
        : []),
    ],
    method: 'CANCEL',
    stamp,
  });
}
