import type { Config } from '@netlify/functions';
import { formHandler } from './_lib/forms/form-endpoint';
import { signUp } from './_lib/forms/newsletter';
import { NewsletterSubscribeRequest } from '../src/shared/schemas';

/** The footer signup on every page. */
export default formHandler({
  name: 'newsletter-subscribe',
  schema: NewsletterSubscribeRequest,
  save: (store, { email, firstName, lastName, source, page, attribution }, now, context) =>
    signUp(store, { email, firstName, lastName, source, page, attribution }, now, context),
});

export const config: Config = { path: '/api/newsletter/subscribe' };
