/**
 * What `astro build` runs first, again and again in one process: the integrations' setup and the
 * content sync, which loads content/ through the collections' loaders and schemas and fails on a
 * mistake. A copy of the site is checked in about 1.5 s, where `astro build` takes 4 s to reach
 * the same point. Started by `checkContent` (scripts/harness/site-copy.ts).
 *
 * Each message `{ root }` is answered with `{ error }`: the message the build would fail with, and
 * Astro's hint; `{}` when nothing is wrong.
 */
import { sync } from 'astro';

process.on('message', (request: { root: string }) => {
  // The copy's own folder, as for its builds: Astro reads the .env files of the working folder.
  process.chdir(request.root);
  sync({ root: request.root, logLevel: 'silent' }).then(
    () => process.send?.({}),
    (error: unknown) => {
      const { message, hint } = error as { message?: string; hint?: string };
      process.send?.({ error: [message, hint].filter(Boolean).join('\n') });
    },
  );
});

// A failed sync leaves Astro's cache of the copy to be saved half a second later; the test may
// have removed the copy by then. Nothing is lost: the copy's cache goes with the copy.
process.on('unhandledRejection', (reason) => {
  const cause = (reason as { cause?: NodeJS.ErrnoException }).cause;
  if (cause?.code === 'ENOENT' && cause.path?.includes('/node_modules/.astro/')) return;
  throw reason;
});

// The test process that started it is gone: so is it.
process.on('disconnect', () => process.exit(0));
