import { useEffect, useRef, useState } from 'react';
import { TRANSFER_REPORT_SCREEN_LABELS as L, TRANSFER_REPORT_SCREEN_MESSAGES as M } from '@portal/domain/transfer-report-screens';
import { TRANSFER_REPORT_MESSAGES, transferRejectSchema, type TransferReport } from '@portal/domain/transfer-reports';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/field';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useRejectTransfer } from '../transfers-api';

/** Asks the reason the student will read, says what a rejection does, then rejects (as the reversal dialog does). */
export function RejectDialog({ report, onClose }: { report: TransferReport; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string[] | undefined>();
  const [failure, setFailure] = useState('');
  const reject = useRejectTransfer();
  const toast = useToast();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    reasonRef.current?.focus();
  }, [report.id]);

  async function confirm() {
    setFailure('');
    const parsed = transferRejectSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues.map((i) => i.message));
      reasonRef.current?.focus();
      return;
    }
    try {
      await reject.mutateAsync({ id: report.id, reason: parsed.data.reason });
      toast.success(TRANSFER_REPORT_MESSAGES.rejected);
      onClose();
    } catch (err) {
      setError(fieldErrorsOf(err).reason);
      setFailure(errorMessage(err, { fallback: M.rejectFailed, useDetail: true }));
    }
  }

  return (
    <section
      role="dialog"
      aria-labelledby={`reject-title-${report.id}`}
      aria-describedby={`reject-text-${report.id}`}
      className="mt-3 rounded-xl border border-amber-500 bg-amber-50 p-4"
      data-testid="reject-dialog"
    >
      <h3 id={`reject-title-${report.id}`} className="mb-2 font-semibold">
        {L.confirmReject}
      </h3>
      <p id={`reject-text-${report.id}`} className="mb-3 text-sm text-amber-950 [overflow-wrap:anywhere]">
        {L.rejectQuestion(report.amount, report.full_name, report.bank_reference)}
      </p>
      {failure && (
        <Alert tone="error" className="mb-3">
          {failure}
        </Alert>
      )}
      <TextAreaField
        ref={reasonRef}
        id={`reject-reason-${report.id}`}
        label={L.rejectReason}
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
        <Button variant="danger" loading={reject.isPending} onClick={() => void confirm()}>
          {L.confirmReject}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          {L.cancel}
        </Button>
      </div>
    </section>
  );
}
