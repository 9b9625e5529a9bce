import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { useMediaQuery } from './use-media-query';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Classes for the column's table cells (a width limit, no wrapping). */
  className?: string;
  /** False for a column the card's title already shows. */
  inCard?: boolean;
  /** In a card, the label above the value rather than beside it, for a value that needs the width (a message). */
  stackInCard?: boolean;
  /** A figure: right-aligned under a right-aligned header, its digits of equal width. */
  numeric?: boolean;
  /** The cell names its row (`<th scope="row">`), as a page's path does in a table of figures. */
  rowHeader?: boolean;
  /**
   * A value anyone can type (a name, a company): in a table it may break inside a word rather than
   * widen the table, so one long unbroken string cannot push the rest out of the box. The column
   * stays at least 8rem wide, which ordinary words fit.
   */
  wrapAnywhere?: boolean;
  /**
   * Left out of a table on a phone, where only the columns that matter most fit beside each other
   * (a table of figures that stays a table rather than becoming cards).
   */
  wideOnly?: boolean;
}

export interface RecordListProps<T> {
  /** Names the table or the list for assistive technology. */
  label: string;
  rows: T[];
  rowKey: (row: T) => string;
  columns: Column<T>[];
  /** A button or two for the row (delete, retry), after its cells. */
  action?: (row: T) => ReactNode;
  /** The first line of a row's card on a phone (a name and a date), above the labelled values. */
  cardTitle?: (row: T) => ReactNode;
}

/** Tailwind's `md`: from here a table fits beside the page's margins. */
const WIDE = '(min-width: 48rem)';

const isEmpty = (value: ReactNode) => value === undefined || value === null || value === false || value === '';

/**
 * Records as a table with column headers on wide screens (RecordTable), and as a list of labelled
 * cards on phones, where a table would push the page sideways.
 */
export function RecordList<T>({ label, rows, rowKey, columns, action, cardTitle }: RecordListProps<T>) {
  const wide = useMediaQuery(WIDE);

  if (!wide)
    return (
      <ul aria-label={label} className="grid gap-3">
        {rows.map((row) => {
          const actions = action?.(row);
          return (
            <li key={rowKey(row)} className="rounded-(--radius-card) bg-white p-4 text-sm ring-1 ring-ink-100">
              {cardTitle && (
                <p className="mb-2 flex flex-wrap justify-between gap-x-3 font-semibold">{cardTitle(row)}</p>
              )}
              <dl className="grid gap-1.5">
                {columns.map((column) => {
                  const value = column.inCard === false ? undefined : column.cell(row);
                  return isEmpty(value) ? null : (
                    <div
                      key={column.header}
                      className={cn(
                        'grid gap-x-3',
                        column.stackInCard ? 'gap-y-1' : 'grid-cols-[5.5rem_minmax(0,1fr)]',
                      )}
                    >
                      <dt className="font-semibold text-ink-600">{column.header}</dt>
                      <dd className="min-w-0 wrap-anywhere text-ink-800">{value}</dd>
                    </div>
                  );
                })}
              </dl>
              {!isEmpty(actions) && <div className="mt-3 flex flex-wrap justify-end gap-2">{actions}</div>}
            </li>
          );
        })}
      </ul>
    );

  return <RecordTable label={label} rows={rows} rowKey={rowKey} columns={columns} action={action} />;
}

/**
 * Records as a table with column headers, in a box that scrolls sideways when the table is wider;
 * the box takes focus so a keyboard can scroll it too. RecordList's wide form, and the tables of
 * figures that stay tables on a phone.
 */
export function RecordTable<T>({ label, rows, rowKey, columns, action }: Omit<RecordListProps<T>, 'cardTitle'>) {
  return (
    <div
      role="region"
      aria-label={label}
      // A box that may scroll sideways must be reachable by keyboard, as the blog's wide tables are.
      // It is `relative` so that visually hidden text in the table (positioned absolutely) stays in
      // the box instead of widening the page.
      // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex
      tabIndex={0}
      className="relative overflow-x-auto rounded-(--radius-card) ring-1 ring-ink-100"
    >
      <table className="w-full text-left text-sm">
        <thead className="bg-ink-50 text-ink-700">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={cn(
                  'px-3 py-3 font-semibold whitespace-nowrap first:pl-4',
                  column.numeric && 'text-right',
                  column.wideOnly && 'max-md:hidden',
                )}
              >
                {column.header}
              </th>
            ))}
            {action && (
              <th scope="col" className="sticky right-0 bg-ink-50 px-4 py-3 shadow-[-1px_0_0_var(--color-ink-100)]">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-100 bg-white">
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => {
                const Cell = column.rowHeader ? 'th' : 'td';
                return (
                  <Cell
                    key={column.header}
                    scope={column.rowHeader ? 'row' : undefined}
                    className={cn(
                      'px-3 py-3 align-top text-ink-800 first:pl-4',
                      column.wrapAnywhere ? 'min-w-32 wrap-anywhere' : 'break-words',
                      column.rowHeader && 'font-medium',
                      column.numeric && 'text-right whitespace-nowrap tabular-nums',
                      column.wideOnly && 'max-md:hidden',
                      column.className,
                    )}
                  >
                    {column.cell(row)}
                  </Cell>
                );
              })}
              {/* The row's actions stay in view at the box's right edge when the table scrolls sideways. */}
              {action && (
                <td className="sticky right-0 bg-white px-4 py-3 text-right align-top whitespace-nowrap shadow-[-1px_0_0_var(--color-ink-100)]">
                  {action(row)}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
