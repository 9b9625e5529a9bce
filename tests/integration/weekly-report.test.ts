/**
 * The owner's weekly letter: a seeded week of views, leads and subscribers, the real sweep on
 * a Monday morning in the site's time zone, and the letter as the local outbox folder keeps it.
 * The build files it reads (mailings, counted pages) are made by tests/support/build-files.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { runSweep } from '../../functions/_lib/delivery/scheduled-sweep';
import { weekDue } from '../../functions/_lib/delivery/weekly-sending';
import { resetEnv } from '../../functions/_lib/platform/env';
import type { View } from '../../functions/_lib/store/visits';
import { MORE_LEADS_WHY } from '../../src/shared/visits-conversion';
import { useBuildFiles } from '../support/build-files';
import { useStores } from '../support/store-setup';
import type { Store } from '../support/stores';

const OWNER = 'owner@loopwork.example';
/** Monday 30 November 2026, 08:15 in Paris: the letter of 23 to 29 November is due. */
const MONDAY_MORNING = Date.parse('2026-11-30T07:15:00Z');

useBuildFiles();
const stores = useStores();

test('the letter is due from Monday 07:00 in the site time zone, for the week just ended', () => {
  expect(weekDue(new Date('2026-11-30T05:59:00Z'), 'Europe/Paris')).toBeUndefined();
  expect(weekDue(new Date('2026-11-30T06:00:00Z'), 'Europe/Paris')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
  // Still Sunday in New York: last week's letter went (or goes) for the week before.
  expect(weekDue(new Date('2026-11-30T03:00:00Z'), 'America/New_York')).toEqual({
    from: '2026-11-16',
    to: '2026-11-22',
  });
});

describe.each(stores.backends)('the weekly letter on %s', (_name, backend) => {
  let store: Store;

  beforeEach(async () => {
    store = await stores.fresh(backend, {
      LEADS_NOTIFY_TO: OWNER,
      SITE_TIME_ZONE: 'Europe/Paris',
    });
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function seedWeek() {
    const view = (day: string, visitor: string, extra: Partial<View> = {}): View => ({
      day,
      visitor,
      path: '/',
      source: 'Direct',
      device: 'desktop',
      ...extra,
    });
    // The week: 6 visitors a day on 23 to 29 November, three of them from a LinkedIn campaign.
    for (const day of [
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ])
      for (const visitor of ['a', 'b', 'c', 'd', 'e', 'f'])
        await store.recordView(
          view(day, `${visitor}-${day}`, {
            path: visitor < 'd' ? '/zoho' : '/sectors',
            source: visitor < 'd' ? 'linkedin' : 'Direct',
          }),
        );
    // The week before: 4 visitors on one day.
    for (const visitor of ['a', 'b', 'c', 'd']) await store.recordView(view('2026-11-18', visitor));
    vi.setSystemTime(Date.parse('2026-11-25T10:00:00Z'));
    const ada = await store.createLead(
      {
        name: 'Ada',
        email: 'ada@example.com',
        source: 'zoho_guide',
        attribution: { landingPage: '/zoho?utm_source=linkedin', utm_source: 'linkedin' },
      },
      new Date(),
    );
    return { ada: ada.record.id };
  }

  /** The letter the sweep writes on Monday morning, as text. */
  async function mondayLetter(): Promise<string> {
    vi.setSystemTime(MONDAY_MORNING);
    expect((await runSweep(store, () => new Date())).weekly).toBe('2026-11-23');
    const outbox = path.join(stores.folder(), 'outbox');
    const letter = readdirSync(outbox).find((name) => name.includes('weekly-report')) ?? '';
    return (await simpleParser(readFileSync(path.join(outbox, letter)))).text ?? '';
  }

  test('on Monday morning the sweep writes one letter with the week against the week before', async () => {
    await seedWeek();
    vi.setSystemTime(MONDAY_MORNING);
    const first = await runSweep(store, () => new Date());
    expect(first.weekly).toBe('2026-11-23');
    const again = await runSweep(store, () => new Date(MONDAY_MORNING + 60_000));
    expect(again.weekly).toBeUndefined();

    const outbox = path.join(stores.folder(), 'outbox');
    const letters = readdirSync(outbox).filter((name) => name.includes('weekly-report'));
    expect(letters).toHaveLength(1);
    const mail = await simpleParser(readFileSync(path.join(outbox, letters[0] ?? '')));
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe(OWNER);
    expect(mail.subject).toMatch(/week of 23 Nov: 42 visitors, 1 lead$/);
    const text = mail.text ?? '';
    expect(text).toContain('Visitors: 42 (week before: 4, +950 %)');
    expect(text).toContain('Leads: 1 (week before: 0, new)');
    expect(text).toMatch(/\/zoho: 21 visitors, 1 lead, 5 % became leads/);
    // Counted as `linkedin`, the lead's utm_source too: both under the site's one name.
    expect(text).toMatch(/LinkedIn: 21 visitors, 1 lead,/);
    expect(text).toContain('/admin/insights#visits');
  });

  test("says how many of the week's leads are won, in total and beside their page and source", async () => {
    const { ada } = await seedWeek();
    await store.createLead(
      { name: 'Grace', email: 'grace@example.com', source: 'contact_form', attribution: { landingPage: '/sectors' } },
      new Date(),
    );
    expect(await store.updateLead(ada, { status: 'won' }, new Date())).toMatchObject({ status: 'won' });
    // The week before: one lead, won since.
    vi.setSystemTime(Date.parse('2026-11-18T10:00:00Z'));
    const before = await store.createLead(
      { name: 'Alan', email: 'alan@example.com', source: 'contact_form', attribution: { landingPage: '/' } },
      new Date(),
    );
    await store.updateLead(before.record.id, { status: 'won' }, new Date('2026-11-26T10:00:00Z'));

    const text = await mondayLetter();
    expect(text).toContain('Leads: 2 (week before: 1, +100 %)');
    expect(text).toContain('Leads won so far: 1 (week before: 1, no change)');
    expect(text).toContain('/zoho: 21 visitors, 1 lead (1 won), 5 % became leads');
    expect(text).toContain('/sectors: 21 visitors, 1 lead, 5 % became leads');
    expect(text).toContain('LinkedIn: 21 visitors, 1 lead (1 won), 5 % became leads');
    expect(text).toContain('Direct: 21 visitors, 1 lead, 5 % became leads');
  });

  test('gives no share over 100 %, leaves out leads from before visits were counted, and names no link', async () => {
    const lead = (name: string, iso: string, attribution: { landingPage: string; utm_source?: string }) =>
      store.createLead(
        { name, email: `${name.toLowerCase()}@example.com`, source: 'contact_form', attribution },
        new Date(iso),
      );
    const lure = 'Visit https://evil.example/login to fix your site';
    // Counting begins on Thursday 26 November: two visitors, and one whose source (stored as it
    // came, as before sources were held to names) is a message to the owner.
    for (const [visitor, source] of [
      ['a', 'Direct'],
      ['b', 'Direct'],
      ['c', lure],
    ] as const)
      await store.recordView({ day: '2026-11-26', visitor, path: '/', source, device: 'desktop' });
    // Tuesday, before counting began: a lead with no visits to be set against.
    await lead('Early', '2026-11-24T10:00:00Z', { landingPage: '/' });
    // Friday: three leads from X, whose visitors asked not to be followed, and one from the lure.
    for (const name of ['Xa', 'Xb', 'Xc'])
      await lead(name, '2026-11-27T10:00:00Z', { landingPage: '/', utm_source: 'x' });
    await lead('Lured', '2026-11-27T11:00:00Z', { landingPage: '/', utm_source: lure });

    const text = await mondayLetter();
    expect(text).toContain('Leads: 5 (week before: 0, new)');
    expect(text).toContain('X: 0 visitors, 3 leads, more leads than visitors (see below)');
    expect(text).toContain('Other sources: 1 visitor, 1 lead, 100 % became leads');
    // Direct: 2 visitors; its lead came before counting began, so 0 of them became leads.
    expect(text).toContain('Direct: 2 visitors, 1 lead, 0 % became leads');
    expect(text).toContain(
      'No visit was counted last week before 26 Nov: 1 lead came before then, and is not in the shares of visitors who became leads.',
    );
    expect(text).toContain(`Where more leads came than visitors, no share is given. ${MORE_LEADS_WHY}`);
    const shares = [...text.matchAll(/(\d+) % became leads/g)].map((match) => Number(match[1]));
    expect(shares.length).toBeGreaterThan(0);
    expect(Math.max(...shares)).toBeLessThanOrEqual(100);
    expect(text).not.toContain('evil.example');
  });

  test('WEEKLY_REPORT=off writes none', async () => {
    process.env.WEEKLY_REPORT = 'off';
    resetEnv();
    await seedWeek();
    vi.setSystemTime(MONDAY_MORNING);
    expect((await runSweep(store, () => new Date())).weekly).toBeUndefined();
  });
});
