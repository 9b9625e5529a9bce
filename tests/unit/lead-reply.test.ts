import { describe, expect, test } from 'vitest';
import { QUOTED_MAX, replyLink } from '../../src/components/islands/admin/lead-reply';

const SITE = { siteName: 'Acme Automation', written: '2 Nov 2026' };

/** The link's address, subject and body, decoded as a mail program reads them. */
function parts(link: string) {
  const url = new URL(link);
  return {
    protocol: url.protocol,
    to: decodeURIComponent(url.pathname),
    subject: url.searchParams.get('subject'),
    body: url.searchParams.get('body') ?? '',
  };
}

describe('replyLink', () => {
  test('names the enquiry in the subject and quotes the message under a greeting by first name', () => {
    const link = replyLink(
      { name: 'Ada  Lovelace', email: 'ada@example.com', source: 'contact_form', notes: 'Line one\n\nLine three' },
      SITE,
    );
    expect(parts(link)).toEqual({
      protocol: 'mailto:',
      to: 'ada@example.com',
      subject: 'Re: your enquiry to Acme Automation',
      body: 'Hi Ada,\r\n\r\n\r\n\r\nOn 2 Nov 2026, Ada  Lovelace wrote:\r\n> Line one\r\n>\r\n> Line three',
    });
    // RFC 6068: line breaks as %0D%0A, spaces as %20, never `+`.
    expect(link).toContain('%0D%0A');
    expect(link).not.toContain('+');
  });

  test('a guide request is answered as one, and a lead with no message gets the greeting alone', () => {
    const { subject, body } = parts(replyLink({ name: 'Bo', email: 'bo@example.com', source: 'zoho_guide' }, SITE));
    expect(subject).toBe('Re: your Zoho guide request');
    expect(body).toBe('Hi Bo,\r\n\r\n\r\n');
  });

  test('characters that mean something in a URL stay in their part', () => {
    const { to, subject, body } = parts(
      replyLink(
        { name: 'Chi & Co', email: 'chi+sales@example.com', source: 'contact_form', notes: 'Price? 50% off & more#1' },
        { siteName: 'A&B #1', written: '1 Dec 2026' },
      ),
    );
    expect(to).toBe('chi+sales@example.com');
    expect(subject).toBe('Re: your enquiry to A&B #1');
    expect(body).toContain('> Price? 50% off & more#1');
  });

  test('an internationalised address is written in its ASCII form, which every mail program can send to', () => {
    const { to } = parts(
      replyLink(
        { name: 'Jörg', email: 'jörg@bücher.de', emailAscii: 'jörg@xn--bcher-kva.de', source: 'contact_form' },
        SITE,
      ),
    );
    expect(to).toBe('jörg@xn--bcher-kva.de');
  });

  test(`a long message is quoted up to ${QUOTED_MAX} characters, and says it was cut`, () => {
    const notes = 'x'.repeat(QUOTED_MAX + 500);
    const { body } = parts(replyLink({ name: 'Dee', email: 'dee@example.com', source: 'contact_form', notes }, SITE));
    expect(body).toContain(`> ${'x'.repeat(QUOTED_MAX)} […]`);
    expect(body).not.toContain('x'.repeat(QUOTED_MAX + 1));
  });
});
