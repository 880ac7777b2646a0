import { BURSARY_MESSAGES, reversalSchema, type LedgerEntry } from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M } from '@portal/domain/bursary-screens';
import { useReversePayment } from '../api';
import { ReasonDialog } from './reason-dialog';

/** Asks the reason, says what a reversal does, then reverses (a new negative entry, never an edit). */
export function ReverseDialog({ entry, onClose }: { entry: LedgerEntry; onClose: () => void }) {
  const reverse = useReversePayment();
  return (
    <ReasonDialog
      idBase="reverse"
      testId="reverse-dialog"
      heading="h2"
      headingClassName="mb-2"
      className="mb-4 rounded-xl border border-amber-500 bg-amber-50 p-4"
      title={`${L.confirmReverse} ${entry.receipt_number}`}
      question={L.reverseQuestion(entry.receipt_number, entry.amount, entry.full_name)}
      reasonLabel={L.reason}
      confirmLabel={L.confirmReverse}
      cancelLabel="Cancel"
      schema={reversalSchema}
      pending={reverse.isPending}
      submit={async (reason) => {
        await reverse.mutateAsync({ reference: entry.reference, reason });
        return BURSARY_MESSAGES.reversed(entry.receipt_number);
      }}
      failedFallback={M.reverseFailed}
      onClose={onClose}
    />
  );
}
