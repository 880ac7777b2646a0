import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { PROMOTION_SCREEN_LABELS as L, PROMOTION_SCREEN_MESSAGES as M, SESSION_END_SCREENS as S } from '@portal/domain/session-end-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { SelectField } from '../../../components/ui/field';
import { FigureList } from '../../../components/ui/figure-list';
import { QueryView } from '../../../components/ui/query-view';
import { RowTable } from '../../../components/ui/row-table';
import { ClassSelect } from '../../../components/school/class-select';
import { SessionSelect } from '../../../components/school/session-select';
import { formatDateTime } from '../../../lib/datetime';
import { errorMessage, fieldErrorsOf, firstServerMessage } from '../../../lib/errors';
import { currentSessionId, useSessions } from '../../../lib/school-calendar';
import { classOptions, useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import {
  sessionName,
  useInvalidateAfterPromotion,
  usePreview,
  useRun,
  useRuns,
  useStartRun,
  useStreams,
  useUndoRun,
  type Decision,
  type PreviewQuery,
  type PreviewStudent,
  type PromotionPreview,
  type PromotionRun,
  type RunBody,
} from '../api';
import {
  choosesStream,
  countsOf,
  effectiveOf,
  initialPlan,
  mappingRecord,
  runBody,
  splitArm,
  totalsOf,
  armsFor,
  decisionsFor,
  type Plan,
} from '../promotion-plan';
import { classLevelOf } from '@portal/domain/teaching';

/** The value a new-class select gives "graduate" (no class). */
const GRADUATE = '__graduate__';
const PAGE_SIZE = 50;
const targetLabel = (t: string | null) => (t === null ? L.graduates : t);

/**
 * /promotion (admin): choose the sessions and an arm or the whole school; the preview (each student's
 * decision, source and new class, editable; a stream for JSS 3 -> SSS 1), the class mapping (change,
 * merge, split), the counts per new class; Promote (confirmed), its progress, its summary; the runs,
 * each with Undo or why it cannot be undone.
 */
export default function PromotionPage() {
  const sessions = useSessions();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [arm, setArm] = useState('');
  const [query, setQuery] = useState<PreviewQuery | null>(null);
  const [problem, setProblem] = useState('');
  const [runId, setRunId] = useState<number | null>(null);
  const fromValue = from || currentSessionId(sessions.data);
  const toValue = to || (sessions.data?.find((s) => String(s.id) !== fromValue && !s.is_current)?.id.toString() ?? '');
  const preview = usePreview(query);

  function ask() {
    setRunId(null);
    if (!fromValue || !toValue) return setProblem(M.chooseSessions);
    if (fromValue === toValue) return setProblem(M.sameSession);
    setProblem('');
    setQuery({ from_session_id: Number(fromValue), to_session_id: Number(toValue), ...(arm ? { arm } : {}) });
  }

  return (
    <PageLayout title={S.promotion.title} width="max-w-6xl">
      <Card className="mb-4">
        <div className="grid gap-3 sm:grid-cols-3 sm:items-end">
          <SessionSelect label={L.fromSession} value={fromValue} onChange={(e) => setFrom(e.target.value)} />
          <SessionSelect label={L.toSession} value={toValue} onChange={(e) => setTo(e.target.value)} />
          <ClassSelect label={L.arm} placeholder={L.wholeSchool} value={arm} onChange={(e) => setArm(e.target.value)} />
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <Button onClick={ask} loading={preview.isFetching}>
            {L.preview}
          </Button>
          <Link to={S.move.to} className="text-sm font-medium text-brand-800 hover:underline">
            {L.moveOne}
          </Link>
        </div>
        {problem && (
          <Alert tone="error" className="mt-3">
            {problem}
          </Alert>
        )}
      </Card>
      {runId !== null && <RunProgress id={runId} />}
      {query && runId === null && (
        <QueryView
          query={preview}
          messages={(err) => firstServerMessage(err) ?? errorMessage(err, { fallback: M.previewFailed })}
          loading={L.preview}
        >
          {(data) =>
            data.students.length === 0 ? (
              <EmptyState>{M.noStudents}</EmptyState>
            ) : (
              <PreviewEditor key={JSON.stringify(query)} preview={data} query={query} onStarted={setRunId} />
            )
          }
        </QueryView>
      )}
      <RunsCard />
    </PageLayout>
  );
}

/**
 * A refused run's reasons, one line each, naming the student or class each is about (the server names
 * them by their place in the body: `students.3.target_arm`, `mapping.0.to_arm`).
 */
function refusal(err: unknown, preview: PromotionPreview, body: RunBody | null): string | undefined {
  const fields = fieldErrorsOf(err);
  const lines = Object.entries(fields).flatMap(([key, messages]) => {
    const [list, index] = key.split('.');
    const i = Number(index);
    let who = '';
    if (list === 'students' && body?.students?.[i]) {
      const id = body.students[i].student_id;
      who = preview.students.find((s) => s.student_id === id)?.full_name ?? '';
    } else if (list === 'mapping' && body?.mapping?.[i]) who = body.mapping[i].from_arm;
    return messages.map((m) => (who ? `${who}: ${m}` : m));
  });
  return lines.length ? lines.join('\n') : undefined;
}

/** A select without a visible label (a table cell's), named for screen readers. */
function CellSelect({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (v: string) => void;
  testId?: string;
}) {
  return (
    <select
      aria-label={label}
      data-testid={testId}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="min-h-11 w-40 max-w-full shrink rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900"
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

function PreviewEditor({ preview, query, onStarted }: { preview: PromotionPreview; query: PreviewQuery; onStarted: (id: number) => void }) {
  const classes = useClasses();
  const streams = useStreams();
  const start = useStartRun();
  const original = useMemo(() => mappingRecord(preview.mapping), [preview.mapping]);
  const [plan, setPlan] = useState<Plan>(() => initialPlan(preview));
  const [show, setShow] = useState('');
  const [page, setPage] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [splitting, setSplitting] = useState<{ arm: string; second: string } | null>(null);
  const [failure, setFailure] = useState('');

  const armNames = classOptions(classes.data);
  /** The new classes open to a student of `arm` with `decision` (and `keep`, the one chosen now). */
  const targetOptions = (arm: string, decision: Decision, keep: string | null) => {
    if (decision === 'graduated') return [{ value: GRADUATE, label: L.graduate }];
    const arms = armsFor(arm, decision, armNames);
    if (keep !== null && !arms.includes(keep)) arms.unshift(keep);
    return arms.map((a) => ({ value: a, label: a }));
  };
  const streamOptions = [{ value: '', label: L.noStream }, ...(streams.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))];
  const decisionOptions = (arm: string) => decisionsFor(arm).map((d) => ({ value: d, label: L.decisions[d] ?? d }));
  const fromArms = [...new Set(preview.students.map((s) => s.arm))];
  const counts = countsOf(preview.students, plan, original);
  const totals = totalsOf(preview.students, plan, original);
  const shown = show ? preview.students.filter((s) => s.arm === show) : preview.students;
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const rows = shown.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE);
  const edited = Object.keys(plan.edits).length > 0 || Object.entries(plan.mapping).some(([f, t]) => original[f] !== t);

  const edit = (s: PreviewStudent, change: Partial<Plan['edits'][number]>) =>
    setPlan((p) => ({ ...p, edits: { ...p.edits, [s.student_id]: { ...p.edits[s.student_id], ...change } } }));
  const setMapping = (fromArm: string, v: string) =>
    setPlan((p) => ({ ...p, mapping: { ...p.mapping, [fromArm]: v === GRADUATE ? null : v } }));

  async function promote() {
    setFailure('');
    let sent: RunBody | null = null;
    try {
      const body = runBody(preview, query, plan);
      sent = body;
      const { id } = await start.mutateAsync(body);
      setConfirming(false);
      onStarted(id);
    } catch (err) {
      setConfirming(false);
      setFailure(refusal(err, preview, sent) ?? errorMessage(err, { fallback: M.promoteFailed, useDetail: true }));
    }
  }

  return (
    <div className="mb-4 flex flex-col gap-4" data-testid="promotion-preview">
      <Card title={L.totals}>
        <FigureList
          className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5"
          testId="promotion-totals"
          figures={[
            { label: L.promoted, value: totals.promoted, testId: 'total-promoted' },
            { label: L.trial, value: totals.trial, testId: 'total-trial' },
            { label: L.repeat, value: totals.repeat, testId: 'total-repeat' },
            { label: L.graduated, value: totals.graduated, testId: 'total-graduated' },
            { label: L.leftOut, value: preview.totals.left_out_withdrawn, testId: 'total-left-out' },
          ]}
        />
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title={L.mapping}>
          <p className="mb-3 text-sm text-slate-700">{L.mappingHint}</p>
          <ul className="flex flex-col gap-3" data-testid="promotion-mapping">
            {preview.mapping.map((m) => (
              <li key={m.from_arm} className="flex flex-wrap items-center gap-2" data-testid="mapping-row" data-arm={m.from_arm}>
                <span className="min-w-16 font-semibold">{m.from_arm}</span>
                <span aria-hidden="true">→</span>
                {classLevelOf(m.from_arm) === 'SSS 3' ? (
                  <span>{L.graduate}</span>
                ) : (
                  <CellSelect
                    label={L.mappingOf(m.from_arm)}
                    value={plan.mapping[m.from_arm] ?? ''}
                    options={targetOptions(m.from_arm, 'promoted', plan.mapping[m.from_arm] ?? null)}
                    onChange={(v) => setMapping(m.from_arm, v)}
                  />
                )}
                {fromArms.includes(m.from_arm) && plan.mapping[m.from_arm] !== null && (
                  <Button variant="ghost" aria-label={L.splitOf(m.from_arm)} onClick={() => setSplitting({ arm: m.from_arm, second: '' })}>
                    {L.split}
                  </Button>
                )}
                {splitting?.arm === m.from_arm && (
                  <div className="flex w-full flex-wrap items-end gap-2 rounded-lg border border-slate-200 p-2">
                    <p className="w-full text-xs text-slate-600">{M.splitHint}</p>
                    <CellSelect
                      label={L.splitIntoOf(m.from_arm)}
                      value={splitting.second}
                      options={[{ value: '', label: L.splitInto }, ...targetOptions(m.from_arm, 'promoted', null)]}
                      onChange={(v) => setSplitting({ arm: m.from_arm, second: v })}
                    />
                    <Button
                      variant="secondary"
                      disabled={!splitting.second}
                      onClick={() => {
                        setPlan((p) => splitArm(preview.students, p, original, m.from_arm, splitting.second));
                        setSplitting(null);
                      }}
                    >
                      {L.splitApply}
                    </Button>
                    <Button variant="ghost" onClick={() => setSplitting(null)}>
                      {L.cancel}
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </Card>
        <Card title={L.counts}>
          <RowTable
            testId="promotion-counts"
            rows={counts}
            rowKey={(c) => c.target_arm ?? GRADUATE}
            rowProps={(c) => ({ 'data-target': c.target_arm ?? GRADUATE })}
            columns={[
              { label: L.target, cell: (c) => targetLabel(c.target_arm) },
              { label: L.count, figures: true, cell: (c) => c.count, testId: 'count' },
            ]}
          />
        </Card>
      </div>

      <Card
        title={L.students(preview.students.length)}
        actions={
          edited && (
            <Button variant="secondary" onClick={() => setPlan(initialPlan(preview))}>
              {L.reset}
            </Button>
          )
        }
      >
        {fromArms.length > 1 && (
          <div className="mb-3 max-w-xs">
            <SelectField
              label={L.showArm}
              value={show}
              placeholder={L.showAll}
              options={fromArms}
              onChange={(e) => {
                setShow(e.target.value);
                setPage(0);
              }}
            />
          </div>
        )}
        <div className="max-w-full overflow-x-auto" tabIndex={0} role="region" aria-label={L.student}>
          <RowTable
            testId="promotion-students"
            rows={rows}
            rowKey={(s) => s.student_id}
            rowProps={(s) => ({ 'data-admission': s.admission_number, className: 'border-b border-slate-100 align-middle' })}
            columns={[
              {
                label: L.student,
                cell: (s) => (
                  <span>
                    <span className="font-semibold">{s.full_name}</span>{' '}
                    <span className="text-xs text-slate-600">{s.admission_number}</span>
                  </span>
                ),
              },
              { label: L.currentArm, cell: (s) => s.arm },
              { label: L.average, figures: true, cell: (s) => (s.annual_average === null ? '—' : s.annual_average.toFixed(1)) },
              {
                label: L.decision,
                cell: (s) => {
                  const e = effectiveOf(s, plan, original);
                  return (
                    <CellSelect
                      label={L.decisionOf(s.full_name)}
                      testId="decision"
                      value={e.decision}
                      options={decisionOptions(s.arm)}
                      onChange={(v) => edit(s, { decision: v as Decision, target_arm: undefined })}
                    />
                  );
                },
              },
              {
                label: L.source,
                cell: (s) => (
                  <span>
                    {L.sources[s.source] ?? s.source}
                    {effectiveOf(s, plan, original).edited && (
                      <span className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950">{L.edited}</span>
                    )}
                  </span>
                ),
              },
              {
                label: L.target,
                cell: (s) => {
                  const e = effectiveOf(s, plan, original);
                  return (
                    <CellSelect
                      label={L.targetOf(s.full_name)}
                      testId="target"
                      value={e.target_arm ?? GRADUATE}
                      options={targetOptions(s.arm, e.decision, e.target_arm)}
                      onChange={(v) => edit(s, { target_arm: v === GRADUATE ? null : v })}
                    />
                  );
                },
              },
              {
                label: L.stream,
                cell: (s) => {
                  const e = effectiveOf(s, plan, original);
                  if (!choosesStream(s, e.target_arm)) return '';
                  return (
                    <CellSelect
                      label={L.streamOf(s.full_name)}
                      testId="stream"
                      value={e.stream_id === null ? '' : String(e.stream_id)}
                      options={streamOptions}
                      onChange={(v) => edit(s, { stream_id: v ? Number(v) : null })}
                    />
                  );
                },
              },
            ]}
          />
        </div>
        {pages > 1 && (
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <Button variant="secondary" disabled={current === 0} onClick={() => setPage(current - 1)}>
              {L.previous}
            </Button>
            <span className="text-sm">{L.pageOf(current + 1, pages)}</span>
            <Button variant="secondary" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
              {L.next}
            </Button>
          </div>
        )}
      </Card>

      {failure && <Alert tone="error">{failure}</Alert>}
      <div>
        {!confirming && (
          <Button onClick={() => setConfirming(true)} data-testid="promote">
            {L.promote}
          </Button>
        )}
        {confirming && (
          <ConfirmPanel
            label={L.promote}
            confirm={L.promoteConfirm}
            loading={start.isPending}
            onConfirm={() => void promote()}
            onCancel={() => setConfirming(false)}
          >
            {L.promoteQuestion(preview.students.length, preview.from_session.name, preview.to_session.name)}
          </ConfirmPanel>
        )}
      </div>
    </div>
  );
}

function SummaryFigures({ run }: { run: PromotionRun }) {
  return (
    <FigureList
      className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5"
      testId="promotion-summary"
      figures={[
        { label: L.promoted, value: run.summary.promoted, testId: 'summary-promoted' },
        { label: L.trial, value: run.summary.trial, testId: 'summary-trial' },
        { label: L.repeat, value: run.summary.repeat, testId: 'summary-repeat' },
        { label: L.graduated, value: run.summary.graduated, testId: 'summary-graduated' },
        { label: L.leftOut, value: run.summary.left_out, testId: 'summary-left-out' },
      ]}
    />
  );
}

/** A run's progress while it runs (polled), then its summary. */
function RunProgress({ id }: { id: number }) {
  const run = useRun(id);
  const invalidate = useInvalidateAfterPromotion();
  const finished = run.data !== undefined && run.data.status !== 'running';
  // The run ends after its 202: the runs, previews and class lists are asked again once it has.
  useEffect(() => {
    if (finished) void invalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the run ends
  }, [finished]);
  return (
    <div className="mb-4">
      <QueryView query={run} messages={{ fallback: M.runFailed, useDetail: true }} loading={L.running}>
        {(r) => {
          if (r.status === 'running') {
            const pct = r.total > 0 ? Math.round((r.done / r.total) * 100) : 0;
            return (
              <Card title={L.running}>
                <div
                  role="progressbar"
                  aria-label={L.running}
                  aria-valuemin={0}
                  aria-valuemax={r.total}
                  aria-valuenow={r.done}
                  className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
                  data-testid="promotion-progress"
                >
                  <div className="h-full bg-brand-700" style={{ width: `${pct}%` }} />
                </div>
                <p className="mt-2 text-sm">{L.progress(r.done, r.total)}</p>
              </Card>
            );
          }
          if (r.status === 'failed') return <Alert tone="error">{M.runFailed}</Alert>;
          return (
            <Card title={L.summary}>
              <p className="mb-3 text-sm text-slate-700">
                {sessionName(r.from_session)} → {sessionName(r.to_session)}
              </p>
              <SummaryFigures run={r} />
            </Card>
          );
        }}
      </QueryView>
    </div>
  );
}

/** The runs, newest first: each with Undo, or why it cannot be undone. */
function RunsCard() {
  const runs = useRuns();
  const undo = useUndoRun();
  const toast = useToast();
  const [asking, setAsking] = useState<PromotionRun | null>(null);
  const [failure, setFailure] = useState<{ id: number; text: string } | null>(null);

  async function confirmUndo(run: PromotionRun) {
    setFailure(null);
    try {
      await undo.mutateAsync(run.id);
      toast.success(L.undone);
    } catch (err) {
      setFailure({ id: run.id, text: errorMessage(err, { fallback: M.undoFailed, useDetail: true }) });
    } finally {
      setAsking(null);
    }
  }

  return (
    <Card title={L.runs}>
      <QueryView query={runs} messages={{ fallback: M.runsFailed, useDetail: true }} empty={L.noRuns}>
        {(list) => (
          <>
            <RowTable
              testId="promotion-runs"
              rows={list}
              rowKey={(r) => r.id}
              rowProps={(r) => ({ 'data-run': String(r.id), 'data-status': r.status, className: 'border-b border-slate-100' })}
              columns={[
                { label: L.when, cell: (r) => formatDateTime(r.created_at) },
                {
                  label: L.sessions,
                  className: 'before:shrink-0',
                  cell: (r) => `${sessionName(r.from_session)} → ${sessionName(r.to_session)}${r.arm ? ` (${r.arm})` : ''}`,
                },
                { label: L.status, cell: (r) => L.statuses[r.status] ?? r.status, testId: 'run-status' },
                {
                  label: L.runSummary,
                  className: 'before:shrink-0',
                  cell: (r) =>
                    `${r.summary.promoted} ${L.promoted.toLowerCase()}, ${r.summary.trial} ${L.trial.toLowerCase()}, ${r.summary.repeat} ${L.repeat.toLowerCase()}, ${r.summary.graduated} ${L.graduated.toLowerCase()}`,
                },
                {
                  label: L.undo,
                  unlabelled: true,
                  cell: (r) =>
                    r.status !== 'done' ? (
                      ''
                    ) : r.undoable ? (
                      <Button variant="secondary" aria-label={L.undoOf(r.id)} onClick={() => setAsking(r)}>
                        {L.undo}
                      </Button>
                    ) : (
                      <span className="text-sm text-slate-700" data-testid="undo-blocked">
                        {L.undoBlocked}: {r.undo_blocked_reason ?? ''}
                      </span>
                    ),
                },
              ]}
            />
            {asking && (
              <ConfirmPanel
                label={L.undoOf(asking.id)}
                confirm={L.undoConfirm}
                danger
                loading={undo.isPending}
                onConfirm={() => void confirmUndo(asking)}
                onCancel={() => setAsking(null)}
              >
                {L.undoQuestion(sessionName(asking.to_session))}
              </ConfirmPanel>
            )}
            {failure && (
              <Alert tone="error" className="mt-3">
                <span data-testid="undo-error">{failure.text}</span>
              </Alert>
            )}
          </>
        )}
      </QueryView>
    </Card>
  );
}
