import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ScrollTable } from '../ui/scroll-table';
import { useChartId } from './chart-id';

export const CHART_WORDS = { showNumbers: 'Show numbers', showChart: 'Show chart', openReport: 'Open the report' } as const;

/** A chart's numbers as a table: the first column names the row, the others are figures. */
export interface ChartTable {
  columns: readonly string[];
  rows: readonly (readonly (string | number)[])[];
}

/**
 * A chart with everything beside it that makes it readable without seeing it (issue 36, item 5):
 * its title, a sentence summarising the numbers (the chart's text alternative, shown to everyone),
 * a "Show numbers" switch to the same figures as a table, and a link to the report they come from.
 * The chart itself is `children`, an SVG (role img) named by the summary (its id is passed in).
 */
export function ChartPanel({
  title,
  summary,
  table,
  report,
  children,
  testId,
}: {
  title: string;
  summary: string;
  table: ChartTable;
  /** The underlying report: where the figures come from, one tap away. */
  report?: { to: string; label?: string };
  children: (describedBy: string) => ReactNode;
  testId?: string;
}) {
  const id = useChartId();
  const [numbers, setNumbers] = useState(false);
  const summaryId = `${id}-summary`;
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
        <button
          type="button"
          className="min-h-11 rounded-lg px-2 text-sm font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900"
          aria-pressed={numbers}
          onClick={() => setNumbers((v) => !v)}
          data-testid={testId ? `${testId}-toggle` : undefined}
        >
          {numbers ? CHART_WORDS.showChart : CHART_WORDS.showNumbers}
        </button>
      </div>
      <p id={summaryId} className="mb-2 text-sm text-slate-700" data-testid={testId ? `${testId}-summary` : undefined}>
        {summary}
      </p>
      {numbers ? (
        <ScrollTable label={`${title}: numbers`} testId={testId ? `${testId}-table` : undefined}>
          <thead>
            <tr className="border-b border-slate-300 text-left">
              {table.columns.map((c, i) => (
                <th key={c} scope="col" className={`px-2 py-1 font-semibold ${i ? 'text-right' : ''}`}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((r) => (
              <tr key={String(r[0])} className="border-b border-slate-100">
                {r.map((v, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-2 py-1 text-left font-normal">
                      {v}
                    </th>
                  ) : (
                    <td key={i} className="px-2 py-1 text-right tabular-nums">
                      {v}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : (
        children(summaryId)
      )}
      {report && (
        <p className="mt-2 text-sm">
          <Link to={report.to} className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900">
            {report.label ?? CHART_WORDS.openReport}
          </Link>
        </p>
      )}
    </section>
  );
}
