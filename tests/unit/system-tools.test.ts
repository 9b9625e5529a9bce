import { describe, expect, test } from 'vitest';
import { plan, TOOLS, type Machine } from '../../scripts/setup/system-tools';

const chromium = TOOLS.find((tool) => tool.name === 'chromium')!;
const java = TOOLS.find((tool) => tool.name === 'java')!;
const debianRoot: Machine = { hasApt: true, isRoot: true, hasPasswordlessSudo: false };

describe('the system-tools check before npm test', () => {
  test('does nothing when every tool is there', () => {
    expect(plan([], debianRoot)).toEqual({ action: 'none' });
  });

  test('installs the missing packages with apt-get as root', () => {
    expect(plan([chromium, java], debianRoot)).toEqual({
      action: 'install',
      commands: [
        ['apt-get', 'update', '-qq'],
        [
          'env',
          'DEBIAN_FRONTEND=noninteractive',
          'apt-get',
          'install',
          '-y',
          '-qq',
          '--no-install-recommends',
          'chromium',
          'default-jre-headless',
        ],
      ],
    });
  });

  test('installs through sudo -n when sudo needs no password', () => {
    const next = plan([java], { hasApt: true, isRoot: false, hasPasswordlessSudo: true });
    expect(
      next.action === 'install' && next.commands.every((command) => command[0] === 'sudo' && command[1] === '-n'),
    ).toBe(true);
  });

  test('stops with the apt-get command for a user who may not install', () => {
    const next = plan([chromium, java], { hasApt: true, isRoot: false, hasPasswordlessSudo: false });
    expect(next.action).toBe('stop');
    expect(next.action === 'stop' && next.message).toContain('sudo apt-get install -y chromium default-jre-headless');
  });

  test('names the tools and their Debian packages where there is no apt-get', () => {
    const next = plan([chromium], { hasApt: false, isRoot: true, hasPasswordlessSudo: false });
    expect(next.action === 'stop' && next.message).toMatch(
      /install chromium with your system's package manager \(Debian packages: chromium\)/,
    );
  });
});
