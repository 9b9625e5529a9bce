/** The functions' environment, parsed once with zod: a wrong value is an error that names it. */
import path from 'node:path';
import { z } from 'zod';
import { Email } from '../../../src/shared/schemas';

/** Whether the runtime knows a time zone by this name. */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/** Every variable the functions read, with its rule; `.env.example` documents each (a unit test checks). */
export const EnvSchema = z
  .object({
    /** Upstash Redis REST endpoint and token; both or neither. */
    UPSTASH_REDIS_REST_URL: optional(z.url({ protocol: /^https?$/ })),
    UPSTASH_REDIS_REST_TOKEN: optional(z.string().min(1)),
    /** Form submissions allowed per client IP and endpoint per minute. */
    RATE_LIMIT_PER_MINUTE: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(10)),
    /** How long a store call may take before the request answers 503. */
    STORE_TIMEOUT_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(50).max(30_000).default(3000)),
    /** Folder of the embedded local store; `.data` in the project by default. */
    LOCAL_STORE_DIR: optional(z.string()),
    /** The admin password as a salted scrypt hash (`npm run admin:hash-password`). */
    ADMIN_PASSWORD_HASH: optional(
      z.string().startsWith('scrypt$', 'must be a hash printed by npm run admin:hash-password'),
    ),
    /** A plain admin password: accepted only off Netlify, for local use. */
    ADMIN_PASSWORD: optional(z.string().min(1)),
    /** Signs admin session cookies (and, through derived keys, encrypts the newsletter's links): at least 32 random characters. */
    SESSION_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
    /** Signs the forms' proof-of-work challenges; derived from SESSION_SECRET when unset. */
    ALTCHA_HMAC_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
    /** A local run's proof-of-work cost (iterations per try) instead of DIFFICULTY's; ignored off a local run. */
    LOCAL_PROOF_OF_WORK_COST: optional(z.coerce.number().int().min(1).max(1_000_000)),
    /** A lead holding more links than this, in any field the owner is shown, is held as spam. */
    SPAM_MAX_LINKS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(1000).default(3)),
    /** Turns on Akismet's check of every lead (akismet.com); leads are kept, unchecked, when it fails. */
    AKISMET_API_KEY: optional(
      z.string().regex(/^[A-Za-z0-9]{8,64}$/, 'must be the key Akismet shows (letters and digits)'),
    ),
    /** Akismet's REST API base; another only to test against a server of one's own. */
    AKISMET_ENDPOINT: z.preprocess(
      blankToUndefined,
      z
        .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
        .default('https://rest.akismet.com/1.1'),
    ),
    /** The SMTP server that sends the site's e-mail: `smtps://user:pass@smtp.example.com:465`. */
    SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })),
    /** The sender of every e-mail: `Loopwork <hello@loopwork.example>` or a bare address. */
    MAIL_FROM: optional(z.string().max(320)),
    /** Who is told about each lead: one or more addresses, separated by commas. */
    LEADS_NOTIFY_TO: optional(
      z
        .string()
        .transform((value) =>
          value
            .split(',')
            .map((address) => address.trim())
            .filter(Boolean),
        )
        .pipe(z.array(Email, { error: 'must be e-mail addresses separated by commas' }).min(1)),
    ),
    /**
     * Newsletter e-mails sent per minute at most (0: no limit). Notifications, guides and
     * confirmations are not counted: they always go first.
     */
    MAIL_RATE_PER_MINUTE: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(100_000).default(60)),
    /** Sends each new post and issue this many hours after it is published, unless the owner chose "Don't send" first. */
    NEWSLETTER_AUTO_SEND_HOURS: z.preprocess(
      blankToUndefined,
      z.coerce
        .number()
        .int()
        .min(0)
        .max(24 * 90)
        .optional(),
    ),
    /** The time zone of the owner's days (an IANA name such as Europe/Paris): the visits figures and the weekly letter. */
    SITE_TIME_ZONE: z.preprocess(
      blankToUndefined,
      z.string().refine(isTimeZone, 'must be an IANA time zone name such as Europe/Paris or UTC').default('UTC'),
    ),
    /** Views counted per client per minute; past it, more are answered but not counted. */
    VISITS_PER_MINUTE: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(120)),
    /**
     * Visits begun per client per minute, and so new visitors (a new user agent is a new one);
     * past it, a view that would begin one more is answered but not counted.
     */
    VISITORS_PER_MINUTE: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(20)),
    /** `off` stops the owner's weekly letter of visits and leads. */
    WEEKLY_REPORT: z.preprocess(blankToUndefined, z.enum(['on', 'off']).default('on')),
    /** The site's build hook (Netlify: Site configuration → Build hooks), called daily so scheduled posts go live. */
    BUILD_HOOK_URL: optional(z.url({ protocol: /^https?$/, error: 'must be the build hook URL Netlify shows' })),
    /** Where each lead and confirmed subscriber is POSTed, signed per Standard Webhooks. */
    LEAD_WEBHOOK_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
    /** The webhook's signing secret: `whsec_` and base64, as Standard Webhooks receivers expect. */
    LEAD_WEBHOOK_SECRET: optional(
      z.string().regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'must be whsec_ followed by at least 24 bytes in base64'),
    ),
    /**
     * The owner's calendar as a secret iCal address (Google's "secret address in iCal format",
     * Outlook's published calendar): its events are busy times, never offered for a call. A
     * password, never shown or logged.
     */
    BOOKING_BUSY_ICS_URL: optional(
      z.url({ protocol: /^(https?|webcal)$/, error: 'must be an https:// address of an .ics calendar' }),
    ),
    /** Where a booked call takes place, as its invitation says: a video link or a phone number. */
    BOOKING_LOCATION: optional(z.string().trim().min(3).max(300)),
  })
  .refine((env) => Boolean(env.UPSTASH_REDIS_REST_URL) === Boolean(env.UPSTASH_REDIS_REST_TOKEN), {
    message: 'Set both UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, or neither',
    path: ['UPSTASH_REDIS_REST_TOKEN'],
  })
  .refine((env) => !env.LEAD_WEBHOOK_URL || Boolean(env.LEAD_WEBHOOK_SECRET), {
    message: 'LEAD_WEBHOOK_URL needs LEAD_WEBHOOK_SECRET (whsec_…) to sign what it sends',
    path: ['LEAD_WEBHOOK_SECRET'],
  });

export type Env = z.infer<typeof EnvSchema>;

/**
 * A variable set to a value the functions cannot use. Its message names each wrong variable and
 * what is wrong with it, never a value (a value may be a secret), so it is fit for a log line:
 * endpoint() logs it, and the local server prints it before it refuses to start.
 */
export class EnvError extends Error {
  override name = 'EnvError';
  constructor(readonly problems: string[]) {
    super(`Invalid environment for functions: ${problems.join('; ')}`);
  }
}

/** Every wrong variable at once, as `NAME: what is wrong`; empty when the environment is usable. */
export function environmentProblems(source: NodeJS.ProcessEnv = process.env): string[] {
  const result = EnvSchema.safeParse(source);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

let cached: { source: NodeJS.ProcessEnv; env: Env } | undefined;

/** The parsed environment; re-parsed only when process.env is replaced (tests do that). */
export function getEnv(source: NodeJS.ProcessEnv = process.env): Env {
  if (cached?.source === source) return cached.env;
  const result = EnvSchema.safeParse(source);
  if (!result.success) throw new EnvError(environmentProblems(source));
  cached = { source, env: result.data };
  return result.data;
}

/** The EnvError behind a failure: the error itself, or its cause (or the cause's cause…). */
export function envErrorIn(error: unknown): EnvError | undefined {
  for (let link = error, depth = 0; link instanceof Error && depth < 5; link = link.cause, depth += 1)
    if (link instanceof EnvError) return link;
  return undefined;
}

/**
 * What a log line may say of a failure: the whole message of a wrong setting (an EnvError in its
 * chain), otherwise only the error's name and its cause's. Other messages stay out of logs: they
 * may quote what a request carried.
 */
export function describeFailure(error: unknown): string {
  const wrongSetting = envErrorIn(error);
  if (wrongSetting) return wrongSetting.message;
  if (!(error instanceof Error)) return 'unknown error';
  return error.cause instanceof Error ? `${error.name}: ${error.cause.name}` : error.name;
}

/**
 * The variable by which a local run says so. The local production server (scripts/serve/serve.ts)
 * and `astro dev` set it; nothing on Netlify does, and it must never be set there. Without it a
 * function counts as deployed, whatever its deploy context says: on Netlify that context comes
 * from a request header and is empty when the header is missing, so it cannot prove anything.
 */
export const LOCAL_RUN_VARIABLE = 'SITE_LOCAL_RUN';

/** True only in an explicit local run: then the embedded store and a plain ADMIN_PASSWORD may be used. */
export function isLocalRun(source: NodeJS.ProcessEnv = process.env): boolean {
  return source[LOCAL_RUN_VARIABLE] === 'true';
}

/** The embedded store's folder in a local run (LOCAL_STORE_DIR, `.data` in the project by default): its database, the local outbox, the links' secret. */
export function localDataDir(): string {
  return getEnv().LOCAL_STORE_DIR ?? path.join(process.cwd(), '.data');
}

/** Forgets the parsed environment, so the next call reads process.env again. */
export function resetEnv(): void {
  cached = undefined;
}
