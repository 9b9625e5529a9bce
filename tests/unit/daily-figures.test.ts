/**
 * The overview counts leads, sign-ups and confirmations on days in the site's time zone
 * (SITE_TIME_ZONE), from the times the records hold, as the Visits figures do.
 */
import { describe, expect, test } from 'vitest';
import { confirmationsOf, countByDay, lastDays } from '../../functions/_lib/admin/daily-figures';
import type { Subscriber } from '../../src/shared/records';

describe('lastDays', () => {
  test('are the days ending today, oldest first, across a month and a year', () => {
    expect(lastDays('2027-01-02', 4)).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(lastDays('2026-11-02', 90)).toHaveLength(90);
  });
});

describe('countByDay', () => {
  const days = ['2026-01-13', '2026-01-14'];
  const late = [
    { at: '2026-01-13T22:30:00.000Z', source: 'contact_form' },
    { at: '2026-01-13T23:30:00.000Z', source: 'contact_form' },
    { at: '2026-01-13T23:45:00.000Z', source: 'zoho_guide' },
  ];

  test('puts a record of 23:30 UTC on a winter evening on the next day in Paris, on the same day in UTC', () => {
    expect(countByDay(late, days, 'Europe/Paris')).toEqual({
      '2026-01-13': { contact_form: 1 },
      '2026-01-14': { contact_form: 1, zoho_guide: 1 },
    });
    expect(countByDay(late, days, 'UTC')).toEqual({ '2026-01-13': { contact_form: 2, zoho_guide: 1 } });
  });

  test('leaves out what falls outside the days, in their zone', () => {
    const edges = [
      { at: '2026-01-12T22:59:59.999Z', source: 'a' },
      { at: '2026-01-12T23:00:00.000Z', source: 'b' },
      { at: '2026-01-14T22:59:59.999Z', source: 'c' },
      { at: '2026-01-14T23:00:00.000Z', source: 'd' },
    ];
    expect(countByDay(edges, days, 'Europe/Paris')).toEqual({ '2026-01-13': { b: 1 }, '2026-01-14': { c: 1 } });
  });

  test("keeps a form named like Object.prototype's members a count", () => {
    const counts = countByDay(
      ['__proto__', 'constructor', 'constructor'].map((source) => ({ at: '2026-01-13T12:00:00Z', source })),
      days,
      'UTC',
    );
    expect(Object.entries(counts['2026-01-13'] ?? {}).sort()).toEqual([
      ['__proto__', 1],
      ['constructor', 2],
    ]);
  });
});

describe('confirmationsOf', () => {
  test('gives every confirmation the record keeps, earlier consents included, under the first form', () => {
    const subscriber: Subscriber = {
      email: 'ada@example.com',
      firstName: 'Ada',
      sources: ['website_footer', 'newsletter_footer'],
      createdAt: '2025-12-01T10:00:00.000Z',
      updatedAt: '2026-01-13T23:30:00.000Z',
      status: 'confirmed',
      consent: {
        subscribedAt: '2026-01-13T23:00:00.000Z',
        form: 'newsletter_footer',
        confirmedAt: '2026-01-13T23:30:00.000Z',
        earlier: [
          {
            subscribedAt: '2025-12-01T10:00:00.000Z',
            form: 'website_footer',
            confirmedAt: '2025-12-01T10:05:00.000Z',
            unsubscribedAt: '2025-12-20T08:00:00.000Z',
          },
          { subscribedAt: '2025-12-30T10:00:00.000Z', form: 'website_footer' },
        ],
      },
    };
    expect(confirmationsOf(subscriber)).toEqual([
      { at: '2026-01-13T23:30:00.000Z', source: 'website_footer' },
      { at: '2025-12-01T10:05:00.000Z', source: 'website_footer' },
    ]);
    expect(confirmationsOf({ ...subscriber, status: 'pending', consent: { subscribedAt: '', form: '' } })).toEqual([]);
  });
});
