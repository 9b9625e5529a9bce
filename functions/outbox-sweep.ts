import type { Config } from '@netlify/functions';
import { getStore } from './_lib/store/get-store';
import { pruneDelivered, sweep } from './_lib/delivery/outbox';

/**
 * Every minute: delivers what the outbox holds that is due (retries with backoff, and whatever a
 * function could not deliver right after its answer); once an hour, forgets the text of messages
 * delivered more than 30 days ago. Netlify runs it on published deploys; the local server runs it
 * on the same schedule.
 */
export default async () => {
  try {
    const store = await getStore();
    const report = await sweep(store, { budgetMs: 20_000 });
    if (report.delivered + report.failed + report.dead > 0)
      console.log(`[outbox-sweep] delivered ${report.delivered}, failed ${report.failed}, dead ${report.dead}`);
    const pruned = await pruneDelivered(store, new Date());
    if (pruned > 0) console.log(`[outbox-sweep] forgot the text of ${pruned} delivered messages`);
  } catch (error) {
    console.error(
      `[outbox-sweep] ${error instanceof Error ? error.name : 'unknown error'}: ${error instanceof Error ? error.message : ''}`,
    );
  }
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
