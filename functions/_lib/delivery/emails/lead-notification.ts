// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/** The team's e-mail about a new lead: every field, the first touch, Reply-To the prospect. */
import type { Attribution, Lead } from '../../../../src/shared/records';
import { site } from '../../../../src/site.config';
import type { NewOutboxEntry } from '../../store/types';
import { displayName, formName, formPhrase, sendable } from '../addresses';
import { renderMail, type Block } from '../mail-layout';
import type { DeliverySettings } from '../settings';

/** A lead's first touch as rows of fields: the booking notification shows it too. */
export function attributionRows(attribution: Attribution | undefined): [string, string | undefined][] {
  return [
    ['Landing page', attribution?.landingPage],
    ['Referred by', attribution?.referrer],
    ['Campaign', attribution?.utm_campaign],
    ['Source (utm)', attribution?.utm_source],
    ['Medium (utm)', attribution?.utm_medium],
    ['Term (utm)', attribution?.utm_term],
    ['Content (utm)', attribution?.utm_content],
  ];
}

/** The team's notification of a lead, Reply-To the prospect. */
export function leadNotification(lead: Lead, settings: DeliverySettings): NewOutboxEntry {
  const who = lead.company ? `${lead.name} (${lead.company})` : lead.name;
  const notification = renderMail(
    settings.origin,
    `New lead: ${who}`,
    [
      {
        kind: 'paragraph',
        text: `${lead.name} got in touch through the ${formPhrase(lead.source)}. Reply to this e-mail to answer them directly.`,
      },
      {
        kind: 'fields',
        rows: [
          ['Name', lead.name],
          ['E-mail', lead.email],
          ['Company', lead.company],
          ['Form', formName(lead.source)],
          ['Sent from', lead.page ? `${settings.origin}${lead.page}` : undefined],
          ['Received', `${lead.createdAt.slice(0, 16).replace('T', ' ')} UTC`],
        ],
      },
      ...(lead.notes ? [{ kind: 'quote', text: lead.notes } satisfies Block] : []),
      { kind: 'fields', rows: attributionRows(lead.attribution) },
      { kind: 'button', label: 'Open the admin page', url: `${settings.origin}/admin/insights` },
    ],
    [{ kind: 'small', text: `Sent to the team by ${site.name}'s website for every new lead.` }],
  );
  return {
    id: crypto.randomUUID(),
    kind: 'lead-notification',
    ref: lead.id,
    to: settings.notifyTo.join(', '),
    message: {
      channel: 'mail',
      to: settings.notifyTo,
      replyTo: `${displayName(lead.name)} <${sendable(lead)}>`,
      subject: `New lead: ${who} – ${formName(lead.source)}`,
      ...notification,
    },
  };
}
