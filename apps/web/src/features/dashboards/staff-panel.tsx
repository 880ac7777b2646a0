import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * One dashboard panel of the bursar's and the teacher's homes: a title, the picture (bars), a sentence
 * saying what the picture shows (its text alternative), a "Show numbers" table with the same figures,
 * and a link to the report the figures come from.
 */
export function DashPanel({
  title,
  summary,
  table,
  report,
  children,
  testId,
}: {
  title: string;
  /** The picture in words: read by screen readers in place of the bars, shown to everyone. */
  summary: string;
  /** The figures as a table (shown on "Show numbers"). */
  table?: ReactNode;
  report?: { to: string; label: string };
  children?: ReactNode;
  testId?: string;
}) {
  const [numbers, setNumbers] = useState(false);
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid={testId}
    >
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
          {title}
        </h3>
        {table && (
          <button
            type="button"
            className="min-h-11 rounded-lg px-2 text-sm font-medium text-brand-800 underline hover:text-brand-900"
            aria-expanded={numbers}
            aria-controls={`${id}-numbers`}
            onClick={() => setNumbers((v) => !v)}
          >
            {numbers ? 'Hide numbers' : 'Show numbers'}
          </button>
        )}
      </div>
      <p className="mb-3 text-sm text-slate-700">{summary}</p>
      {children && <div aria-hidden="true">{children}</div>}
      {table && numbers && (
        <div id={`${id}-numbers`} className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={`${title}: numbers`}>
          {table}
        </div>
      )}
      {report && (
        <p className="mt-3 text-sm">
          <Link to={report.to} className="inline-flex min-h-11 items-center font-medium text-brand-800 underline hover:text-brand-900">
            {report.label}
          </Link>
        </p>
      )}
    </section>
  );
}

/** A bar of the picture: its label, the value's words beside it, and its length against `max`. */
export interface Bar {
  key: string;
  label: string;
  value: number;
  text: string;
  /** A second, lighter bar behind (e.g. expected behind collected). */
  behind?: number;
}

/** Horizontal bars with their labels and values written out (no colour carries meaning alone). */
export function Bars({ bars, max }: { bars: readonly Bar[]; max?: number }) {
  const top = Math.max(max ?? 0, ...bars.map((b) => Math.max(b.value, b.behind ?? 0)), 1);
  const pct = (v: number) => `${Math.max(0, Math.min(100, (v / top) * 100))}%`;
  return (
    <ul className="flex flex-col gap-2">
      {bars.map((b) => (
        <li
          key={b.key}
          className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] items-center gap-2 text-sm sm:grid-cols-[minmax(0,9rem)_minmax(0,1fr)]"
        >
          <span className="truncate text-slate-700">{b.label}</span>
          <span className="flex min-w-0 flex-col gap-0.5">
            <span className="relative block h-3 rounded bg-slate-100">
              {b.behind !== undefined && (
                <span
                  className="absolute inset-y-0 left-0 rounded bg-brand-100 ring-1 ring-inset ring-brand-600"
                  style={{ width: pct(b.behind) }}
                />
              )}
              <span className="absolute inset-y-0 left-0 rounded bg-brand-700" style={{ width: pct(b.value) }} />
            </span>
            <span className="truncate text-xs text-slate-700">{b.text}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A plain numbers table: a header row and rows of cells (numbers right-aligned). */
export function NumbersTable({
  caption,
  head,
  rows,
  testId,
}: {
  caption: string;
  head: string[];
  rows: (string | number)[][];
  testId?: string;
}) {
  return (
    <table className="w-full border-collapse text-sm" data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-200 text-left text-slate-700">
          {head.map((h, i) => (
            <th key={h} scope="col" className={`px-2 py-1 font-semibold ${i ? 'text-right' : ''}`}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, k) => (
          <tr key={k} className="border-b border-slate-100">
            {r.map((c, i) =>
              i === 0 ? (
                <th key={i} scope="row" className="px-2 py-1 text-left font-normal">
                  {c}
                </th>
              ) : (
                <td key={i} className="px-2 py-1 text-right tabular-nums">
                  {c}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
