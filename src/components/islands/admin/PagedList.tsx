import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { errorText } from '../../../lib/api-client';
import type { ListPage } from '../../../shared/api-responses';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/field';
import { RecordList, type RecordListProps } from '../../ui/record-list';
import { count } from './record-text';

/**
 * The page shown of a list and the answer for it (`page=n` added to `endpoint`'s query). Page 1
 * may come with the overview (`initial`); other pages are fetched when shown, the last one staying
 * on screen while the next arrives. A list that is not `enabled` fetches nothing.
 */
export function usePagedQuery<Answer>(
  endpoint: string,
  { initial, enabled = true }: { initial?: Answer; enabled?: boolean } = {},
) {
  const [page, setPage] = useState(1);
  const query = useQuery<Answer>({
    queryKey: [`${endpoint}${endpoint.includes('?') ? '&' : '?'}page=${page}`],
    enabled: enabled && (page > 1 || !initial),
    placeholderData: (previous) => previous,
  });
  return { page, setPage, data: page === 1 && initial ? initial : query.data, error: query.error };
}

type PagedListProps<T> = Omit<RecordListProps<T>, 'label' | 'rows'> & {
  /** The section's name: the list's too unless `label` says otherwise, and its pages' ("Leads pages"). */
  title: string;
  label?: string;
  /** The page shown; none while the first is on its way. */
  list?: ListPage<T>;
  error: Error | null;
  page: number;
  onPage: (page: number) => void;
  /** What an empty list says instead. */
  emptyText: ReactNode;
  /** Under an error and above the list (the Spam section's figures). */
  above?: ReactNode;
};

/**
 * A page of records, as a table or cards (RecordList), with Previous and Next under it; while the
 * first page is on its way, a loading line, and an error above it all when the page failed.
 */
export function PagedList<T>({
  title,
  label = title,
  list,
  error,
  page,
  onPage,
  emptyText,
  above,
  ...recordList
}: PagedListProps<T>) {
  return (
    <>
      {error && <FormAlert tone="error">{errorText(error)}</FormAlert>}
      {above}
      {!list ? (
        !error && <p className="text-ink-600">Loading…</p>
      ) : list.items.length === 0 ? (
        <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">{emptyText}</p>
      ) : (
        <RecordList label={label} rows={list.items} {...recordList} />
      )}
      {list && <Pages title={title} list={list} page={page} onPage={onPage} />}
    </>
  );
}

/** Previous and Next under a list of more than one page. */
export function Pages<T>({
  title,
  list,
  page,
  onPage,
}: {
  title: string;
  list: ListPage<T>;
  page: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  if (pages <= 1) return null;
  return (
    <nav aria-label={`${title} pages`} className="flex flex-wrap items-center gap-3 text-sm">
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        Page {count(page)} of {count(pages)}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
