import type { Config } from '@netlify/functions';
import { formHandler } from './_lib/forms/form-endpoint';
import { signUp } from './_lib/forms/newsletter';
import { SubscriberRequest } from '../src/shared/schemas';

/** The newsletter form on blog posts. */
export default formHandler({
  name: 'subscribers',
  schema: SubscriberRequest,
  save: (store, { email, firstName, lastName, source, page, attribution }, now, context) =>
    signUp(store, { email, firstName, lastName, source, page, attribution }, now, context),
});

export const config: Config = { path: '/api/subscribers' };
