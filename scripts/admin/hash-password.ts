/**
 * Hashes an admin password for the ADMIN_PASSWORD_HASH environment variable.
 *
 *   npm run admin:hash-password                    asks for it (input hidden on a terminal)
 *   printf '%s\n' "$PW" | node scripts/admin/hash-password.ts
 *   node scripts/admin/hash-password.ts 'the password'   lands in shell history: prefer the two above
 *
 * Prints `ADMIN_PASSWORD_HASH=<hash>` on stdout and nothing else, so the output can be
 * redirected or piped; prompts and hints go to stderr.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { hashPassword } from '../../functions/_lib/admin/auth.ts';

const MIN_LENGTH = 12;

/** Reads one line from stdin; on a terminal the prompt goes to stderr and the typing is not echoed. */
function readPasswordLine(): Promise<string> {
  const terminal = Boolean(process.stdin.isTTY);
  if (terminal) process.stderr.write('Password: ');
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: process.stdin, output: terminal ? silent : undefined, terminal });
  return new Promise((resolve) => {
    let answer = '';
    lines.once('line', (line) => {
      answer = line;
      lines.close();
    });
    lines.once('close', () => {
      if (terminal) process.stderr.write('\n');
      resolve(answer);
    });
  });
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const password = process.argv[2] ?? (await readPasswordLine());
if (password === '') fail('No password given: pass it as the first argument or on stdin.');
if ([...password].length < MIN_LENGTH) fail(`The password is too short: use at least ${MIN_LENGTH} characters.`);

process.stdout.write(`ADMIN_PASSWORD_HASH=${await hashPassword(password)}\n`);
process.stderr.write(
  "Paste this line into the site's environment variables (Netlify: Site configuration → Environment variables), " +
    'or into .env for the local server. Keep it secret: it is not the password, but it lets anyone try guesses offline.\n',
);
