/** Calling the functions as Netlify would, for the tests of the admin's newsletter and visits actions. */
import adminLogin from '../../functions/admin-login';
import { createContext } from '../../scripts/harness/functions';

export const ORIGIN = 'http://localhost:4321';

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
