import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PAYMENT_METHOD_LABELS } from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as BL } from '@portal/domain/bursary-screens';
import { termLabel } from '@portal/domain/constants';
import { formatNaira } from '@portal/domain/money';
import { TRANSFER_REPORT_SCREEN_LABELS as L, TRANSFER_REPORT_SCREEN_MESSAGES as M } from '@portal/domain/transfer-report-screens';
import { TRANSFER_REPORT_STATUS_LABELS, type TransferReport, type TransferReportStatus } from '@portal/domain/transfer-reports';
import { formatDate, formatDateTime } from '../../../lib/datetime';
import { errorMessage } from '../../../lib/errors';
import { fetchSlip } from '../transfers-api';
import { OpenFileButton } from './open-file-button';

const STATUS_TONES: Record<TransferReportStatus, string> = {
  to_confirm: 'border-amber-400 bg-amber-50 text-amber-950',
  confirmed: 'border-brand-600/50 bg-brand-50 text-brand-900',
  rejected: 'border-red-300 bg-red-50 text-red-900',
};

export function StatusBadge({ status }: { status: TransferReportStatus }) {
  return (
    <span
      className={`inline-block rounded-full border px-2.5 py-0.5 text-xs font-semibold ${STATUS_TONES[status]}`}
      data-testid="report-status"
    >
      {TRANSFER_REPORT_STATUS_LABELS[status]}
    </span>
  );
}

/** Opens the slip in a new tab (fetched with the token; a blocked pop-up downloads it). */
export function SlipButton({ id }: { id: number }) {
  return (
    <OpenFileButton
      variant="secondary"
      fetch={() => fetchSlip(id)}
      failure={(err) => errorMessage(err, { fallback: M.slipFailed, useDetail: true })}
    >
      {L.viewSlip}
    </OpenFileButton>
  );
}

/** One "label: value" line of a report's details, read as a sentence. */
function Detail({ label, className, testId, children }: { label: string; className?: string; testId?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <dt className="inline text-slate-600">{label}: </dt>
      <dd className="inline" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/**
 * One reported transfer as a card (a phone's width first): amount and status, how and when it was
 * paid, what became of it. `student` adds who reported it (the bursar's queue); `children` the actions.
 */
export function TransferReportCard({ r, student = false, children }: { r: TransferReport; student?: boolean; children?: ReactNode }) {
  return (
    <li
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="transfer-report"
      data-report-id={r.id}
      data-status={r.status}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          {student && (
            <p className="font-semibold [overflow-wrap:anywhere]">
              {r.full_name}{' '}
              <span className="text-sm font-normal text-slate-600">
                {r.admission_number} · {r.student_class}
              </span>
            </p>
          )}
          <p className="text-lg font-bold tabular-nums" data-testid="report-amount">
            {formatNaira(r.amount)}
          </p>
        </div>
        <StatusBadge status={r.status} />
      </div>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <Detail className="min-w-0" label={BL.method}>
          {PAYMENT_METHOD_LABELS[r.method]}
        </Detail>
        <Detail className="min-w-0 [overflow-wrap:anywhere]" label={BL.bankAndReference} testId="report-reference">
          {r.bank} / {r.bank_reference}
        </Detail>
        <Detail label={L.paidOn}>{formatDate(r.paid_on)}</Detail>
        <Detail label={BL.session}>
          {r.session} · {r.term ? termLabel(r.term) : BL.general}
        </Detail>
        <Detail label={L.reportedOn}>{formatDateTime(r.reported_at)}</Detail>
        {r.note && (
          <Detail className="min-w-0 [overflow-wrap:anywhere] sm:col-span-2" label={L.note}>
            {r.note}
          </Detail>
        )}
      </dl>
      {r.status === 'rejected' && (
        <p className="mt-2 rounded-lg bg-red-50 p-2 text-sm text-red-900 [overflow-wrap:anywhere]" data-testid="report-reason">
          <span className="font-semibold">{L.reason}: </span>
          {r.reason}
        </p>
      )}
      {r.status === 'confirmed' && r.receipt_number && (
        <p className="mt-2 text-sm" data-testid="report-receipt">
          {BL.receipt} <span className="font-semibold">{r.receipt_number}</span>
          {r.payment_reference && (
            <>
              {' · '}
              <Link
                className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline"
                to={`/payments/receipt/${encodeURIComponent(r.payment_reference)}`}
              >
                {L.viewReceipt}
              </Link>
            </>
          )}
        </p>
      )}
      {r.decided_at && r.decided_by && (
        <p className="mt-1 text-xs text-slate-600">
          {TRANSFER_REPORT_STATUS_LABELS[r.status]} {formatDateTime(r.decided_at)} {L.decidedBy(r.decided_by)}
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <SlipButton id={r.id} />
        {children}
      </div>
    </li>
  );
}
