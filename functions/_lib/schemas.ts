// This file ships to the browser: the forms validate with the same schemas the functions use. Keep it pure (zod only).
import { z } from 'zod';

// zod compiles object parsers with `new Function` when it may: in the browser that probe alone
// breaks the Content-Security-Policy (no 'unsafe-eval'). Set before any schema is built.
z.config({ jitless: true });

/** Field limits, shared by the forms (maxLength) and the server (caps). */
export const LIMITS = {
  email: 254,
  name: 100,
  fullName: 200,
  company: 150,
  source: 64,
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

/**
 * An e-mail address, normalised before it is checked: trimmed, lower-cased and at most 254
 * characters (zod's e-mail check alone accepts any length and rejects surrounding spaces).
 */
export const Email = z.string({ error: MESSAGES.email }).trim().toLowerCase().max(LIMITS.email, MESSAGES.email).pipe(z.email(MESSAGES.email));

/** A required line of text: trimmed, non-empty, capped. */
const requiredText = (max: number, message: string) => z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`);

/** An optional line of text: trimmed and capped; empty becomes undefined. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : undefined));

/** Which form a submission came from: a short machine name. */
export const Source = z
  .string({ error: 'Source is required' })
  .trim()
  .min(1, 'Source is required')
  .max(LIMITS.source, 'Source is too long')
  .regex(/^[a-z0-9][a-z0-9_-]*$/i, 'Source may contain letters, digits, - and _ only');

/**
 * The honeypot: a field people never see or fill. Any value marks the submission as a bot's;
 * it is accepted by the schema so that the bot gets an ordinary answer.
 */
export const HONEYPOT_FIELD = 'website';
const honeypot = z.string().max(2000).optional();

/** POST /api/newsletter/subscribe: the footer signup, which sends the full name as firstName. */
export const NewsletterSubscribeRequest = z.object({
  email: Email,
  firstName: requiredText(LIMITS.fullName, MESSAGES.firstName),
  lastName: optionalText(LIMITS.name),
  source: Source,
  [HONEYPOT_FIELD]: honeypot,
});
export type NewsletterSubscribeRequest = z.infer<typeof NewsletterSubscribeRequest>;

/** POST /api/subscribers: the newsletter form on blog posts. */
export const SubscriberRequest = z.object({
  email: Email,
  firstName: requiredText(LIMITS.name, MESSAGES.firstName),
  lastName: requiredText(LIMITS.name, MESSAGES.lastName),
  source: Source,
  [HONEYPOT_FIELD]: honeypot,
});
export type SubscriberRequest = z.infer<typeof SubscriberRequest>;

/** POST /api/leads/create: the guide form and the contact form. */
export const LeadRequest = z.object({
  name: requiredText(LIMITS.fullName, MESSAGES.name),
  email: Email,
  source: Source,
  company: optionalText(LIMITS.company),
  notes: optionalText(LIMITS.notes),
  [HONEYPOT_FIELD]: honeypot,
});
export type LeadRequest = z.infer<typeof LeadRequest>;

/** The footer form's fields: one name box. */
export const FooterSignupForm = z.object({
  name: requiredText(LIMITS.fullName, MESSAGES.name),
  email: Email,
  [HONEYPOT_FIELD]: honeypot,
});

/** The blog newsletter form's fields. */
export const NewsletterForm = SubscriberRequest.pick({ firstName: true, lastName: true, email: true, [HONEYPOT_FIELD]: true });

/** The contact form's fields. */
export const ContactForm = z.object({
  name: requiredText(LIMITS.fullName, MESSAGES.name),
  email: Email,
  company: optionalText(LIMITS.company),
  message: requiredText(LIMITS.notes, MESSAGES.message),
  [HONEYPOT_FIELD]: honeypot,
});

/** The error body every endpoint answers with. */
export interface ApiErrorBody {
  error: string;
  fields?: Record<string, string>;
}

/** POST /api/admin/login. */
export const AdminLoginRequest = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024, 'Password is too long'),
});
