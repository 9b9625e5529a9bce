import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { BOOK_MANAGE_PAGE, BOOK_PAGE, BOOKING_SLOTS_PATH, type BookingSlots } from '../../src/shared/booking-api';
import { expectNoViolations } from '../support/axe';
import { calendarPart, utcOf } from '../support/calendar-mail';
import { logIn } from '../support/admin-login';
import { uniqueEmail } from '../support/e2e-env';
import { mailsTo } from '../support/e2e-outbox';
import { ownStoreFolder, startServerAt, stopServerAt } from '../support/own-server';

/**
 * A prospect in New York books the free consultation from a Schedule a Consultation button: the
 * owner works in London (content/booking/hours.yaml), the page shows the times in the visitor's
 * zone and names it, and the invitation is a real one (iMIP). The e-mailed link opens a page that
 * changes nothing until a press; a cancellation sends the calendar's CANCEL and frees the time.
 */
test.use({ timezoneId: 'America/New_York', locale: 'en-US' });

const VISITOR_ZONE = 'America/New_York';

/** How the page writes a time of day in the visitor's zone and locale: "9:30 AM". */
const visitorTime = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: VISITOR_ZONE, hour: 'numeric', minute: '2-digit' }).format(
    new Date(iso),
  );

/** The starts of the open times, as the API offers them now. */
async function offered(request: APIRequestContext): Promise<string[]> {
  const response = await request.get(BOOKING_SLOTS_PATH);
  expect(response.status()).toBe(200);
  return ((await response.json()) as BookingSlots).slots.map((slot) => slot.start);
}

/** The METHOD of an e-mail's calendar part, as its Content-Type names it; none without one. */
function methodOf(mail: ParsedMail): string | undefined {
  if (!mail.attachments.some((part) => part.contentType === 'text/calendar')) return undefined;
  return calendarPart(mail).params.method?.toUpperCase();
}

/** The e-mails to `email` whose calendar part has this method, once there are `count` of them. */
async function calendarMails(email: string, method: 'REQUEST' | 'CANCEL', count = 1): Promise<ParsedMail[]> {
  const withMethod = async () => (await mailsTo(email)).filter((mail) => methodOf(mail) === method);
  await expect.poll(async () => (await withMethod()).length, { timeout: 15_000 }).toBe(count);
  return withMethod();
}

/** The address of the booking's page in an e-mail's text, with its id and token. */
function manageLink(mail: ParsedMail): string {
  const found = new RegExp(`https?://[^\\s/]+${BOOK_MANAGE_PAGE}\\?booking=[\\w-]+&token=[\\w-]+`).exec(
    mail.text ?? '',
  );
  if (!found) throw new Error(`no link to ${BOOK_MANAGE_PAGE} in "${mail.subject ?? ''}"`);
  return found[0];
}

/**
 * Chooses the second open day and its last time; returns the time's label. The first day's times
 * may lie just past the minimum notice, and stop being offered while the test runs; a day later
 * they cannot, and the call's reminder (24 hours before it) cannot fall due during the test.
 */
async function pickADay(page: Page): Promise<string> {
  await page.getByRole('tablist', { name: 'Days' }).getByRole('tab').nth(1).click();
  const time = page.getByRole('tabpanel').getByRole('button').last();
  const label = (await time.textContent()) ?? '';
  await time.click();
  await expect(time).toHaveAttribute('aria-pressed', 'true');
  return label;
}

test('a visitor in New York books a call from Schedule a Consultation, gets a real invitation, and cancels it from the e-mailed link', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('booking');
  await page.goto('/');
  await page.getByRole('button', { name: 'Schedule a Consultation' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Contact Us / Request Demo' });
  await dialog.getByRole('link', { name: 'Pick a time' }).click();
  await expect(page).toHaveURL(new RegExp(`${BOOK_PAGE}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Book a free consultation' })).toBeVisible();

  // The page names the visitor's zone, not the owner's.
  await expect(page.getByText(`Times in Eastern Time (${VISITOR_ZONE})`)).toBeVisible();
  await expectNoViolations(page);

  const posted = page.waitForRequest((sent) => sent.method() === 'POST' && sent.url().endsWith('/api/bookings'));
  const label = await pickADay(page);
  const form = page.getByRole('form', { name: 'Your details' });
  await form.getByLabel('Name').fill('Grace Hopper');
  await form.getByLabel('E-mail').fill(email);
  await expectNoViolations(page);
  await form.getByRole('button', { name: 'Confirm booking' }).click();
  const { start, timeZone } = (await posted).postDataJSON() as { start: string; timeZone: string };
  expect(timeZone).toBe(VISITOR_ZONE);
  // The button read the slot's start in the visitor's zone.
  expect(label).toBe(visitorTime(start));

  await expect(page.getByRole('heading', { name: 'Your call is booked' })).toBeFocused();
  await expect(page.getByText(`We have sent an invitation to ${email}`)).toBeVisible();

  // The invitation: iMIP REQUEST, its method the file's, the chosen time in UTC, the visitor as attendee.
  const [invitation] = await calendarMails(email, 'REQUEST');
  if (!invitation) throw new Error('no invitation');
  const invite = calendarPart(invitation);
  expect(invite.params.method).toBe('REQUEST');
  expect(invite.calendar.getFirstPropertyValue('method')).toBe('REQUEST');
  expect(utcOf(invite.event, 'dtstart')).toBe(start);
  const uid = String(invite.event.getFirstPropertyValue('uid') ?? '');
  expect(uid).not.toBe('');
  expect(invite.event.getFirstPropertyValue('sequence')).toBe(0);
  const attendees = invite.event.getAllProperties('attendee').map((attendee) => String(attendee.getFirstValue()));
  expect(attendees.map((address) => address.toLowerCase())).toContain(`mailto:${email}`);
  expect(await offered(request)).not.toContain(start);

  // Opening the e-mailed link changes nothing: the call is shown, still booked, the time still taken.
  await page.goto(manageLink(invitation));
  await expect(page.getByRole('heading', { name: 'Your call, Grace Hopper' })).toBeVisible();
  await expect(page.getByText(`Times in Eastern Time (${VISITOR_ZONE})`)).toBeVisible();
  await expectNoViolations(page);
  expect(await offered(request)).not.toContain(start);
  expect(await mailsTo(email)).toHaveLength(1);

  // Two presses cancel it: the calendar gets CANCEL, same UID, a higher SEQUENCE.
  await page.getByRole('button', { name: 'Cancel the call' }).click();
  await page.getByRole('button', { name: 'Yes, cancel the call' }).click();
  await expect(page.getByRole('heading', { name: 'Your call is cancelled' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Book another time' })).toHaveAttribute('href', BOOK_PAGE);
  const [cancellation] = await calendarMails(email, 'CANCEL');
  if (!cancellation) throw new Error('no cancellation');
  const cancel = calendarPart(cancellation);
  expect(cancel.params.method).toBe('CANCEL');
  expect(cancel.calendar.getFirstPropertyValue('method')).toBe('CANCEL');
  expect(cancel.event.getFirstPropertyValue('uid')).toBe(uid);
  expect(Number(cancel.event.getFirstPropertyValue('sequence'))).toBeGreaterThan(0);

  // The time is offered again.
  expect(await offered(request)).toContain(start);
  await page.goto(BOOK_PAGE);
  await page.getByRole('tablist', { name: 'Days' }).getByRole('tab').first().click();
  await expect(page.getByRole('tabpanel').getByRole('button', { name: label, exact: true })).toBeVisible();
});

test('a link without its token says so, and where to turn instead', async ({ page }) => {
  await page.goto(`${BOOK_MANAGE_PAGE}?booking=3b8f0c52-3f0e-4c5e-9d7a-0c9a4f1b2e11`);
  await expect(page.getByRole('heading', { name: 'This booking link is not valid' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'pick a time' })).toHaveAttribute('href', BOOK_PAGE);
  await expectNoViolations(page);
});

test.describe("on a server of its own, reading the owner's calendar from a local address", () => {
  const folder = ownStoreFolder('booking-calendar');
  const calendar = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/calendar' });
    response.end('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//e2e//busy//EN\r\nEND:VCALENDAR\r\n');
  });
  let site: Awaited<ReturnType<typeof startServerAt>> | undefined;

  const listen = (server: Server, port = 0) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
    );

  test.beforeAll(async () => {
    const port = await listen(calendar);
    site = await startServerAt(folder, { BOOKING_BUSY_ICS_URL: `http://127.0.0.1:${port}/busy.ics` });
  });
  test.afterAll(async () => {
    calendar.close();
    await stopServerAt(site, folder);
  });

  test('a calendar unreachable at the moment of booking: the form says so, keeps what was typed, and books once it is back', async ({
    page,
  }) => {
    if (!site) throw new Error('the server did not start');
    await page.goto(`${site.origin}${BOOK_PAGE}`);
    await pickADay(page);
    const form = page.getByRole('form', { name: 'Your details' });
    await form.getByLabel('Name').fill('Katherine Johnson');
    await form.getByLabel('E-mail').fill('katherine@example.com');
    await form.getByLabel('Note').fill('Our reports take a day a week.');

    // The slots came from a copy of the calendar; the booking reads it again, and cannot.
    const port = (calendar.address() as AddressInfo).port;
    await new Promise((resolve) => calendar.close(resolve));
    calendar.closeAllConnections();
    await form.getByRole('button', { name: 'Confirm booking' }).click();
    await expect(form.getByRole('alert')).toContainText('calendar');
    await expect(form.getByLabel('Name')).toHaveValue('Katherine Johnson');
    await expect(form.getByLabel('E-mail')).toHaveValue('katherine@example.com');
    await expect(form.getByLabel('Note')).toHaveValue('Our reports take a day a week.');

    await listen(calendar, port);
    await form.getByRole('button', { name: 'Confirm booking' }).click();
    await expect(page.getByRole('heading', { name: 'Your call is booked' })).toBeVisible();
  });

  test('the owner sees the call with its lead in Bookings, on a phone, and cancels it with a message', async ({
    page,
  }) => {
    if (!site) throw new Error('the server did not start');
    const email = uniqueEmail('owner-cancels');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${site.origin}${BOOK_PAGE}?utm_source=newsletter&utm_campaign=spring`);
    await pickADay(page);
    const form = page.getByRole('form', { name: 'Your details' });
    await form.getByLabel('Name').fill('Dorothy Vaughan');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Company').fill('Langley Computing');
    await form.getByLabel('Note').fill('Our timesheets are typed twice.');
    await form.getByRole('button', { name: 'Confirm booking' }).click();
    await expect(page.getByRole('heading', { name: 'Your call is booked' })).toBeVisible();

    await logIn(page, site.origin);
    const bookings = page.getByRole('region', { name: /^Bookings/ });
    const call = bookings.getByRole('article', { name: /Dorothy Vaughan/ });
    await expect(call).toContainText('Langley Computing');
    await expect(call).toContainText(email);
    await expect(call).toContainText('Our timesheets are typed twice.');
    await expect(call).toContainText('Call booked');
    await expect(call).toContainText('Booked call');
    await expect(call).toContainText('Campaign: spring');
    await expect(call).toContainText(/in \d+ (days|hours)|tomorrow/);
    await expectNoViolations(page);

    await call.getByRole('button', { name: 'Cancel call with Dorothy Vaughan' }).click();
    await call.getByLabel('Message to Dorothy Vaughan').fill('Sorry, something came up: could we find another time?');
    await call.getByRole('button', { name: 'Cancel the call' }).click();
    await expect(page.getByRole('region', { name: 'Notification' })).toContainText('Call cancelled');
    const past = bookings.getByRole('list', { name: 'Past and cancelled calls' });
    await expect(past.getByRole('article', { name: /Dorothy Vaughan/ })).toContainText('Cancelled by you');

    await expect
      .poll(async () => (await mailsTo(email, folder)).filter((mail) => methodOf(mail) === 'CANCEL').length)
      .toBe(1);
    const cancellation = (await mailsTo(email, folder)).find((mail) => methodOf(mail) === 'CANCEL');
    expect(cancellation?.text).toContain('could we find another time?');
  });
});

test.describe("with the owner's calendar unreachable from the start", () => {
  const folder = ownStoreFolder('booking-no-calendar');
  let site: Awaited<ReturnType<typeof startServerAt>> | undefined;
  // Nothing listens on port 9 (discard) of the loopback address: every read is refused.
  test.beforeAll(async () => {
    site = await startServerAt(folder, { BOOKING_BUSY_ICS_URL: 'http://127.0.0.1:9/busy.ics' });
  });
  test.afterAll(() => stopServerAt(site, folder));

  test('the page says the times cannot be read and its contact form takes a message instead', async ({ page }) => {
    if (!site) throw new Error('the server did not start');
    await page.goto(`${site.origin}${BOOK_PAGE}`);
    await expect(page.getByRole('alert')).toContainText('We could not load the open times');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Annie Easley');
    await form.getByLabel('E-mail').fill(uniqueEmail('no-calendar'));
    await form.getByLabel('How can we help?').fill('Could we talk on Tuesday afternoon?');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('status')).toContainText('Thank you!');
  });
});
