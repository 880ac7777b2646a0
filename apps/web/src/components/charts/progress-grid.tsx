import { Link } from 'react-router';
import { ScrollTable } from '../ui/scroll-table';

export interface ProgressCell {
  done: number;
  of: number;
}

/** A cell's band: its mark (so the state reads without colour), words for screen readers, and colours. */
export function progressBand(c: ProgressCell): { mark: string; words: string; className: string } {
  if (c.of > 0 && c.done >= c.of) return { mark: '✓', words: 'complete', className: 'bg-emerald-100 text-emerald-950 border-emerald-300' };
  if (c.done > 0) return { mark: '◐', words: 'in progress', className: 'bg-amber-100 text-amber-950 border-amber-300' };
  return { mark: '○', words: 'not started', className: 'bg-rose-50 text-rose-950 border-rose-200' };
}

export const PROGRESS_KEY = [
  { mark: '✓', words: 'complete' },
  { mark: '◐', words: 'in progress' },
  { mark: '○', words: 'not started' },
] as const;

/**
 * A coloured grid of rows × columns (arm × subject): each cell "done/of" with a mark for its band
 * (✓ ◐ ○: colour is never the only sign), linking to where the work is done. It is a table, so it
 * is its own table view; wide grids scroll inside their box, never the page.
 */
export function ProgressGrid({
  label,
  rows,
  columns,
  cell,
  href,
  labelledBy,
  testId,
}: {
  label: string;
  rows: readonly string[];
  columns: readonly string[];
  cell: (row: string, column: string) => ProgressCell | undefined;
  href: (row: string, column: string) => string;
  labelledBy?: string;
  testId?: string;
}) {
  return (
    <div aria-describedby={labelledBy}>
      <ScrollTable label={label} tableClassName="border-separate border-spacing-1 text-sm" testId={testId}>
        <thead>
          <tr>
            <td />
            {columns.map((c) => (
              <th key={c} scope="col" className="min-w-16 px-1 text-left align-bottom text-xs font-semibold text-slate-800">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r}>
              <th scope="row" className="whitespace-nowrap pr-2 text-left font-semibold text-slate-900">
                {r}
              </th>
              {columns.map((c) => {
                const v = cell(r, c);
                if (!v) {
                  return (
                    <td key={c} className="text-center text-slate-500">
                      <span aria-label="not taken">—</span>
                    </td>
                  );
                }
                const band = progressBand(v);
                return (
                  <td key={c} className="p-0">
                    <Link
                      to={href(r, c)}
                      className={`flex min-h-11 items-center justify-center gap-1 rounded border px-1 tabular-nums hover:underline ${band.className}`}
                      aria-label={`${r} ${c}: ${v.done} of ${v.of} entered, ${band.words}`}
                      data-cell={`${r}|${c}`}
                    >
                      <span aria-hidden="true">{band.mark}</span>
                      <span>
                        {v.done}/{v.of}
                      </span>
                    </Link>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      <p className="mt-2 flex flex-wrap gap-3 text-xs text-slate-700">
        {PROGRESS_KEY.map((k) => (
          <span key={k.mark}>
            <span aria-hidden="true">{k.mark}</span> {k.words}
          </span>
        ))}
      </p>
    </div>
  );
}
