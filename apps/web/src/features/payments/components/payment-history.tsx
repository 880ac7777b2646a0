import { Link } from 'react-router';
import { PAYMENT_HTTP_MESSAGES, PAYMENT_MESSAGES, paymentErrorMessage } from '@portal/domain/payments';
import { termLabel } from '@portal/domain/constants';
import { Card } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { ApiError } from '../../../lib/api-client';
import { usePaymentHistory } from '../api';
import { formatNaira, formatPaidWhen, statusClass, statusLabel } from '../format';
import { ScrollTable } from '../../../components/ui/scroll-table';

/** The message for a failed payment call; `fallback` for anything that is not an HTTP answer. */
export function errorText(err: unknown, fallback: string = PAYMENT_HTTP_MESSAGES[500]): string {
  return err instanceof ApiError ? paymentErrorMessage(err) : fallback;
}

/** Payment History for one admission number. */
export function PaymentHistory({ admissionNumber }: { admissionNumber: string }) {
  const ready = admissionNumber.trim().length >= 3;
  const history = usePaymentHistory(admissionNumber.trim());
  return (
    <Card title="Payment History">
      {!ready ? (
        <p className="text-sm text-slate-600">Enter an admission number to see its payments.</p>
      ) : (
        <QueryView query={history} messages={errorText} loading="Loading payments..." empty={PAYMENT_MESSAGES.noPayments}>
          {(data) => (
            <ScrollTable
              label="Payment history table"
              tableClassName="stack-sm stack-sm-1 w-full text-left text-sm sm:min-w-[36rem]"
              testId="payment-history"
            >
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  <th className="py-2 pr-3">Date</th>
                  <th className="py-2 pr-3">Reference</th>
                  <th className="py-2 pr-3">Session</th>
                  <th className="py-2 pr-3 text-right">Amount</th>
                  <th className="py-2 pr-3">Status</th>
                  <th className="py-2">
                    <span className="sr-only">Receipt</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.map((p) => (
                  <tr key={p.id} className="border-b border-slate-100 last:border-0">
                    <td className="py-2 pr-3 whitespace-nowrap" data-label="Date">
                      {formatPaidWhen(p)}
                    </td>
                    <td className="py-2 pr-3 font-mono text-xs break-all" data-label="Reference">
                      {p.reference}
                    </td>
                    <td className="py-2 pr-3 whitespace-nowrap" data-label="Session">
                      {p.current_session}
                      {p.term ? ` · ${termLabel(p.term)}` : ''}
                    </td>
                    <td className="py-2 pr-3 text-right whitespace-nowrap" data-label="Amount">
                      {formatNaira(p.amount)}
                    </td>
                    <td className="py-2 pr-3" data-label="Status">
                      <span className={statusClass(p.status)}>{statusLabel(p.status)}</span>
                    </td>
                    <td className="py-2">
                      {p.status === 'successful' && (
                        <Link to={`/payments/receipt/${encodeURIComponent(p.reference)}`} className="font-medium text-brand-800 underline">
                          Receipt<span className="sr-only"> for {p.reference}</span>
                        </Link>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          )}
        </QueryView>
      )}
    </Card>
  );
}
