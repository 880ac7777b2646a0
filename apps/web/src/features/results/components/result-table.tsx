import type { ReactNode } from 'react';
import { formatAverage } from '@portal/domain/result-messages';
import { type Result } from '@portal/domain/results';
import { remarkOf, useGradingScales } from '../api';
import { HeaderRow, ScrollTable } from '../../../components/ui/scroll-table';

/** A result sheet: subject, score, grade, remarks (and an optional action per row). */
export function ResultTable({ results, action, caption }: { results: Result[]; action?: (r: Result) => ReactNode; caption?: string }) {
  const total = results.reduce((a, r) => a + r.score, 0);
  // The scale's remark next to each grade, from the scale of the results' session.
  const scales = useGradingScales(results[0]?.session_id ?? '');
  return (
    <ScrollTable label={caption ?? 'Result sheet'}>
      {caption && <caption className="mb-2 text-left font-semibold text-slate-800">{caption}</caption>}
      <HeaderRow
        rowClassName="border-b-2 border-slate-300 text-left"
        cellClassName="py-2 pr-2"
        labels={['Subject', 'Score', 'Grade', 'Remarks']}
        align={{ Score: 'text-right', Grade: 'text-center' }}
      >
        {action && (
          <th scope="col" className="no-print py-2">
            <span className="sr-only">Actions</span>
          </th>
        )}
      </HeaderRow>
      <tbody>
        {results.map((r) => (
          <tr key={r.id} className="border-b border-slate-100">
            <th scope="row" className="py-2 pr-2 text-left font-medium">
              {r.subject}
            </th>
            <td className="py-2 pr-2 text-right tabular-nums">{r.score}</td>
            <td className="py-2 pr-2 text-center">
              {r.grade}
              {remarkOf(scales.data, r.student_class, r.grade) && (
                <span className="block text-xs text-slate-600">{remarkOf(scales.data, r.student_class, r.grade)}</span>
              )}
            </td>
            <td className="py-2 pr-2 text-slate-700">{r.remarks}</td>
            {action && <td className="no-print py-1 text-right">{action(r)}</td>}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="font-semibold">
          <th scope="row" className="py-2 pr-2 text-left">
            Total ({results.length} subjects)
          </th>
          <td className="py-2 pr-2 text-right tabular-nums">{Math.round(total * 100) / 100}</td>
          <td colSpan={action ? 3 : 2} className="py-2 text-slate-600">
            Average {formatAverage(results.length ? total / results.length : 0)}
          </td>
        </tr>
      </tfoot>
    </ScrollTable>
  );
}
