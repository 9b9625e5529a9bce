import type { DeliverySetup, Overview } from '../../../shared/api-responses';
import { count, plural } from './record-text';

/**
 * What stops e-mails from reaching people, when something does: above every section, so the owner
 * sees it whichever section they open.
 */
export function DeliveryWarning({ setup }: { setup: DeliverySetup }) {
  if (!setup.warning) return null;
  return (
    <div role="alert" className="rounded-(--radius-card) bg-danger-50 p-5 ring-2 ring-danger-700/40 ring-inset">
      <p className="font-bold text-danger-700">{setup.warning.title}</p>
      <p className="mt-1 text-ink-800">{setup.warning.text}</p>
    </div>
  );
}

/** How e-mail and the webhook are set up, and how many messages wait or failed. */
export function Delivery({ setup, outbox }: { setup: DeliverySetup; outbox: Overview['outbox'] }) {
  const mail = {
    smtp: 'Sent through your SMTP server',
    file: 'Not sent: written to the local outbox folder (read them in the Outbox section)',
    none: 'Off: no SMTP server is configured',
  }[setup.mail];
  return (
    <section aria-labelledby="delivery-title" className="grid gap-4">
      <div className="rounded-(--radius-card) bg-white p-5 text-sm ring-1 ring-ink-100">
        <h3 id="delivery-title" className="font-semibold">
          Delivery
        </h3>
        <dl className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-[auto_minmax(0,1fr)]">
          <dt className="font-semibold text-ink-600">E-mail</dt>
          <dd className="text-ink-800">{mail}</dd>
          <dt className="font-semibold text-ink-600">Lead notifications to</dt>
          <dd className="wrap-anywhere text-ink-800">
            {setup.notifyTo.length > 0 ? setup.notifyTo.join(', ') : 'nobody (LEADS_NOTIFY_TO is not set)'}
          </dd>
          <dt className="font-semibold text-ink-600">Webhook</dt>
          <dd className="text-ink-800">
            {setup.webhook ? 'On: leads and confirmed subscribers are posted to your webhook' : 'Off'}
          </dd>
          <dt className="font-semibold text-ink-600">Outbox</dt>
          <dd className="text-ink-800">
            {plural(outbox.pending, 'message')} waiting to be sent, {count(outbox.dead)} failed
          </dd>
        </dl>
      </div>
    </section>
  );
}
