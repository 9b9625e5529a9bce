// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/** The confirmation e-mail of a newsletter sign-up (double opt-in). */
import { site } from '../../../../src/site.config';
import type { Subscriber } from '../../../../src/shared/records';
import type { NewOutboxEntry, SubscribeInput } from '../../store/types';
import { greeting, mailboxThrottle } from '../addresses';
import { CONFIRM_LINK_TTL_MS, LINK_PAGES, linkUrl, sealLink, UNSUBSCRIBE_LINK_TTL_MS } from '../links';
import { renderMail } from '../mail-layout';
import type { DeliverySettings } from '../settings';

/**
 * The confirmation e-mail of a sign-up, with its opaque links and RFC 8058 one-click unsubscribe,
 * at most one an hour to a mailbox. `subscriber` is the record the sign-up finds: once its person
 * has unsubscribed, the hour starts again from that moment, so that signing up again soon after
 * leaving sends a link at once (the one sent before confirms nothing any more). Only the mailbox's
 * owner can unsubscribe it, with a link from their own mail, so this opens no way to flood it.
 */
export function confirmationEntry(
  input: SubscribeInput,
  now: Date,
  settings: DeliverySettings,
  subscriber?: Pick<Subscriber, 'consent'>,
): NewOutboxEntry {
  const confirm = sealLink({
    a: 'confirm',
    e: input.email,
    f: input.firstName,
    ...(input.lastName ? { l: input.lastName } : {}),
    s: input.source,
    x: now.getTime() + CONFIRM_LINK_TTL_MS,
    // The sign-up itself, so that confirming it records this consent, whatever came before.
    t: now.getTime(),
    ...(input.page ? { p: input.page } : {}),
    ...(input.policyDate ? { d: input.policyDate } : {}),
  });
  const leave = sealLink({ a: 'unsubscribe', e: input.email, x: now.getTime() + UNSUBSCRIBE_LINK_TTL_MS });
  const unsubscribePage = linkUrl(settings.origin, LINK_PAGES.unsubscribe, leave);
  const body = renderMail(
    settings.origin,
    'Please confirm your subscription',
    [
      { kind: 'paragraph', text: greeting(input.firstName) },
      {
        kind: 'paragraph',
        text: `Someone, hopefully you, asked to receive the ${site.name} newsletter at this address. Open the link below and press Confirm on the page, and we will add you.`,
      },
      { kind: 'button', label: 'Confirm my subscription', url: linkUrl(settings.origin, LINK_PAGES.confirm, confirm) },
      {
        kind: 'small',
        text: 'The link works for 7 days. If you did not ask for this, ignore this e-mail: you will not be subscribed.',
      },
    ],
    [{ kind: 'link', label: 'Unsubscribe', url: unsubscribePage }],
  );
  return {
    id: crypto.randomUUID(),
    kind: 'confirmation',
    ref: input.email,
    to: input.email,
    message: {
      channel: 'mail',
      to: [input.emailAscii ?? input.email],
      subject: `Please confirm your subscription to ${site.name}`,
      headers: {
        'List-Unsubscribe': `<${linkUrl(settings.origin, LINK_PAGES.oneClick, leave)}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      ...body,
      secrets: [confirm, leave],
    },
    throttle: mailboxThrottle('confirmation', input, subscriber?.consent.unsubscribedAt),
  };
}
