import type { Statement } from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M } from '@portal/domain/bursary-screens';
import { termLabel } from '@portal/domain/constants';
import { DISCOUNT_SCREEN_LABELS as DL } from '@portal/domain/discount-screens';
import { formatNaira } from '@portal/domain/money';
import { ARREARS_MESSAGES as A, ARREARS_SCREEN_LABELS as AL } from '@portal/domain/arrears';
import { Card, EmptyState } from '../../../components/ui/card';
import { FigureList } from '../../../components/ui/figure-list';
import { RowTable, type Column } from '../../../components/ui/row-table';
import { SchoolBrand } from '../../../components/layout/school-brand';
import { formatDate } from '../../../lib/datetime';

const money = (n: number) => (n ? formatNaira(n) : '');

type Line = Statement['lines'][number];

const KIND_TONES: Partial<Record<Line['kind'], string>> = {
  reversal: 'bg-red-50/60',
  discount: 'bg-emerald-50/60',
  brought_forward: 'bg-amber-50/60',
};
const lineProps = (l: Line) => ({
  className: `border-b border-slate-100 ${KIND_TONES[l.kind] ?? ''}`,
  'data-testid': 'statement-line',
  'data-kind': l.kind,
});

const description: Column<Line> = {
  label: L.description,
  className: 'font-medium',
  cell: (l) => (
    <>
      {l.description}
      {/* A charge's description names its term already; the space is text, so copied lines read "R-000003 (First Term)". */}
      {l.term && l.kind !== 'charge' && l.kind !== 'discount' && (
        <>
          {' '}
          <span className="text-xs font-normal text-slate-600">({termLabel(l.term)})</span>
        </>
      )}
    </>
  ),
};
const debit: Column<Line> = { label: L.debit, figures: true, cell: (l) => money(l.debit) };

/** The lines that count in the balance: each charge, discount, payment and reversal, with the balance after it. */
const DUE_COLUMNS: Column<Line>[] = [
  description,
  { label: L.date, className: 'whitespace-nowrap', cell: (l) => formatDate(l.date) },
  { label: L.receipt, className: 'whitespace-nowrap', cell: (l) => l.receipt_number ?? '' },
  debit,
  { label: L.credit, figures: true, cell: (l) => money(l.credit) },
  { label: L.balance, figures: true, className: 'font-semibold', cell: (l) => formatNaira(l.balance) },
];

/** Charges (and their discounts) that fall due later: listed apart, outside the balance. */
const UPCOMING_COLUMNS: Column<Line>[] = [
  { ...description, cell: (l) => l.description },
  { label: L.fallsDue, className: 'whitespace-nowrap', cell: (l) => formatDate(l.date) },
  debit,
  { label: DL.discounts, figures: true, cell: (l) => money(l.credit) },
];

function UpcomingLines({ lines }: { lines: Line[] }) {
  return (
    <section className="mt-4" aria-labelledby="statement-upcoming-title">
      <h3 id="statement-upcoming-title" className="mb-1 font-semibold">
        {L.upcoming}
      </h3>
      <p className="mb-2 text-xs text-slate-600">{L.upcomingHint}</p>
      <RowTable
        columns={UPCOMING_COLUMNS}
        rows={lines}
        rowKey={(_l, i) => i}
        rowProps={(l) => ({ ...lineProps(l), 'data-upcoming': 'true' })}
        testId="statement-upcoming-lines"
      />
    </section>
  );
}

type TermRow = { key: string; label: string; charged: number; paid: number; outstanding: number };
const TERM_COLUMNS: Column<TermRow>[] = [
  { label: AL.line, className: 'font-medium', cell: (r) => r.label },
  { label: L.charged, figures: true, cell: (r) => formatNaira(r.charged) },
  { label: L.paid, figures: true, cell: (r) => formatNaira(r.paid) },
  { label: AL.outstanding, figures: true, cell: (r) => formatNaira(r.outstanding) },
];

/** What the payments settled: the arrears first (unless recorded "current term first"), then each term (decision 041). */
function TermAllocation({ data }: { data: Statement }) {
  const rows: TermRow[] = [
    ...(data.arrears.charged > 0 ? [{ key: 'arrears', label: A.arrearsRow, ...data.arrears }] : []),
    ...data.terms.filter((t) => t.charged > 0).map((t) => ({ key: t.term, label: termLabel(t.term), ...t })),
  ];
  if (!rows.length) return null;
  return (
    <section className="mt-4" aria-labelledby="statement-terms-title">
      <h3 id="statement-terms-title" className="mb-1 font-semibold">
        {AL.allocationTitle}
      </h3>
      <p className="mb-2 text-xs text-slate-600">{AL.allocationHint}</p>
      <RowTable columns={TERM_COLUMNS} rows={rows} rowKey={(r) => r.key} testId="statement-terms" />
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
          data.brought_forward !== 0 && {
            label: `${data.brought_forward > 0 ? A.broughtForwardLabel : A.creditLabel}${data.brought_forward_from ? ` (${data.brought_forward_from})` : ''}`,
            value: formatNaira(Math.abs(data.brought_forward)),
            testId: 'statement-brought-forward',
          },
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
          <RowTable columns={DUE_COLUMNS} rows={due} rowKey={(_l, i) => i} rowProps={lineProps} testId="statement-lines" />
          {upcoming.length > 0 && <UpcomingLines lines={upcoming} />}
        </div>
      )}
      <TermAllocation data={data} />
    </Card>
  );
}
