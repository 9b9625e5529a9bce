import type { Config } from '@netlify/functions';
import { formHandler } from './_lib/forms/form-endpoint';
import { leadEntries } from './_lib/delivery/entries';
import { screenLead } from './_lib/forms/spam';
import { emailAsciiOf, LeadRequest } from '../src/shared/schemas';

/**
 * The Zoho guide form and the contact form: the lead, with the team's notification, the guide and
 * the webhook, or held in the Spam section when it is judged spam.
 */
export default formHandler({
  name: 'leads-create',
  schema: LeadRequest,
  async save(store, { name, email, source, company, notes, page, attribution }, now, { options, delivery, request }) {
    const { spam, contentCheck } = await screenLead(
      {
        name,
        email,
        content: notes,
        company,
        page,
        attribution,
        permalink: page && `${delivery.origin}${page}`,
        ...request,
      },
      delivery.origin,
    );
    const input = { name, email, ...emailAsciiOf(email), source, company, notes, page, attribution };
    const { queued } = await store.createLead(
      { ...input, ...(spam ? { spam } : {}), ...(contentCheck ? { contentCheck } : {}) },
      now,
      // A lead held as spam queues nothing: "Not spam" in the admin queues these same entries.
      { ...options, outbox: (lead) => leadEntries(lead, delivery) },
    );
    return queued.map((entry) => entry.id);
  },
});

export const config: Config = { path: '/api/leads/create' };
