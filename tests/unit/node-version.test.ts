/**
 * One Node version, said the same way everywhere: .nvmrc, netlify.toml, the `node` dev dependency
 * (which npm puts first on the PATH of every npm script) and the README; `engines` gives the
 * oldest Node the packages accept, which the README explains.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/harness/project';

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
const pinned = read('.nvmrc').trim();
const manifest = JSON.parse(read('package.json')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { version?: string; devDependencies?: Record<string, string> }>;
};
const readme = read('README.md');

describe('the Node version', () => {
  test('.nvmrc pins an exact version', () => {
    expect(pinned).toMatch(/^22\.\d+\.\d+$/);
  });

  test('netlify.toml builds with it', () => {
    expect(read('netlify.toml')).toMatch(new RegExp(`^\\s*NODE_VERSION = "${pinned.replaceAll('.', '\\.')}"`, 'm'));
  });

  test('the node dev dependency is exactly it, in package.json and the lockfile', () => {
    expect(manifest.devDependencies.node).toBe(pinned);
    expect(lock.packages['']?.devDependencies?.node).toBe(pinned);
    expect(lock.packages['node_modules/node']?.version).toBe(pinned);
  });

  test('engines asks for no more than the pinned version', () => {
    const minimum = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(manifest.engines.node)?.slice(1).map(Number);
    const version = pinned.split('.').map(Number);
    expect(minimum).toHaveLength(3);
    const [a = 0, b = 0, c = 0] = minimum ?? [];
    const [x = 0, y = 0, z = 0] = version;
    expect(a * 1e6 + b * 1e3 + c).toBeLessThanOrEqual(x * 1e6 + y * 1e3 + z);
  });

  test('the README names the pinned version and the engines minimum, and no other Node requirement', () => {
    expect(readme).toContain(`Node.js ${pinned}`);
    expect(readme).toContain(`\`${manifest.engines.node}\``);
    expect(readme).not.toMatch(/Node(\.js)? \d+(\.\d+)*(\+| or later| or newer)/);
  });
});
