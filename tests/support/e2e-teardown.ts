/** Playwright's global teardown: removes the store this run made (see E2E_STORE_DIR). */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { E2E_STORE_DIR, E2E_STORE_PREFIX } from './e2e-env';

export default function removeRunStore(): void {
  // Only a folder a run made: never one that a person named in E2E_STORE_DIR.
  const inTemp = path.dirname(E2E_STORE_DIR) === path.resolve(tmpdir());
  if (inTemp && path.basename(E2E_STORE_DIR).startsWith(E2E_STORE_PREFIX)) {
    rmSync(E2E_STORE_DIR, { recursive: true, force: true });
  }
}
