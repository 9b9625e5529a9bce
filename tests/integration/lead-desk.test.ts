/**
 * PATCH /api/admin/leads/{id}, the owner's status and private note on a lead, with real Requests
 * on the embedded store and on Upstash Redis: each answer, two changes at once both kept, and the
 * counts per status through changes, erasures and "Not spam".
 */
import { beforeEach, describe, expect, test } from 'vitest';
import adminLeads from '../../functions/admin-leads';
import { LEAD_NOTE_MAX, LEAD_STATUSES, type LeadStatus } from '../../src/shared/records';
import { call, logIn, ORIGIN } from '../support/admin-calls';
import { DESK_ENV, leadAt, leadsPage, listedLead, PASSWORD, patchLead, releaseLead } from '../support/lead-desk';
import { leadEntries } from '../support/outbox-entries';
import { useStores } from '../support/store-setup';
import type { Store } from '../support/stores';

const stores = useStores();
const NOW = Date.parse('2026-12-01T09:00:00Z');
/** A lead id no lead has. */
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(stores.backends)('the lead desk on %s', (_name, backend) => {
  let store: Store;
  let cookie = '';
  beforeEach(async () => {
    store = await stores.fresh(backend, DESK_ENV);
    cookie = await logIn(PASSWORD);
  });

  /** Counts per status, all of them, as GET /api/admin/leads gives them. */
  const statuses = async () => (await leadsPage(cookie)).statuses;
  const counts = (given: Partial<Record<LeadStatus, number>>) => ({
    new: 0,
    replied: 0,
    booked: 0,
    won: 0,
    lost: 0,
    ...given,
  });

  describe('PATCH /api/admin/leads/{id}', () => {
    test('sets the status and the note and answers 200 with the lead as the list shows it, deliveries and all', async () => {
      const long = 'campaign-'.padEnd(100, 'x');
      const { record: lead } = await store.createLead(
        { name: 'Ada', email: 'ada@example.com', source: 'contact_form', attribution: { utm_campaign: long } },
        new Date(NOW),
        { outbox: leadEntries },
      );
      const before = Date.now();
      const { status, body } = await patchLead(cookie, lead.id, {
        status: 'replied',
        note: '  Called back on Monday ',
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({ id: lead.id, name: 'Ada', status: 'replied', note: 'Called back on Monday' });
      expect(Date.parse(body.updatedAt ?? '')).toBeGreaterThanOrEqual(before);
      expect(Date.parse(body.updatedAt ?? '')).toBeLessThanOrEqual(Date.now());
      expect(body.delivery?.map((delivery) => delivery.kind)).toEqual(['lead-notification', 'webhook']);
      // Cut as the list cuts a first touch.
      expect(body.attribution?.utm_campaign).toBe(`${long.slice(0, 31)}…`);
      expect(await listedLead(cookie, lead.id)).toEqual(body);
    });

    test('changes only what it is given; an empty note and the status new leave no field', async () => {
      const lead = await leadAt(store, NOW);
      await patchLead(cookie, lead.id, { status: 'booked', note: 'Call on Friday' });
      expect((await patchLead(cookie, lead.id, { note: 'Moved to Monday' })).body).toMatchObject({
        status: 'booked',
        note: 'Moved to Monday',
      });
      expect((await patchLead(cookie, lead.id, { status: 'won' })).body).toMatchObject({
        status: 'won',
        note: 'Moved to Monday',
      });
      const cleared = (await patchLead(cookie, lead.id, { status: 'new', note: '   ' })).body;
      expect(cleared).toMatchObject({ id: lead.id, name: 'Ada Lovelace' });
      expect(cleared).not.toHaveProperty('status');
      expect(cleared).not.toHaveProperty('note');
      expect(await statuses()).toEqual(counts({ new: 1 }));
    });

    test('takes a note of 2,000 characters and answers 422 for one of 2,001, keeping the lead as it was', async () => {
      const lead = await leadAt(store, NOW);
      const longest = 'n'.repeat(LEAD_NOTE_MAX);
      expect((await patchLead(cookie, lead.id, { note: longest })).body.note).toBe(longest);
      const { status, body } = await patchLead(cookie, lead.id, { note: `${longest}n` });
      expect(status).toBe(422);
      expect(body).toEqual({
        error: 'Some fields are missing or invalid',
        fields: { note: 'Note can be at most 2000 characters' },
      });
      expect((await listedLead(cookie, lead.id))?.note).toBe(longest);
    });

    test('answers 422 for an unknown status, naming the ones there are', async () => {
      const lead = await leadAt(store, NOW);
      const { status, body } = await patchLead(cookie, lead.id, { status: 'maybe' });
      expect(status).toBe(422);
      expect(body.fields).toEqual({ status: 'Status must be one of new, replied, booked, won, lost' });
      expect(await listedLead(cookie, lead.id)).not.toHaveProperty('status');
    });

    test('answers 401 without a session and changes nothing', async () => {
      const lead = await leadAt(store, NOW);
      const { status, body } = await patchLead('', lead.id, { status: 'won' });
      expect(status).toBe(401);
      expect(body).toEqual({ error: 'Not logged in' });
      expect(await statuses()).toEqual(counts({ new: 1 }));
    });

    test.each([
      ['from another origin', { origin: 'https://evil.example' }],
      ['cross-site', { 'sec-fetch-site': 'cross-site' }],
    ])('answers 403 %s and changes nothing', async (_case, headers) => {
      const lead = await leadAt(store, NOW);
      expect((await patchLead(cookie, lead.id, { status: 'won' }, headers)).status).toBe(403);
      expect(await statuses()).toEqual(counts({ new: 1 }));
    });

    test('answers 415 for a body that is not JSON, 400 for one that does not parse', async () => {
      const lead = await leadAt(store, NOW);
      const form = await patchLead(cookie, lead.id, 'status=won', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status).toBe(415);
      expect((await patchLead(cookie, lead.id, '{"status":')).status).toBe(400);
      expect(await listedLead(cookie, lead.id)).not.toHaveProperty('status');
    });

    test('answers 404 for an unknown id, a malformed one and a lead held as spam; released, it can be marked', async () => {
      const held = await leadAt(store, NOW, { spam: { reasons: ['akismet'] } });
      for (const id of [UNKNOWN_ID, 'not-a-lead', held.id]) {
        const { status, body } = await patchLead(cookie, id, { status: 'won' });
        expect([id, status, body]).toEqual([id, 404, { error: 'No lead has that id' }]);
      }
      expect(await releaseLead(cookie, held.id)).toBe(200);
      expect((await patchLead(cookie, held.id, { status: 'won' })).status).toBe(200);
    });

    test('a lead answers DELETE and PATCH only', async () => {
      const lead = await leadAt(store, NOW);
      const response = await call(adminLeads, `/api/admin/leads/${lead.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', origin: ORIGIN, cookie },
        body: '{"status":"won"}',
        params: { id: lead.id },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('DELETE, PATCH');
    });
  });

  // Each round a status and a note race on one lead: a commit that did not check the lead would
  // keep one change and lose the other in some rounds.
  test('a status and a note sent at once both stay, round after round', async () => {
    const lead = await leadAt(store, NOW);
    const marked = LEAD_STATUSES.filter((status) => status !== 'new');
    for (let round = 0; round < 24; round += 1) {
      const status = marked[round % marked.length] ?? 'won';
      const note = `Round ${round}`;
      const answers = await Promise.all([patchLead(cookie, lead.id, { status }), patchLead(cookie, lead.id, { note })]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const stored = await listedLead(cookie, lead.id);
      expect([round, stored?.status, stored?.note]).toEqual([round, status, note]);
    }
    expect(await statuses()).toEqual(counts({ [marked[23 % marked.length] ?? 'won']: 1 }));
  });

  test('many statuses at once on one lead leave it counted once, in the status it kept', async () => {
    const lead = await leadAt(store, NOW);
    await leadAt(store, NOW + 1);
    const sent = Array.from({ length: 12 }, (_, index) => LEAD_STATUSES[index % LEAD_STATUSES.length] ?? 'new');
    const answers = await Promise.all(sent.map((status) => patchLead(cookie, lead.id, { status })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const kept = (await listedLead(cookie, lead.id))?.status ?? 'new';
    expect(await statuses()).toEqual(counts(kept === 'new' ? { new: 2 } : { new: 1, [kept]: 1 }));
  });

  test('counts per status follow changes, erasures and "Not spam"; a lead nobody marked is New', async () => {
    const leads = await Promise.all(Array.from({ length: 6 }, (_, index) => leadAt(store, NOW + index)));
    const held = await leadAt(store, NOW + 10, { spam: { reasons: ['akismet'] } });
    expect(await statuses()).toEqual(counts({ new: 6 }));
    const ids = leads.map((lead) => lead.id);
    for (const [index, status] of [
      [0, 'replied'],
      [1, 'booked'],
      [2, 'won'],
      [3, 'won'],
      [3, 'lost'],
      [4, 'lost'],
      [4, 'lost'],
    ] as const)
      expect((await patchLead(cookie, ids[index] ?? '', { status })).status).toBe(200);
    expect(await statuses()).toEqual(counts({ new: 1, replied: 1, booked: 1, won: 1, lost: 2 }));

    const erase = (id: string) =>
      call(adminLeads, `/api/admin/leads/${id}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json', origin: ORIGIN, cookie },
        body: '{}',
        params: { id },
      });
    expect((await erase(ids[3] ?? '')).status).toBe(200);
    expect((await erase(ids[5] ?? '')).status).toBe(200);
    expect(await statuses()).toEqual(counts({ replied: 1, booked: 1, won: 1, lost: 1 }));

    // A held lead counts in no status until it is released, then as New.
    expect(await releaseLead(cookie, held.id)).toBe(200);
    expect(await statuses()).toEqual(counts({ new: 1, replied: 1, booked: 1, won: 1, lost: 1 }));
    expect(await store.leadStatusCounts()).toEqual(await statuses());
    expect(await store.countLeads()).toBe(5);
  });
});
