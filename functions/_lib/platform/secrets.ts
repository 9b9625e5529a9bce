/**
 * The site's keys, each derived for one purpose from one secret, so that a value signed for one
 * purpose (a newsletter link, a proof-of-work challenge) can never pass for another.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getEnv, isLocalRun, localDataDir } from './env';

let localSecret: string | undefined;

/** A local run without SESSION_SECRET keeps a random secret beside the embedded store, so links and challenges survive a restart. */
function localRunSecret(): string {
  if (localSecret) return localSecret;
  const directory = localDataDir();
  // The file name is the one the first key (the newsletter links') was kept under.
  const file = path.join(directory, 'link-secret');
  try {
    localSecret = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(directory, { recursive: true });
    localSecret = randomBytes(32).toString('base64url');
    writeFileSync(file, localSecret, { mode: 0o600, flag: 'wx' });
  }
  return localSecret;
}

/**
 * A 32-byte key for `purpose`: derived (HKDF-SHA256) from SESSION_SECRET, or from the Upstash
 * token (a secret every deployed site has), or locally from a generated secret. Changing the
 * secret invalidates what was signed with the old keys.
 */
export function derivedKey(purpose: string): Buffer {
  const env = getEnv();
  const secret = env.SESSION_SECRET ?? env.UPSTASH_REDIS_REST_TOKEN ?? (isLocalRun() ? localRunSecret() : undefined);
  if (!secret) throw new Error(`No secret to derive the ${purpose} key from: set SESSION_SECRET`);
  return Buffer.from(hkdfSync('sha256', secret, purpose, 'v1', 32));
}
