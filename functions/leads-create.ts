import type { Config } from '@netlify/functions';
import { formHandler } from './_lib/form-endpoint';
import { emailAsciiOf, LeadRequest } from '../src/shared/schemas';

/** The Zoho guide form and the contact form. */
export default formHandler({
  name: 'leads-create',
  schema: LeadRequest,
  save: (store, { name, email, source, company, notes }, now, options) =>
    store.createLead({ name, email, ...emailAsciiOf(email), source, company, notes }, now, options),
});

export const config: Config = { path: '/api/leads/create' };
