/** Calling the functions as Netlify would, for the build tests of the admin's newsletter actions. */
import adminLogin from '../../functions/admin-login';
import { createContext } from '../../scripts/harness/functions';

export const ORIGIN = 'http://localhost:4321';

/** The variables these tests set for the functions, cleared before each test. */
export const ENV_KEYS = [
  'SITE_LOCAL_RUN',
  'LOCAL_STORE_DIR',
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
  'SMTP_URL',
  'MAIL_FROM',
  'LEADS_NOTIFY_TO',
  'LEAD_WEBHOOK_URL',
  'ADMIN_PASSWORD',
  'SESSION_SECRET',
  'MAIL_RATE_PER_MINUTE',
  'NEWSLETTER_AUTO_SEND_HOURS',
  'WEEKLY_REPORT',
  'SITE_TIME_ZONE',
  'VISITS_PER_MINUTE',
];

type Handler = typeof adminLogin;

/** Runs a handler with a real Request and waits for what it handed to context.waitUntil. */
export async function call(
  handler: Handler,
  pathname: string,
  init: RequestInit & { params?: Record<string, string>; ip?: string } = {},
) {
  const pending: Promise<unknown>[] = [];
  const { params, ip = '203.0.113.20', ...rest } = init;
  const response = await handler(
    new Request(`${ORIGIN}${pathname}`, rest),
    createContext({ ip, params, waitUntil: (promise) => pending.push(promise) }),
  );
  await Promise.all(pending);
  return response;
}

/** The owner's session cookie, or '' when the login was refused. */
export async function logIn(password: string): Promise<string> {
  const login = await call(adminLogin, '/api/admin/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  return /^[^=;]+=[^;]*/.exec(login.headers.get('set-cookie') ?? '')?.[0] ?? '';
}
