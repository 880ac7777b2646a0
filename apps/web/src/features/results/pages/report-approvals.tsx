import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { termLabel } from '@portal/domain/constants';
import { CARD_STATUS_LABELS, REPORT_MESSAGES, type CardStatus } from '@portal/domain/report-card-rules';
import { type ArmApproval } from '@portal/domain/report-cards';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { REPORT_CARD_SCREEN_MESSAGES as M } from '@portal/domain/report-card-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextAreaField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { useSession } from '../../../lib/auth-store';
import { formatDate } from '../../../lib/datetime';
import { errorMessage, firstServerMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { ConfirmPanel, RevealedPanel } from '../../../components/ui/confirm-panel';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { useApprovalAction, useApprovals, type ApprovalAction } from '../approvals-api';
import { downloadClassPdf } from '../api';
import { downloadBlob } from '../../../lib/api-client';

const STATUS_CLASS: Record<CardStatus, string> = {
  draft: 'bg-slate-100 text-slate-800',
  submitted: 'bg-sky-100 text-sky-900',
  approved: 'bg-amber-100 text-amber-950',
  released: 'bg-emerald-100 text-emerald-900',
};

/** What is being asked before it happens: one arm's step, or a release of several arms. */
type Pending =
  { kind: 'submit' | 'approve' | 'return'; cls: string } | { kind: 'release'; classes: string[] | null /* null: every approved arm */ };

/**
 * /report-approvals: a term's report cards per arm. The form teacher submits an arm when its ratings
 * and comments are done; the admin (the principal) approves or sends back with a reason, then
 * releases (the release is the publishing students see). The server enforces every step.
 */
export default function ReportApprovalsPage() {
  const session = useSession();
  const isAdmin = session?.role === 'admin';
  const toast = useToast();
  // A link may name the session and term (`?session_id&term`); otherwise the current term is chosen.
  const [params] = useSearchParams();
  const [sessionId, setSessionId] = useState(params.get('session_id') ?? '');
  const [term, setTerm] = useState(params.get('term') ?? '');
  const approvals = useApprovals(sessionId, term);
  const action = useApprovalAction();
  const [pending, setPending] = useState<Pending | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState('');
  const [armErrors, setArmErrors] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<string[]>([]);
  const [downloading, setDownloading] = useState('');

  /** The arm's cards as one PDF: what the principal reads before approving. */
  async function armPdf(cls: string) {
    setDownloading(cls);
    try {
      downloadBlob(
        await downloadClassPdf({ session_id: sessionId, term, student_class: cls }),
        `report-cards-${cls.replace(/\s+/g, '-')}-${term}.pdf`,
      );
    } catch (err) {
      toast.error(errorMessage(err, { fallback: RESULT_MESSAGES.pdfFailed, useDetail: true }));
    } finally {
      setDownloading('');
    }
  }

  const rows = approvals.data ?? [];
  const approved = rows.filter((r) => r.status === 'approved').map((r) => r.student_class);
  const ask = (p: Pending) => {
    setPending(p);
    setReason('');
    setReasonError('');
  };

  async function run(p: Pending) {
    const head = { session_id: Number(sessionId), term };
    let req: ApprovalAction;
    if (p.kind === 'release') req = { action: 'release', body: p.classes ? { ...head, student_classes: p.classes } : head };
    else if (p.kind === 'return') {
      if (!reason.trim()) {
        setReasonError(REPORT_MESSAGES.returnReasonRequired);
        return;
      }
      req = { action: 'return', body: { ...head, student_class: p.cls, reason: reason.trim() } };
    } else req = { action: p.kind, body: { ...head, student_class: p.cls } };
    const key = p.kind === 'release' ? '' : p.cls;
    setArmErrors((e) => ({ ...e, [key]: '' }));
    try {
      const res = await action.mutateAsync(req);
      if (p.kind === 'release') {
        toast.success(REPORT_MESSAGES.released((res as { released: string[] }).released.length));
        setSelected([]);
      } else
        toast.success(
          p.kind === 'submit'
            ? REPORT_MESSAGES.submitted(p.cls)
            : p.kind === 'approve'
              ? REPORT_MESSAGES.approved(p.cls)
              : REPORT_MESSAGES.returned(p.cls),
        );
      setPending(null);
    } catch (err) {
      // The server's own words: comments missing, locked, not allowed now, or the reason's message.
      const msg = firstServerMessage(err) ?? errorMessage(err, { fallback: M.actionFailed, useDetail: true });
      if (p.kind === 'return' && err && typeof err === 'object' && 'status' in err && err.status === 400) setReasonError(msg);
      else {
        setArmErrors((e) => ({ ...e, [key]: msg }));
        setPending(null);
      }
    }
  }

  /** The arms a release would publish, and their scores changed since approval: the principal looks first (30.13). */
  const releaseChanges = (p: Pending & { kind: 'release' }) => {
    const arms = p.classes ? rows.filter((r) => p.classes!.includes(r.student_class)) : rows.filter((r) => r.status === 'approved');
    return arms.flatMap((r) => (r.changes_since_approval ?? []).map((c) => ({ cls: r.student_class, c })));
  };

  const confirmText = (p: Pending): string =>
    p.kind === 'submit'
      ? M.confirmSubmit(p.cls)
      : p.kind === 'approve'
        ? M.confirmApprove(p.cls)
        : p.kind === 'release'
          ? p.classes
            ? M.confirmRelease(p.classes)
            : M.confirmReleaseAll(approved.length)
          : '';

  function armPanel(r: ArmApproval) {
    if (!pending || pending.kind === 'release' || pending.cls !== r.student_class) return null;
    if (pending.kind === 'return')
      return (
        <RevealedPanel label={`Send back ${r.student_class}`}>
          <TextAreaField
            label={M.returnReasonLabel}
            required
            rows={2}
            maxLength={300}
            value={reason}
            error={reasonError || undefined}
            onChange={(e) => {
              setReason(e.target.value);
              setReasonError('');
            }}
          />
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="danger" loading={action.isPending} onClick={() => void run(pending)}>
              Send back
            </Button>
            <Button variant="secondary" onClick={() => setPending(null)}>
              Cancel
            </Button>
          </div>
        </RevealedPanel>
      );
    return (
      <ConfirmPanel
        label={`${pending.kind === 'submit' ? 'Submit' : 'Approve'} ${r.student_class}`}
        confirm={pending.kind === 'submit' ? 'Submit' : 'Approve'}
        loading={action.isPending}
        onConfirm={() => void run(pending)}
        onCancel={() => setPending(null)}
      >
        {confirmText(pending)}
      </ConfirmPanel>
    );
  }

  const sheetQuery = (cls: string) => `?${new URLSearchParams({ session_id: sessionId, term, class: cls }).toString()}`;

  return (
    <PageLayout title="Report Card Approvals">
      <Card className="mb-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <SessionTermFields openOnCurrentTerm sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
        </div>
        <p className="mt-3 text-sm text-slate-600">{M.approvalsExplain}</p>
      </Card>
      {sessionId && term && (
        <Card title={`Arms · ${termLabel(term)}`}>
          {approvals.isPending ? (
            <LoadingBlock />
          ) : approvals.isError ? (
            <Alert tone="error">{errorMessage(approvals.error, { fallback: M.approvalsFailed, useDetail: true })}</Alert>
          ) : rows.length === 0 ? (
            <Alert tone="info">{M.noArms}</Alert>
          ) : (
            <>
              {isAdmin && (
                <div className="mb-3 flex flex-wrap items-center gap-2 border-b border-slate-100 pb-3">
                  <Button
                    disabled={selected.length === 0}
                    title={selected.length === 0 ? M.selectToRelease : undefined}
                    onClick={() => ask({ kind: 'release', classes: selected })}
                  >
                    Release selected ({selected.length})
                  </Button>
                  <Button
                    variant="secondary"
                    disabled={approved.length === 0}
                    title={approved.length === 0 ? REPORT_MESSAGES.nothingToRelease : undefined}
                    onClick={() => ask({ kind: 'release', classes: null })}
                  >
                    Release all approved ({approved.length})
                  </Button>
                </div>
              )}
              {pending?.kind === 'release' && (
                <ConfirmPanel
                  label="Release report cards"
                  confirm="Release"
                  loading={action.isPending}
                  onConfirm={() => void run(pending)}
                  onCancel={() => setPending(null)}
                  className="mb-3"
                >
                  {confirmText(pending)}
                  {releaseChanges(pending).length > 0 && (
                    <span className="mt-2 block" data-testid="release-changes">
                      <strong className="block">{M.releaseLookFirst(releaseChanges(pending).length)}</strong>
                      <span className="mt-1 block">
                        {releaseChanges(pending).map(({ cls, c }, i) => (
                          <span key={i} className="block">
                            {cls}: {M.scoreChange(c, formatDate(c.at))}
                          </span>
                        ))}
                      </span>
                    </span>
                  )}
                </ConfirmPanel>
              )}
              {armErrors[''] && (
                <Alert tone="error" className="mb-3">
                  {armErrors['']}
                </Alert>
              )}
              <ul className="divide-y divide-slate-100">
                {rows.map((r) => {
                  const cls = r.student_class;
                  const busy = action.isPending && pending !== null && pending.kind !== 'release' && pending.cls === cls;
                  return (
                    <li key={cls} className="py-3" data-testid={`approval-${cls}`}>
                      <div className="flex flex-wrap items-start justify-between gap-2">
                        <div className="flex min-w-0 items-start gap-3">
                          {isAdmin && r.status !== 'released' && (
                            <input
                              type="checkbox"
                              className="mt-1.5 h-5 w-5"
                              aria-label={`Select ${cls} to release`}
                              checked={selected.includes(cls)}
                              onChange={(e) => setSelected((s) => (e.target.checked ? [...s, cls] : s.filter((c) => c !== cls)))}
                            />
                          )}
                          <div className="min-w-0">
                            <p className="flex flex-wrap items-center gap-2 font-semibold">
                              {cls}
                              <span
                                className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[r.status]}`}
                                data-testid="approval-status"
                              >
                                {CARD_STATUS_LABELS[r.status]}
                              </span>
                            </p>
                            <p className="text-sm text-slate-700">{M.counts(r.students, r.rated, r.form_comments, r.principal_comments)}</p>
                            <p className="text-sm text-slate-600">{M.formTeacherOf(r.form_teacher)}</p>
                            {r.submitted_at && (
                              <p className="text-sm text-slate-600">{M.submittedOn(formatDate(r.submitted_at), r.submitted_by)}</p>
                            )}
                            {r.approved_at && (
                              <p className="text-sm text-slate-600">{M.approvedOn(formatDate(r.approved_at), r.approved_by)}</p>
                            )}
                            {r.released_at && <p className="text-sm text-slate-600">{M.releasedOn(formatDate(r.released_at))}</p>}
                            {(r.changes_since_approval ?? []).length > 0 && (
                              <div
                                className="mt-1 rounded bg-amber-50 px-2 py-1 text-sm text-amber-950"
                                data-testid="changed-since-approval"
                              >
                                <p className="font-semibold">{M.changedSinceApproval(r.changes_since_approval.length)}</p>
                                <ul className="list-disc pl-5">
                                  {r.changes_since_approval.map((c, i) => (
                                    <li key={i}>{M.scoreChange(c, formatDate(c.at))}</li>
                                  ))}
                                </ul>
                              </div>
                            )}
                            {r.returned_reason && r.status === 'draft' && (
                              <p className="mt-1 rounded bg-amber-50 px-2 py-1 text-sm text-amber-950" data-testid="returned-reason">
                                {M.returnedBecause(r.returned_at ? formatDate(r.returned_at) : null, r.returned_reason)}
                              </p>
                            )}
                            <p className="mt-1 flex flex-wrap gap-x-4 text-sm">
                              <Link className="text-brand-800 underline" to={`/class-ratings${sheetQuery(cls)}`}>
                                Ratings<span className="sr-only"> of {cls}</span>
                              </Link>
                              <Link className="text-brand-800 underline" to={`/class-comments${sheetQuery(cls)}`}>
                                Comments<span className="sr-only"> of {cls}</span>
                              </Link>
                            </p>
                          </div>
                        </div>
                        <div className="flex flex-wrap gap-2">
                          <Button
                            variant="ghost"
                            loading={downloading === cls}
                            disabled={r.students === 0}
                            onClick={() => void armPdf(cls)}
                            aria-label={`Cards PDF of ${cls}`}
                          >
                            Cards PDF
                          </Button>
                          {!isAdmin && r.status === 'draft' && (
                            <Button loading={busy} onClick={() => ask({ kind: 'submit', cls })} aria-label={`Submit ${cls}`}>
                              Submit
                            </Button>
                          )}
                          {isAdmin && (r.status === 'draft' || r.status === 'submitted') && (
                            <Button loading={busy} onClick={() => ask({ kind: 'approve', cls })} aria-label={`Approve ${cls}`}>
                              Approve
                            </Button>
                          )}
                          {isAdmin && (r.status === 'submitted' || r.status === 'approved') && (
                            <Button variant="secondary" onClick={() => ask({ kind: 'return', cls })} aria-label={`Send back ${cls}`}>
                              Send back
                            </Button>
                          )}
                        </div>
                      </div>
                      {armErrors[cls] && (
                        <Alert tone="error" className="mt-2">
                          {armErrors[cls]}
                        </Alert>
                      )}
                      {armPanel(r)}
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </Card>
      )}
    </PageLayout>
  );
}
