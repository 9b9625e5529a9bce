// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * What each event puts in the outbox: a lead gives the team's notification, the guide (for a
 * guide request) and a webhook; a confirmed subscriber gives a webhook. Messages are composed
 * once, when the record is written, so the outbox holds exactly what will be sent and every
 * retry sends the same thing. Each e-mail has its file in emails/.
 */
import type { Lead, Subscriber } from '../../../src/shared/records';
import type { NewOutboxEntry } from '../store/types';
import { guideEntry } from './emails/guide';
import { leadNotification } from './emails/lead-notification';
import type { DeliverySettings } from './settings';

/** The JSON body of a webhook: `{ type, timestamp, data }`, fixed when the event happens. */
export function webhookBody(type: string, timestamp: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: timestamp.toISOString(), data });
}

/** A lead's entries: the team's notification, the guide when the form promised one, the webhook. */
export function leadEntries(lead: Lead, settings: DeliverySettings): NewOutboxEntry[] {
  const guide = guideEntry(lead, settings);
  return [leadNotification(lead, settings), ...(guide ? [guide] : []), ...leadCreatedWebhook(lead, settings)];
}

/** The lead.created webhook, when a webhook is set. */
function leadCreatedWebhook(lead: Lead, settings: DeliverySettings): NewOutboxEntry[] {
  if (!settings.webhookHost) return [];
  const { delivery: _delivery, ...data } = lead;
  return [
    {
      id: crypto.randomUUID(),
      kind: 'webhook',
      ref: lead.id,
      to: settings.webhookHost,
      message: {
        channel: 'webhook',
        type: 'lead.created',
        body: webhookBody('lead.created', new Date(lead.createdAt), data),
      },
    },
  ];
}

/** The webhook of a newly confirmed subscriber. */
export function confirmedEntries(subscriber: Subscriber, now: Date, settings: DeliverySettings): NewOutboxEntry[] {
  if (!settings.webhookHost) return [];
  return [
    {
      id: crypto.randomUUID(),
      kind: 'webhook',
      ref: subscriber.email,
      to: settings.webhookHost,
      message: {
        channel: 'webhook',
        type: 'subscriber.confirmed',
        body: webhookBody('subscriber.confirmed', now, subscriber),
      },
    },
  ];
}
