import type { Config } from '@netlify/functions';
import { getStore } from './_lib/store/get-store';
import { runSweep } from './_lib/delivery/scheduled-sweep';

/**
 * Every minute: the newsletter's sending and the outbox's delivery (retries with backoff, and
 * whatever a function could not deliver right after its answer). Netlify runs it on published
 * deploys; the local server runs it on the same schedule.
 */
export default async () => {
  try {
    await runSweep(await getStore());
  } catch (error) {
    console.error(
      `[outbox-sweep] ${error instanceof Error ? error.name : 'unknown error'}: ${error instanceof Error ? error.message : ''}`,
    );
  }
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
