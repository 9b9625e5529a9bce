/** Changing a throw-away copy of the site (scripts/harness/site-copy.ts) for the build tests that build it. */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { SiteCopy } from '../../scripts/harness/site-copy';

/** Rewrites one file of the copy; an edit that changes nothing fails, so a test never builds what it did not mean to. */
export function edit(copy: SiteCopy, file: string, change: (text: string) => string) {
  const full = copy.file(file);
  const before = readFileSync(full, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${file} changed nothing`).not.toBe(before);
  writeFileSync(full, after);
}
