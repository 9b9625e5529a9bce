/**
 * A redis-server and the Upstash REST bridge in front of it, in a process of their own, so the
 * store's work (every round trip of the functions and of their delivery) never shares an event
 * loop with the load generator that times the answers, as a remote Upstash would not. Prints
 * `{ "url": URL, "token": TOKEN }` as its first line and stops both when its stdin ends.
 */
import { randomBytes } from 'node:crypto';
import { startRedisServer } from './redis-server.ts';
import { startUpstashBridge } from './upstash-bridge.ts';

const token = randomBytes(16).toString('hex');
const redis = await startRedisServer();
const bridge = await startUpstashBridge({ redisUrl: redis.url, token });
console.log(JSON.stringify({ url: bridge.url, token }));
process.stdin.resume();
process.stdin.once('end', async () => {
  await bridge.stop();
  await redis.stop();
  process.exit(0);
});
