/**
 * A server and store of a spec's own, for specs whose data or acts must not meet the others' on
 * the run's shared server: seeded counts, a mailing to every subscriber, a session ended everywhere.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSiteServer, type SiteServer } from '../../scripts/harness/site-server.ts';
import { E2E_ADMIN_PASSWORD, E2E_SESSION_SECRET, E2E_STORE_PREFIX } from './e2e-env';

/** An empty store folder named after the spec, under the prefix the e2e teardown clears. */
export const ownStoreFolder = (name: string) => mkdtempSync(path.join(tmpdir(), `${E2E_STORE_PREFIX}${name}-`));

/**
 * The production server over `folder`, with the run's admin password and session secret, and `env`.
 * Without the owner's weekly letter, as the run's shared server: the specs count the outbox.
 */
export const startServerAt = (folder: string, env: Record<string, string> = {}) =>
  startSiteServer({
    LOCAL_STORE_DIR: folder,
    ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    SESSION_SECRET: E2E_SESSION_SECRET,
    WEEKLY_REPORT: 'off',
    ...env,
  });

/** Stops the server (when it started) and removes its store folder. */
export async function stopServerAt(server: SiteServer | undefined, folder: string) {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
}
