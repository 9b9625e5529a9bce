// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// The form schemas: the forms validate with the very schemas the functions parse with.
import { z } from 'zod';
import { normalEmail } from './email-address';
import { PROOF_OF_WORK_FIELD } from './proof-of-work-names';
import { TimeZoneName } from './booking';
import { LEAD_NOTE_MAX, LEAD_STATUSES } from './records';

// zod compiles object parsers with `new Function` when it may: in the browser that probe alone
// breaks the Content-Security-Policy (no 'unsafe-eval'). Set before any schema is built.
z.config({ jitless: true });

/** Field limits, shared by the forms (maxLength) and the server (caps). */
export const LIMITS = {
  email: 254,
  name: 100,
  /** A whole name: as long as the longest first and last name the guide form joins with a space. */
  fullName: 201,
  company: 150,
  notes: 5000,
  /** Request bodies larger than this are refused with 413. */
  bodyBytes: 16 * 1024,
} as const;

export const MESSAGES = {
  email: 'Please enter a valid email address',
  firstName: 'First name is required',
  lastName: 'Last name is required',
  name: 'Name is required',
  message: 'Please tell us a little about what you need',
} as const;

/** The longest local part (before the @) RFC 5321 allows. */
const MAX_LOCAL_PART = 64;

/**
 * The ASCII form of an address for sending: an internationalised domain (`bücher.de`) in
 * punycode (`xn--bcher-kva.de`). The URL parser applies the IDNA rules in browsers and Node
 * alike; undefined when the domain is not a valid host name.
 */
export function asciiEmail(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at <= 0) return undefined;
  const domain = email.slice(at + 1);
  if (!domain || /[/?#\\:@\s[\]%]/.test(domain)) return undefined;
  try {
    return `${email.slice(0, at)}@${new URL(`http://${domain}`).hostname}`;
  } catch {
    return undefined;
  }
}

/** `{ emailAscii }` for an address whose ASCII form differs from it (an internationalised domain), else nothing. */
export function emailAsciiOf(email: string): { emailAscii?: string } {
  const ascii = asciiEmail(email);
  return ascii !== undefined && ascii !== email ? { emailAscii: ascii } : {};
}

const AsciiEmail = z.email();

/** Whether an address in its one spelling can be sent to: at most 64 characters before the @, 254 in all in ASCII. */
function sendableEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at <= 0 || at > MAX_LOCAL_PART) return false;
  const ascii = asciiEmail(value);
  return ascii !== undefined && ascii.length <= LIMITS.email && AsciiEmail.safeParse(ascii).success;
}

/**
 * An e-mail address in its one spelling (normalEmail): trimmed, lower-cased, compatibility forms
 * folded, invisible characters removed, the domain as IDNA maps it, so that nothing keyed on an
 * address (a subscriber, an erasure, a limit) sees two spellings of one. At most 254 characters
 * with a local part of at most 64. An internationalised domain is kept in Unicode; it is checked
 * in its punycode form (zod's check alone rejects it).
 */
export const Email = z
  .string({ error: MESSAGES.email })
  .trim()
  .max(LIMITS.email, MESSAGES.email)
  .transform((value, context) => {
    const normal = normalEmail(value);
    if (normal !== undefined && sendableEmail(normal)) return normal;
    context.issues.push({ code: 'custom', message: MESSAGES.email, input: value });
    return z.NEVER;
  });

/**
 * An address exactly as a record holds it, to find that record: records kept before addresses
 * were normalised may hold another spelling, and each must stay reachable (to erase it).
 */
export const StoredEmail = z.string().min(3).max(LIMITS.email).includes('@');

/**
 * Characters that have no place in a name or a message: C0 and C1 controls (NUL included; tab
 * and line breaks are allowed in multi-line text only), the bidirectional overrides and
 * isolates, which make text display in another order than it is stored, and the invisible
 * direction marks (left-to-right, right-to-left, Arabic letter), which reorder what stands
 * around them in a Subject or a Reply-To name as much.
 */
/* eslint-disable no-control-regex -- finding control characters is what these two are for */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/* eslint-enable no-control-regex */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** A character someone can see: not a space, separator, format (zero-width) or control character. */
const VISIBLE = /[^\p{Z}\p{C}\s]/u;
const NOT_ALLOWED = 'Contains characters that are not allowed';

/** Text of invisible characters only counts as empty; control characters are refused outright. */
const cleanText = (schema: z.ZodString, requiredMessage: string | undefined, multiline: boolean) =>
  schema
    .refine((value) => !(multiline ? CONTROL_MULTILINE : CONTROL).test(value) && !BIDI_CONTROL.test(value), NOT_ALLOWED)
    .refine((value) => requiredMessage === undefined || value === '' || VISIBLE.test(value), requiredMessage ?? '');

/** A text field's type error: missing is `required`; a number or a list where text goes is another mistake. */
const textError =
  (required: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null ? required : 'Must be text';

/** A required line of text: trimmed, non-empty, capped, visible, free of control characters. */
const requiredText = (max: number, message: string, { multiline = false } = {}) =>
  cleanText(
    z
      .string({ error: textError(message) })
      .trim()
      .min(1, message)
      .max(max, `At most ${max} characters`),
    message,
    multiline,
  );

/** An optional line of text: trimmed, capped and free of control characters; empty or invisible becomes undefined. */
const optionalText = (max: number, { multiline = false } = {}) =>
  cleanText(z.string().trim().max(max, `At most ${max} characters`), undefined, multiline)
    .optional()
    .transform((value) => (value && VISIBLE.test(value) ? value : undefined));

/** The forms a submission can come from: the only values `source` may take, and the keys of the admin's counts. */
export const SOURCES = ['website_footer', 'newsletter_footer', 'zoho_guide', 'contact_form', 'booking'] as const;
export type SourceName = (typeof SOURCES)[number];

/** How the admin page, its CSV and the owner's e-mails name each form: plain names, never the ids. */
export const SOURCE_NAMES: Record<SourceName, string> = {
  contact_form: 'Contact form',
  zoho_guide: 'Zoho guide',
  newsletter_footer: 'Newsletter under a post',
  website_footer: 'Newsletter in the footer',
  booking: 'Booked call',
};

/** A form's plain name; a source this site does not know (from older data) as it was stored. */
export const sourceName = (source: string): string =>
  (SOURCES as readonly string[]).includes(source) ? SOURCE_NAMES[source as SourceName] : source;

/**
 * Which form a submission came from, among the forms that post to its endpoint: a sign-up cannot
 * be filed under a lead form (or the other way round) to skew the owner's figures by source.
 */
const sourceOf = (...allowed: [SourceName, ...SourceName[]]) =>
  z
    .string({ error: textError('Source is required') })
    .trim()
    .pipe(z.enum(allowed, { error: `Source must be ${allowed.join(' or ')}` }));

/**
 * The honeypot: a field people never see or fill. Any value marks the submission as a bot's;
 * it is accepted by the schema so that the bot gets an ordinary answer.
 */
export const HONEYPOT_FIELD = 'website';
const honeypot = z.string().max(2000).optional();

/** A path on this site, as a form sends `location.pathname + location.search`: at most 500 characters, no spaces. */
const SitePath = z
  .string()
  .max(500)
  .regex(/^\/(?!\/)[^\s\\]*$/);

/** One attribution value (a UTM parameter, a host): a short line without control characters. */
const AttributionText = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((value) => !CONTROL.test(value) && !BIDI_CONTROL.test(value));

/** The most of a utm_* value that is kept: each distinct value is a row of the admin's campaign counts. */
const UTM_MAX_LENGTH = 100;

/** The first UTM_MAX_LENGTH characters of a value, cut between code points (never inside a surrogate pair). */
function cutUtmValue(value: string): string {
  const codePoints = Array.from(value);
  return codePoints.length <= UTM_MAX_LENGTH ? value : codePoints.slice(0, UTM_MAX_LENGTH).join('').trimEnd();
}

/** A UTM parameter: what AttributionText takes, of any length, cut to its first UTM_MAX_LENGTH characters. */
const UtmValue = z
  .string()
  .trim()
  .min(1)
  .refine((value) => !CONTROL.test(value) && !BIDI_CONTROL.test(value))
  .transform(cutUtmValue);

/**
 * The first touch a form sends along (see records.ts Attribution). It only describes the visit:
 * anything malformed in it is dropped, and a UTM value too long is cut, never a reason to refuse
 * the lead it comes with.
 */
export const Attribution = z
  .object({
    landingPage: SitePath.optional().catch(undefined),
    referrer: AttributionText.optional().catch(undefined),
    utm_source: UtmValue.optional().catch(undefined),
    utm_medium: UtmValue.optional().catch(undefined),
    utm_campaign: UtmValue.optional().catch(undefined),
    utm_term: UtmValue.optional().catch(undefined),
    utm_content: UtmValue.optional().catch(undefined),
  })
  .optional()
  .catch(undefined)
  // Nothing usable is no attribution; fields left undefined vanish when the record is stored as JSON.
  .transform((value) => (value && Object.values(value).some((field) => field !== undefined) ? value : undefined));

/** A host name as a browser reports it: letters, digits, dots and hyphens, at most 253 characters. */
const HostName = z
  .string()
  .max(253, 'referrer must be a host name of at most 253 characters')
  .regex(/^[A-Za-z0-9.-]+$/, 'referrer must be a host name (letters, digits, dots and hyphens)');

/**
 * A view the page's own script reports (POST /api/visits, VISITS_PATH): the page, the site
 * that linked to it and the campaign in its address. Nothing else: who sent it is a hash the
 * function makes and forgets, and the device class comes from the user agent on the server. No
 * `utm_medium` either: the Visits figures have no medium, and a field sent only to be dropped
 * would pretend otherwise (the forms' Attribution keeps it, for the leads).
 */
export const VisitsRequest = z.strictObject(
  {
    /** `location.pathname`: the page without its query. */
    path: z
      .string({ error: textError('path is required') })
      .max(500, 'path must be at most 500 characters')
      .regex(/^\/(?!\/)[^\s\\?#]*$/, 'path must be a path on this site, such as /sectors'),
    /** The host of `document.referrer` when another site linked here. */
    referrer: HostName.optional(),
    utm_source: UtmValue.optional(),
    utm_campaign: UtmValue.optional(),
    /**
     * Sent by pages built before the script stopped sending it (a tab opened before a deploy), and
     * dropped: the figures keep no medium, so the view counts as if it had not been sent.
     */
    utm_medium: z
      .unknown()
      .transform(() => undefined)
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Unknown field ${issue.keys.join(', ').slice(0, 80)}` : undefined,
  },
);
export type VisitsRequest = z.infer<typeof VisitsRequest>;

/**
 * The proof of work every form sends (ALTCHA's own field name): the base64 payload of a solved
 * challenge from GET /api/challenge (PROOF_OF_WORK_PATH). The function checks it; the schema
 * only bounds it, and the forms add it after their fields are checked, so it is optional here.
 */
const proofOfWork = z.string().max(4000, 'The proof of work is too long').optional();

/** Where and how a submission was made: sent by every form (src/lib/api-client.ts), dropped when malformed. */
const context = {
  /** The page the form was on. */
  page: SitePath.optional().catch(undefined),
  attribution: Attribution,
  [PROOF_OF_WORK_FIELD]: proofOfWork,
};

/** POST /api/newsletter/subscribe: the footer signup, which sends the full name as firstName. */
export const NewsletterSubscribeRequest = z.object({
  email: Email,
  firstName: requiredText(LIMITS.fullName, MESSAGES.firstName),
  lastName: optionalText(LIMITS.name),
  source: sourceOf('website_footer'),
  ...context,
  [HONEYPOT_FIELD]: honeypot,
});
export type NewsletterSubscribeRequest = z.infer<typeof NewsletterSubscribeRequest>;

/** POST /api/subscribers: the newsletter form on blog posts. */
export const SubscriberRequest = z.object({
  email: Email,
  firstName: requiredText(LIMITS.name, MESSAGES.firstName),
  lastName: requiredText(LIMITS.name, MESSAGES.lastName),
  source: sourceOf('newsletter_footer'),
  ...context,
  [HONEYPOT_FIELD]: honeypot,
});
export type SubscriberRequest = z.infer<typeof SubscriberRequest>;

/** POST /api/leads/create: the guide form and the contact form. */
export const LeadRequest = z.object({
  name: requiredText(LIMITS.fullName, MESSAGES.name),
  email: Email,
  source: sourceOf('zoho_guide', 'contact_form'),
  company: optionalText(LIMITS.company),
  notes: optionalText(LIMITS.notes, { multiline: true }),
  ...context,
  [HONEYPOT_FIELD]: honeypot,
});
export type LeadRequest = z.infer<typeof LeadRequest>;

/**
 * POST /api/bookings: a call at one of the open times (GET /api/booking/slots), by the person
 * named. `start` is the slot's start as the slots list gives it; `timeZone` the zone the page
 * showed the times in, which their e-mails use.
 */
export const BookingRequest = z.object({
  start: z.iso.datetime({ error: 'Pick one of the times offered' }).refine((value) => value.endsWith('Z'), {
    error: 'Pick one of the times offered',
  }),
  name: requiredText(LIMITS.fullName, MESSAGES.name),
  email: Email,
  company: optionalText(LIMITS.company),
  notes: optionalText(LIMITS.notes, { multiline: true }),
  timeZone: TimeZoneName,
  ...context,
  [HONEYPOT_FIELD]: honeypot,
});
export type BookingRequest = z.infer<typeof BookingRequest>;

/** The booking form's fields. */
export const BookingForm = BookingRequest.pick({
  name: true,
  email: true,
  company: true,
  notes: true,
  [HONEYPOT_FIELD]: true,
});

/** POST /api/bookings/{id}/view and …/cancel: the secret of the e-mailed link, as it carries it (`&token=…`). */
export const BookingTokenRequest = z.strictObject({
  token: z
    .string({ error: 'The link is incomplete: open it again from the e-mail' })
    .min(20, 'The link is incomplete: open it again from the e-mail')
    .max(200, 'The link is not valid'),
});

/** POST /api/bookings/{id}/move: the link's secret and the new time, one of the open times. */
export const BookingMoveRequest = BookingTokenRequest.extend({ start: BookingRequest.shape.start });

/** POST /api/admin/bookings/{id}/cancel: the owner's cancellation, with a message the person's e-mail carries. */
export const AdminBookingCancelRequest = z.strictObject({
  message: optionalText(LIMITS.notes, { multiline: true }),
});

/** The footer form's fields: one name box. */
export const FooterSignupForm = z.object({
  name: requiredText(LIMITS.fullName, MESSAGES.name),
  email: Email,
  [HONEYPOT_FIELD]: honeypot,
});

/** The blog newsletter form's fields. */
export const NewsletterForm = SubscriberRequest.pick({
  firstName: true,
  lastName: true,
  email: true,
  [HONEYPOT_FIELD]: true,
});

/** The Zoho guide form's fields: the same as the newsletter form's, sent as a lead with the name joined. */
export const GuideForm = NewsletterForm;

/** The contact form's fields. */
export const ContactForm = z.object({
  name: requiredText(LIMITS.fullName, MESSAGES.name),
  email: Email,
  company: optionalText(LIMITS.company),
  message: requiredText(LIMITS.notes, MESSAGES.message, { multiline: true }),
  [HONEYPOT_FIELD]: honeypot,
});

/** POST /api/admin/login. */
export const AdminLoginRequest = z.object({
  password: z
    .string({ error: textError('Password is required') })
    .min(1, 'Password is required')
    .max(1024, 'Password is too long'),
});

/** POST /api/admin/logout: this session, or with `everywhere`, every session opened until now. */
export const AdminLogoutRequest = z.strictObject({
  everywhere: z.boolean({ error: '"everywhere" must be true or false' }).optional(),
});

/** POST /api/admin/newsletter/{id}/test: to LEADS_NOTIFY_TO, or to the one address typed in. */
export const NewsletterTestRequest = z.strictObject({
  to: Email.optional(),
});

/**
 * POST /api/admin/newsletter/{id}/send and …/skip ("Don't send"): the action is in the path, so the
 * body is an empty object; it is read and checked all the same, as every body is.
 */
export const NewsletterActionRequest = z.strictObject({});

/**
 * POST /api/newsletter/confirm and /api/newsletter/unsubscribe from the site's pages: the signed
 * token of the e-mailed link, as the link carries it (`?token=…`).
 */
export const SubscriptionTokenRequest = z.object({
  token: z
    .string({ error: 'The link is incomplete: open it again from the e-mail' })
    .min(20, 'The link is incomplete: open it again from the e-mail')
    .max(2000, 'The link is not valid'),
});

/**
 * PATCH /api/admin/leads/{id}: the owner's status and private note, either or both. A note of
 * spaces only clears it; an unknown status or a note too long answers 422 naming the field.
 */
export const LeadUpdateRequest = z
  .strictObject({
    status: z.enum(LEAD_STATUSES, { error: `Status must be one of ${LEAD_STATUSES.join(', ')}` }).optional(),
    note: z
      .string({ error: 'Note must be text' })
      .max(LEAD_NOTE_MAX, `Note can be at most ${LEAD_NOTE_MAX} characters`)
      .transform((note) => note.trim())
      .optional(),
  })
  .refine((update) => update.status !== undefined || update.note !== undefined, {
    error: 'Give a status, a note, or both',
  });
export type LeadUpdateRequest = z.infer<typeof LeadUpdateRequest>;
