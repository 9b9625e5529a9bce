/**
 * A booked call's e-mails as a mail client gets them: composed by the booking's entries, sent by
 * the real transport to the local outbox folder, and read back from the raw message with a MIME
 * parser and the project's iCalendar parser (RFC 6047: the part's `method` is the file's METHOD).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bookingEntries, cancelledEntries, movedEntries } from '../../functions/_lib/delivery/booking-entries';
import { localOutboxDir, sendMail } from '../../functions/_lib/delivery/mail-transport';
import type { DeliverySettings } from '../../functions/_lib/delivery/settings';
import { resetEnv } from '../../functions/_lib/platform/env';
import { newState, redacted, REDACTED } from '../../functions/_lib/store/outbox-state';
import type { NewOutboxEntry } from '../../functions/_lib/store/types';
import { site } from '../../src/site.config';
import { BOOKING, CANCELLED, LEAD, MOVED } from '../support/booking-fixtures';
import { calendarPart, utcOf } from '../support/calendar-mail';

const ORIGIN = 'http://localhost:4321';
const OWNER = 'owner@loopwork.example';
const OWNER_ZONE = 'Europe/London';
const PLACE = 'https://meet.example.com/loopwork-consultation';
const TOKEN = 'k3Vq9x_T0kenOfTheLink-abcdefghijklmnopqrstu';
const SETTINGS: DeliverySettings = { origin: ORIGIN, notifyTo: [OWNER], webhookHost: 'hooks.example.com' };

const SAVED_ENV = ['SITE_LOCAL_RUN', 'LOCAL_STORE_DIR', 'SMTP_URL', 'MAIL_FROM', 'BOOKING_LOCATION'] as const;
let saved: Record<string, string | undefined>;
let folder: string;

beforeEach(() => {
  saved = Object.fromEntries(SAVED_ENV.map((key) => [key, process.env[key]]));
  folder = mkdtempSync(path.join(tmpdir(), 'booking-mail-'));
  for (const key of SAVED_ENV) delete process.env[key];
  Object.assign(process.env, { SITE_LOCAL_RUN: 'true', LOCAL_STORE_DIR: folder, BOOKING_LOCATION: PLACE });
  resetEnv();
});
afterEach(() => {
  for (const key of SAVED_ENV) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  resetEnv();
  rmSync(folder, { recursive: true, force: true });
});

/** Sends an entry as the outbox does, when it falls due, and reads back the message the local outbox folder got. */
async function delivered(entry: NewOutboxEntry): Promise<ParsedMail> {
  if (entry.message.channel !== 'mail') throw new Error(`${entry.kind} is not an e-mail`);
  const state = newState(entry, new Date(BOOKING.createdAt));
  expect(await sendMail({ ...state, message: entry.message }, entry.message)).toBe('file');
  const name = readdirSync(localOutboxDir()).find((file) => file.endsWith(`-${entry.id}.eml`));
  if (!name) throw new Error(`no .eml file for ${entry.id}`);
  return simpleParser(readFileSync(path.join(localOutboxDir(), name)));
}

/** A header as it was written: mailparser shows an internationalised domain in Unicode. */
const rawHeader = (mail: ParsedMail, name: string) => mail.headerLines.find((header) => header.key === name)?.line;

/** The entry of a kind among a booking's, the one to `to` when several are of that kind. */
function entryOf(entries: NewOutboxEntry[], kind: NewOutboxEntry['kind'], to?: string): NewOutboxEntry {
  const found = entries.filter((entry) => entry.kind === kind && (to === undefined || entry.to === to));
  expect(found).toHaveLength(1);
  return found[0] as NewOutboxEntry;
}

const manageUrl = `${ORIGIN}/book/manage?booking=${BOOKING.id}&token=${TOKEN}`;

/** A new booking's entries, composed as the booking endpoint does, with the environment of the test. */
const booked = () => bookingEntries(BOOKING, LEAD, TOKEN, SETTINGS, OWNER_ZONE);

describe("a new booking's invitation", () => {
  const invitation = () => entryOf(booked().entries, 'invitation');

  test('carries a text/calendar REQUEST part whose method is the file’s METHOD, in UTF-8', async () => {
    const mail = await delivered(invitation());
    const { params, text, calendar, event } = calendarPart(mail);
    expect(params.method).toBe('REQUEST');
    expect(calendar.getFirstPropertyValue('method')).toBe(params.method);
    expect(params.charset?.toLowerCase()).toBe('utf-8');
    expect(text).toContain('CN=Zoë Ångström');
    expect(event.getFirstProperty('attendee')?.getParameter('cn')).toBe('Zoë Ångström');
    expect(mail.text).toBeTruthy();
    expect(mail.html).toBeTruthy();
  });

  test('holds the call in UTC, its UID, SEQUENCE 0, the person as attendee and the place', async () => {
    const { event } = calendarPart(await delivered(invitation()));
    expect(event.getFirstPropertyValue('uid')).toBe(BOOKING.uid);
    expect(event.getFirstPropertyValue('sequence')).toBe(0);
    expect(utcOf(event, 'dtstart')).toBe(BOOKING.start);
    expect(utcOf(event, 'dtend')).toBe(BOOKING.end);
    expect(event.getFirstPropertyValue('attendee')).toBe('mailto:zoe@xn--bcher-kva.example');
    expect(event.getFirstPropertyValue('organizer')).toBe(`mailto:${site.email}`);
    expect(event.getFirstPropertyValue('location')).toBe(PLACE);
  });

  test('tells the person the time in their own zone, the length, the place and the link to move or cancel it', async () => {
    const mail = await delivered(invitation());
    expect(mail.subject).toBe(`Your call with ${site.name}: Tue 8 Dec, 08:30 (America/New_York)`);
    expect(rawHeader(mail, 'to')).toContain('zoe@xn--bcher-kva.example');
    expect(mail.text).toContain('When: Tuesday 8 December 2026, 08:30 to 09:00 (America/New_York, GMT-5)');
    expect(mail.text).toContain('Length: 30 minutes');
    expect(mail.text).toContain(`Where: ${PLACE}`);
    expect(mail.text).toContain(`Join the call: ${PLACE}`);
    expect(mail.html).toContain(`<a href="${PLACE}"`);
    expect(mail.text).toContain(`Move or cancel: ${manageUrl}`);
  });

  test('lists the link’s token as a secret, so the sent message keeps no live link', () => {
    const { message } = invitation();
    if (message.channel !== 'mail') throw new Error('not an e-mail');
    expect(message.secrets).toEqual([TOKEN]);
    const kept = redacted(message);
    expect(kept?.channel === 'mail' && kept.text).toContain(`token=${REDACTED}`);
    expect(JSON.stringify(kept)).not.toContain(TOKEN);
  });

  test('says without a place set that the person will be called or sent the link', async () => {
    delete process.env.BOOKING_LOCATION;
    resetEnv();
    const mail = await delivered(invitation());
    expect(mail.text).toContain('Where: We will call you, or e-mail you the link, before the call.');
    expect(mail.text).not.toContain('Join the call');
    expect(calendarPart(mail).event.hasProperty('location')).toBe(false);
  });
});

describe("the owner's notice of a booking", () => {
  const notice = () => entryOf(booked().entries, 'lead-notification');

  test('gives the time in the owner’s zone and the person’s, the lead’s fields, Reply-To the person', async () => {
    const mail = await delivered(notice());
    expect(mail.subject).toBe('Call booked: Zoë Ångström – Tue 8 Dec, 13:30 (Europe/London)');
    expect(rawHeader(mail, 'reply-to')).toContain('<zoe@xn--bcher-kva.example>');
    expect(mail.text).toContain('When: Tuesday 8 December 2026, 13:30 to 14:00 (Europe/London, GMT+0)');
    expect(mail.text).toContain('Their time: Tuesday 8 December 2026, 08:30 to 09:00 (America/New_York, GMT-5)');
    expect(mail.text).toContain('Company: Ångström & Söhne');
    expect(mail.text).toContain('> Can the orders meet in one place?');
    expect(mail.text).toContain('Campaign: winter');
    expect(mail.text).toContain(`${ORIGIN}/admin/insights#bookings`);
  });

  test('carries the same event as a REQUEST: UID, SEQUENCE and times', async () => {
    const { params, calendar, event } = calendarPart(await delivered(notice()));
    expect(params.method).toBe('REQUEST');
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(event.getFirstPropertyValue('uid')).toBe(BOOKING.uid);
    expect(event.getFirstPropertyValue('sequence')).toBe(0);
    expect(utcOf(event, 'dtstart')).toBe(BOOKING.start);
  });
});

describe('the reminder', () => {
  test('is due a day before the call, and its id is given for the booking to keep', () => {
    const outbox = booked();
    const reminder = entryOf(outbox.entries, 'reminder');
    expect(reminder.dueAt).toBe('2026-12-07T13:30:00.000Z');
    expect(newState(reminder, new Date(BOOKING.createdAt)).nextAttemptAt).toBe(reminder.dueAt);
    expect(outbox.reminder).toBe(reminder.id);
  });

  test('gives the time in the person’s zone, the place and the link, with no calendar part', async () => {
    const reminder = entryOf(booked().entries, 'reminder');
    const mail = await delivered(reminder);
    expect(mail.date?.toISOString()).toBe(reminder.dueAt);
    expect(mail.text).toContain('When: Tuesday 8 December 2026, 08:30 to 09:00 (America/New_York, GMT-5)');
    expect(mail.text).toContain(`Where: ${PLACE}`);
    expect(mail.text).toContain(`Move or cancel: ${manageUrl}`);
    expect(mail.attachments.filter((part) => part.contentType.includes('calendar'))).toEqual([]);
    expect(reminder.message.channel === 'mail' && reminder.message.secrets).toEqual([TOKEN]);
  });

  test('is not queued for a call less than a day away', () => {
    const soon = { ...BOOKING, createdAt: '2026-12-07T20:00:00.000Z' };
    const { entries, reminder: none } = bookingEntries(soon, LEAD, TOKEN, SETTINGS, OWNER_ZONE);
    expect(entries.map((entry) => entry.kind)).not.toContain('reminder');
    expect(none).toBeUndefined();
  });
});

describe('a move', () => {
  const moved = () => movedEntries(MOVED, BOOKING, TOKEN, SETTINGS, OWNER_ZONE).entries;

  test('sends the person a REQUEST of the same UID with the higher SEQUENCE and the new time', async () => {
    const mail = await delivered(entryOf(moved(), 'invitation'));
    expect(mail.subject).toBe(`Your call with ${site.name} has moved: Wed 9 Dec, 10:00 (America/New_York)`);
    expect(mail.text).toContain('Was: Tuesday 8 December 2026, 08:30 to 09:00 (America/New_York, GMT-5)');
    const { params, event } = calendarPart(mail);
    expect(params.method).toBe('REQUEST');
    expect(event.getFirstPropertyValue('uid')).toBe(BOOKING.uid);
    expect(event.getFirstPropertyValue('sequence')).toBe(1);
    expect(utcOf(event, 'dtstart')).toBe(MOVED.start);
  });

  test('tells the owner, with the new revision of the event, and queues a reminder for the new time', async () => {
    const entries = moved();
    const mail = await delivered(entryOf(entries, 'lead-notification'));
    expect(mail.subject).toBe('Call moved: Zoë Ångström – Wed 9 Dec, 15:00 (Europe/London)');
    expect(calendarPart(mail).event.getFirstPropertyValue('sequence')).toBe(1);
    expect(entryOf(entries, 'reminder').dueAt).toBe('2026-12-08T15:00:00.000Z');
  });
});

describe('a cancellation by the owner', () => {
  const message = 'I am ill that day, sorry.\nCould we talk next week?';
  const cancelled = () => cancelledEntries(CANCELLED, { by: 'owner', message }, SETTINGS, OWNER_ZONE);

  test('sends the person a CANCEL of the same UID with the higher SEQUENCE, and no reminder', async () => {
    const outbox = cancelled();
    const { params, calendar, event } = calendarPart(await delivered(entryOf(outbox.entries, 'invitation')));
    expect(params.method).toBe('CANCEL');
    expect(calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(event.getFirstPropertyValue('uid')).toBe(BOOKING.uid);
    expect(event.getFirstPropertyValue('sequence')).toBeGreaterThan(BOOKING.sequence);
    expect(event.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(outbox.entries.map((entry) => entry.kind)).not.toContain('reminder');
    expect(outbox.reminder).toBeUndefined();
  });

  test('says who cancelled, quotes the owner’s message and offers another time', async () => {
    const mail = await delivered(entryOf(cancelled().entries, 'invitation'));
    expect(mail.subject).toBe(`Cancelled: your call with ${site.name} on Tue 8 Dec, 08:30 (America/New_York)`);
    expect(mail.text).toContain(`${site.name} had to cancel your call`);
    expect(mail.text).toContain('> I am ill that day, sorry.\n> Could we talk next week?');
    expect(mail.text).toContain(`Book another time: ${ORIGIN}/book`);
  });

  test('sends the owner the CANCEL too', async () => {
    const mail = await delivered(entryOf(cancelled().entries, 'lead-notification'));
    expect(mail.subject).toBe('Call cancelled: Zoë Ångström – Tue 8 Dec, 13:30 (Europe/London)');
    expect(calendarPart(mail).params.method).toBe('CANCEL');
  });

  test('quotes no message when the person cancelled', async () => {
    const byPerson = cancelledEntries(CANCELLED, { by: 'person' }, SETTINGS, OWNER_ZONE);
    const mail = await delivered(entryOf(byPerson.entries, 'invitation'));
    expect(mail.text).toContain('As you asked');
    expect(mail.text).not.toContain('> ');
  });
});

describe("a booking's webhooks", () => {
  interface HookBody {
    type: string;
    timestamp: string;
    data: {
      booking: Record<string, unknown>;
      lead?: Record<string, unknown>;
      previous?: unknown;
      cancelledBy?: string;
    };
  }
  const bodyOf = (entries: NewOutboxEntry[]) => {
    const hook = entryOf(entries, 'webhook').message;
    if (hook.channel !== 'webhook') throw new Error('not a webhook');
    return { type: hook.type, body: JSON.parse(hook.body) as HookBody };
  };

  test('say a call was booked, with the booking (no hash of its link) and its lead', () => {
    const { type, body } = bodyOf(booked().entries);
    expect(type).toBe('booking.created');
    expect(body).toMatchObject({
      type,
      timestamp: BOOKING.createdAt,
      data: { booking: { id: BOOKING.id, uid: BOOKING.uid } },
    });
    expect(body.data.booking).not.toHaveProperty('tokenHash');
    expect(body.data.lead).toMatchObject({ id: LEAD.id, attribution: LEAD.attribution });
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });

  test('say a call moved, from when, and was cancelled, by whom', () => {
    const moved = bodyOf(movedEntries(MOVED, BOOKING, TOKEN, SETTINGS, OWNER_ZONE).entries);
    expect(moved.type).toBe('booking.moved');
    expect(moved.body.data.previous).toEqual({ start: BOOKING.start, end: BOOKING.end });
    const cancelled = bodyOf(cancelledEntries(CANCELLED, { by: 'person' }, SETTINGS, OWNER_ZONE).entries);
    expect(cancelled.type).toBe('booking.cancelled');
    expect(cancelled.body.data.cancelledBy).toBe('person');
  });

  test('are not queued without a webhook', () => {
    const kinds = bookingEntries(BOOKING, LEAD, TOKEN, { ...SETTINGS, webhookHost: undefined }, OWNER_ZONE).entries.map(
      (entry) => entry.kind,
    );
    expect(kinds).toEqual(['invitation', 'lead-notification', 'reminder']);
  });
});
