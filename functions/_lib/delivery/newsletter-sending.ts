// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * The newsletter's sending, as the scheduled sweep runs it: what the site publishes
 * (dist/mailings.json, which the build writes), automatic sending after NEWSLETTER_AUTO_SEND_HOURS,
 * and the fan-out, a batch at a time within the sweep's budget, resumed by the next sweep.
 */
import { MAILINGS_FILE, type Mailing, type Mailings } from '../../../src/shared/mailing-types';
import { getEnv } from '../platform/env';
import { readBuildJson } from '../platform/build-files';
import type { AutoSendState } from '../store/mailings';
import type { StoreVerbs } from '../store/store';
import { mailingId, newsletterEntry } from './emails/newsletter-email';
import { configuredOrigin } from './settings';

/** Every issue and post the site publishes, as the build wrote them. */
export async function publishedMailings(): Promise<Mailing[]> {
  return ((await readBuildJson(MAILINGS_FILE)) as Mailings).mailings;
}

/** A published mailing by its id, with all of them (an issue's cards are posts). */
export async function findMailing(id: string): Promise<{ mailing: Mailing; all: Mailing[] } | undefined> {
  const all = await publishedMailings();
  const mailing = all.find((candidate) => mailingId(candidate) === id);
  return mailing ? { mailing, all } : undefined;
}

/** MAIL_RATE_PER_MINUTE, null when it is 0 (no limit). */
export function mailRatePerMinute(): number | null {
  const rate = getEnv().MAIL_RATE_PER_MINUTE;
  return rate === 0 ? null : rate;
}

const HOUR_MS = 3600_000;
const dayStart = (ms: number) => ms - (ms % (24 * HOUR_MS));

/**
 * When automatic sending sends a mailing: `hours` after it was published (the later of its date,
 * UTC, and when a sweep first saw it on the site). One published before the day automatic sending
 * was turned on never goes by itself: turning it on must not mail the whole archive.
 */
export function autoSendTime(
  mailing: Mailing,
  hours: number,
  state: AutoSendState | undefined,
  now: Date,
): { at: Date } | { note: string } {
  const published = Date.parse(`${mailing.publishedDate}T00:00:00Z`);
  const since = state?.since ?? now.getTime();
  if (published < dayStart(since))
    return {
      note: `Published before automatic sending was turned on (${new Date(since).toISOString().slice(0, 10)}): it goes only if you send it.`,
    };
  const seen = state?.seen[mailingId(mailing)] ?? now.getTime();
  return { at: new Date(Math.max(published, seen) + hours * HOUR_MS) };
}

/** With NEWSLETTER_AUTO_SEND_HOURS set, asks for every mailing whose time has come; answers their ids. */
export async function autoSend(store: StoreVerbs, now: Date): Promise<string[]> {
  const hours = getEnv().NEWSLETTER_AUTO_SEND_HOURS;
  if (hours === undefined) return [];
  const mailings = await publishedMailings();
  const ids = mailings.map(mailingId);
  const [state, known] = await Promise.all([store.noteAutoSend(ids, now), store.mailings(ids)]);
  const started: string[] = [];
  for (const mailing of mailings) {
    const id = mailingId(mailing);
    if (known.get(id)?.record) continue;
    const time = autoSendTime(mailing, hours, state, now);
    if (!('at' in time) || time.at > now) continue;
    const asked = await store.requestMailing({ id, subject: mailing.subject }, 'automatic', configuredOrigin(), now);
    if (asked.started) started.push(id);
  }
  return started;
}

/** Subscribers a fan-out batch reads and writes entries for. */
export const FAN_OUT_BATCH = 100;

/**
 * Writes the entries of every mailing asked for, a batch at a time, until they are all written or
 * `budgetMs` is spent (the next sweep goes on from there); answers how many it wrote.
 */
export async function fanOut(
  store: StoreVerbs,
  {
    now = () => new Date(),
    budgetMs = 8_000,
    batch = FAN_OUT_BATCH,
  }: { now?: () => Date; budgetMs?: number; batch?: number } = {},
): Promise<number> {
  const started = Date.now();
  let written = 0;
  for (const id of await store.mailingsFanningOut()) {
    for (;;) {
      if (Date.now() - started >= budgetMs) return written;
      const at = now();
      const step = await store.fanOutMailing(id, at, batch, (subscriber, record) =>
        newsletterEntry({ id, subject: record.subject }, subscriber, record.origin ?? configuredOrigin(), at),
      );
      written += step.written;
      if (step.done) break;
    }
  }
  return written;
}
