import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { TRANSFER_REPORT_SCREEN_LABELS as L, TRANSFER_REPORT_SCREEN_MESSAGES as M } from '@portal/domain/transfer-report-screens';
import {
  TRANSFER_REPORT_MESSAGES,
  TRANSFER_REPORT_SCREENS,
  TRANSFER_REPORT_STATUSES,
  TRANSFER_REPORT_STATUS_LABELS,
  type TransferConfirmation,
  type TransferReport,
  type TransferReportStatus,
} from '@portal/domain/transfer-reports';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Pager } from '../components/pager';
import { Card } from '../../../components/ui/card';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { SelectField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { errorMessage } from '../../../lib/errors';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { RejectDialog } from '../components/reject-dialog';
import { TransferReportCard } from '../components/transfer-report-card';
import { useConfirmTransfer, useTransferQueue, type TransferQueueQuery } from '../transfers-api';

/** `?status=` as the address says: a status, `all`, or (none) the reports still to confirm. */
function queryOf(params: URLSearchParams): TransferQueueQuery & { filter: string } {
  const status = params.get('status') ?? '';
  const page = Number(params.get('page'));
  const chosen = (TRANSFER_REPORT_STATUSES as readonly string[]).includes(status) ? (status as TransferReportStatus) : undefined;
  const filter = status === 'all' ? 'all' : (chosen ?? 'to_confirm');
  return { filter, ...(filter === 'all' ? {} : { status: chosen ?? 'to_confirm' }), ...(page > 1 ? { page } : {}) };
}

/** A waiting report's Confirm (asked once more, since it records money) and Reject (with the reason). */
function Decide({ r, onConfirmed }: { r: TransferReport; onConfirmed: (c: TransferConfirmation) => void }) {
  const [mode, setMode] = useState<'idle' | 'confirm' | 'reject'>('idle');
  const [failure, setFailure] = useState('');
  const confirm = useConfirmTransfer();
  async function yes() {
    setFailure('');
    try {
      onConfirmed(await confirm.mutateAsync(r.id));
    } catch (err) {
      setMode('idle');
      setFailure(errorMessage(err, { fallback: M.confirmFailed, useDetail: true }));
    }
  }
  return (
    <div className="w-full">
      {failure && (
        <Alert tone="error" className="mb-2">
          <span data-testid="decide-error">{failure}</span>
        </Alert>
      )}
      {mode === 'idle' && (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setMode('confirm')} aria-label={`${L.confirm} ${r.bank_reference}`}>
            {L.confirm}
          </Button>
          <Button variant="danger" onClick={() => setMode('reject')} aria-label={`${L.reject} ${r.bank_reference}`}>
            {L.reject}
          </Button>
        </div>
      )}
      {mode === 'confirm' && (
        <ConfirmPanel
          label={`${L.confirm} ${r.bank_reference}`}
          confirm={L.yesConfirm}
          loading={confirm.isPending}
          onConfirm={() => void yes()}
          onCancel={() => setMode('idle')}
          className="mt-0"
        >
          {L.confirmQuestion(r.amount, r.full_name)}
        </ConfirmPanel>
      )}
      {mode === 'reject' && <RejectDialog report={r} onClose={() => setMode('idle')} />}
    </div>
  );
}

/** /bursary/transfers (bursar, admin): the transfers students reported, oldest waiting first; confirm or reject each. */
export default function TransferQueuePage() {
  const [params, patch] = useSearchParamPatch();
  const { filter, ...q } = queryOf(params);
  const queue = useTransferQueue(q);
  const [confirmed, setConfirmed] = useState<TransferConfirmation | null>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (confirmed) doneRef.current?.focus();
  }, [confirmed]);

  return (
    <PageLayout title={TRANSFER_REPORT_SCREENS.queue.title} width="max-w-4xl">
      <Card className="mb-4">
        <SelectField
          label={L.status}
          value={filter}
          onChange={(e) => patch({ status: e.target.value === 'to_confirm' ? '' : e.target.value, page: '' })}
          options={[
            ...TRANSFER_REPORT_STATUSES.map((s) => ({ value: s, label: TRANSFER_REPORT_STATUS_LABELS[s] })),
            { value: 'all', label: L.everyReport },
          ]}
        />
      </Card>
      {confirmed && (
        <div ref={doneRef} tabIndex={-1} className="mb-4 outline-none">
          <Alert tone="success">
            <span data-testid="confirm-message">{TRANSFER_REPORT_MESSAGES.confirmed(confirmed.payment.receipt_number)}</span>{' '}
            <Link
              className="inline-flex min-h-11 items-center font-semibold underline"
              to={`/payments/receipt/${encodeURIComponent(confirmed.payment.reference)}`}
            >
              {L.viewReceipt}
            </Link>
          </Alert>
        </div>
      )}
      <QueryView
        query={queue}
        messages={{ fallback: M.queueFailed, useDetail: true }}
        isEmpty={(d) => d.reports.length === 0}
        empty={filter === 'to_confirm' ? M.queueEmpty : M.noneOfStatus}
      >
        {(data) => (
          <>
            <p className="mb-3 text-sm">{L.count(data.total)}</p>
            <ul className="flex flex-col gap-3" data-testid="transfer-queue">
              {data.reports.map((r) => (
                <TransferReportCard key={r.id} r={r} student>
                  {r.status === 'to_confirm' && <Decide r={r} onConfirmed={setConfirmed} />}
                </TransferReportCard>
              ))}
            </ul>
            <Pager page={data.page} pages={data.pages} onPage={(page) => patch({ page })} />
          </>
        )}
      </QueryView>
    </PageLayout>
  );
}
