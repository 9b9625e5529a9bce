import { useId, useState, type FormEvent } from 'react';
import type {
  MailingProgress,
  MailingStatus,
  NewsletterItem,
  NewsletterPage,
  NewsletterTestAnswer,
} from '../../../shared/api-responses';
import { ApiError, errorText } from '../../../lib/api-client';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/field';
import { MailPreview } from './MailPreview';
import { count, moment, plural, when } from './record-text';
import { useAdminAction } from './use-admin-action';
import { useDraft } from './use-draft';

const STATUS_TONE = {
  unsent: 'waiting',
  sending: 'waiting',
  sent: 'success',
  incomplete: 'danger',
  skipped: 'neutral',
} as const;
const STATUS_WORD: Record<MailingStatus, string> = {
  unsent: 'Not sent yet',
  sending: 'Sending',
  sent: 'Sent',
  incomplete: 'Not all sent',
  skipped: 'Declined',
};

/**
 * "3 e-mails · 2 sent · 0 failed · 1 bounced" (the first figure is every e-mail written so far,
 * whatever became of it), and those not sent because the person left first, when there are any.
 */
function progressText({ queued, sent, failed, bounced, cancelled }: MailingProgress): string {
  const figures = [
    plural(queued, 'e-mail'),
    `${count(sent)} sent`,
    `${count(failed)} failed`,
    `${count(bounced)} bounced`,
  ];
  // Their e-mail's turn came after they unsubscribed, bounced or were erased: the Outbox says which.
  if (cancelled > 0) figures.push(`${count(cancelled)} not sent (left the list first)`);
  return figures.join(' · ');
}

/** Where a mailing stands, in a line or two under the item's summary. */
function MailingState({ item, autoSend }: { item: NewsletterItem; autoSend: boolean }) {
  if (item.status === 'skipped')
    return <p className="text-sm text-ink-700">Not sent{item.skippedAt && ` (declined on ${when(item.skippedAt)})`}</p>;
  if (item.status === 'unsent') {
    const line = item.autoSendAt
      ? `Goes out by itself ${moment(item.autoSendAt)} unless you choose “Don’t send”.`
      : item.autoSendNote;
    return autoSend && line ? <p className="text-sm text-ink-700">{line}</p> : null;
  }
  const by = item.requestedBy === 'automatic' ? 'automatically' : 'by you';
  return (
    <div className="grid gap-0.5 text-sm">
      {/* Announced as it moves: the page is fetched again every few seconds while an item is sending. */}
      <p aria-live="polite" className="font-semibold">
        {item.progress ? progressText(item.progress) : 'Starting…'}
      </p>
      {item.status === 'incomplete' && item.progress && (
        <p className="text-danger-700">
          {plural(item.progress.failed, 'e-mail')} failed for good: the Outbox lists each with its error and a Retry
          button.
        </p>
      )}
      {item.requestedAt && (
        <p className="text-ink-600">
          Started {moment(item.requestedAt)} {by}
          {item.fannedOutAt && `; every e-mail queued ${moment(item.fannedOutAt)}`}
        </p>
      )}
    </div>
  );
}

/**
 * Why the server refused a test, to show beside the address until it is changed: an address that
 * unsubscribed or bounced (409), a limit reached (429), an address that is not one (422).
 */
function refusalOf(error: Error | null): string | undefined {
  return error instanceof ApiError && [409, 422, 429].includes(error.status) ? errorText(error) : undefined;
}

/** "Send a test": to the address typed in, else to LEADS_NOTIFY_TO (`testTo`). */
function SendTest({
  item,
  testTo,
  busy,
  refusal,
  onSend,
  onEdit,
}: {
  item: NewsletterItem;
  testTo: string[];
  busy: boolean;
  /** Why the last test was refused, if it was. */
  refusal: string | undefined;
  onSend: (body: { to?: string }) => void;
  /** The address changed: a refusal of the last one no longer applies. */
  onEdit: () => void;
}) {
  const [address, setAddress] = useDraft(`test-address ${item.id}`);
  const to = address.trim();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSend(to ? { to } : {});
  }

  return (
    <form aria-label={`Send a test of “${item.subject}”`} onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <Field label="Test address" optional error={refusal} className="min-w-0 flex-1 basis-56">
        {(control) => (
          <Input
            {...control}
            type="email"
            autoComplete="email"
            value={address}
            maxLength={254}
            placeholder={testTo.join(', ')}
            onChange={(event) => {
              setAddress(event.target.value);
              onEdit();
            }}
          />
        )}
      </Field>
      <Button type="submit" variant="secondary" disabled={busy || (!to && testTo.length === 0)}>
        Send a test
      </Button>
      <p className="basis-full text-xs text-ink-600">
        {testTo.length > 0
          ? `Left empty, the test goes to ${testTo.join(', ')} (LEADS_NOTIFY_TO).`
          : 'Type an address: LEADS_NOTIFY_TO is not set.'}
      </p>
    </form>
  );
}

/** Preview, Send a test, Send to N subscribers and Don't send, for an item not sent yet. */
function UnsentActions({ item, page }: { item: NewsletterItem; page: NewsletterPage }) {
  const [showPreview, setShowPreview] = useState(false);
  const previewId = useId();
  const path = `/api/admin/newsletter/${encodeURIComponent(item.id)}`;
  const recipients = plural(page.confirmed, 'subscriber');
  const send = useAdminAction({
    method: 'POST',
    path: `${path}/send`,
    done: { title: 'Sending', description: `“${item.subject}” is on its way to ${recipients}.` },
    failed: 'Could not start sending',
  });
  const skip = useAdminAction({
    method: 'POST',
    path: `${path}/skip`,
    done: { title: 'Not sent', description: `“${item.subject}” will not be e-mailed.` },
    failed: 'Could not decline it',
  });
  const test = useAdminAction<NewsletterTestAnswer>({
    method: 'POST',
    path: `${path}/test`,
    done: (answer) => {
      if (answer.sent) return { title: 'Test sent', description: `“${item.subject}” went to ${answer.to.join(', ')}.` };
      if (answer.waiting)
        return {
          title: 'Test queued',
          description: `It goes to ${answer.to.join(', ')} in its turn, like the newsletter’s own e-mails: after any lead notification waiting${page.ratePerMinute === null ? '' : `, at ${plural(page.ratePerMinute, 'e-mail')} a minute`}. The Outbox shows it.`,
        };
      return {
        title: 'Test not sent yet',
        description:
          'The mail server did not take it. It waits in the Outbox, which says why, and is tried again by itself.',
        variant: 'destructive',
      };
    },
    failed: 'Could not send the test',
  });
  // One action at a time on an item: its buttons wait until the last one's answer is shown.
  const busy = send.isPending || skip.isPending || test.isPending;

  function confirmAndSend() {
    if (window.confirm(`Send “${item.subject}” to ${recipients}? This cannot be undone.`)) send.mutate();
  }

  function confirmAndSkip() {
    if (window.confirm(`Never e-mail “${item.subject}”? It stays on the site; this cannot be undone.`)) skip.mutate();
  }

  return (
    <div className="grid min-w-0 gap-4">
      <div className="flex flex-wrap gap-3">
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={showPreview}
          aria-controls={showPreview ? previewId : undefined}
          onClick={() => setShowPreview(!showPreview)}
        >
          {showPreview ? 'Hide the preview' : 'Preview'}
        </Button>
        <Button size="sm" disabled={busy || page.confirmed === 0} onClick={confirmAndSend}>
          Send to {recipients}
        </Button>
        <Button variant="ghost" size="sm" disabled={busy} onClick={confirmAndSkip}>
          Don’t send
        </Button>
      </div>
      {showPreview && <MailPreview id={previewId} path={`${path}/preview`} />}
      <SendTest
        item={item}
        testTo={page.testTo}
        busy={busy}
        refusal={refusalOf(test.error)}
        onSend={(body) => test.mutate(body)}
        onEdit={() => {
          if (test.isError) test.reset();
        }}
      />
    </div>
  );
}

/** A published issue or post: what it is, where it stands, and what the owner can do with it. */
export function NewsletterItemCard({ item, page }: { item: NewsletterItem; page: NewsletterPage }) {
  const titleId = useId();
  return (
    <article
      aria-labelledby={titleId}
      className="grid min-w-0 gap-3 rounded-(--radius-card) bg-white p-5 shadow-(--shadow-card) ring-1 ring-ink-100"
    >
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-600">
        <span className="font-semibold tracking-wide uppercase">{item.kind === 'issue' ? 'Issue' : 'Post'}</span>
        <time dateTime={item.publishedDate}>{when(item.publishedDate)}</time>
        <Badge tone={STATUS_TONE[item.status]}>{STATUS_WORD[item.status]}</Badge>
      </p>
      <h4 id={titleId} className="text-lg font-bold wrap-anywhere">
        <a href={item.url} className="rounded text-brand-700 underline underline-offset-2">
          {item.subject}
        </a>
      </h4>
      <p className="text-sm text-ink-700">{item.summary}</p>
      <MailingState item={item} autoSend={page.autoSendHours !== undefined} />
      {item.status === 'unsent' && <UnsentActions item={item} page={page} />}
    </article>
  );
}
