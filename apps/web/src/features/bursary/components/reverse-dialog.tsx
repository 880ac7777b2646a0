import { useEffect, useRef, useState } from 'react';
import { BURSARY_MESSAGES, reversalSchema, type LedgerEntry } from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M } from '@portal/domain/bursary-screens';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/field';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useReversePayment } from '../api';

/** Asks the reason, says what a reversal does, then reverses (a new negative entry, never an edit). */
export function ReverseDialog({ entry, onClose }: { entry: LedgerEntry; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string[] | undefined>();
  const [failure, setFailure] = useState('');
  const reverse = useReversePayment();
  const toast = useToast();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    reasonRef.current?.focus();
  }, [entry.reference]);

  async function confirm() {
    setFailure('');
    const parsed = reversalSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues.map((i) => i.message));
      reasonRef.current?.focus();
      return;
    }
    try {
      await reverse.mutateAsync({ reference: entry.reference, reason: parsed.data.reason });
      toast.success(BURSARY_MESSAGES.reversed(entry.receipt_number));
      onClose();
    } catch (err) {
      setError(fieldErrorsOf(err).reason);
      setFailure(errorMessage(err, { fallback: M.reverseFailed, useDetail: true }));
    }
  }

  return (
    <section
      role="dialog"
      aria-labelledby="reverse-title"
      aria-describedby="reverse-text"
      className="mb-4 rounded-xl border border-amber-500 bg-amber-50 p-4"
      data-testid="reverse-dialog"
    >
      <h2 id="reverse-title" className="mb-2">
        {L.confirmReverse} {entry.receipt_number}
      </h2>
      <p id="reverse-text" className="mb-3 text-sm text-amber-950">
        {L.reverseQuestion(entry.receipt_number, entry.amount, entry.full_name)}
      </p>
      {failure && (
        <Alert tone="error" className="mb-3">
          {failure}
        </Alert>
      )}
      <TextAreaField
        ref={reasonRef}
        id="reverse-reason"
        label={L.reason}
        required
        rows={2}
        value={reason}
        onChange={(e) => {
          setReason(e.target.value);
          setError(undefined);
        }}
        error={error}
      />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="danger" loading={reverse.isPending} onClick={() => void confirm()}>
          {L.confirmReverse}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
