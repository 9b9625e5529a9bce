import type { Config } from '@netlify/functions';
import { formHandler } from './_lib/form-endpoint';
import { leadEntries } from './_lib/mail/messages';
import { emailAsciiOf, LeadRequest } from '../src/shared/schemas';

/** The Zoho guide form and the contact form: the lead, with the team's notification, the guide and the webhook. */
export default formHandler({
  name: 'leads-create',
  schema: LeadRequest,
  async save(store, { name, email, source, company, notes, page, attribution }, now, { options, delivery }) {
    let queued: string[] = [];
    await store.createLead({ name, email, ...emailAsciiOf(email), source, company, notes, page, attribution }, now, {
      ...options,
      outbox: (lead) => {
        const entries = leadEntries(lead, delivery);
        queued = entries.map((entry) => entry.id);
        return entries;
      },
    });
    return queued;
  },
});

export const config: Config = { path: '/api/leads/create' };
