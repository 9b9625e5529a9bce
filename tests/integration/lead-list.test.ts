/**
 * GET /api/admin/leads with its filters, its CSV, and the overview's leads, with real Requests on
 * the embedded store and on Upstash Redis: a search by name, e-mail or company, a status, a form,
 * their totals and pages, and the dashboard opening on the New leads.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import adminOverview from '../../functions/admin-overview';
import type { Overview } from '../../src/shared/api-responses';
import type { Lead } from '../../src/shared/records';
import { call, logIn } from '../support/admin-calls';
import { DESK_ENV, getLeads, leadAt, leadsPage, PASSWORD, patchLead } from '../support/lead-desk';
import { useStores } from '../support/store-setup';
import type { Store } from '../support/stores';

const stores = useStores();
const NOW = Date.parse('2026-12-01T09:00:00Z');
const names = (leads: Lead[]) => leads.map((lead) => lead.name);

test.each([
  ['status=maybe', 'status must be one of new, replied, booked, won, lost'],
  ['form=footer', 'form must be one of website_footer, newsletter_footer, zoho_guide, contact_form, booking'],
  [`q=${'x'.repeat(101)}`, 'q must be at most 100 characters'],
  ['q=a%00b', 'q must not hold control characters'],
  ['status=won&status=lost', 'Give status only once'],
  ['sort=newest', 'Unknown query parameter sort; use page and format and q and status and form'],
])('GET /api/admin/leads?%s answers 400: %s', async (query, error) => {
  await stores.fresh(stores.backends[0][1], DESK_ENV);
  const response = await getLeads(await logIn(PASSWORD), `?${query}`);
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ error });
});

describe.each(stores.backends)('the leads list on %s', (_name, backend) => {
  let store: Store;
  let cookie = '';
  beforeEach(async () => {
    store = await stores.fresh(backend, DESK_ENV);
    cookie = await logIn(PASSWORD);
  });

  /** Three people, a minute apart, oldest first; Grace came through the guide. */
  async function people() {
    const ada = await leadAt(store, NOW, { name: 'Ada Lovelace', email: 'ada@analytical.example', company: 'Engines' });
    const grace = await leadAt(store, NOW + 60_000, {
      name: 'Grace Hopper',
      email: 'grace@navy.example',
      company: 'COBOL Works',
      source: 'zoho_guide',
    });
    const alan = await leadAt(store, NOW + 120_000, { name: 'Alan Turing', email: 'alan@bletchley.example' });
    return { ada, grace, alan };
  }

  test.each([
    ['LOVELACE', ['Ada Lovelace']],
    ['NAVY.example', ['Grace Hopper']],
    ['cobol', ['Grace Hopper']],
    ['  engines ', ['Ada Lovelace']],
    ['a', ['Alan Turing', 'Grace Hopper', 'Ada Lovelace']],
    ['nobody like it', []],
  ])('q=%j finds the leads whose name, e-mail or company holds it, whatever the case', async (q, found) => {
    await people();
    const page = await leadsPage(cookie, `?q=${encodeURIComponent(q)}`);
    expect(names(page.items)).toEqual(found);
    expect(page.total).toBe(found.length);
    // The counts are the whole list's, whatever the search.
    expect(page.statuses).toEqual({ new: 3, replied: 0, booked: 0, won: 0, lost: 0 });
  });

  test('status and form narrow the list, together or with a search; no filter lists every lead', async () => {
    const { ada, grace } = await people();
    await patchLead(cookie, ada.id, { status: 'won' });
    await patchLead(cookie, grace.id, { status: 'won' });
    const found = async (query: string) => {
      const page = await leadsPage(cookie, query);
      return { names: names(page.items), total: page.total };
    };
    expect(await found('?status=won')).toEqual({ names: ['Grace Hopper', 'Ada Lovelace'], total: 2 });
    expect(await found('?status=new')).toEqual({ names: ['Alan Turing'], total: 1 });
    expect(await found('?status=lost')).toEqual({ names: [], total: 0 });
    expect(await found('?form=zoho_guide')).toEqual({ names: ['Grace Hopper'], total: 1 });
    expect(await found('?form=contact_form&status=won')).toEqual({ names: ['Ada Lovelace'], total: 1 });
    expect(await found('?q=example&status=won&form=zoho_guide')).toEqual({ names: ['Grace Hopper'], total: 1 });
    expect(await found('?q=')).toEqual({ names: ['Alan Turing', 'Grace Hopper', 'Ada Lovelace'], total: 3 });
    expect(await found('')).toEqual({ names: ['Alan Turing', 'Grace Hopper', 'Ada Lovelace'], total: 3 });
  });

  // More leads than a scan's first chunk (100): the filters page through the index chunk by
  // chunk, newest first.
  test('pages what a filter keeps, 20 to a page, across many leads', async () => {
    const COUNT = 250;
    const leads: Lead[] = [];
    // Written fifty at once: each has its own time, so the order is the same.
    for (let first = 0; first < COUNT; first += 50)
      leads.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, offset) => first + offset).map((index) =>
            leadAt(store, NOW + index * 1000, {
              name: `Lead ${String(index).padStart(3, '0')}`,
              source: index % 3 === 0 ? 'zoho_guide' : 'contact_form',
            }),
          ),
        )),
      );
    // Every tenth lead, the oldest ones included, is booked.
    const booked = leads.filter((_, index) => index % 10 === 0);
    await Promise.all(booked.map((lead) => patchLead(cookie, lead.id, { status: 'booked' })));
    const newestFirst = (list: Lead[]) => names(list).reverse();

    const pages = await Promise.all([1, 2, 3].map((page) => leadsPage(cookie, `?status=booked&page=${page}`)));
    expect(pages.map((page) => page.total)).toEqual([25, 25, 25]);
    expect(pages.flatMap((page) => names(page.items))).toEqual(newestFirst(booked));
    expect(pages.map((page) => page.items.length)).toEqual([20, 5, 0]);
    expect(pages[0]?.statuses).toEqual({ new: 225, replied: 0, booked: 25, won: 0, lost: 0 });

    const guide = leads.filter((_, index) => index % 3 === 0);
    const fifth = await leadsPage(cookie, '?form=zoho_guide&page=5');
    expect(fifth.total).toBe(guide.length);
    expect(names(fifth.items)).toEqual(newestFirst(guide).slice(80, 100));

    // Of the oldest leads, those still new: found past the first chunk.
    const old = await leadsPage(cookie, '?q=lead%2000&status=new');
    expect(names(old.items)).toEqual(newestFirst(leads.slice(1, 10)));
    expect(old.total).toBe(9);
  });

  test('the CSV exports what the filters keep, with the status and the note', async () => {
    const { ada, grace } = await people();
    await patchLead(cookie, ada.id, { status: 'booked', note: 'Call on Friday, 10:00; "bring figures"' });
    await patchLead(cookie, grace.id, { status: 'lost' });
    const csv = async (query: string) => {
      const response = await getLeads(cookie, query);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const [header = '', ...rows] = (await response.text())
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      const columns = header.split(',');
      return rows.map((row) => ({
        name: row.split(',')[columns.indexOf('name')],
        status: row.split(',')[columns.indexOf('status')],
        form: row.split(',')[columns.indexOf('source')],
        row,
      }));
    };
    const all = await csv('?format=csv');
    expect(all.map(({ name, status }) => [name, status])).toEqual([
      ['Alan Turing', 'new'],
      ['Grace Hopper', 'lost'],
      ['Ada Lovelace', 'booked'],
    ]);
    expect(all[2]?.row).toContain('"Call on Friday, 10:00; ""bring figures"""');
    // Forms by their plain names, as the admin page shows them.
    expect(new Set(all.map(({ form }) => form))).toEqual(new Set(['Contact form', 'Zoho guide']));
    expect((await csv('?format=csv&status=booked')).map(({ name }) => name)).toEqual(['Ada Lovelace']);
    expect((await csv('?format=csv&q=hopper')).map(({ name }) => name)).toEqual(['Grace Hopper']);
  });

  test('the overview opens on the New leads, with the counts per status and every lead in its totals', async () => {
    const { ada, grace, alan } = await people();
    await patchLead(cookie, alan.id, { status: 'replied' });
    await patchLead(cookie, ada.id, { note: 'A note is not an answer: still new' });
    const response = await call(adminOverview, '/api/admin/overview', { headers: { cookie } });
    expect(response.status).toBe(200);
    const overview = (await response.json()) as Overview;
    expect(overview.leads).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(overview.leads.items.map((lead) => lead.id)).toEqual([grace.id, ada.id]);
    expect(overview.leadStatuses).toEqual({ new: 2, replied: 1, booked: 0, won: 0, lost: 0 });
    expect(overview.totals.leads.total).toBe(3);
  });
});
