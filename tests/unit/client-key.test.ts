import { describe, expect, test } from 'vitest';
import { clientKey } from '../../functions/_lib/forms/client';

describe('clientKey', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:0db8:0001:0002::/64'],
    ['2001:db8:1:2::99', '2001:0db8:0001:0002::/64'],
    ['2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:0db8:0001:0002::/64'],
    ['fe80::1%eth0', 'fe80:0000:0000:0000::/64'],
    ['::1', '0000:0000:0000:0000::/64'],
    ['2001:db8::', '2001:0db8:0000:0000::/64'],
  ])('counts %j as %j', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });

  test('puts every address of one /64 under one key and the next /64 under another', () => {
    const keys = new Set(
      ['2001:db8:aa:bb::1', '2001:db8:aa:bb:1::1', '2001:db8:aa:bb:ffff:ffff:ffff:fffe'].map(clientKey),
    );
    expect(keys.size).toBe(1);
    expect(clientKey('2001:db8:aa:bc::1')).not.toBe(clientKey('2001:db8:aa:bb::1'));
  });

  test.each([[''], ['   '], [undefined], [null], ['unknown'], ['203.0.113'], ['not:an:ip'], ['1.2.3.4.5']])(
    'has no key for %j',
    (ip) => {
      expect(clientKey(ip)).toBeUndefined();
    },
  );
});
