import { describe, expect, test } from 'vitest';
import { DEFAULT_ADDRESS, readAddress } from '../../scripts/serve/startup-checks';

describe('readAddress: where npm start listens', () => {
  test('4321 on localhost unless PORT and HOST say otherwise', () => {
    expect(readAddress({})).toEqual({ address: DEFAULT_ADDRESS, problems: [] });
    expect(readAddress({ PORT: ' 4833 ', HOST: '0.0.0.0' })).toEqual({
      address: { port: 4833, host: '0.0.0.0' },
      problems: [],
    });
  });

  // The same PORT the build takes for the site's local address (src/site.config.ts): a value one
  // of them read as a number and the other refused would serve the site where its links do not point.
  test.each(['eighty', '0', '65536', '1e4', '8080.0', '-1', '0x1F90'])('refuses PORT=%s', (port) => {
    expect(readAddress({ PORT: port }).problems).toEqual(['PORT: must be a whole number from 1 to 65535']);
  });
});
