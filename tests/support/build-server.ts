/**
 * The build project's global setup: one local production server over dist/, for the build tests
 * that check what the server answers (headers, the /api, redirects, 404s). It runs as the e2e
 * server does (playwright.config.ts), with a store of its own in a temp folder; a test reads its
 * origin with `inject('siteOrigin')`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startSiteServer } from '../../scripts/harness/site-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The build tests' server, `http://localhost:<port>`. */
    siteOrigin: string;
  }
}

export default async function startBuildServer(project: TestProject) {
  const store = mkdtempSync(path.join(tmpdir(), 'build-server-'));
  const server = await startSiteServer({
    LOCAL_STORE_DIR: store,
    // The tests post more than the default ten times a minute from one address.
    RATE_LIMIT_PER_MINUTE: '1000',
    ADMIN_PASSWORD: 'build tests admin password 7d2e',
    SESSION_SECRET: 'build-tests-session-secret-0123456789abcdef',
    WEEKLY_REPORT: 'off',
    // The tests' proof-of-work cost (vitest.config.ts), for the challenges this server issues.
    LOCAL_PROOF_OF_WORK_COST: String(project.config.env.LOCAL_PROOF_OF_WORK_COST ?? ''),
  });
  project.provide('siteOrigin', server.origin);
  return async () => {
    await server.stop();
    rmSync(store, { recursive: true, force: true });
  };
}
