/**
 * What the e-mails say in each of their two parts: the plain text must not point at a button
 * only the HTML has, and a link the reader needs is a link in the HTML, not an address to copy.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { confirmationEntry } from '../../functions/_lib/delivery/emails/confirmation';
import { leadNotification } from '../../functions/_lib/delivery/emails/lead-notification';
import { resetEnv } from '../../functions/_lib/platform/env';
import type { NewOutboxEntry } from '../../functions/_lib/store/types';
import type { Lead } from '../../src/shared/records';

const ORIGIN = 'https://loopwork.example';
const SETTINGS = { origin: ORIGIN, notifyTo: ['team@example.com'], webhookHost: undefined };
const NOW = new Date('2026-12-01T09:00:00.000Z');

const saved = process.env.SESSION_SECRET;
beforeAll(() => {
  process.env.SESSION_SECRET = 'mail-wording-test-secret-0123456789abcdef';
  resetEnv();
});
afterAll(() => {
  if (saved === undefined) delete process.env.SESSION_SECRET;
  else process.env.SESSION_SECRET = saved;
  resetEnv();
});

function mailOf(entry: NewOutboxEntry) {
  if (entry.message.channel !== 'mail') throw new Error('not an e-mail');
  return entry.message;
}

describe('the confirmation e-mail', () => {
  const mail = () =>
    mailOf(confirmationEntry({ email: 'ada@example.com', firstName: 'Ada', source: 'website_footer' }, NOW, SETTINGS));

  test('its unsubscribe address is a link in the HTML, and labelled in the text', () => {
    const { html, text } = mail();
    expect(html).toMatch(new RegExp(`<a href="${ORIGIN}/newsletter/unsubscribe\\?token=[^"]+"[^>]*>Unsubscribe</a>`));
    expect(text).toMatch(new RegExp(`^Unsubscribe: ${ORIGIN}/newsletter/unsubscribe\\?token=\\S+$`, 'm'));
  });

  test('its text asks for the link, which both parts have, and says to press Confirm on its page', () => {
    const { html, text } = mail();
    expect(text).toContain('Open the link below and press Confirm on the page');
    expect(text).not.toMatch(/button/i);
    expect(html).toContain('Confirm my subscription</a>');
  });
});

describe('the lead notification', () => {
  const lead = (source: string): Lead => ({
    id: 'lead-1',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    source,
    createdAt: NOW.toISOString(),
  });

  test.each([
    ['zoho_guide', 'through the Zoho guide request.', 'Zoho guide request'],
    ['contact_form', 'through the contact form.', 'Contact form'],
  ])('of a %s lead names the form as a sentence and as a label', (source, sentence, label) => {
    const { text, subject } = mailOf(leadNotification(lead(source), SETTINGS));
    expect(text).toContain(`Grace Hopper got in touch ${sentence}`);
    expect(text).toMatch(new RegExp(`^Form: ${label}$`, 'm'));
    expect(subject).toBe(`New lead: Grace Hopper – ${label}`);
  });
});
