import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, apiRequest, errorText, throwIfResNotOk } from '../../lib/api-client';
import { Button } from '../ui/button';
import { Field, FormAlert, Input } from '../ui/field';

const loadDashboard = () => import('./admin/AdminDashboard');
const AdminDashboard = lazy(loadDashboard);

type Session =
  | { state: 'checking' }
  /** `ended`: a call found the session over, and the login form says so. */
  | { state: 'anonymous'; ended?: boolean }
  | { state: 'authenticated' }
  | { state: 'not-configured'; message: string }
  | { state: 'failed' };

/**
 * The owner's page: a login form until the server says the session cookie is good, then the
 * dashboard. Only React and this form load with the page; the dashboard's code follows a login.
 */
export function AdminApp({ externalDashboardUrl }: { externalDashboardUrl?: string }) {
  const [session, setSession] = useState<Session>({ state: 'checking' });

  const logOut = useCallback(() => setSession({ state: 'anonymous' }), []);
  const endSession = useCallback(() => setSession({ state: 'anonymous', ended: true }), []);

  useEffect(() => {
    const controller = new AbortController();
    checkSession(controller.signal).then(
      setSession,
      (error: unknown) => controller.signal.aborted || setSession(sessionFromError(error)),
    );
    return () => controller.abort();
  }, []);

  switch (session.state) {
    case 'checking':
      return <Panel>Checking your session…</Panel>;
    case 'failed':
      return (
        <Panel>
          <FormAlert tone="error">The dashboard could not be loaded. Reload the page to try again.</FormAlert>
        </Panel>
      );
    case 'not-configured':
      return (
        <Panel>
          <NotConfigured message={session.message} />
        </Panel>
      );
    case 'anonymous':
      return <LoginForm sessionEnded={session.ended} onLogin={() => setSession({ state: 'authenticated' })} />;
    case 'authenticated':
      return (
        <Suspense fallback={<Panel>Loading the dashboard…</Panel>}>
          <AdminDashboard externalDashboardUrl={externalDashboardUrl} onLogout={logOut} onSessionEnd={endSession} />
        </Suspense>
      );
  }
}

async function checkSession(signal: AbortSignal): Promise<Session> {
  const response = await fetch('/api/admin/session', { credentials: 'include', signal });
  await throwIfResNotOk(response);
  const { authenticated } = (await response.json()) as { authenticated: boolean };
  return { state: authenticated ? 'authenticated' : 'anonymous' };
}

function sessionFromError(error: unknown): Session {
  return error instanceof ApiError && error.status === 503
    ? { state: 'not-configured', message: errorText(error) }
    : { state: 'failed' };
}

/** The panel the login form and the session states share; its height is the form's, so nothing below it moves. */
function Panel({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto min-h-80 max-w-md rounded-(--radius-card) bg-white p-8 shadow-(--shadow-card) ring-1 ring-ink-100">
      {children}
    </div>
  );
}

function NotConfigured({ message }: { message: string }) {
  return (
    <div className="grid gap-3">
      <h2 className="text-xl font-bold">Admin login is not configured</h2>
      <p className="text-ink-700">{message}</p>
    </div>
  );
}

function LoginForm({ sessionEnded = false, onLogin }: { sessionEnded?: boolean; onLogin: () => void }) {
  const [error, setError] = useState<ReactNode>(
    sessionEnded ? 'Your session has ended. Log in again to continue.' : undefined,
  );
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setSubmitting(true);
    setError(undefined);
    try {
      await apiRequest('POST', '/api/admin/login', { password });
      onLogin();
    } catch (failure) {
      const status = failure instanceof ApiError ? failure.status : 0;
      if (status === 401) setError('Invalid password');
      else if (status === 503 && errorText(failure).startsWith('Admin login'))
        setError(<NotConfigured message={errorText(failure)} />);
      else setError(errorText(failure));
      setSubmitting(false);
    }
  }

  return (
    <Panel>
      <form onSubmit={onSubmit} className="grid gap-5" aria-label="Admin login">
        <h2 className="text-2xl font-extrabold tracking-tight">Log in</h2>
        {/* Password managers file the password under this name. */}
        <input type="text" name="username" value="admin" autoComplete="username" readOnly hidden />
        {/* Someone about to log in gets the dashboard's code while they type. */}
        <Field label="Password">
          {(control) => (
            <Input
              {...control}
              name="password"
              type="password"
              required
              autoComplete="current-password"
              onFocus={() => void loadDashboard()}
            />
          )}
        </Field>
        <Button type="submit" size="lg" disabled={submitting}>
          {submitting ? 'Checking…' : 'Log in'}
        </Button>
        {error && <FormAlert tone="error">{error}</FormAlert>}
      </form>
    </Panel>
  );
}
