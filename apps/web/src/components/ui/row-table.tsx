import type { HTMLAttributes, ReactNode } from 'react';
import { HeaderRow } from './scroll-table';

/** One column of a {@link RowTable}. */
export interface Column<T> {
  /** The column's header, and each cell's `data-label` (a phone shows a `stack-sm` table as one card per row). */
  label: string;
  /** A header other than the label (a column of buttons, named for screen readers only): such columns come last. */
  header?: ReactNode;
  /** The cells carry no `data-label` (a column of actions). */
  unlabelled?: boolean;
  /** Figures: the header and the cells right-aligned, the digits tabular. */
  figures?: boolean;
  /** The cell's own classes besides the padding and the figures' alignment. */
  className?: string | ((row: T) => string);
  testId?: string;
  cell: (row: T) => ReactNode;
}

export interface RowTableProps<T> {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string | number;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;
  /** The cells' padding. */
  padding?: string;
  className?: string;
  testId?: string;
  after?: ReactNode;
}

const classOf = <T,>(c: Column<T>, row: T) => (typeof c.className === 'function' ? c.className(row) : (c.className ?? ''));

/**
 * A table of rows from a list and its columns: the first column names the row (its header cell), the
 * others carry their label for the phone's card layout. The ledger, the statement and the collections
 * summary are all this shape; `rowProps` gives each row its classes and data attributes, `after` adds
 * rows below the list (a totals row).
 */
export function RowTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  padding = 'px-2 py-1.5',
  className = 'stack-sm stack-sm-1 w-full text-sm',
  testId,
  after,
}: RowTableProps<T>) {
  const [first, ...rest] = columns;
  if (!first) return null;
  const align = Object.fromEntries(columns.filter((c) => c.figures).map((c) => [c.label, 'text-right']));
  return (
    <table className={className} data-testid={testId}>
      <HeaderRow
        labels={columns.filter((c) => c.header === undefined).map((c) => c.label)}
        rowClassName="border-b border-slate-300 text-left"
        cellClassName={padding}
        align={align}
      >
        {columns
          .filter((c) => c.header !== undefined)
          .map((c) => (
            <th key={c.label} scope="col" className={padding}>
              {c.header}
            </th>
          ))}
      </HeaderRow>
      <tbody>
        {rows.map((row, i) => (
          <tr key={rowKey(row, i)} {...rowProps?.(row)}>
            <th scope="row" className={`${padding} text-left ${classOf(first, row)}`}>
              {first.cell(row)}
            </th>
            {rest.map((c) => (
              <td
                key={c.label}
                data-label={c.unlabelled ? undefined : c.label}
                className={`${padding} ${c.figures ? 'text-right tabular-nums' : ''} ${classOf(c, row)}`}
                data-testid={c.testId}
              >
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
        {after}
      </tbody>
    </table>
  );
}
