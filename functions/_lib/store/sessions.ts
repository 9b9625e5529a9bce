// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * Admin sessions, kept server-side so that logout and expiry really revoke them, and the login
 * attempts counted per client. A session belongs to the password it was opened with: a new
 * password ends every older session, and so does "Log out everywhere".
 */
import { parse, transact, type Backend } from './backend-contract';
import { KEYS } from './keys';
import type { LoginAttempts } from './types';

/** What the store keeps of a session. */
interface SessionMark {
  /** ISO time it ends. */
  expiresAt: string;
  /** A tag of the password it was opened with (never the password or its hash). */
  passwordTag: string;
  /**
   * The generation of sessions it was opened in: "Log out everywhere" starts a new one. A
   * generation rather than a time, so that no clock, and no session opened in the same
   * millisecond, decides which side of it a session falls on.
   */
  generation: string;
}

export function sessionVerbs(backend: Backend) {
  return {
    /** Opens a session in the current generation; a "Log out everywhere" meanwhile makes it plan again. */
    createSession(sessionId: string, expiresAt: Date, passwordTag: string): Promise<void> {
      const ttlMs = Math.max(1000, expiresAt.getTime() - Date.now());
      return transact(backend, {
        keys: [KEYS.sessionsGeneration],
        plan: (values) => {
          const generation = values.get(KEYS.sessionsGeneration) ?? '';
          const mark: SessionMark = { expiresAt: expiresAt.toISOString(), passwordTag, generation };
          return {
            writes: [{ op: 'put', key: KEYS.session(sessionId), value: JSON.stringify(mark), ttlMs }],
            result: undefined,
          };
        },
      });
    },

    /**
     * Whether a session is live: unexpired, opened with the password of this tag, and since the
     * last "Log out everywhere". A session stored before sessions had both marks is not.
     */
    async hasSession(sessionId: string, now: Date, passwordTag: string): Promise<boolean> {
      const [value, generation] = await backend.get([KEYS.session(sessionId), KEYS.sessionsGeneration]);
      const mark = value?.startsWith('{') ? parse<SessionMark>(value) : undefined;
      if (!mark || mark.passwordTag !== passwordTag || mark.generation !== (generation ?? '')) return false;
      return Date.parse(mark.expiresAt) > now.getTime();
    },

    async deleteSession(sessionId: string): Promise<void> {
      await backend.commit([], [{ op: 'del', key: KEYS.session(sessionId) }]);
    },

    /** "Log out everywhere": every session opened until now ends, and a new generation begins. */
    async endAllSessions(): Promise<void> {
      await backend.commit([], [{ op: 'put', key: KEYS.sessionsGeneration, value: crypto.randomUUID() }]);
    },

    /**
     * Counts an admin login attempt of a client (a keyed hash of its address, never the address:
     * admin/session.ts's loginClient()), atomically, before its password is checked: the answer is
     * this attempt's number in the current window (which starts at the first attempt and lasts
     * windowSeconds), so however many arrive at once, each gets its own number.
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
