import type { NewOutboxEntry } from '../../functions/_lib/store/types';
import type { Lead } from '../../src/shared/records';

/** A lead's notification and webhook, as leads-create composes them (their content does not matter to a store). */
export const leadEntries = (lead: Lead): NewOutboxEntry[] => [
  {
    id: crypto.randomUUID(),
    kind: 'lead-notification',
    ref: lead.id,
    to: 'team@example.com',
    message: {
      channel: 'mail',
      to: ['team@example.com'],
      subject: `New lead: ${lead.name}`,
      text: 'Hi',
      html: '<p>Hi</p>',
    },
  },
  {
    id: crypto.randomUUID(),
    kind: 'webhook',
    ref: lead.id,
    to: 'crm.example',
    message: { channel: 'webhook', type: 'lead.created', body: JSON.stringify({ id: lead.id }) },
  },
];
