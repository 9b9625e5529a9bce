// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/** Admin sessions, kept server-side so that logout and expiry really revoke them, and the login attempts counted per client. */
import type { Backend } from './backend';
import { KEYS } from './keys';
import type { LoginAttempts } from './types';

export function sessionVerbs(backend: Backend) {
  return {
    async createSession(sessionId: string, expiresAt: Date): Promise<void> {
      const ttlMs = Math.max(1000, expiresAt.getTime() - Date.now());
      await backend.commit([], [{ op: 'put', key: KEYS.session(sessionId), value: expiresAt.toISOString(), ttlMs }]);
    },

    async hasSession(sessionId: string, now: Date): Promise<boolean> {
      const [expiresAt] = await backend.get([KEYS.session(sessionId)]);
      return typeof expiresAt === 'string' && Date.parse(expiresAt) > now.getTime();
    },

    async deleteSession(sessionId: string): Promise<void> {
      await backend.commit([], [{ op: 'del', key: KEYS.session(sessionId) }]);
    },

    /**
     * Counts an admin login attempt of a client, atomically, before its password is checked: the
     * answer is this attempt's number in the current window (which starts at the first attempt
     * and lasts windowSeconds), so however many arrive at once, each gets its own number.
     */
    countLoginAttempt(client: string, windowSeconds: number, now: Date): Promise<LoginAttempts> {
      return backend.tally(KEYS.loginAttempts(client), windowSeconds * 1000, now);
    },

    /** Forgets a client's attempts (after a successful login). */
    clearLoginAttempts(client: string): Promise<void> {
      return backend.clearTally(KEYS.loginAttempts(client));
    },
  };
}
