import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './scripts/harness/chromium';
import {
  E2E_ADMIN_PASSWORD,
  E2E_BROKEN_PORT,
  E2E_PORT,
  E2E_SESSION_SECRET,
  E2E_STORE_DIR,
} from './tests/support/e2e-env';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // Every run has a store of its own (E2E_STORE_DIR), removed when the run ends.
  globalTeardown: './tests/support/e2e-teardown.ts',
  retries: 0,
  // A journey (log in, visit every section, check each with axe) takes 15 s alone and twice that
  // when two workers share a 2-core machine: 60 s a test, against Playwright's 30, keeps a slow
  // machine from failing a test that is only slow. Each expectation keeps its own 5 s.
  timeout: 60_000,
  workers: process.env.CI ? 2 : undefined,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    // Recording a trace costs every test a fifth of its time, and a CI run's test-results/ is not
    // kept: CI prints each failure; a run on your machine keeps the trace of each test that fails.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS },
      },
    },
  ],
  webServer: [
    {
      // The production build, served by the same local server as `npm start`, with its own store.
      command: 'node scripts/serve/serve.ts',
      env: {
        PORT: String(E2E_PORT),
        LOCAL_STORE_DIR: E2E_STORE_DIR,
        RATE_LIMIT_PER_MINUTE: '1000',
        ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
        SESSION_SECRET: E2E_SESSION_SECRET,
        // The tests count the outbox's entries: the owner's weekly letter would be one more, on
        // whatever day they run (tests/integration/weekly-report.test.ts covers it on a set clock).
        WEEKLY_REPORT: 'off',
      },
      url: `http://localhost:${E2E_PORT}/`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // The same build with a store that cannot be reached: every form submission fails on the server.
      command: 'node scripts/serve/isolated.ts',
      env: {
        PORT: String(E2E_BROKEN_PORT),
        UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:9',
        UPSTASH_REDIS_REST_TOKEN: 'unreachable',
        STORE_TIMEOUT_MS: '1500',
        WEEKLY_REPORT: 'off',
      },
      url: `http://localhost:${E2E_BROKEN_PORT}/`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
