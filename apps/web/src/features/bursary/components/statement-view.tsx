import type { Statement } from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M } from '@portal/domain/bursary-screens';
import { termLabel } from '@portal/domain/constants';
import { DISCOUNT_SCREEN_LABELS as DL } from '@portal/domain/discount-screens';
import { formatNaira } from '@portal/domain/money';
import { Card, EmptyState } from '../../../components/ui/card';
import { FigureList } from '../../../components/ui/figure-list';
import { SchoolBrand } from '../../../components/layout/school-brand';
import { formatDate } from '../../../lib/datetime';

const money = (n: number) => (n ? formatNaira(n) : '');

/** Charges (and their discounts) that fall due later: listed apart, outside the balance. */
function UpcomingLines({ lines }: { lines: Statement['lines'] }) {
  return (
    <section className="mt-4" aria-labelledby="statement-upcoming-title">
      <h3 id="statement-upcoming-title" className="mb-1 font-semibold">
        {L.upcoming}
      </h3>
      <p className="mb-2 text-xs text-slate-600">{L.upcomingHint}</p>
      <table className="stack-sm stack-sm-1 w-full text-sm" data-testid="statement-upcoming-lines">
        <thead>
          <tr className="border-b border-slate-300 text-left">
            <th className="px-2 py-1.5">{L.description}</th>
            <th className="px-2 py-1.5">{L.fallsDue}</th>
            <th className="px-2 py-1.5 text-right">{L.debit}</th>
            <th className="px-2 py-1.5 text-right">{DL.discounts}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr
              key={i}
              className={`border-b border-slate-100 ${l.kind === 'discount' ? 'bg-emerald-50/60' : ''}`}
              data-testid="statement-line"
              data-kind={l.kind}
              data-upcoming="true"
            >
              <th scope="row" className="px-2 py-1.5 text-left font-medium">
                {l.description}
              </th>
              <td data-label={L.fallsDue} className="px-2 py-1.5 whitespace-nowrap">
                {formatDate(l.date)}
              </td>
              <td data-label={L.debit} className="px-2 py-1.5 text-right tabular-nums">
                {money(l.debit)}
              </td>
              <td data-label={DL.discounts} className="px-2 py-1.5 text-right tabular-nums">
                {money(l.credit)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A student's statement of account: every charge, payment and reversal with the running balance; prints on its own. */
export function StatementView({ data }: { data: Statement }) {
  const due = data.lines.filter((l) => !l.upcoming);
  const upcoming = data.lines.filter((l) => l.upcoming);
  return (
    <Card className="statement print-plain">
      {/* On paper the shell is hidden: the school's name heads the statement instead. */}
      <div className="print-only mb-3 hidden">
        <SchoolBrand />
      </div>
      <h2 className="mb-1">
        {L.statementOf}: {data.full_name} <span className="text-sm font-normal text-slate-600">{data.admission_number}</span>
      </h2>
      <p className="mb-3 text-sm text-slate-700">
        {data.student_class} · {data.session}
      </p>
      <FigureList
        className="mb-4 grid grid-cols-[repeat(auto-fit,minmax(7rem,1fr))] gap-2 text-sm"
        figures={[
          { label: L.charged, value: formatNaira(data.charged), testId: 'statement-charged' },
          data.discounts > 0 && { label: DL.discounts, value: formatNaira(data.discounts), testId: 'statement-discounts' },
          { label: L.paid, value: formatNaira(data.paid), testId: 'statement-paid' },
          { label: L.asOf(formatDate(data.as_of)), value: formatNaira(data.balance), testId: 'statement-balance' },
          data.upcoming > 0 && { label: L.upcoming, value: formatNaira(data.upcoming), testId: 'statement-upcoming' },
        ]}
      />
      {data.lines.length === 0 ? (
        <EmptyState>{M.noLines}</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="stack-sm stack-sm-1 w-full text-sm" data-testid="statement-lines">
            <thead>
              <tr className="border-b border-slate-300 text-left">
                <th className="px-2 py-1.5">{L.description}</th>
                <th className="px-2 py-1.5">{L.date}</th>
                <th className="px-2 py-1.5">{L.receipt}</th>
                <th className="px-2 py-1.5 text-right">{L.debit}</th>
                <th className="px-2 py-1.5 text-right">{L.credit}</th>
                <th className="px-2 py-1.5 text-right">{L.balance}</th>
              </tr>
            </thead>
            <tbody>
              {due.map((l, i) => (
                <tr
                  key={i}
                  className={`border-b border-slate-100 ${l.kind === 'reversal' ? 'bg-red-50/60' : l.kind === 'discount' ? 'bg-emerald-50/60' : ''}`}
                  data-testid="statement-line"
                  data-kind={l.kind}
                >
                  <th scope="row" className="px-2 py-1.5 text-left font-medium">
                    {l.description}
                    {/* A charge's description names its term already; the space is text, so copied lines read "R-000003 (First Term)". */}
                    {l.term && l.kind !== 'charge' && l.kind !== 'discount' && (
                      <>
                        {' '}
                        <span className="text-xs font-normal text-slate-600">({termLabel(l.term)})</span>
                      </>
                    )}
                  </th>
                  <td data-label={L.date} className="px-2 py-1.5 whitespace-nowrap">
                    {formatDate(l.date)}
                  </td>
                  <td data-label={L.receipt} className="px-2 py-1.5 whitespace-nowrap">
                    {l.receipt_number ?? ''}
                  </td>
                  <td data-label={L.debit} className="px-2 py-1.5 text-right tabular-nums">
                    {money(l.debit)}
                  </td>
                  <td data-label={L.credit} className="px-2 py-1.5 text-right tabular-nums">
                    {money(l.credit)}
                  </td>
                  <td data-label={L.balance} className="px-2 py-1.5 text-right font-semibold tabular-nums">
                    {formatNaira(l.balance)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {upcoming.length > 0 && <UpcomingLines lines={upcoming} />}
        </div>
      )}
    </Card>
  );
}
