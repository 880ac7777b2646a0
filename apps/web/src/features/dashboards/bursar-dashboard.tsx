import { formatDay } from '@portal/domain/datetime';
import { PAYMENT_METHOD_LABELS } from '@portal/domain/bursary';
import { TERM_LABELS } from '@portal/domain/constants';
import { FEE_REPORT_SCREENS as REP } from '@portal/domain/fee-reports';
import { formatNaira } from '@portal/domain/money';
import { TRANSFER_REPORT_SCREENS as TRF } from '@portal/domain/transfer-report-screens';
import type { BursarDashboard as Data } from '@portal/domain/dashboard-staff';
import { QueryView } from '../../components/ui/query-view';
import { useBursarDashboard } from './staff-api';
import { Bars, DashPanel, NumbersTable } from './staff-panel';

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/** The collections of the term's days, latest last; the picture keeps the last 14 days with money. */
function ByDay({ d }: { d: Data }) {
  const days = d.collections_by_day;
  const shown = days.slice(-14);
  const total = days.reduce((s, x) => s + x.amount, 0);
  return (
    <DashPanel
      title="Collections per day"
      testId="bursar-by-day"
      summary={
        days.length
          ? `${formatNaira(total)} received on ${days.length} ${days.length === 1 ? 'day' : 'days'} this term${shown.length < days.length ? `; the last ${shown.length} shown` : ''}.`
          : 'Nothing received this term yet.'
      }
      report={{ to: REP.collections.to, label: 'Open the collection summary' }}
      table={
        days.length ? (
          <NumbersTable
            caption="Collections per day"
            testId="bursar-by-day-table"
            head={['Day', 'Payments', 'Amount']}
            rows={days.map((x) => [formatDay(x.date), x.count, formatNaira(x.amount)])}
          />
        ) : undefined
      }
    >
      <Bars
        bars={shown.map((x) => ({ key: x.date, label: formatDay(x.date), value: x.amount, text: `${formatNaira(x.amount)} · ${x.count}` }))}
      />
    </DashPanel>
  );
}

function ByMethod({ d }: { d: Data }) {
  const rows = d.collections_by_method;
  return (
    <DashPanel
      title="Collections by method"
      testId="bursar-by-method"
      summary={
        rows.length
          ? rows.map((m) => `${PAYMENT_METHOD_LABELS[m.method]} ${formatNaira(m.amount)}`).join('; ') + '.'
          : 'Nothing received this term yet.'
      }
      table={
        rows.length ? (
          <NumbersTable
            caption="Collections by method"
            testId="bursar-by-method-table"
            head={['Method', 'Payments', 'Amount']}
            rows={rows.map((m) => [PAYMENT_METHOD_LABELS[m.method], m.count, formatNaira(m.amount)])}
          />
        ) : undefined
      }
    >
      <Bars
        bars={rows.map((m) => ({
          key: m.method,
          label: PAYMENT_METHOD_LABELS[m.method],
          value: m.amount,
          text: `${formatNaira(m.amount)} · ${m.count}`,
        }))}
      />
    </DashPanel>
  );
}

function ByLevel({ d }: { d: Data }) {
  return (
    <DashPanel
      title="Expected and collected by level"
      testId="bursar-by-level"
      summary={`${formatNaira(d.totals.collected)} collected of ${formatNaira(d.totals.expected)} expected (${pct(d.totals.collected, d.totals.expected)}%), brought-forward arrears included; ${formatNaira(d.totals.outstanding)} outstanding.`}
      report={{ to: REP.collections.to, label: 'See the figures by class' }}
      table={
        <NumbersTable
          caption="Expected and collected by level"
          testId="bursar-by-level-table"
          head={['Level', 'Students', 'Expected', 'Collected', 'Outstanding']}
          rows={d.by_level.map((l) => [l.level, l.students, formatNaira(l.expected), formatNaira(l.collected), formatNaira(l.outstanding)])}
        />
      }
    >
      <Bars
        bars={d.by_level.map((l) => ({
          key: l.level,
          label: l.level,
          value: l.collected,
          behind: l.expected,
          text: `${formatNaira(l.collected)} of ${formatNaira(l.expected)} (${pct(l.collected, l.expected)}%)`,
        }))}
      />
    </DashPanel>
  );
}

function Ageing({ d }: { d: Data }) {
  return (
    <DashPanel
      title="Debtors by age"
      testId="bursar-ageing"
      summary={`${d.debtors.count} ${d.debtors.count === 1 ? 'student owes' : 'students owe'} ${formatNaira(d.debtors.total_balance)}: ${d.debtors_ageing
        .map((a) => `${a.debtors} for ${a.label.toLowerCase()}`)
        .join(', ')} since the oldest unpaid fee fell due.`}
      report={{ to: REP.debtors.to, label: 'See the debtors list' }}
      table={
        <NumbersTable
          caption="Debtors by age"
          testId="bursar-ageing-table"
          head={['Days owing', 'Debtors', 'Balance']}
          rows={d.debtors_ageing.map((a) => [a.label, a.debtors, formatNaira(a.balance)])}
        />
      }
    >
      <Bars
        bars={d.debtors_ageing.map((a) => ({
          key: a.band,
          label: a.label,
          value: a.balance,
          text: `${a.debtors} · ${formatNaira(a.balance)}`,
        }))}
      />
    </DashPanel>
  );
}

function Waiting({ d }: { d: Data }) {
  const w = d.transfers_waiting;
  return (
    <DashPanel
      title="Transfers waiting to confirm"
      testId="bursar-transfers"
      summary={
        w.count
          ? `${w.count} reported ${w.count === 1 ? 'transfer waits' : 'transfers wait'}, ${formatNaira(w.amount)} in all${w.oldest_reported_at ? `; the oldest reported ${formatDay(w.oldest_reported_at.slice(0, 10))}` : ''}.`
          : 'No reported transfer is waiting.'
      }
      report={w.count ? { to: TRF.queue.to, label: 'Confirm the waiting transfers' } : undefined}
    />
  );
}

/** The bursar's home at a glance (issue 36.2): the term's money in, what is owed and for how long, what waits. */
export default function BursarDashboard() {
  const query = useBursarDashboard();
  return (
    <section aria-labelledby="bursar-dashboard-title" data-testid="bursar-dashboard">
      <h2 id="bursar-dashboard-title" className="mb-3">
        Bursary this term
        {query.data && (
          <span className="text-base font-normal text-slate-600">
            {' '}
            · {query.data.term ? `${TERM_LABELS[query.data.term]}, ` : ''}
            {query.data.session}
          </span>
        )}
      </h2>
      <QueryView
        query={query}
        messages="The bursary figures could not be loaded. Try again in a moment."
        loading="Loading the bursary figures"
      >
        {(d) => (
          <>
            <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
              <ByLevel d={d} />
              <Ageing d={d} />
              <ByDay d={d} />
              <ByMethod d={d} />
              <Waiting d={d} />
            </div>
          </>
        )}
      </QueryView>
    </section>
  );
}
