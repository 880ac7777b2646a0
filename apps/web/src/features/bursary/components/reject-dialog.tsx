import { TRANSFER_REPORT_SCREEN_LABELS as L, TRANSFER_REPORT_SCREEN_MESSAGES as M } from '@portal/domain/transfer-report-screens';
import { TRANSFER_REPORT_MESSAGES, transferRejectSchema, type TransferReport } from '@portal/domain/transfer-reports';
import { useRejectTransfer } from '../transfers-api';
import { ReasonDialog } from './reason-dialog';

/** Asks the reason the student will read, says what a rejection does, then rejects. */
export function RejectDialog({ report, onClose }: { report: TransferReport; onClose: () => void }) {
  const reject = useRejectTransfer();
  return (
    <ReasonDialog
      idBase={`reject-${report.id}`}
      testId="reject-dialog"
      title={L.confirmReject}
      question={L.rejectQuestion(report.amount, report.full_name, report.bank_reference)}
      reasonLabel={L.rejectReason}
      confirmLabel={L.confirmReject}
      cancelLabel={L.cancel}
      schema={transferRejectSchema}
      pending={reject.isPending}
      submit={async (reason) => {
        await reject.mutateAsync({ id: report.id, reason });
        return TRANSFER_REPORT_MESSAGES.rejected;
      }}
      failedFallback={M.rejectFailed}
      onClose={onClose}
    />
  );
}
