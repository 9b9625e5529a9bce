import { defineConfig } from 'vitest/config';

/**
 * One Vitest project per test folder, named by what its tests need (see tests/README.md):
 * `vitest run --project unit` runs the pure tests alone, on a fresh clone, in seconds.
 */
export default defineConfig({
  test: {
    // The site's local address follows PORT (src/site.config.ts); the tests expect its default,
    // whatever the shell exports (servers they start are given their own).
    // Proofs of work cost a hundredth of the live site's (LOCAL_PROOF_OF_WORK_COST, local runs only):
    // the tests solve one for every form they post, by the same steps.
    env: { PORT: '', LOCAL_PROOF_OF_WORK_COST: '50' },
    testTimeout: 30_000,
    // Vitest's default is one worker per core but one, which on a 2-core machine runs one file at a
    // time. The unit and integration files wait on a redis-server, an SMTP server or a child process
    // far more than they compute, so four at once keep both cores busy. The build tests build copies
    // of the site and drive Chromium, which keep a core each: `npm test` runs them two at a time
    // (scripts/checks/test-all.ts), and a build gets two minutes.
    maxWorkers: 4,
    hookTimeout: 60_000,
    projects: ['unit', 'integration', 'build'].map((name) => ({
      extends: true,
      test: {
        name,
        include: [`tests/${name}/**/*.test.ts`],
        // One local production server for the build tests that ask it (tests/support/build-server.ts).
        ...(name === 'build' ? { globalSetup: ['tests/support/build-server.ts'], testTimeout: 120_000 } : {}),
      },
    })),
  },
});
