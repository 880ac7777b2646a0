// One file (about 460 lines): one page whose search, row edits, draft and saves share one state;
// it has no sub-components that stand alone.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { RESULT_ADMIN_MESSAGES, RESULT_MESSAGES } from '@portal/domain/result-messages';
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
import { useSchemaFieldForm } from '../../../lib/schema-field-array';
import type { FieldErrors } from '../../../lib/schema-form';
import { fetchStudentSummary, remarkOf, useGradingScales, useLookupResults, useWriteResults, type ResultWrite } from '../api';
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
import { updateResultSchema, type EditRow as Row, type UpdateResultValues } from '../forms/update-result-form';
import { rowOf, type ScoreScheme } from '../forms/subject-scores';

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
  // The rows the user may write and the scheme the check reads (known after the values).
  const context = useRef<{ subjects: readonly string[]; scheme: ScoreScheme }>({ subjects: [], scheme: null });
  const form = useSchemaFieldForm<UpdateResultValues>({
    defaultValues: {
      admission: draft?.admission ?? '',
      sessionId: draft?.sessionId ?? '',
      term: draft?.term ?? '',
      pickedClass: draft?.arm ?? '',
      reason: draft?.reason ?? '',
      rows: null,
    },
    schema: { safeParse: (input) => updateResultSchema(context.current).safeParse(input) },
    toBody: (values) => values,
  });
  const { values, setValue, getValues, clearErrors, errorOf, fail } = form;
  const { admission, sessionId, term, pickedClass, reason, rows } = values;
  const arms = useClasses();
  // The school's first class until a search or the user picks one.
  const arm = pickedClass || currentClassNames(arms.data)[0] || '';
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const [searching, setSearching] = useState(false);
  const [saving, setSaving] = useState(false);
  const [searched, setSearched] = useState<Searched>({ admission: '', sessionId: '', term: '', arm: '' });
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
  // Read-only rows (not the user's to write) are never checked nor sent.
  const mine = shown?.filter((r) => !access.locked(r.subject)) ?? [];
  context.current = { subjects: mine.map((r) => r.subject), scheme };
  const restoring = useRef(draft);
  const setRows = (next: Row[] | null) => setValue('rows', next);

  // Keep the unsaved work of this user on this screen.
  const edited = rows?.some(isEdited) ?? false;
  const draftText =
    !edited && !admission.trim()
      ? null
      : JSON.stringify({
          admission,
          sessionId,
          term,
          arm,
          searched: rows ? searched : null,
          rows: edited && rows ? rows.map(({ subject, score, remarks, components }) => ({ subject, score, remarks, components })) : null,
          reason,
        } satisfies Draft);
  useEffect(() => {
    if (draftText === null) clearDraft(DRAFT);
    else writeDraft(DRAFT, JSON.parse(draftText));
  }, [draftText]);

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
      setValue('pickedClass', cls);
      setRows(next);
      clearErrors();
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
    setValue('admission', '');
    setValue('term', '');
    setRows(null);
    clearErrors();
    setMessage(null);
    setValue('reason', '');
    setNeedReason(false);
    setConfirmDelete(null);
    clearDraft(DRAFT);
  }

  /** Checks the rows the user may write (`updateResultSchema`), then saves what changed. */
  const save = (confirmed = false) => (shown ? form.submit(() => write(confirmed))() : undefined);

  async function write(confirmed: boolean) {
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
      const rs = getValues('rows');
      if (!rs) return;
      const out = rs.map((r) => ({ ...r, ...(fresh.get(r.subject) ?? {}) }));
      for (const [subject, typedRow] of fresh) if (!out.some((r) => r.subject === subject)) out.push({ subject, ...typedRow });
      setRows(out);
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
      const refused: [subject: string, input: string, message: string][] = [];
      outcomes.forEach((o, i) => {
        const e = o.status === 'rejected' ? (o.reason as unknown) : null;
        if (!(e instanceof ApiError) || e.status !== 400) return;
        for (const [k, v] of Object.entries(e.fieldErrors))
          if (k === 'score' || k === 'components' || k.startsWith('components.')) refused.push([subjectOf[i]!, k, v[0]!]);
      });
      if (refused.length) {
        await reloadKeepingTyped();
        const reloaded = getValues('rows') ?? [];
        const errs: FieldErrors = {};
        for (const [subject, input, m] of refused) errs[`rows.${rowOf(reloaded, subject)}.${input}`] = [m];
        fail(errs);
        toast.error(refused[0]![2]);
        return;
      }
    }
    if (err instanceof ApiError && err.kind === 'network') toast.error(RESULT_MESSAGES.networkTryAgain);
    else toast.error(serverMessage(err) ?? RESULT_MESSAGES.updateFailed);
    // Show what is stored now (some subjects may have saved), so nothing is re-sent on a stale version.
    await search(undefined, { admission: searched.admission, sessionId: searched.sessionId, term: searched.term });
  }

  /** Changes a subject's row (added on its first keystroke) and clears these messages of it. */
  const setRow = (subject: string, patch: (r: Row) => Partial<Row>, clears: readonly string[] = ['score']) => {
    const rs = getValues('rows');
    if (!rs) return;
    const i = rowOf(rs, subject);
    const row = rs[i] ?? { subject, score: '', remarks: '' };
    if (i < 0) setRows([...rs, { ...row, ...patch(row) }]);
    else setValue(`rows.${i}`, { ...row, ...patch(row) }, { shouldDirty: true });
    const at = i < 0 ? rs.length : i;
    clearErrors(clears.map((c) => `rows.${at}.${c}`) as never);
    setConfirmDelete(null);
  };

  const setComponent = (subject: string, label: string, value: string) =>
    setRow(subject, (r) => ({ components: { ...r.components, [label]: value } }), ['score', `components.${label}`, 'components']);

  /** The messages of an input of a subject's row (`score`, `components.CA1`). */
  const errorAt = (subject: string, input: string) => (rows ? errorOf(`rows.${rowOf(rows, subject)}.${input}`) : undefined);

  return (
    <PageLayout title="Update Results">
      <Card className="mb-5">
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" onSubmit={(e) => void search(e)} noValidate>
          <AdmissionNumberField value={admission} onChange={(v) => setValue('admission', v)} />
          <SessionTermFields
            sessionId={sessionId}
            term={term}
            onSession={(v) => setValue('sessionId', v)}
            onTerm={(v) => setValue('term', v)}
          />
          <SelectField
            label="Class"
            value={arm}
            onChange={(e) => setValue('pickedClass', e.target.value)}
            options={classOptions(arms.data, arm)}
          />
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
                    errors={(label) => errorAt(r.subject, `components.${label}`)}
                    totalError={[...(errorAt(r.subject, 'score') ?? []), ...(errorAt(r.subject, 'components') ?? [])]}
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
                    onChange={(e) => setRow(r.subject, () => ({ score: e.target.value }))}
                    error={errorAt(r.subject, 'score')}
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
                  onChange={(e) => setRow(r.subject, () => ({ remarks: e.target.value }))}
                />
              </fieldset>
            ))}
          </div>
          {needReason && (
            <div className="mt-3">
              <ReasonField value={reason} onChange={(v) => setValue('reason', v)} />
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
