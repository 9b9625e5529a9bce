import type { ReactNode } from 'react';
import type { ListPage } from '../../../shared/api-responses';
import type { Column } from '../../ui/record-list';
import { CsvExport } from './CsvExport';
import { PagedList, usePagedQuery } from './PagedList';
import { count } from './record-text';

interface RecordsProps<T> {
  title: string;
  endpoint: string;
  initial?: ListPage<T>;
  emptyText: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  action?: (row: T) => ReactNode;
  cardTitle?: (row: T) => ReactNode;
  /** A link to the whole list as CSV (`?format=csv`). */
  csv?: boolean;
  /** A closed list shows its heading only and fetches nothing. */
  open?: boolean;
  /** After the title in the heading, instead of the total. */
  summary?: ReactNode;
  tools?: ReactNode;
}

/**
 * A section holding a newest-first list, page by page, under a heading with its total. Page 1
 * may come with the overview; later pages (and lists the overview does not carry) are fetched
 * when shown.
 */
export function Records<T>({
  title,
  endpoint,
  initial,
  emptyText,
  csv = false,
  open = true,
  summary,
  tools,
  ...list
}: RecordsProps<T>) {
  const { page, setPage, data, error } = usePagedQuery<ListPage<T>>(endpoint, { initial, enabled: open });
  const id = `${title.toLowerCase()}-title`;

  return (
    <section aria-labelledby={id} className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={id} className="text-xl font-bold">
          {title} {summary ?? (data && <span className="font-normal text-ink-600">({count(data.total)})</span>)}
        </h3>
        {csv && <CsvExport endpoint={endpoint} what={title.toLowerCase()} />}
        {tools}
      </div>
      {open && (
        <div id={`${title.toLowerCase()}-list`} className="grid min-w-0 gap-4">
          <PagedList
            title={title}
            list={data}
            error={error}
            page={page}
            onPage={setPage}
            emptyText={emptyText}
            {...list}
          />
        </div>
      )}
    </section>
  );
}
