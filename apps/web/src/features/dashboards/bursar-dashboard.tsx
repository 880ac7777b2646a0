import { Link } from 'react-router';
import { PAYMENT_METHOD_LABELS } from '@portal/domain/bursary';
import { TERM_LABELS } from '@portal/domain/constants';
import type { BursarDashboard as Data } from '@portal/domain/dashboard-staff';
import { formatDay } from '@portal/domain/datetime';
import { FEE_REPORT_SCREENS as REP } from '@portal/domain/fee-reports';
import { formatNaira } from '@portal/domain/money';
import { TRANSFER_REPORT_SCREENS as TRF } from '@portal/domain/transfer-report-screens';
import { BarChart, ChartPanel, GroupedBarChart } from '../../components/charts';
import { QueryView } from '../../components/ui/query-view';
import { useBursarDashboard } from './staff-api';

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);
/** Naira short enough to sit beside a bar on a phone ("₦1.2m", "₦450k"); the tables keep the kobo. */
const nairaShort = (v: number) =>
  v >= 1_000_000 ? `₦${(v / 1_000_000).toFixed(1)}m` : v >= 1_000 ? `₦${Math.round(v / 1_000)}k` : `₦${Math.round(v)}`;
/** "20 Nov" for a bar's label (the table writes the whole date). */
const shortDay = (iso: string) => formatDay(iso).split(' ').slice(0, 2).join(' ');

function ByLevel({ d }: { d: Data }) {
  return (
    <ChartPanel
      title="Expected and collected by level"
      testId="bursar-by-level"
      summary={`${formatNaira(d.totals.collected)} collected of ${formatNaira(d.totals.expected)} expected this term (${pct(d.totals.collected, d.totals.expected)}%), arrears brought forward included; ${formatNaira(d.totals.outstanding)} outstanding.`}
      report={{ to: REP.collections.to, label: 'Open the collection summary' }}
      table={{
        columns: ['Level', 'Students', 'Expected', 'Collected', 'Outstanding'],
        rows: d.by_level.map((l) => [l.level, l.students, formatNaira(l.expected), formatNaira(l.collected), formatNaira(l.outstanding)]),
      }}
    >
      {(id) => (
        <GroupedBarChart
          categories={d.by_level.map((l) => l.level)}
          series={[
            { name: 'Expected', values: d.by_level.map((l) => l.expected) },
            { name: 'Collected', values: d.by_level.map((l) => l.collected) },
          ]}
          labelledBy={id}
          format={nairaShort}
        />
      )}
    </ChartPanel>
  );
}

function Ageing({ d }: { d: Data }) {
  return (
    <ChartPanel
      title="Debtors by age"
      testId="bursar-ageing"
      summary={`${d.debtors.count} ${d.debtors.count === 1 ? 'student owes' : 'students owe'} ${formatNaira(d.debtors.total_balance)}: ${d.debtors_ageing
        .map((a) => `${a.debtors} for ${a.label.toLowerCase()}`)
        .join(', ')}, counted from when the oldest unpaid fee fell due.`}
      report={{ to: REP.debtors.to, label: 'See the debtors list' }}
      table={{
        columns: ['Days owing', 'Debtors', 'Balance'],
        rows: d.debtors_ageing.map((a) => [a.label, a.debtors, formatNaira(a.balance)]),
      }}
    >
      {(id) => <BarChart data={d.debtors_ageing.map((a) => ({ label: a.label, value: a.balance }))} labelledBy={id} format={nairaShort} />}
    </ChartPanel>
  );
}

/** The term's days with money, latest last; the chart keeps the last 14 of them, the table every one. */
function ByDay({ d }: { d: Data }) {
  const days = d.collections_by_day;
  const shown = days.slice(-14);
  const total = days.reduce((s, x) => s + x.amount, 0);
  return (
    <ChartPanel
      title="Collections per day"
      testId="bursar-by-day"
      summary={
        days.length
          ? `${formatNaira(total)} received on ${days.length} ${days.length === 1 ? 'day' : 'days'} this term${shown.length < days.length ? `; the chart shows the last ${shown.length}` : ''}.`
          : 'Nothing received this term yet.'
      }
      report={{ to: REP.collections.to, label: 'Money received by day' }}
      table={{ columns: ['Day', 'Payments', 'Amount'], rows: days.map((x) => [formatDay(x.date), x.count, formatNaira(x.amount)]) }}
    >
      {(id) => <BarChart data={shown.map((x) => ({ label: shortDay(x.date), value: x.amount }))} labelledBy={id} format={nairaShort} />}
    </ChartPanel>
  );
}

function ByMethod({ d }: { d: Data }) {
  const rows = d.collections_by_method;
  return (
    <ChartPanel
      title="Collections by method"
      testId="bursar-by-method"
      summary={
        rows.length
          ? `${rows.map((m) => `${PAYMENT_METHOD_LABELS[m.method]} ${formatNaira(m.amount)} (${m.count})`).join('; ')}.`
          : 'Nothing received this term yet.'
      }
      table={{
        columns: ['Method', 'Payments', 'Amount'],
        rows: rows.map((m) => [PAYMENT_METHOD_LABELS[m.method], m.count, formatNaira(m.amount)]),
      }}
    >
      {(id) => (
        <BarChart
          data={rows.map((m) => ({ label: PAYMENT_METHOD_LABELS[m.method], value: m.amount }))}
          labelledBy={id}
          format={nairaShort}
        />
      )}
    </ChartPanel>
  );
}

function Waiting({ d }: { d: Data }) {
  const w = d.transfers_waiting;
  return (
    <section
      aria-labelledby="bursar-waiting-title"
      className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="bursar-transfers"
    >
      <h3 id="bursar-waiting-title" className="mb-2 text-base font-semibold text-slate-900">
        Transfers waiting to confirm
      </h3>
      <p className="text-sm text-slate-700">
        {w.count
          ? `${w.count} reported ${w.count === 1 ? 'transfer waits' : 'transfers wait'}, ${formatNaira(w.amount)} in all${w.oldest_reported_at ? `; the oldest reported ${formatDay(w.oldest_reported_at.slice(0, 10))}` : ''}.`
          : 'No reported transfer is waiting.'}
      </p>
      {w.count > 0 && (
        <p className="mt-2 text-sm">
          <Link
            to={TRF.queue.to}
            className="inline-flex min-h-11 items-center font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900"
          >
            Confirm the waiting transfers
          </Link>
        </p>
      )}
    </section>
  );
}

/** The bursar's home at a glance (issue 36.2): the term's money in, what is owed and for how long, what waits. */
export default function BursarDashboard() {
  const query = useBursarDashboard();
  const d = query.data;
  return (
    <section aria-labelledby="bursar-dashboard-title" data-testid="bursar-dashboard">
      <h2 id="bursar-dashboard-title" className="mb-3">
        Bursary this term
        {d && (
          <span className="text-base font-normal text-slate-600">
            {' '}
            · {d.term ? `${TERM_LABELS[d.term]}, ` : ''}
            {d.session}
          </span>
        )}
      </h2>
      <QueryView
        query={query}
        messages="The bursary figures could not be loaded. Try again in a moment."
        loading="Loading the bursary figures"
      >
        {(x) => (
          <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
            <ByLevel d={x} />
            <Ageing d={x} />
            <ByDay d={x} />
            <ByMethod d={x} />
            <Waiting d={x} />
          </div>
        )}
      </QueryView>
    </section>
  );
}
