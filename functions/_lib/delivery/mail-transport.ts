// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * Sends an outbox e-mail: through SMTP_URL when set; in a local run without it, written as an
 * .eml file to the local outbox folder (nothing is sent, nothing is lost: the admin page lists
 * them); on a deployed site without it, not at all (the entry waits, checked each minute, so
 * setting SMTP_URL and redeploying within a day still delivers what waited).
 */
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { site } from '../../../src/site.config';
import { getEnv, isLocalRun, localDataDir } from '../platform/env';
import { headerName } from './addresses';
import type { OutboxEntry, OutboxMessage } from '../store/types';

export type MailMode = 'smtp' | 'file' | 'none';

/**
 * A failed attempt: permanent failures are not retried. One that failed because its channel is
 * not set up (`notSetUp`) was not really tried: it does not count as an attempt and is tried
 * again each minute, so what waits goes out as soon as the channel is set up. The message never
 * holds a password.
 */
export class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly notSetUp = false,
    /** The recipient's server refused the address for good: a bounce. */
    readonly bounce = false,
  ) {
    super(message);
    this.name = 'DeliveryFailure';
  }
}

export function mailMode(): MailMode {
  if (getEnv().SMTP_URL) return 'smtp';
  return isLocalRun() ? 'file' : 'none';
}

/** The local outbox folder: `outbox/` in the embedded store's folder. */
export function localOutboxDir(): string {
  return path.join(localDataDir(), 'outbox');
}

/**
 * Removes the local outbox folder's copies of these entries (an erasure: nothing of the person
 * stays on disk either). Nothing to do where e-mails are not written to files.
 */
export async function forgetLocalCopies(ids: readonly string[]): Promise<void> {
  if (ids.length === 0 || mailMode() !== 'file') return;
  const directory = localOutboxDir();
  const files = await readdir(directory).catch(() => []);
  const suffixes = ids.map((id) => `-${id}.eml`);
  await Promise.all(
    files
      .filter((file) => suffixes.some((suffix) => file.endsWith(suffix)))
      .map((file) => rm(path.join(directory, file), { force: true })),
  );
}

/** The sender: MAIL_FROM, or the brand's name with its contact address. */
export function mailFrom(): string {
  return getEnv().MAIL_FROM ?? `"${site.name.replaceAll('"', '')}" <${site.email}>`;
}

/**
 * An address as the outbox's messages and MAIL_FROM hold it (`"Name" <address>`, `Name <address>`
 * or a bare address), read by nodemailer's own parser into a name and an address, so that
 * nodemailer quotes or encodes the name itself; the name as headerName() allows it, so that a
 * lead cannot name itself `CEO <ceo@…>` in the owner's Reply-To, whether the message was stored
 * before that rule or not. Anything that is not one mailbox is handed over as it is.
 */
export function headerAddress(value: string): { name: string; address: string } | string {
  const [mailbox, ...more] = addressparser(value, { flatten: true });
  if (!mailbox?.address || more.length > 0) return value;
  const name = mailbox.name ? headerName(mailbox.name) : '';
  return name ? { name, address: mailbox.address } : mailbox.address;
}

let smtp: { url: string; transporter: Transporter } | undefined;

function smtpTransport(url: string): Transporter {
  if (smtp?.url !== url) {
    smtp = {
      url,
      transporter: nodemailer.createTransport({
        url,
        // A long-running local server keeps a few connections open and reuses them; a function
        // on Netlify may be frozen between invocations, so it opens one per message.
        pool: isLocalRun(),
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    };
  }
  return smtp.transporter;
}

/** The file transport composes the very message SMTP would carry. */
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

type MailMessage = Extract<OutboxMessage, { channel: 'mail' }>;

function envelope(entry: OutboxEntry, message: MailMessage) {
  const domain = /@([^>\s]+)>?\s*$/.exec(mailFrom())?.[1] ?? 'localhost';
  return {
    from: headerAddress(mailFrom()),
    to: message.to.map(headerAddress),
    ...(message.replyTo ? { replyTo: headerAddress(message.replyTo) } : {}),
    subject: message.subject,
    text: message.text,
    html: message.html,
    // Stable across retries, so a client that got an earlier attempt shows one message.
    messageId: `<${entry.id}@${domain}>`,
    // Stable too; an entry written to wait (a reminder) is dated when it falls due, so it sorts
    // among the mail of that day rather than of the day it was written.
    date: new Date(entry.dueAt ?? entry.createdAt),
    headers: message.headers ?? {},
    // An iMIP part (RFC 6047) beside the text and HTML; nodemailer says PUBLISH unless told, and
    // a PUBLISH only offers to copy the event, with no answer to the organiser.
    ...(message.calendar ? { icalEvent: { method: message.calendar.method, content: message.calendar.content } } : {}),
  };
}

/**
 * Whether a refusal is about the address itself: a 5xx to RCPT TO whose enhanced status code, if
 * it gives one, is about the mailbox or its system (5.1.x, 5.2.x: no such user, mailbox disabled
 * or full for good). A refusal of the sender (MAIL FROM), of the message (DATA: its content) or
 * for policy or quota (5.7.x, 5.4.5: a provider's daily cap) says nothing about the recipient.
 */
function isBounce({ command, response }: { command?: unknown; response?: unknown }): boolean {
  if (command !== 'RCPT TO') return false;
  const enhanced = /^5\d\d[ -](5\.\d{1,3}\.\d{1,3})/.exec(String(response ?? ''))?.[1];
  return enhanced === undefined || /^5\.[12]\./.test(enhanced);
}

/** An SMTP error in one line, and whether retrying could help: a refused recipient or message cannot. */
function smtpFailure(error: unknown): DeliveryFailure {
  const fields = (error ?? {}) as {
    code?: unknown;
    responseCode?: unknown;
    response?: unknown;
    message?: unknown;
    command?: unknown;
  };
  const code = typeof fields.code === 'string' ? fields.code : 'ERROR';
  const status = typeof fields.responseCode === 'number' ? fields.responseCode : undefined;
  const detail = String(fields.response ?? fields.message ?? '')
    .split(/\r?\n/)[0]
    ?.slice(0, 200);
  const permanent = status !== undefined && status >= 500 && (code === 'EENVELOPE' || code === 'EMESSAGE');
  return new DeliveryFailure(`SMTP ${status ?? code}: ${detail}`, permanent, false, permanent && isBounce(fields));
}

/** Sends (or files) one e-mail; throws DeliveryFailure. */
export async function sendMail(entry: OutboxEntry, message: MailMessage): Promise<'smtp' | 'file'> {
  const mode = mailMode();
  const mail = envelope(entry, message);
  if (mode === 'smtp') {
    try {
      await smtpTransport(getEnv().SMTP_URL ?? '').sendMail(mail);
      return 'smtp';
    } catch (error) {
      throw smtpFailure(error);
    }
  }
  if (mode === 'none') throw new DeliveryFailure('E-mail is not set up: set SMTP_URL', false, true);
  const composed = await composer.sendMail(mail);
  const directory = localOutboxDir();
  const name = `${entry.createdAt.replaceAll(/[:.]/g, '-')}-${entry.kind}-${entry.id}.eml`;
  // Written whole, then renamed: a reader never sees half a message. Asynchronous, so the server
  // goes on answering requests while the file system works.
  const partial = path.join(directory, `.${name}.partial`);
  try {
    await mkdir(directory, { recursive: true });
    await writeFile(partial, composed.message as Buffer);
    await rename(partial, path.join(directory, name));
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
    throw new DeliveryFailure(`could not write to the local outbox folder (${code})`, false);
  }
  return 'file';
}
