import { useParams } from 'react-router';
import { termLabel } from '@portal/domain/constants';
import { DISCOUNT_SCREEN_LABELS as DL } from '@portal/domain/discount-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink, RequestButton } from '../../../components/ui/button';
import { Card, DetailRow } from '../../../components/ui/card';
import { LoadingBlock } from '../../../components/ui/spinner';
import { SavedCopyNote } from '../../../components/ui/saved-copy-note';
import { keptAt, unreachable } from '../../../lib/offline-query';
import { OFFLINE_SAFETY_MESSAGES } from '@portal/domain/offline-safety-screens';
import { downloadReceiptPdf, useReceipt } from '../api';
import { errorText } from '../components/payment-history';
import { useSaveFile } from '../components/save-file';
import { formatNaira, formatPaidWhen } from '../format';

/** A printable receipt for one successful payment, with a PDF download (beyond the spec). */
export default function ReceiptPage() {
  const { reference = '' } = useParams();
  const { data, isPending, isError, error } = useReceipt(reference);
  const pdf = useSaveFile()(() => downloadReceiptPdf(reference), `receipt-${reference}.pdf`);

  return (
    <PageLayout
      title="Payment Receipt"
      actions={
        data && (
          <>
            <Button variant="secondary" onClick={() => window.print()}>
              Print Receipt
            </Button>
            {/* A saved copy (offline) is read only: the PDF is the server's. */}
            {keptAt(data) === null && <RequestButton run={pdf}>Download PDF</RequestButton>}
          </>
        )
      }
    >
      {isPending ? (
        <LoadingBlock />
      ) : isError ? (
        unreachable(error) ? (
          <Alert tone="warning">{OFFLINE_SAFETY_MESSAGES.noSavedCopy}</Alert>
        ) : (
          <Alert tone="error">{errorText(error)}</Alert>
        )
      ) : (
        <Card className="mx-auto max-w-xl">
          <SavedCopyNote data={data} />
          <div className="mb-4 text-center">
            <p className="text-lg font-bold text-brand-900">{data.school.name}</p>
            <p className="text-sm text-slate-600">{data.school.motto}</p>
            <p className="text-xs text-slate-600">
              {[data.school.address, data.school.phone, data.school.email].filter(Boolean).join(' · ')}
            </p>
          </div>
          <p className="mb-4 text-center text-3xl font-bold text-brand-900" data-testid="receipt-amount">
            {formatNaira(data.amount)}
          </p>
          <dl>
            {data.receipt_number && (
              <DetailRow label="Receipt number" value={<span data-testid="receipt-number">{data.receipt_number}</span>} />
            )}
            <DetailRow label="Reference" value={data.reference} />
            <DetailRow label="Admission number" value={data.admission_number} />
            <DetailRow label="Full name" value={data.full_name} />
            <DetailRow label="Class" value={data.current_class} />
            <DetailRow label="Session" value={data.current_session} />
            <DetailRow label="Term" value={data.term ? termLabel(data.term) : ''} />
            <DetailRow label="Email" value={data.email} />
            <DetailRow label="Phone number" value={data.phone_number ?? ''} />
            <DetailRow
              label="Paid on"
              value={formatPaidWhen(data.method && data.method !== 'online' ? data : { paid_at: data.paid_at }, data.school.time_zone)}
            />
            <DetailRow label="Paid through" value={data.provider} />
            {data.bank && <DetailRow label="Bank / reference" value={[data.bank, data.bank_reference].filter(Boolean).join(' / ')} />}
            <DetailRow label="Status" value="Successful" />
            {data.discounts?.map((d, i) => (
              <DetailRow
                key={i}
                label={DL.receiptDiscount}
                value={<span data-testid="receipt-discount">{DL.discountLine(d.label, d.amount)}</span>}
              />
            ))}
            {data.balance_after !== undefined && data.balance_after !== null && (
              <DetailRow label={DL.balanceAfter} value={<span data-testid="receipt-balance">{formatNaira(data.balance_after)}</span>} />
            )}
          </dl>
        </Card>
      )}
      <div className="no-print mt-6">
        <ButtonLink to="/PaymentForm" variant="ghost">
          Back to School Fees Payment
        </ButtonLink>
      </div>
    </PageLayout>
  );
}
