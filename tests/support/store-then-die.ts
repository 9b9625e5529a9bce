/**
 * A function process that stores a lead and is killed while delivering it: run by the delivery
 * test as a child, with the store and mail settings in its environment. It posts one contact
 * lead to the real handler, prints `stored` once the answer is 201, and keeps the delivery it
 * started running (the test's SMTP server never answers) until the test kills it with SIGKILL.
 */
import path from 'node:path';
import type { Context } from '@netlify/functions';
import { createContext, importBundled } from '../../scripts/harness/functions.ts';
import { PROJECT_ROOT } from '../../scripts/harness/project.ts';
import { proofFromHandler } from './solved-proofs.ts';

type Handler = (request: Request, context: Context) => Promise<Response>;

const root = process.env.BUNDLE_ROOT ?? PROJECT_ROOT;
const { default: leadsCreate } = await importBundled<{ default: Handler }>(
  root,
  path.join('functions', 'leads-create.ts'),
);
const { default: challenge } = await importBundled<{ default: Handler }>(root, path.join('functions', 'challenge.ts'));
const response = await leadsCreate(
  new Request('http://localhost:4321/api/leads/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Killed Midway',
      email: 'midway@example.com',
      source: 'contact_form',
      notes: 'Still there?',
      altcha: await proofFromHandler(challenge),
    }),
  }),
  createContext({ ip: '203.0.113.99' }),
);
console.log(response.status === 201 ? 'stored' : `failed ${response.status}`);
// The delivery goes on in the background until the process is killed.
setInterval(() => undefined, 1000);
