/**
 * The browser of the e2e tests and the audit: Debian's Chromium (or CHROMIUM_PATH), never one
 * downloaded by Playwright. The flags keep it from calling Google's services, which a closed
 * network refuses many times a second, and from prompting on a first run.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
