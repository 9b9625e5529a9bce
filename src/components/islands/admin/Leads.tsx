import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { errorText } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import type { LeadsPage } from '../../../shared/api-responses';
import { LEAD_STATUS_NAMES, LEAD_STATUSES, type LeadStatus } from '../../../shared/records';
import { sourceName, type SourceName } from '../../../shared/schemas';
import { FormAlert, Input } from '../../ui/field';
import { CsvExport } from './CsvExport';
import { LeadCard } from './LeadCard';
import { Pages } from './PagedList';
import { count } from './record-text';
import { LEADS_ENDPOINT } from './use-lead-update';

/** The forms that make leads, for the filter. */
const LEAD_FORMS: SourceName[] = ['contact_form', 'zoho_guide', 'booking'];

interface Filters {
  /** `all`, or one status; the list opens on New: what still needs an answer. */
  status: LeadStatus | 'all';
  q: string;
  form: SourceName | '';
}

const OPENING: Filters = { status: 'new', q: '', form: '' };
/** How long typing pauses before the list follows the search. */
const SEARCH_PAUSE_MS = 300;

/** The filters as the endpoint's query (without the page). */
function queryOf({ status, q, form }: Filters): string {
  const params = new URLSearchParams();
  if (status !== 'all') params.set('status', status);
  if (q.trim()) params.set('q', q.trim());
  if (form) params.set('form', form);
  return params.toString();
}

/**
 * The leads as a working list: New first, with the number of each status in sight; search by
 * name, e-mail or company; a filter by form; each lead a card to set its status, keep a note and
 * reply. Page 1 of New comes with the overview.
 */
export function Leads({ initial, waiting }: { initial?: LeadsPage; waiting: boolean }) {
  const [filters, setFilters] = useState<Filters>(OPENING);
  const [typed, setTyped] = useState('');
  const [page, setPage] = useState(1);
  const searchId = useId();

  // The search follows the typing once it pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      setFilters((current) => (current.q === typed ? current : { ...current, q: typed }));
      setPage(1);
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const filtered = queryOf(filters);
  const opening = filtered === queryOf(OPENING) && page === 1;
  const query = useQuery<LeadsPage>({
    queryKey: [`${LEADS_ENDPOINT}?${filtered ? `${filtered}&` : ''}page=${page}`],
    initialData: opening ? initial : undefined,
    // The opening page is on its way with the overview.
    enabled: !(opening && waiting),
    placeholderData: (previous) => previous,
  });
  const list = query.data;
  const statuses = list?.statuses ?? initial?.statuses;
  const all = statuses ? LEAD_STATUSES.reduce((sum, status) => sum + statuses[status], 0) : undefined;
  const choose = (change: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
  };

  return (
    <section aria-labelledby="leads-title" className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h3 id="leads-title" className="text-xl font-bold">
          Leads{' '}
          {statuses && (
            <span className="font-normal text-ink-600">
              ({count(statuses.new)} new of {count(all ?? 0)})
            </span>
          )}
        </h3>
        <CsvExport endpoint={`${LEADS_ENDPOINT}${filtered ? `?${filtered}` : ''}`} what="leads" />
      </div>

      <div className="grid gap-3">
        <div role="group" aria-label="Show leads" className="flex flex-wrap gap-1.5">
          {[...LEAD_STATUSES, 'all' as const].map((status) => (
            <button
              key={status}
              type="button"
              aria-pressed={filters.status === status}
              onClick={() => choose({ status })}
              className={cn(
                'flex min-h-9 items-center gap-1.5 rounded-full px-3 text-sm font-medium ring-1 ring-inset',
                filters.status === status
                  ? 'bg-ink-900 text-white ring-ink-900'
                  : 'bg-white text-ink-700 ring-ink-200 hover:bg-ink-100',
              )}
            >
              {status === 'all' ? 'All' : LEAD_STATUS_NAMES[status]}
              {statuses && (
                <span className="tabular-nums opacity-80">
                  {count(status === 'all' ? (all ?? 0) : statuses[status])}
                </span>
              )}
            </button>
          ))}
        </div>
        <form
          role="search"
          aria-label="Leads"
          className="flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            choose({ q: typed });
          }}
        >
          <div className="grid min-w-0 flex-1 basis-56 gap-1.5">
            <label htmlFor={searchId} className="text-sm font-semibold text-ink-800">
              Search leads
            </label>
            <Input
              id={searchId}
              type="search"
              value={typed}
              maxLength={100}
              placeholder="Name, e-mail or company"
              onChange={(event) => setTyped(event.target.value)}
            />
          </div>
          <label className="grid gap-1.5 text-sm font-semibold text-ink-800">
            Form
            <select
              value={filters.form}
              onChange={(event) => choose({ form: event.target.value as SourceName | '' })}
              className="h-11 rounded-xl bg-white px-3 text-base font-normal ring-1 ring-ink-200 ring-inset"
            >
              <option value="">All forms</option>
              {LEAD_FORMS.map((form) => (
                <option key={form} value={form}>
                  {sourceName(form)}
                </option>
              ))}
            </select>
          </label>
        </form>
      </div>

      {query.error && <FormAlert tone="error">{errorText(query.error)}</FormAlert>}
      {!list ? (
        !query.error && <p className="text-ink-600">Loading…</p>
      ) : list.items.length === 0 ? (
        <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">
          {emptyText(filters, all ?? 0)}
        </p>
      ) : (
        <ul aria-label="Leads" className="grid gap-3" aria-busy={query.isFetching || undefined}>
          {list.items.map((lead) => (
            <li key={lead.id}>
              <LeadCard lead={lead} />
            </li>
          ))}
        </ul>
      )}
      {list && <Pages title="Leads" list={list} page={page} onPage={setPage} />}
    </section>
  );
}

/** What an empty list says: why it is empty, and where the other leads are. */
function emptyText({ status, q, form }: Filters, all: number): string {
  if (all === 0)
    return 'No leads yet. They appear here as soon as someone sends the contact form or asks for the Zoho guide.';
  if (q.trim() || form) return 'No lead matches. Clear the search or choose All to see every lead.';
  if (status === 'new') return 'Every lead has an answer: nothing is New.';
  return `No lead is ${status === 'all' ? 'here' : LEAD_STATUS_NAMES[status]}.`;
}
