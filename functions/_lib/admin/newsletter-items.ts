// functions/_lib/admin is what only the admin endpoints use: login and session, the dashboard's figures, the CSV export.
/** The admin's Newsletter section: each published post and issue with where its sending stands. */
import type { MailingProgress, NewsletterItem } from '../../../src/shared/api-responses';
import type { Mailing } from '../../../src/shared/mailing-types';
import { mailingId } from '../delivery/emails/newsletter-email';
import { autoSendTime } from '../delivery/newsletter-sending';
import { getEnv } from '../platform/env';
import type { AutoSendState, MailingRecord } from '../store/mailings';
import type { StoreVerbs } from '../store/store';

/** Every entry written has had its outcome. */
const settled = (progress: MailingProgress) =>
  progress.sent + progress.failed + progress.bounced + progress.cancelled >= progress.queued;

function statusOf(record: MailingRecord | undefined, progress: MailingProgress): NewsletterItem['status'] {
  if (!record) return 'unsent';
  if (record.status === 'skipped') return 'skipped';
  if (!record.fannedOutAt || !settled(progress)) return 'sending';
  return progress.failed > 0 ? 'incomplete' : 'sent';
}

/** One mailing as the section shows it. */
export function itemOf(
  mailing: Mailing,
  known: { record?: MailingRecord; progress: MailingProgress } | undefined,
  auto: { hours: number; state: AutoSendState | undefined } | undefined,
  now: Date,
): NewsletterItem {
  const { record, progress = { queued: 0, sent: 0, failed: 0, bounced: 0, cancelled: 0 } } = known ?? {};
  const status = statusOf(record, progress);
  const item: NewsletterItem = {
    id: mailingId(mailing),
    kind: mailing.kind,
    slug: mailing.slug,
    subject: mailing.subject,
    summary: mailing.summary,
    url: mailing.url,
    publishedDate: mailing.publishedDate,
    status,
  };
  if (record?.requestedAt) item.requestedAt = record.requestedAt;
  if (record?.requestedBy) item.requestedBy = record.requestedBy;
  if (record?.fannedOutAt) item.fannedOutAt = record.fannedOutAt;
  if (record?.skippedAt) item.skippedAt = record.skippedAt;
  if (record?.status === 'sending') item.progress = progress;
  if (status === 'unsent' && auto) {
    const time = autoSendTime(mailing, auto.hours, auto.state, now);
    if ('at' in time) item.autoSendAt = time.at.toISOString();
    else item.autoSendNote = time.note;
  }
  return item;
}

/** Those not sent yet first, then the rest; each newest first. */
function order(a: NewsletterItem, b: NewsletterItem): number {
  const waiting = Number(b.status === 'unsent') - Number(a.status === 'unsent');
  return waiting || b.publishedDate.localeCompare(a.publishedDate) || a.id.localeCompare(b.id);
}

/** Every published mailing as the section lists it. */
export async function newsletterItems(store: StoreVerbs, mailings: Mailing[], now: Date): Promise<NewsletterItem[]> {
  const hours = getEnv().NEWSLETTER_AUTO_SEND_HOURS;
  const [known, state] = await Promise.all([
    store.mailings(mailings.map(mailingId)),
    hours === undefined ? undefined : store.autoSendState(),
  ]);
  const auto = hours === undefined ? undefined : { hours, state };
  return mailings.map((mailing) => itemOf(mailing, known.get(mailingId(mailing)), auto, now)).sort(order);
}
