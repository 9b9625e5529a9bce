/**
 * The SMTP server and the webhook receiver a benchmark delivers to, in a process of their own, so
 * the work of receiving never shares an event loop with the load generator that times the
 * answers. Prints `{ "smtp": URL, "webhook": URL }` as its first line; a line `count` on stdin
 * answers with `{ "mails": n, "webhooks": n }`.
 */
import { createInterface } from 'node:readline';
import { startSmtpSink } from './smtp-sink.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

const smtp = await startSmtpSink({ keep: false });
const receiver = await startWebhookReceiver();
console.log(JSON.stringify({ smtp: smtp.url, webhook: receiver.url }));
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'count')
    console.log(JSON.stringify({ mails: smtp.received(), webhooks: receiver.requests.length }));
}
await Promise.all([smtp.stop(), receiver.stop()]);
