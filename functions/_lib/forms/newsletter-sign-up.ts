/** A newsletter sign-up, as both newsletter forms store it: a pending subscriber and, at most hourly, a confirmation e-mail. */
import { emailAsciiOf } from '../../../src/shared/schemas';
import type { SaveContext } from './form-endpoint';
import { confirmationEntry } from '../delivery/emails/confirmation';
import { policyDate } from '../platform/policy';
import type { StoreVerbs } from '../store/store';
import type { SubscribeInput } from '../store/types';

export async function signUp(
  store: StoreVerbs,
  fields: Omit<SubscribeInput, 'emailAscii' | 'policyDate'>,
  now: Date,
  { options, delivery }: SaveContext,
): Promise<string[]> {
  const input: SubscribeInput = { ...fields, ...emailAsciiOf(fields.email), policyDate: await policyDate() };
  const { queued } = await store.subscribe(input, now, {
    ...options,
    outbox: (subscriber) => [confirmationEntry(input, now, delivery, subscriber)],
  });
  return queued.map((entry) => entry.id);
}
