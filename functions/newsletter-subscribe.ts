import type { Config, Context } from '@netlify/functions';
import { formHandler, type FormEndpoint } from './_lib/forms/form-endpoint';
import { signUp } from './_lib/forms/newsletter-sign-up';
import { errorResponse, type Handler } from './_lib/platform/http';
import { NewsletterSubscribeRequest, SubscriberRequest } from '../src/shared/schemas';

/** Both forms store the same sign-up; the honeypot and the proof of work stay out of it. */
const save: FormEndpoint<typeof NewsletterSubscribeRequest>['save'] = (
  store,
  { email, firstName, lastName, source, page, attribution },
  now,
  context,
) => signUp(store, { email, firstName, lastName, source, page, attribution }, now, context);

/**
 * The newsletter sign-up, one form per path of the API. The footer signup on every page sends the
 * full name as firstName and may leave lastName out; the form under each blog post sends both
 * names. Each form keeps its own name, so its rate limit, its idempotency keys and its honeypot
 * and proof-of-work counts (the admin's Spam section) stay its own.
 */
const FORMS = new Map<string, Handler>([
  [
    '/api/newsletter/subscribe',
    formHandler({ name: 'newsletter-subscribe', schema: NewsletterSubscribeRequest, save }),
  ],
  ['/api/subscribers', formHandler({ name: 'subscribers', schema: SubscriberRequest, save })],
]);

export default async (req: Request, context: Context) => {
  // A trailing slash names the same form.
  const form = FORMS.get(new URL(req.url).pathname.replace(/\/$/, ''));
  return form ? form(req, context) : errorResponse(404, 'No newsletter form at this path');
};

// Netlify reads the config without running the module: the paths are written out, not taken from FORMS.
export const config: Config = { path: ['/api/newsletter/subscribe', '/api/subscribers'] };
