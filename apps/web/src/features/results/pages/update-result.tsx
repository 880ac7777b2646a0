// One file (about 460 lines): one page whose search, row edits, draft and saves share one state;
// it has no sub-components that stand alone.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { RESULT_ADMIN_MESSAGES, RESULT_MESSAGES } from '@portal/domain/result-messages';
import { type Result } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadingBlock } from '../../../components/ui/spinner';
import { SelectField, TextField } from '../../../components/ui/field';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { ApiError } from '../../../lib/api-client';
import { clearDraft, readDraft, writeDraft } from '../../../lib/drafts';
import { classOptions, currentClassNames, useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { serverMessage } from '../../../lib/errors';
import { checkScore, fetchStudentSummary, remarkOf, useGradingScales, useLookupResults, useWriteResults, type ResultWrite } from '../api';
import { ReasonField } from '../components/reason-field';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { AdmissionNumberField } from '../components/admission-field';
import { useSubjectAccess } from '../components/subject-access';
import { useComponentScheme } from '../assessment-api';
import {
  ComponentScoreFields,
  draftHasWork,
  draftOf,
  readComponents,
  sameScores,
  type ComponentDraft,
} from '../components/component-scores';

interface Row {
  subject: string;
  score: string;
  remarks: string;
  /** On a scheme with several components: what is typed per component. */
  components?: ComponentDraft;
  existing?: Result;
}

interface Searched {
  admission: string;
  sessionId: string;
  term: string;
  arm: string;
}

/** What a reload or a new sign-in brings back. */
interface Draft {
  admission: string;
  sessionId: string;
  term: string;
  arm: string;
  searched: Searched | null;
  rows: { subject: string; score: string; remarks: string; components?: ComponentDraft }[] | null;
  reason?: string;
}
const DRAFT = 'UpdateResult';

/** Whether the typed components differ from the stored ones, as text (a one-score row has none). */
function componentsEdited(r: Row): boolean {
  const stored = draftOf(r.existing?.components);
  const typed = r.components ?? {};
  return [...new Set([...Object.keys(stored), ...Object.keys(typed)])].some((l) => (typed[l] ?? '').trim() !== (stored[l] ?? ''));
}

const isEdited = (r: Row) =>
  r.existing
    ? r.score.trim() !== String(r.existing.score) || r.remarks !== r.existing.remarks || componentsEdited(r)
    : r.score.trim() !== '' || r.remarks !== '' || draftHasWork(r.components);

/** /UpdateResult: search a student's term results, edit them, save each subject in parallel. */
export default function UpdateResultPage() {
  const toast = useToast();
  const lookupResults = useLookupResults();
  const writeResults = useWriteResults();
  const [draft] = useState(() => readDraft<Draft>(DRAFT));
  const [admission, setAdmission] = useState(draft?.admission ?? '');
  const [sessionId, setSessionId] = useState(draft?.sessionId ?? '');
  const [term, setTerm] = useState(draft?.term ?? '');
  const [pickedClass, setArm] = useState<string>(draft?.arm ?? '');
  const arms = useClasses();
  // The school's first class until a search or the user picks one.
  const arm = pickedClass || currentClassNames(arms.data)[0] || '';
  const [rows, setRows] = useState<Row[] | null>(null);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [searching, setSearching] = useState(false);
  const [saving, setSaving] = useState(false);
  const [searched, setSearched] = useState<Searched>({ admission: '', sessionId: '', term: '', arm: '' });
  const [reason, setReason] = useState(draft?.reason ?? '');
  const [needReason, setNeedReason] = useState(!!draft?.reason);
  const [confirmDelete, setConfirmDelete] = useState<string[] | null>(null);
  const scales = useGradingScales(searched.sessionId);
  // Several components for the searched class and session: one input each instead of the single score.
  const classScheme = useComponentScheme(rows ? searched.sessionId : '', searched.arm);
  const scheme = classScheme ?? null;
  const access = useSubjectAccess(rows ? searched.admission : null, searched.sessionId, searched.term);
  // The student's own subjects, then any stored (or typed) result outside that list.
  const shown: Row[] | null =
    rows && access.ready && classScheme !== undefined
      ? [
          ...access.subjects.map((subject) => rows.find((r) => r.subject === subject) ?? { subject, score: '', remarks: '' }),
          ...rows.filter((r) => !access.subjects.includes(r.subject) && (r.existing || isEdited(r))),
        ]
      : null;
  const restoring = useRef(draft);

  // Keep the unsaved work of this user on this screen.
  useEffect(() => {
    const edited = rows?.some(isEdited) ?? false;
    if (!edited && !admission.trim()) {
      clearDraft(DRAFT);
      return;
    }
    writeDraft(DRAFT, {
      admission,
      sessionId,
      term,
      arm,
      searched: rows ? searched : null,
      rows: edited && rows ? rows.map(({ subject, score, remarks, components }) => ({ subject, score, remarks, components })) : null,
      reason,
    } satisfies Draft);
  }, [admission, sessionId, term, arm, rows, searched, reason]);

  async function search(e?: FormEvent, q: Omit<Searched, 'arm'> = { admission, sessionId, term }) {
    e?.preventDefault();
    setMessage(null);
    setConfirmDelete(null);
    const adm = q.admission.trim().toUpperCase();
    if (!adm || !q.sessionId || !q.term) {
      setMessage({ tone: 'error', text: RESULT_MESSAGES.searchNeedsAll });
      return;
    }
    setSearching(true);
    try {
      const results = await lookupResults({ session_id: q.sessionId, term: q.term, admission_number: adm });
      const next: Row[] = results.map((r) => ({
        subject: r.subject,
        score: String(r.score),
        remarks: r.remarks,
        components: draftOf(r.components),
        existing: r,
      }));
      // Restored scores replace what was loaded for the subjects the user had changed.
      const restored = restoring.current?.rows;
      restoring.current = null;
      if (restored) {
        for (const d of restored) {
          const row = next.find((x) => x.subject === d.subject);
          if (row) Object.assign(row, { score: d.score, remarks: d.remarks, components: d.components ?? row.components });
          else next.push({ subject: d.subject, score: d.score, remarks: d.remarks, components: d.components });
        }
      }
      // The class: where the results are recorded, else the student's record.
      let cls = results[0]?.student_class;
      if (!cls)
        cls = await fetchStudentSummary(adm).then(
          (st) => st.student_class,
          () => arm,
        );
      setArm(cls);
      setRows(next);
      setErrors({});
      setSearched({ admission: adm, sessionId: q.sessionId, term: q.term, arm: cls });
      if (!results.length) setMessage({ tone: 'info', text: RESULT_MESSAGES.combinedEmpty(adm) });
    } catch (err) {
      setRows(null);
      if (err instanceof ApiError && err.kind === 'network') setMessage({ tone: 'error', text: RESULT_MESSAGES.networkCheckConnection });
      else if (err instanceof ApiError && err.status === 401) setMessage({ tone: 'error', text: RESULT_MESSAGES.unauthorized });
      else if (err instanceof ApiError && err.status === 404) setMessage({ tone: 'error', text: RESULT_MESSAGES.combinedNotFound(adm) });
      else setMessage({ tone: 'error', text: RESULT_MESSAGES.combinedFailed });
    } finally {
      setSearching(false);
    }
  }

  // A restored draft that had a search open: search again, then put the typed scores back.
  useEffect(() => {
    const d = restoring.current;
    if (d?.searched) void search(undefined, d.searched);
    else restoring.current = null;
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function reset() {
    setAdmission('');
    setTerm('');
    setRows(null);
    setErrors({});
    setMessage(null);
    setReason('');
    setNeedReason(false);
    setConfirmDelete(null);
    clearDraft(DRAFT);
  }

  async function save(confirmed = false) {
    if (!shown) return;
    // Read-only rows (not the user's to write) are never sent.
    const mine = shown.filter((r) => !access.locked(r.subject));
    const errs: Record<string, string> = {};
    for (const r of mine) {
      if (scheme) {
        for (const [label, m] of Object.entries(readComponents(scheme, r.components).errors)) errs[`${r.subject}.components.${label}`] = m;
        continue;
      }
      const checked = checkScore(r.score, r.subject);
      if (!checked.ok) errs[r.subject] = checked.message;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const head = {
      admission_number: searched.admission,
      session_id: Number(searched.sessionId),
      term: searched.term,
      student_class: arm,
    };
    const why = reason.trim() ? { reason: reason.trim() } : {};
    const changed = scheme
      ? mine.filter((r) =>
          draftHasWork(r.components)
            ? !r.existing || !sameScores(scheme, r.components, r.existing.components) || r.remarks !== r.existing.remarks
            : // A result entered as one total keeps it; only its remarks can change until components are typed.
              !!r.existing && r.existing.components === null && r.remarks !== r.existing.remarks,
        )
      : mine.filter(
          (r) => r.score.trim() !== '' && (!r.existing || Number(r.score) !== r.existing.score || r.remarks !== r.existing.remarks),
        );
    // A cleared score of a stored result means "delete it": asked first.
    const cleared = scheme
      ? mine.filter((r) => r.existing && r.existing.components !== null && !draftHasWork(r.components))
      : mine.filter((r) => r.existing && r.score.trim() === '');
    if (!changed.length && !cleared.length) {
      toast.info(RESULT_ADMIN_MESSAGES.noChangesToSave);
      return;
    }
    if (cleared.length && !confirmed) {
      setConfirmDelete(cleared.map((r) => r.subject));
      return;
    }
    setConfirmDelete(null);
    setSaving(true);
    // One request per subject, in parallel: existing rows are updated, empty rows created.
    // The score, or on a scheme with components the typed components (the server computes the total).
    const score = (r: Row) => {
      if (!scheme) return { score: Number(r.score) };
      const { scores } = readComponents(scheme, r.components);
      return Object.keys(scores).length ? { components: scores } : {};
    };
    const writes = [
      ...changed.map((r): ResultWrite =>
        r.existing
          ? {
              op: 'patch',
              id: r.existing.id,
              body: { ...head, ...why, subject: r.subject, ...score(r), remarks: r.remarks, version: r.existing.version },
            }
          : {
              op: 'create',
              body: { ...head, ...why, subject: r.subject, name: r.subject, ...score(r), remarks: r.remarks, version: 0 },
            },
      ),
      ...cleared.map((r): ResultWrite => ({ op: 'delete', id: r.existing!.id, version: r.existing!.version, reason: why.reason })),
    ];
    const subjectOf = [...changed, ...cleared].map((r) => r.subject);
    const outcomes = await writeResults.mutateAsync(writes);
    setSaving(false);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (!failure) {
      toast.success(RESULT_MESSAGES.updated);
      reset();
      return;
    }
    const err = failure.reason as unknown;
    /** Shows what is stored now (some subjects may have saved), with what the user typed put back. */
    const reloadKeepingTyped = async () => {
      const fresh = restoreTyped(mine);
      await search(undefined, { admission: searched.admission, sessionId: searched.sessionId, term: searched.term });
      setRows((rs) => {
        if (!rs) return rs;
        const out = rs.map((r) => ({ ...r, ...(fresh.get(r.subject) ?? {}) }));
        for (const [subject, typedRow] of fresh) if (!out.some((r) => r.subject === subject)) out.push({ subject, ...typedRow });
        return out;
      });
    };
    if (err instanceof ApiError && err.status === 400 && err.fieldErrors.reason) {
      // Released results: the server asks why. Keep what was typed; the user adds a reason and saves again.
      await reloadKeepingTyped();
      setNeedReason(true);
      setMessage({ tone: 'error', text: err.fieldErrors.reason[0]! });
      return;
    }
    if (scheme) {
      // Component scores the server refused: its message by the input it names, the typed values kept.
      const refused: Record<string, string> = {};
      outcomes.forEach((o, i) => {
        const e = o.status === 'rejected' ? (o.reason as unknown) : null;
        if (!(e instanceof ApiError) || e.status !== 400) return;
        for (const [k, v] of Object.entries(e.fieldErrors)) {
          if (k === 'score') refused[subjectOf[i]!] = v[0]!;
          else if (k === 'components' || k.startsWith('components.')) refused[`${subjectOf[i]}.${k}`] = v[0]!;
        }
      });
      if (Object.keys(refused).length) {
        await reloadKeepingTyped();
        setErrors(refused);
        toast.error(Object.values(refused)[0]!);
        return;
      }
    }
    if (err instanceof ApiError && err.kind === 'network') toast.error(RESULT_MESSAGES.networkTryAgain);
    else toast.error(serverMessage(err) ?? RESULT_MESSAGES.updateFailed);
    // Show what is stored now (some subjects may have saved), so nothing is re-sent on a stale version.
    await search(undefined, { admission: searched.admission, sessionId: searched.sessionId, term: searched.term });
  }

  const setRow = (subject: string, patch: Partial<Row>) => {
    setRows((rs) => {
      if (!rs) return null;
      return rs.some((r) => r.subject === subject)
        ? rs.map((r) => (r.subject === subject ? { ...r, ...patch } : r))
        : [...rs, { subject, score: '', remarks: '', ...patch }];
    });
    setErrors((e) => ({ ...e, [subject]: '' }));
    setConfirmDelete(null);
  };

  const setComponent = (subject: string, label: string, value: string) => {
    setRows((rs) => {
      if (!rs) return null;
      const typed = (r: Row): Row => ({ ...r, components: { ...r.components, [label]: value } });
      return rs.some((r) => r.subject === subject)
        ? rs.map((r) => (r.subject === subject ? typed(r) : r))
        : [...rs, typed({ subject, score: '', remarks: '' })];
    });
    setErrors((e) => ({ ...e, [subject]: '', [`${subject}.components.${label}`]: '', [`${subject}.components`]: '' }));
    setConfirmDelete(null);
  };

  return (
    <PageLayout title="Update Results">
      <Card className="mb-5">
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" onSubmit={(e) => void search(e)} noValidate>
          <AdmissionNumberField value={admission} onChange={setAdmission} />
          <SessionTermFields sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
          <SelectField label="Class" value={arm} onChange={(e) => setArm(e.target.value)} options={classOptions(arms.data, arm)} />
          <Button type="submit" loading={searching}>
            Search
          </Button>
        </form>
        {message && (
          <Alert tone={message.tone} className="mt-4">
            {message.text}
          </Alert>
        )}
      </Card>
      {rows && !shown && <LoadingBlock />}
      {shown && (
        <Card title={`${searched.admission} · ${arm}`}>
          <p className="mb-2 text-sm text-slate-600">To delete a subject&apos;s result, clear its score and save.</p>
          {access.note && (
            <Alert tone="warning" title="Read-only subjects" className="mb-2">
              <span data-testid="subject-refusal">{access.note}</span>
            </Alert>
          )}
          <div className="flex flex-col divide-y divide-slate-100">
            {shown.map((r) => (
              <fieldset
                key={r.subject}
                disabled={access.locked(r.subject)}
                aria-label={r.subject}
                className={`grid gap-2 py-3 sm:items-start ${scheme ? 'sm:grid-cols-[1fr_2fr_1fr]' : 'sm:grid-cols-[1fr_8rem_1fr]'}`}
              >
                <p className="font-medium sm:pt-9">
                  {r.subject}
                  {access.locked(r.subject) && <span className="ml-2 text-xs font-normal text-slate-600">(read-only)</span>}
                  {r.existing && (
                    <span className="ml-2 text-xs text-slate-500">
                      ({r.existing.grade}
                      {remarkOf(scales.data, r.existing.student_class, r.existing.grade) &&
                        ` · ${remarkOf(scales.data, r.existing.student_class, r.existing.grade)}`}
                      )
                    </span>
                  )}
                </p>
                {scheme ? (
                  <ComponentScoreFields
                    subject={r.subject}
                    scheme={scheme}
                    draft={r.components}
                    onChange={(label, value) => setComponent(r.subject, label, value)}
                    errors={(label) => errors[`${r.subject}.components.${label}`] || undefined}
                    totalError={[errors[r.subject], errors[`${r.subject}.components`]].filter((m): m is string => !!m)}
                    storedTotal={r.existing && r.existing.components === null ? r.existing.score : null}
                  />
                ) : (
                  <TextField
                    label={
                      <>
                        <span className="sr-only">{r.subject} </span>Score
                      </>
                    }
                    type="text"
                    inputMode="decimal"
                    autoComplete="off"
                    value={r.score}
                    onChange={(e) => setRow(r.subject, { score: e.target.value })}
                    error={errors[r.subject] || undefined}
                  />
                )}
                <TextField
                  label={
                    <>
                      <span className="sr-only">{r.subject} </span>Remarks
                    </>
                  }
                  value={r.remarks}
                  maxLength={300}
                  onChange={(e) => setRow(r.subject, { remarks: e.target.value })}
                />
              </fieldset>
            ))}
          </div>
          {needReason && (
            <div className="mt-3">
              <ReasonField value={reason} onChange={setReason} />
            </div>
          )}
          {confirmDelete && (
            <ConfirmPanel
              label="Confirm deletion"
              className="mt-4"
              confirm="Delete and save"
              danger
              loading={saving}
              onConfirm={() => void save(true)}
              onCancel={() => setConfirmDelete(null)}
            >
              {RESULT_MESSAGES.clearedScoreDeletes(confirmDelete.join(', '))}
            </ConfirmPanel>
          )}
          <Button className="mt-4 w-full sm:w-auto" loading={saving} onClick={() => void save()}>
            {saving ? 'Saving...' : 'Save Changes'}
          </Button>
        </Card>
      )}
    </PageLayout>
  );
}

/** The typed scores and remarks of the rows the user changed, to put back after a reload of the stored ones. */
function restoreTyped(rows: Row[]): Map<string, { score: string; remarks: string; components?: ComponentDraft }> {
  return new Map(rows.filter(isEdited).map((r) => [r.subject, { score: r.score, remarks: r.remarks, components: r.components }]));
}
