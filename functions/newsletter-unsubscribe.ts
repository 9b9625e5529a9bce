import type { Config } from '@netlify/functions';
import type { SubscriptionAnswer } from '../src/shared/api-responses';
import { SubscriptionTokenRequest } from '../src/shared/schemas';
import {
  endpoint,
  errorResponse,
  json,
  parseWith,
  readBoundedText,
  readJsonBody,
  requireMethod,
} from './_lib/platform/http';
import { LINK_MESSAGES, LINK_PAGES, verifyLink } from './_lib/delivery/links';
import { getStore } from './_lib/store/get-store';

/** RFC 8058: what a mailbox provider POSTs to the List-Unsubscribe URL. */
const ONE_CLICK = 'List-Unsubscribe=One-Click';

/**
 * The `List-Unsubscribe` field of a one-click POST. RFC 8058 says providers SHOULD send it as
 * multipart/form-data and MAY send it URL-encoded; both are read, from a body no larger than any
 * other (readBoundedText), and a body that does not parse has no field.
 */
async function oneClickField(req: Request, type: string | undefined): Promise<string | undefined> {
  const body = await readBoundedText(req);
  if (type !== 'multipart/form-data') return new URLSearchParams(body).get('List-Unsubscribe') ?? undefined;
  try {
    const form = await new Response(body, {
      headers: { 'content-type': req.headers.get('content-type') ?? '' },
    }).formData();
    const value = form.get('List-Unsubscribe');
    return typeof value === 'string' ? value.trim() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The unsubscribe link of every newsletter e-mail (List-Unsubscribe). A mailbox provider's
 * one-click POST (RFC 8058: the token in the URL, `List-Unsubscribe=One-Click` in the form body)
 * and the unsubscribe page's POST (JSON `{ token }`) unsubscribe; a GET, which is a person's
 * click or a scanner, only leads to the page with its button.
 */
export default endpoint({ name: 'newsletter-unsubscribe', retryAfterSeconds: 30 }, async (req) => {
  requireMethod(req, ['GET', 'POST']);
  const url = new URL(req.url);
  if (req.method === 'GET') {
    const token = url.searchParams.get('token') ?? '';
    return new Response(null, {
      status: 303,
      headers: {
        location: `${LINK_PAGES.unsubscribe}?token=${encodeURIComponent(token)}`,
        'cache-control': 'no-store',
      },
    });
  }

  const type = req.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  let token: string;
  if (type === 'application/json') {
    ({ token } = parseWith(SubscriptionTokenRequest, await readJsonBody(req)));
  } else {
    if ((await oneClickField(req, type)) !== 'One-Click')
      return errorResponse(
        400,
        `Send ${ONE_CLICK} as a form body (multipart/form-data or application/x-www-form-urlencoded), or JSON { "token": … }`,
      );
    ({ token } = parseWith(SubscriptionTokenRequest, { token: url.searchParams.get('token') ?? undefined }));
  }

  const check = verifyLink(token, new Date());
  if (!check.ok && check.reason === 'expired' && check.action === 'unsubscribe')
    return errorResponse(410, LINK_MESSAGES.unsubscribeExpired);
  if (!check.ok || check.payload.a !== 'unsubscribe') return errorResponse(400, LINK_MESSAGES.invalid);
  const store = await getStore();
  // An address erased meanwhile is unsubscribed all the same: the person's wish is met.
  await store.unsubscribe(check.payload.e, new Date());
  const answer: SubscriptionAnswer = { ok: true, status: 'unsubscribed' };
  return json(200, answer);
});

export const config: Config = { path: '/api/newsletter/unsubscribe' };
