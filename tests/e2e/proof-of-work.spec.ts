/**
 * The proof of work, as a person meets it: none. Every form fetches nothing of it until someone
 * uses the form, solves a challenge in the background while they type, and sends the solution
 * with the submission; when no challenge can be had, the form says it could not send and keeps
 * what was typed, and it sends once challenges are back.
 */
import { expect, test, type Page, type Request } from '@playwright/test';
import { storedLeads, storedSubscriber, uniqueEmail } from '../support/e2e-env';
import { FORMS } from '../support/forms';

/** The solver's chunk, its worker and the challenge endpoint: what a form fetches for its proof of work. */
const PROOF_OF_WORK = /\/_astro\/(altcha-solver|pbkdf2)[^/]*\.js$|\/api\/challenge$/;

function watchProofOfWork(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (PROOF_OF_WORK.test(new URL(request.url()).pathname)) fetched.push(new URL(request.url()).pathname);
  });
  return fetched;
}

const isPostTo = (endpoint: string) => (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname === endpoint;

async function stored(endpoint: string, email: string): Promise<boolean> {
  if (endpoint === '/api/leads/create') return (await storedLeads(email)).length === 1;
  return (await storedSubscriber(email)) !== undefined;
}

for (const form of FORMS) {
  test.describe(form.name, () => {
    test('solves a challenge in the background once it is used, and is stored with its solution', async ({ page }) => {
      const fetched = watchProofOfWork(page);
      const email = uniqueEmail('pow');
      const locator = await form.open(page);
      await page.waitForLoadState('networkidle');
      expect(fetched, 'nothing of the proof of work before the form is used').toEqual([]);

      for (const [label, value] of Object.entries(form.fields(email)))
        await locator.getByLabel(label, { exact: true }).fill(value);
      const sent = page.waitForRequest(isPostTo(form.endpoint));
      await locator.getByRole('button', { name: form.button }).click();
      const request = await sent;
      const { altcha } = request.postDataJSON() as { altcha?: string };
      // ALTCHA's payload: base64 of the challenge the site issued and the solution found for it.
      const payload = JSON.parse(Buffer.from(altcha ?? '', 'base64').toString('utf8')) as {
        challenge: { parameters: { algorithm: string } };
        solution: { counter: number; derivedKey: string };
      };
      expect(payload.challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
      expect(payload.solution.derivedKey).toMatch(/^[0-9a-f]{64}$/);
      expect((await request.response())?.status()).toBe(201);
      await expect(form.success(page, locator)).toBeVisible();
      expect(await stored(form.endpoint, email)).toBe(true);
      expect(fetched).toContain('/api/challenge');
      expect(
        fetched.some((path) => path.includes('pbkdf2')),
        'the worker is a file of the site',
      ).toBe(true);
    });

    test('without a challenge, says it could not send, keeps what was typed, and sends once challenges are back', async ({
      page,
    }) => {
      await page.route('**/api/challenge', (route) => route.abort('connectionrefused'));
      const email = uniqueEmail('pow-down');
      const locator = await form.open(page);
      const fields = form.fields(email);
      for (const [label, value] of Object.entries(fields)) await locator.getByLabel(label, { exact: true }).fill(value);
      const posts: string[] = [];
      page.on('request', (request) => isPostTo(form.endpoint)(request) && posts.push(request.url()));

      await locator.getByRole('button', { name: form.button }).click();
      // The press may come before the form's script has run (the dialog's form loads when the
      // dialog opens): the script then takes the press, asks for a challenge and is refused. On a
      // busy two-core machine that chain has taken over 5 seconds in the dialog.
      await expect(form.failure(page, locator)).toBeVisible({ timeout: 15_000 });
      for (const [label, value] of Object.entries(fields))
        await expect(locator.getByLabel(label, { exact: true })).toHaveValue(value);
      expect(posts, 'nothing is posted without a proof of work').toEqual([]);
      expect(await stored(form.endpoint, email)).toBe(false);

      await page.unroute('**/api/challenge');
      await locator.getByRole('button', { name: form.button }).click();
      // This click fetches a challenge and solves it before sending (up to 120 tries of 5,000
      // PBKDF2 iterations), where the first test's was solved while the fields were filled: on
      // a busy two-core machine that alone has taken over 5 seconds.
      await expect(form.success(page, locator)).toBeVisible({ timeout: 20_000 });
      expect(await stored(form.endpoint, email)).toBe(true);
    });
  });
}
