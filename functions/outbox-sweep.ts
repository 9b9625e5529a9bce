import type { Config } from '@netlify/functions';
import { getStore } from './_lib/store/get-store';
import { sweep } from './_lib/outbox';

/**
 * Every minute: delivers what the outbox holds that is due (retries with backoff, and whatever a
 * function could not deliver right after its answer). Netlify runs it on published deploys; the
 * local server runs it on the same schedule.
 */
export default async () => {
  try {
    const report = await sweep(await getStore(), { budgetMs: 20_000 });
    if (report.delivered + report.failed + report.dead > 0)
      console.log(`[outbox-sweep] delivered ${report.delivered}, failed ${report.failed}, dead ${report.dead}`);
  } catch (error) {
    console.error(
      `[outbox-sweep] ${error instanceof Error ? error.name : 'unknown error'}: ${error instanceof Error ? error.message : ''}`,
    );
  }
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
