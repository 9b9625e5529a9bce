/**
 * Many people booking the same time at once, against the local production server on each store:
 * the embedded one, and Upstash through its REST bridge to a real redis-server. Each round sends
 * 20 requests for one open time at once (20 people, each with a solved proof of work), then 30
 * for three neighbouring times whose calls and buffers overlap; it prints what each round got and
 * checks that no two calls booked overlap.
 *
 *   npm run bench:booking-race                 (builds first)
 *   BENCH_ROUNDS=20 npm run bench:booking-race
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { PROJECT_ROOT } from '../harness/project.ts';
import { startRedisServer } from '../harness/redis-server.ts';
import { startSiteServer } from '../harness/site-server.ts';
import { startUpstashBridge } from '../harness/upstash-bridge.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const AT_ONCE = 20;
const TOKEN = 'booking-race';
const hours = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'dist', 'booking-hours.json'), 'utf8')) as {
  bufferMinutes: number;
};

interface Slot {
  start: string;
  end: string;
}

/** A solved proof of work from the running site, as a script would send it (docs/api.md). */
async function proof(origin: string): Promise<string> {
  const challenge = (await (await fetch(`${origin}/api/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** POST /api/bookings for `start` by person `n`; answers the status and, when booked, the call. */
async function book(origin: string, start: string, n: number, altcha: string) {
  const response = await fetch(`${origin}/api/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      start,
      name: `Person ${n}`,
      email: `person-${n}-${crypto.randomUUID().slice(0, 8)}@example.com`,
      timeZone: 'Europe/Paris',
      altcha,
    }),
  });
  const body = (await response.json()) as Partial<Slot>;
  return { status: response.status, call: response.status === 201 ? (body as Slot) : undefined };
}

/** Sends every request at once, each with a proof solved beforehand; answers the statuses and the calls booked. */
async function race(origin: string, starts: string[]) {
  const proofs = await Promise.all(starts.map(() => proof(origin)));
  const began = performance.now();
  const answers = await Promise.all(starts.map((start, n) => book(origin, start, n, proofs[n] ?? '')));
  const ms = performance.now() - began;
  const count = (status: number) => answers.filter((answer) => answer.status === status).length;
  const calls = answers.flatMap((answer) => (answer.call ? [answer.call] : []));
  return { booked: count(201), refused: count(409), other: answers.length - count(201) - count(409), calls, ms };
}

/** Whether any two calls, each with the buffer after it, overlap. */
function overlapping(calls: Slot[]): boolean {
  const held = calls.map((call) => ({
    start: Date.parse(call.start),
    end: Date.parse(call.end) + hours.bufferMinutes * 60_000,
  }));
  return held.some((a, i) => held.some((b, j) => i !== j && a.start < b.end && b.start < a.end));
}

async function rounds(label: string, env: Record<string, string>) {
  const server = await startSiteServer({ RATE_LIMIT_PER_MINUTE: '100000', ...env });
  try {
    const { slots } = (await (await fetch(`${server.origin}/api/booking/slots`)).json()) as { slots: Slot[] };
    console.log(`\n${label}: ${slots.length} open times`);
    console.log('round  one time: 201 / 409 / other    ms   three overlapping times: 201 / 409 / other  overlap');
    let failures = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Each round on times of its own: the one time, then three in a row whose calls and buffers overlap.
      const [one, a, b, c] = slots.slice(round * 6, round * 6 + 4);
      if (!one || !a || !b || !c) throw new Error('not enough open times for the rounds');
      const single = await race(
        server.origin,
        Array.from({ length: AT_ONCE }, () => one.start),
      );
      const three = await race(
        server.origin,
        Array.from({ length: 30 }, (_, n) => [a, b, c][n % 3]?.start ?? a.start),
      );
      const overlap = overlapping(three.calls);
      if (single.booked !== 1 || single.refused !== AT_ONCE - 1 || overlap) failures += 1;
      console.log(
        `${String(round + 1).padStart(5)}  ${String(single.booked).padStart(13)} / ${String(single.refused).padStart(3)} / ${String(single.other).padStart(5)}  ${single.ms.toFixed(0).padStart(5)}` +
          `   ${String(three.booked).padStart(26)} / ${String(three.refused).padStart(3)} / ${String(three.other).padStart(5)}  ${overlap ? 'YES' : 'no'}`,
      );
    }
    console.log(
      failures === 0
        ? `${label}: every round booked the one time once (1 × 201, ${AT_ONCE - 1} × 409) and never two overlapping calls`
        : `${label}: ${failures} of ${ROUNDS} rounds broke the rule`,
    );
    return failures;
  } finally {
    await server.stop();
  }
}

const redis = await startRedisServer();
const bridge = await startUpstashBridge({ redisUrl: redis.url, token: TOKEN });
// The embedded store in a folder of its own: the calls booked here never reach the project's .data.
const folder = mkdtempSync(path.join(tmpdir(), 'bench-booking-race-'));
try {
  const failures =
    (await rounds('embedded store', { LOCAL_STORE_DIR: folder })) +
    (await rounds('Upstash (REST bridge to redis-server)', {
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: TOKEN,
    }));
  process.exitCode = failures === 0 ? 0 : 1;
} finally {
  await bridge.stop();
  await redis.stop();
  rmSync(folder, { recursive: true, force: true });
}
