// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/** The guide a prospect asked for, at most one an hour to a mailbox. */
import type { Lead } from '../../../../src/shared/records';
import { guidePathFor } from '../../../../src/shared/pages';
import { site } from '../../../../src/site.config';
import type { NewOutboxEntry } from '../../store/types';
import { greeting, mailboxThrottle, sendable } from '../addresses';
import { renderMail } from '../mail-layout';
import type { DeliverySettings } from '../settings';

/** The guide e-mail of a lead whose form promised one; undefined for any other form. */
export function guideEntry(lead: Lead, settings: DeliverySettings): NewOutboxEntry | undefined {
  const guidePath = guidePathFor(lead.source);
  if (!guidePath) return undefined;
  const url = `${settings.origin}${guidePath}`;
  const body = renderMail(
    settings.origin,
    'Your guide is ready',
    [
      { kind: 'paragraph', text: greeting(lead.name) },
      {
        kind: 'paragraph',
        text: 'Thank you for asking for our guide to connecting Zoho and Google Workspace. It walks you through it step by step, with the pitfalls to avoid and a checklist.',
      },
      { kind: 'button', label: 'Read the guide', url },
      {
        kind: 'small',
        text: 'To keep a copy, open the guide and choose Print, then Save as PDF: it is laid out for paper.',
      },
      {
        kind: 'paragraph',
        text: `Questions about your own set-up? Reply to this e-mail. ${site.replyPromise}`,
      },
    ],
    [
      {
        kind: 'small',
        text: `You get this e-mail because the guide was requested with this address on ${new URL(settings.origin).host}. It does not add you to any mailing list.`,
      },
    ],
  );
  return {
    id: crypto.randomUUID(),
    kind: 'guide',
    ref: lead.id,
    to: lead.email,
    message: {
      channel: 'mail',
      to: [sendable(lead)],
      replyTo: site.email,
      subject: `Your guide from ${site.name}: connecting Zoho and Google Workspace`,
      ...body,
    },
    // The lead is kept and the team told each time; the prospect gets the guide once an hour.
    throttle: mailboxThrottle('guide', lead),
  };
}
