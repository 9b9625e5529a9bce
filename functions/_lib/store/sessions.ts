// functions/_lib/store keeps the records: the operations and their rules, over two backends that only keep data.
/**
 * Admin sessions, kept server-side so that logout and expiry really revoke them, and the login
 * attempts counted per client. A session belongs to the password it was opened with: a new
 * password ends every older session, and so does "Log out everywhere".
 */
import { parse, type Backend } from './backend';
import { KEYS } from './keys';
import type { LoginAttempts } from './types';

/** What the store keeps of a session. */
interface SessionMark {
  /** ISO time it ends. */
  expiresAt: string;
  /** A tag of the password it was opened with (never the password or its hash). */
  passwordTag: string;
  /** When it was opened (ms). */
  openedAt: number;
}

export function sessionVerbs(backend: Backend) {
  return {
    async createSession(sessionId: string, expiresAt: Date, passwordTag: string, now = new Date()): Promise<void> {
      const mark: SessionMark = { expiresAt: expiresAt.toISOString(), passwordTag, openedAt: now.getTime() };
      const ttlMs = Math.max(1000, expiresAt.getTime() - Date.now());
      await backend.commit([], [{ op: 'put', key: KEYS.session(sessionId), value: JSON.stringify(mark), ttlMs }]);
    },

    /**
     * Whether a session is live: unexpired, opened with the password of this tag, and after the
     * last "Log out everywhere". A session stored before sessions had a tag is not.
     */
    async hasSession(sessionId: string, now: Date, passwordTag: string): Promise<boolean> {
      const [value, notBefore] = await backend.get([KEYS.session(sessionId), KEYS.sessionsNotBefore]);
      const mark = value?.startsWith('{') ? parse<SessionMark>(value) : undefined;
      if (!mark || mark.passwordTag !== passwordTag) return false;
      return Date.parse(mark.expiresAt) > now.getTime() && mark.openedAt > Number(notBefore ?? -1);
    },

    async deleteSession(sessionId: string): Promise<void> {
      await backend.commit([], [{ op: 'del', key: KEYS.session(sessionId) }]);
    },

    /** "Log out everywhere": every session opened until now ends. */
    async endAllSessions(now: Date): Promise<void> {
      await backend.commit([], [{ op: 'put', key: KEYS.sessionsNotBefore, value: String(now.getTime()) }]);
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
