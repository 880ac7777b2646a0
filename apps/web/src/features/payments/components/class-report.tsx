import { PAYMENT_MESSAGES } from '@portal/domain/payments';
import type { ClassReportRow } from '@portal/domain/payment-views';
import { RequestButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { downloadClassReportCsv, useClassReport } from '../api';
import { formatDateTime, formatNaira, statusClass, statusLabel } from '../format';
import { errorText } from './payment-history';
import { useSaveFile } from './save-file';
import { ScrollTable } from '../../../components/ui/scroll-table';

function total(rows: ClassReportRow[], f: (r: ClassReportRow) => number): number {
  return rows.reduce((s, r) => s + Math.round(f(r) * 100), 0) / 100;
}

/** Class Payment Report with the fee-schedule columns, totals and a CSV export. */
export function ClassReport({ arm, session }: { arm: string; session: string }) {
  const report = useClassReport(arm, session, true);
  const data = report.data;
  const exportCsv = useSaveFile()(
    () => downloadClassReportCsv(arm, session),
    `payments-${arm}-${session || 'all'}.csv`.replace(/[^A-Za-z0-9.-]+/g, '-'),
  );

  return (
    <Card
      title="Class Payment Report"
      actions={
        arm && data && data.length > 0 ? (
          <RequestButton variant="secondary" run={exportCsv} className="no-print">
            Export CSV
          </RequestButton>
        ) : undefined
      }
    >
      {!arm ? (
        <p className="text-sm text-slate-600">Choose a class to see who has paid.</p>
      ) : (
        <QueryView query={report} messages={errorText} loading="Loading report..." empty={PAYMENT_MESSAGES.noStudents}>
          {(data) => (
            <>
              <p className="mb-3 text-sm text-slate-600" data-testid="class-report-summary">
                {arm}
                {session ? `, ${session} session` : ''}: {data.filter((r) => r.status === 'paid').length} of {data.length} paid in full,{' '}
                {data.filter((r) => r.status === 'part_paid').length} part paid, {data.filter((r) => r.status === 'unpaid').length} unpaid.
              </p>
              <ScrollTable label="Class payment report table" tableClassName="w-full min-w-[48rem] text-left text-sm" testId="class-report">
                <thead className="border-b border-slate-200 text-slate-600">
                  <tr>
                    <th className="py-2 pr-3">Admission No.</th>
                    <th className="py-2 pr-3">Full Name</th>
                    <th className="py-2 pr-3">Status</th>
                    <th className="py-2 pr-3 text-right">Last Payment</th>
                    <th className="py-2 pr-3">Last Payment Date</th>
                    <th className="py-2 pr-3 text-right">Due</th>
                    <th className="py-2 pr-3 text-right">Paid</th>
                    <th className="py-2 text-right">Balance</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((r) => (
                    <tr key={r.admission_number} className="border-b border-slate-100">
                      <td className="py-2 pr-3 whitespace-nowrap">{r.admission_number}</td>
                      <td className="py-2 pr-3">{r.full_name}</td>
                      <td className="py-2 pr-3">
                        {/* Paid in full / part paid / unpaid against what is due, and a pending checkout. */}
                        <span className={statusClass(r.status)}>{statusLabel(r.status)}</span>
                        {r.payment_status === 'pending' && <span className="ml-1 text-xs text-slate-600">(payment pending)</span>}
                      </td>
                      <td className="py-2 pr-3 text-right whitespace-nowrap">
                        {r.last_payment_amount === null ? '—' : formatNaira(r.last_payment_amount)}
                      </td>
                      <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(r.last_payment_date)}</td>
                      <td className="py-2 pr-3 text-right whitespace-nowrap">{formatNaira(r.amount_due)}</td>
                      <td className="py-2 pr-3 text-right whitespace-nowrap">{formatNaira(r.amount_paid)}</td>
                      <td className="py-2 text-right whitespace-nowrap">{formatNaira(r.outstanding)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot className="font-semibold">
                  <tr>
                    <th scope="row" colSpan={5} className="py-2 pr-3">
                      Totals ({data.length} students)
                    </th>
                    <td className="py-2 pr-3 text-right whitespace-nowrap">{formatNaira(total(data, (r) => r.amount_due))}</td>
                    <td className="py-2 pr-3 text-right whitespace-nowrap">{formatNaira(total(data, (r) => r.amount_paid))}</td>
                    <td className="py-2 text-right whitespace-nowrap">{formatNaira(total(data, (r) => r.outstanding))}</td>
                  </tr>
                </tfoot>
              </ScrollTable>
            </>
          )}
        </QueryView>
      )}
    </Card>
  );
}
