/**
 * Sends an outbox webhook to LEAD_WEBHOOK_URL, signed per Standard Webhooks: `webhook-id` is the
 * entry's id (the same on every retry, so receivers drop duplicates), `webhook-timestamp` the
 * time of this attempt, `webhook-signature` the HMAC of both with the body. 2xx is delivered;
 * 3xx, 408, 429, 5xx, network errors and timeouts are retried; anything else is a permanent failure.
 *
 * Delivery is at least once, not exactly once: an attempt is recorded after it ends, so a process
 * killed between a 2xx and its record, or a timeout after the receiver acted, sends the same
 * webhook again once its lease ends. That is correct for an outbox; a repeat carries the same
 * `webhook-id`, and receivers drop an id they have already processed (docs/email-and-outbox.md, Webhooks).
 */
import { Webhook } from 'standardwebhooks';
import { getEnv } from '../platform/env';
import { DeliveryFailure } from './mail-transport';
import type { OutboxEntry, OutboxMessage } from '../store/types';

export const WEBHOOK_TIMEOUT_MS = 10_000;

type WebhookMessage = Extract<OutboxMessage, { channel: 'webhook' }>;

/** The headers of one attempt. */
export function signedHeaders(id: string, body: string, secret: string, at: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

export async function sendWebhook(entry: OutboxEntry, message: WebhookMessage): Promise<'webhook'> {
  const { LEAD_WEBHOOK_URL: url, LEAD_WEBHOOK_SECRET: secret } = getEnv();
  if (!url || !secret) throw new DeliveryFailure('LEAD_WEBHOOK_URL is no longer set', true);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      // Signed with the time it is sent: receivers refuse timestamps more than 5 minutes old.
      headers: { ...signedHeaders(entry.id, message.body, secret, new Date()), 'user-agent': 'site-webhooks/1' },
      body: message.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new DeliveryFailure(timedOut ? `timed out after ${WEBHOOK_TIMEOUT_MS / 1000} s` : 'could not connect', false);
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.ok) return 'webhook';
  throw answerFailure(response.status, response.headers.get('location'), url);
}

/**
 * Why an answer other than 2xx failed, and whether to retry it. A redirect is not followed (the
 * signed POST would go where the receiver says, and most clients turn it into a GET); it is
 * retried, since each attempt reads LEAD_WEBHOOK_URL afresh, and its error says where it points
 * (origin and path: a query may hold a key), so the owner can set the URL there.
 */
export function answerFailure(status: number, location: string | null, url: string): DeliveryFailure {
  if (status >= 300 && status < 400) {
    let target = 'without saying where';
    try {
      if (location) {
        const next = new URL(location, url);
        target = `to ${`${next.origin}${next.pathname}`.slice(0, 200)}`;
      }
    } catch {
      // A Location that is not a URL says nowhere.
    }
    return new DeliveryFailure(
      `HTTP ${status}: the receiver redirected ${target}; redirects are not followed, so set LEAD_WEBHOOK_URL to where it points`,
      false,
    );
  }
  const retry = status === 408 || status === 429 || status >= 500;
  return new DeliveryFailure(`HTTP ${status}`, !retry);
}
