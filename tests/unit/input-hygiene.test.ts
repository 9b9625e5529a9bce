/**
 * What the shared schemas and the body reader refuse before anything reaches a store: names
 * no one can see, control characters, unknown sources, bodies in other charsets, and the
 * edges of e-mail addresses.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { HttpError, readJsonBody } from '../../functions/_lib/platform/http';
import {
  AdminLoginRequest,
  asciiEmail,
  ContactForm,
  Email,
  LeadRequest,
  LIMITS,
  NewsletterSubscribeRequest,
  SOURCES,
  SubscriberRequest,
} from '../../src/shared/schemas';

const LEAD = { name: 'Ada Lovelace', email: 'ada@example.com', source: 'contact_form' };

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('names and messages', () => {
  test.each([
    ['missing', undefined, 'Name is required'],
    ['null', null, 'Name is required'],
    ['a number', 5, 'Must be text'],
    ['a list', ['Ada'], 'Must be text'],
  ])('a name that is %s says so', (_, name, message) => {
    expect(messages(LeadRequest.safeParse({ ...LEAD, name }))).toEqual({ name: message });
  });

  test('a password or a source that is not text says so, not that it is missing', () => {
    expect(messages(AdminLoginRequest.safeParse({ password: 123 }))).toEqual({ password: 'Must be text' });
    expect(messages(AdminLoginRequest.safeParse({}))).toEqual({ password: 'Password is required' });
    expect(messages(LeadRequest.safeParse({ ...LEAD, source: 7 }))).toEqual({ source: 'Must be text' });
  });

  test('a lead holds the longest first and last name the guide form joins with a space', () => {
    const longest = `${'F'.repeat(LIMITS.name)} ${'L'.repeat(LIMITS.name)}`;
    expect(LeadRequest.safeParse({ ...LEAD, name: longest }).success).toBe(true);
    expect(messages(LeadRequest.safeParse({ ...LEAD, name: `${longest}L` }))).toEqual({
      name: `At most ${LIMITS.fullName} characters`,
    });
  });

  test.each([
    ['zero-width spaces only', '\u200b\u200b\u200b'],
    ['a word joiner and spaces', ' \u2060 \u2060 '],
    ['byte order marks only', '\ufeff\ufeff'],
    ['bidi marks only', '\u200e\u200f'],
  ])('a name of %s counts as empty', (_, name) => {
    expect(messages(LeadRequest.safeParse({ ...LEAD, name }))).toEqual({ name: 'Name is required' });
    expect(
      messages(
        SubscriberRequest.safeParse({
          email: 'a@example.com',
          firstName: name,
          lastName: name,
          source: 'newsletter_footer',
        }),
      ),
    ).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
    });
  });

  test.each([
    ['NUL', 'Ada\u0000Lovelace'],
    ['a bell', 'Ada\u0007'],
    ['a line break', 'Ada\nLovelace'],
    ['a tab', 'Ada\tLovelace'],
    ['DEL', 'Ada\u007f'],
    ['a C1 control', 'Ada\u0085'],
    ['a right-to-left override', 'Ada \u202egnp.exe'],
    ['a bidi isolate', '\u2066Ada\u2069'],
    ['a left-to-right mark', 'Ada\u200e Lovelace'],
    ['a right-to-left mark', '\u200fAda'],
    ['an Arabic letter mark', 'Ada\u061c'],
  ])('a name with %s is refused', (_, name) => {
    expect(messages(LeadRequest.safeParse({ ...LEAD, name }))).toEqual({
      name: 'Contains characters that are not allowed',
    });
    expect(
      NewsletterSubscribeRequest.safeParse({ email: 'a@example.com', firstName: name, source: 'website_footer' })
        .success,
    ).toBe(false);
  });

  test.each([['Zoë Ångström'], ['محمد'], ['李小龙'], ['👩‍💻 Ada'], ["O'Brien-Smith"], ['نیما\u200cیوشیج']])(
    'the name %j is accepted as typed',
    (name) => {
      expect(LeadRequest.parse({ ...LEAD, name }).name).toBe(name);
    },
  );

  test('a message keeps its line breaks and tabs but not other control characters', () => {
    const message = 'Line one\r\nLine two\n\tindented';
    expect(ContactForm.parse({ name: 'Ada', email: 'ada@example.com', message }).message).toBe(message);
    expect(messages(ContactForm.safeParse({ name: 'Ada', email: 'ada@example.com', message: 'Hello\u0000' }))).toEqual({
      message: 'Contains characters that are not allowed',
    });
    expect(
      messages(ContactForm.safeParse({ name: 'Ada', email: 'ada@example.com', message: '\u200b\n\u200b' })),
    ).toEqual({ message: 'Please tell us a little about what you need' });
  });

  test('optional fields of invisible characters are dropped, with control characters refused', () => {
    expect(LeadRequest.parse({ ...LEAD, company: '\u200b', notes: '\u2060' })).toEqual(LEAD);
    expect(messages(LeadRequest.safeParse({ ...LEAD, company: 'Acme\u0000' }))).toEqual({
      company: 'Contains characters that are not allowed',
    });
  });
});

describe('sources', () => {
  const BY_SOURCE = [
    ['website_footer', NewsletterSubscribeRequest, { email: 'a@example.com', firstName: 'Ada Lovelace' }],
    ['newsletter_footer', SubscriberRequest, { email: 'a@example.com', firstName: 'Ada', lastName: 'Lovelace' }],
    ['zoho_guide', LeadRequest, LEAD],
    ['contact_form', LeadRequest, LEAD],
  ] as const;

  test('every source has its endpoint; a booked call’s, `booking`, is set by POST /api/bookings and sent by no form', () => {
    expect([...BY_SOURCE.map(([source]) => source), 'booking']).toEqual([...SOURCES]);
    for (const [, schema, body] of BY_SOURCE)
      expect(
        schema.safeParse({ ...body, source: 'booking' }).error?.issues.map((issue) => issue.path.join('.')),
      ).toContain('source');
  });

  test.each(BY_SOURCE)('%s is accepted by its own endpoint only', (source, schema, body) => {
    expect(schema.parse({ ...body, source }).source).toBe(source);
    for (const other of [NewsletterSubscribeRequest, SubscriberRequest, LeadRequest].filter((it) => it !== schema)) {
      expect(other.safeParse({ ...body, source }).error?.issues.map((issue) => issue.path.join('.'))).toContain(
        'source',
      );
    }
  });

  test.each([
    ['constructor'],
    ['toString'],
    ['valueOf'],
    ['__proto__'],
    ['hasOwnProperty'],
    ['website-footer'],
    ['other'],
    [''],
  ])('%j is refused', (source) => {
    expect(Object.keys(messages(LeadRequest.safeParse({ ...LEAD, source })))).toEqual(['source']);
  });
});

describe('e-mail addresses', () => {
  test.each([
    ['user@bücher.de', 'user@bücher.de', 'user@xn--bcher-kva.de'],
    ['info@例え.jp', 'info@例え.jp', 'info@xn--r8jz45g.jp'],
    ['info@почта.com', 'info@почта.com', 'info@xn--80a1acny.com'],
    ['x@xn--bcher-kva.de', 'x@bücher.de', 'x@xn--bcher-kva.de'],
    [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`],
    ['  Ada@Bücher.DE ', 'ada@bücher.de', 'ada@xn--bcher-kva.de'],
  ])('%j is stored as %j and sent to %j', (input, stored, ascii) => {
    expect(Email.parse(input)).toBe(stored);
    expect(asciiEmail(stored)).toBe(ascii);
  });

  test.each([
    ['a zero-width space after it', 'victim@gmail.com\u200b'],
    ['a zero-width space inside it', 'vic\u200btim@gmail.com'],
    ['a soft hyphen in the domain', 'victim@gm\u00adail.com'],
    ['a byte order mark and a word joiner', '\ufeffvictim@gmail.com\u2060'],
    ['fullwidth letters', 'ｖｉｃｔｉｍ@ｇｍａｉｌ.com'],
    ['a fullwidth @', 'victim＠gmail.com'],
    ['an ideographic full stop', 'victim@gmail。com'],
  ])('an address with %s is the plain address', (_label, input) => {
    expect(Email.parse(input)).toBe('victim@gmail.com');
  });

  test('an internationalised domain has one spelling, typed in punycode, decomposed or in capitals', () => {
    for (const input of ['x@xn--bcher-kva.de', 'x@bu\u0308cher.de', 'X@BÜCHER.DE', 'x@bü\u00adcher.de'])
      expect(Email.parse(input)).toBe('x@bücher.de');
  });

  test('a joiner is kept where a script needs it, and refused where it only hides', () => {
    expect(Email.parse('x@نیما\u200cیوشیج.ir')).toBe('x@نیما\u200cیوشیج.ir');
    expect(Email.safeParse('victim@gm\u200dail.com').error?.issues.map((issue) => issue.message)).toEqual([
      'Please enter a valid email address',
    ]);
  });

  test.each([
    [`${'a'.repeat(65)}@example.com`],
    ['a@b@example.com'],
    ['user@exa mple.com'],
    ['user@-bad.example'],
    ['user@localhost'],
    ['user@'],
    ['@example.com'],
    [`user@${'a'.repeat(250)}.com`],
    // A non-ASCII local part needs SMTPUTF8, which many mail servers still refuse.
    ['jürgen@example.com'],
    // A look-alike of gmail.com: a Cyrillic а among Latin letters, written either way, or a Greek ο.
    ['victim@gm\u0430il.com'],
    ['victim@xn--gmil-63d.com'],
    ['victim@g\u03bfogle.com'],
  ])('%j is refused', (input) => {
    expect(Email.safeParse(input).success).toBe(false);
  });
});

describe('request bodies', () => {
  const request = (contentType: string, body: BodyInit) =>
    new Request('http://localhost/api/subscribers', { method: 'POST', headers: { 'content-type': contentType }, body });

  async function statusOf(promise: Promise<unknown>): Promise<{ status: number; error: string }> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof HttpError)
        return { status: error.response.status, error: ((await error.response.json()) as { error: string }).error };
      throw error;
    }
    return { status: 200, error: '' };
  }

  test.each([
    ['application/json; charset=iso-8859-1'],
    ['application/json; charset="windows-1252"'],
    ['application/json;charset=UTF-16'],
  ])('a body declared as %j answers 415', async (type) => {
    const { status, error } = await statusOf(readJsonBody(request(type, Buffer.from('{"name":"Zo\xeb"}', 'latin1'))));
    expect(status).toBe(415);
    expect(error).toMatch(/UTF-8/);
  });

  test.each([
    ['application/json'],
    ['application/json; charset=utf-8'],
    ['application/json; charset="UTF-8"'],
    ['application/json; charset=utf8'],
  ])('a UTF-8 body declared as %j is read', async (type) => {
    expect(await readJsonBody(request(type, '{"name":"Zoë"}'))).toEqual({ name: 'Zoë' });
  });

  test.each([['gzip'], ['br'], ['deflate, gzip']])(
    'a body sent with Content-Encoding %j answers 415 naming it',
    async (encoding) => {
      const compressed = new Request('http://localhost/api/subscribers', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: gzipSync('{"name":"Zoë"}'),
      });
      const { status, error } = await statusOf(readJsonBody(compressed));
      expect(status).toBe(415);
      expect(error).toBe(`Send the body uncompressed: Content-Encoding ${encoding} is not accepted`);
    },
  );

  test('bytes that are not UTF-8 answer 400 instead of turning into replacement characters', async () => {
    const { status, error } = await statusOf(
      readJsonBody(request('application/json', Buffer.from('{"name":"Zo\xeb"}', 'latin1'))),
    );
    expect(status).toBe(400);
    expect(error).toBe('The body is not valid UTF-8');
  });
});
