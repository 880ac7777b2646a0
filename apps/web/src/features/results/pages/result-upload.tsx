// One file (about 435 lines): one page whose class/subject choice, entries, draft and upload share
// one state; it has no sub-components that stand alone.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { TIMINGS } from '@portal/domain/constants';
import { admissionNumberField } from '@portal/domain/result-schemas';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { type Result } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { SubmitButton } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { clearDraft, readDraft, writeDraft } from '../../../lib/drafts';
import { useDebounced } from '../../../lib/use-debounced';
import { useToast } from '../../../lib/toast';
import { serverMessage } from '../../../lib/errors';
import { useSchemaFieldForm } from '../../../lib/schema-field-array';
import type { FieldErrors } from '../../../lib/schema-form';
import { fetchStudentSummary, useLookupResults, useSaveResults, type BulkSave, type StudentSummary } from '../api';
import { ReasonField } from '../components/reason-field';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { ClassSelect } from '../../../components/school/class-select';
import { useSubjectAccess } from '../components/subject-access';
import { useComponentScheme } from '../assessment-api';
import { ComponentScoreFields, draftHasWork, draftOf } from '../components/component-scores';
import { TEACHING_SCREEN_MESSAGES } from '@portal/domain/teaching-screens';
import {
  normalizeAdmission as normalize,
  resultUploadSchema,
  SUBJECTS_REQUIRED,
  type EntryRow,
  type ResultUploadContext,
  type ResultUploadValues,
} from '../forms/result-upload-form';
import { rowOf } from '../forms/subject-scores';

/** A subject's entry as the draft keeps it (by subject). */
type Entry = Omit<EntryRow, 'subject'>;
type Entries = Record<string, Entry>;

/** What a reload or a new sign-in brings back. */
interface Draft {
  admission: string;
  sessionId: string;
  term: string;
  arm: string;
  entries: Entries;
  reason?: string;
}
const DRAFT = 'ResultUpload';

const BLANK: Entry = { score: '', remarks: '' };
const typed = (e: Entry | undefined) => !!e && (e.score.trim() !== '' || e.remarks.trim() !== '' || draftHasWork(e.components));
const hasWork = (e: Entries) => Object.values(e).some(typed);
const rowsOf = (e: Entries): EntryRow[] => Object.entries(e).map(([subject, entry]) => ({ ...entry, subject }));
const entriesOf = (rows: readonly EntryRow[]): Entries => Object.fromEntries(rows.map(({ subject, ...entry }) => [subject, entry]));

function fromResults(results: Result[]): EntryRow[] {
  return results.map((r) =>
    r.components
      ? { subject: r.subject, score: String(r.score), remarks: r.remarks, version: r.version, components: draftOf(r.components) }
      : { subject: r.subject, score: String(r.score), remarks: r.remarks, version: r.version, totalOnly: true },
  );
}

/** /ResultUpload: enter a student's scores for a term; existing results load after 500 ms. */
export default function ResultUploadPage() {
  const toast = useToast();
  const lookupResults = useLookupResults();
  const saveResults = useSaveResults();
  const [draft] = useState(() => readDraft<Draft>(DRAFT));
  const [params] = useSearchParams();
  // The subjects shown, the scheme and the read-only subjects the check reads (known after the values).
  const context = useRef<ResultUploadContext>({ subjects: [], scheme: null, locked: () => false });
  const form = useSchemaFieldForm<ResultUploadValues>({
    defaultValues: {
      admission_number: draft?.admission ?? '',
      session_id: draft?.sessionId ?? '',
      term: draft?.term ?? '',
      // From My classes: the class is preset, the student's own record then confirms it.
      student_class: draft?.arm ?? params.get('student_class') ?? '',
      reason: draft?.reason ?? '',
      rows: rowsOf(draft?.entries ?? {}),
    },
    schema: { safeParse: (input) => resultUploadSchema(context.current).safeParse(input) },
    toBody: (values) => values,
  });
  const { values, setValue, getValues, setField, clearErrors, errorOf, fail } = form;
  const { admission_number: admission, session_id: sessionId, term, student_class: arm, reason, rows } = values;
  const [needReason, setNeedReason] = useState(!!draft?.reason);
  const [existing, setExisting] = useState(false);
  const [formError, setFormError] = useState('');
  const [lookupNote, setLookupNote] = useState('');
  const [student, setStudent] = useState<StudentSummary | null>(null);
  const lookupSeq = useRef(0);
  // Scores restored from a draft win over what the first lookup loads (only their versions are taken).
  const restored = useRef<Entries | null>(draft && hasWork(draft.entries) ? draft.entries : null);
  const existingRef = useRef(false);
  existingRef.current = existing;
  // The version a subject without a stored result is saved with: 0 once a lookup found none, unknown before.
  const [baseVersion, setBaseVersion] = useState<number | undefined>(undefined);
  // Several components for this class and session: one input each instead of the single score.
  const classScheme = useComponentScheme(sessionId, arm);
  const scheme = classScheme ?? null;
  const settledAdmission = useDebounced(normalize(admission), TIMINGS.resultLookupDebounce);
  const access = useSubjectAccess(
    settledAdmission && admissionNumberField.safeParse(settledAdmission).success ? settledAdmission : null,
    sessionId,
    term,
  );
  const entry = (s: string): Entry => rows.find((r) => r.subject === s) ?? { ...BLANK, version: baseVersion };
  // The student's subjects, then any subject with a stored result or typed work outside that list.
  // Rows wait for the scheme too, so no one types into a single score that then becomes components.
  const rowSubjects =
    access.ready && classScheme !== undefined
      ? [
          ...access.subjects,
          ...rows.filter((r) => !access.subjects.includes(r.subject) && ((r.version ?? 0) > 0 || typed(r))).map((r) => r.subject),
        ]
      : [];
  context.current = { subjects: rowSubjects, scheme, locked: access.locked };

  // Keep the unsaved work of this user on this screen.
  const draftText =
    !admission.trim() && !rows.some(typed)
      ? null
      : JSON.stringify({ admission, sessionId, term, arm, entries: entriesOf(rows), reason } satisfies Draft);
  useEffect(() => {
    if (draftText === null) clearDraft(DRAFT);
    else writeDraft(DRAFT, JSON.parse(draftText));
  }, [draftText]);

  const lookup = useCallback(
    async (adm: string, sid: string, t: string) => {
      const seq = ++lookupSeq.current;
      try {
        const results = await lookupResults({ session_id: sid, term: t, admission_number: adm });
        if (seq !== lookupSeq.current) return;
        setLookupNote('');
        const keep = restored.current;
        restored.current = null;
        if (results.length) {
          setExisting(true);
          setBaseVersion(0);
          const loaded = fromResults(results);
          if (keep)
            for (const [s, e] of Object.entries(keep)) {
              if (!typed(e)) continue;
              const i = rowOf(loaded, s);
              const row = { ...e, subject: s, version: loaded[i]?.version ?? 0, totalOnly: loaded[i]?.totalOnly };
              if (i < 0) loaded.push(row);
              else loaded[i] = row;
            }
          // The rows' messages judged what was typed before: the loaded results replace it.
          clearErrors('rows');
          setValue('rows', loaded);
          setValue('student_class', results[0]!.student_class);
        } else {
          setExisting(false);
          setBaseVersion(0);
          setValue(
            'rows',
            getValues('rows').map((e) => ({ ...e, version: 0 })),
          );
        }
      } catch (err) {
        if (seq !== lookupSeq.current) return;
        setExisting(false);
        setLookupNote(err instanceof ApiError && err.status === 404 ? (err.detail ?? '') : '');
      }
    },
    [lookupResults, setValue, getValues, clearErrors],
  );

  // Session + admission number + term -> load existing results after 500 ms of quiet.
  useEffect(() => {
    const adm = normalize(admission);
    if (!adm || !sessionId || !term || !admissionNumberField.safeParse(adm).success) {
      lookupSeq.current++;
      setExisting(false);
      setLookupNote('');
      return;
    }
    const timer = setTimeout(() => void lookup(adm, sessionId, term), TIMINGS.resultLookupDebounce);
    return () => clearTimeout(timer);
  }, [admission, sessionId, term, lookup]);

  // Admission number -> the student's name and (unless results say otherwise) their class.
  useEffect(() => {
    const adm = normalize(admission);
    setStudent(null);
    if (!adm || !admissionNumberField.safeParse(adm).success) return;
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      fetchStudentSummary(adm, ctrl.signal)
        .then((st) => {
          setStudent(st);
          if (!existingRef.current) setValue('student_class', st.student_class);
        })
        .catch((err: unknown) => {
          if (err instanceof ApiError && err.status === 404) setLookupNote(RESULT_MESSAGES.studentNotFound(adm));
        });
    }, TIMINGS.resultLookupDebounce);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [admission, setValue]);

  /** Another student: nothing typed for the previous one may be saved for this one. */
  function changeAdmission(value: string) {
    const next = value.toUpperCase();
    if (normalize(next) !== normalize(admission)) {
      lookupSeq.current++;
      restored.current = null;
      setBaseVersion(undefined);
      setValue('rows', []);
      setExisting(false);
      setValue('student_class', '');
      setValue('reason', '');
      setNeedReason(false);
      clearErrors();
      setFormError('');
      setLookupNote('');
    }
    setField('admission_number', next);
  }

  /** Changes a subject's entry (added on its first keystroke) and clears these messages of its row. */
  const setEntry = (subject: string, patch: Partial<Entry>, clears: readonly string[] = ['score']) => {
    const current = getValues('rows');
    const i = rowOf(current, subject);
    if (i < 0) setValue('rows', [...current, { ...BLANK, version: baseVersion, ...patch, subject }], { shouldDirty: true });
    else setValue(`rows.${i}`, { ...current[i]!, ...patch }, { shouldDirty: true });
    const at = i < 0 ? current.length : i;
    clearErrors([...clears.map((c) => `rows.${at}.${c}`), SUBJECTS_REQUIRED] as never);
  };

  /** The messages of an input of a subject's row (`score`, `components.CA1`). */
  const errorAt = (subject: string, path: string) => errorOf(`rows.${rowOf(rows, subject)}.${path}`);

  const setComponent = (subject: string, label: string, value: string) =>
    setEntry(subject, { components: { ...entry(subject).components, [label]: value } }, [`components.${label}`, 'components', 'score']);

  // One message per attempt, beside the form (no stack of toasts): the fields say what is wrong.
  const onSubmit = form.submit(
    async (checked) => {
      const body = checked as BulkSave;
      setFormError('');
      try {
        await saveResults.mutateAsync(body);
        clearDraft(DRAFT);
        setValue('reason', '');
        setNeedReason(false);
        toast.success(RESULT_MESSAGES.saved);
        await lookup(body.admission_number, sessionId, term);
      } catch (err) {
        if (err instanceof ApiError && err.status === 400) {
          const mapped: FieldErrors = {};
          for (const [k, v] of Object.entries(err.fieldErrors)) {
            const m = /^subjects\.(\d+)\.(score|components(?:\..+)?)$/.exec(k);
            const i = m ? rowOf(rows, body.subjects[Number(m[1])]?.name ?? '') : -1;
            mapped[m && i >= 0 ? `rows.${i}.${m[2]}` : k] = v;
          }
          if (mapped.reason) setNeedReason(true);
          fail(mapped);
        }
        setFormError(
          serverMessage(err) ??
            (err instanceof ApiError && err.kind === 'network' ? RESULT_MESSAGES.networkTryAgain : RESULT_MESSAGES.saveFailed),
        );
      }
    },
    (errs) => setFormError(errs[SUBJECTS_REQUIRED]?.[0] ?? RESULT_MESSAGES.saveFailed),
  );

  return (
    <PageLayout title={existing ? 'Update Results' : 'Create Results'}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        {draft && hasWork(draft.entries) && (
          <Alert tone="info" className="-mb-2">
            {RESULT_MESSAGES.draftRestored}
          </Alert>
        )}
        <Card>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Admission Number"
              required
              value={admission}
              autoComplete="off"
              placeholder="STU-0001"
              onChange={(e) => changeAdmission(e.target.value)}
              error={errorOf('admission_number')}
              hint={
                student ? (
                  <span data-testid="student-name">
                    {student.first_name} {student.last_name} · {student.student_class}
                  </span>
                ) : (
                  lookupNote || undefined
                )
              }
            />
            <SessionTermFields
              sessionId={sessionId}
              term={term}
              onSession={(v) => setValue('session_id', v)}
              onTerm={(v) => setValue('term', v)}
              errors={{ session_id: errorOf('session_id'), term: errorOf('term') }}
            />
            <ClassSelect
              required
              value={arm}
              onChange={(e) => setField('student_class', e.target.value)}
              error={errorOf('student_class')}
            />
            {needReason && <ReasonField value={reason} onChange={(r) => setField('reason', r)} error={errorOf('reason')} />}
          </div>
          {existing && (
            <p className="mt-3 text-sm text-brand-800" role="status">
              Existing results found: change the scores you need and save.
            </p>
          )}
        </Card>
        {formError && <Alert tone="error">{formError}</Alert>}
        {access.note && (
          <Alert tone="warning" title="Read-only subjects">
            <span data-testid="subject-refusal">{access.note}</span>
          </Alert>
        )}
        {!access.ready && <EmptyState>{TEACHING_SCREEN_MESSAGES.lookUpStudentFirst}</EmptyState>}
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {rowSubjects.map((subject) => (
            <fieldset
              key={subject}
              disabled={access.locked(subject)}
              className={`rounded-xl border border-slate-200 p-3 shadow-sm ${access.locked(subject) ? 'bg-slate-50' : 'bg-white'}`}
            >
              <legend className="px-1 text-sm font-semibold text-brand-900">
                {subject}
                {access.locked(subject) && <span className="ml-2 text-xs font-normal text-slate-600">(read-only)</span>}
              </legend>
              <div className="flex flex-col gap-2">
                {scheme ? (
                  <ComponentScoreFields
                    subject={subject}
                    scheme={scheme}
                    draft={entry(subject).components}
                    onChange={(label, value) => setComponent(subject, label, value)}
                    errors={(label) => errorAt(subject, `components.${label}`)}
                    totalError={[...(errorAt(subject, 'score') ?? []), ...(errorAt(subject, 'components') ?? [])]}
                    storedTotal={entry(subject).totalOnly ? Number(entry(subject).score) : null}
                  />
                ) : (
                  <TextField
                    label={
                      <>
                        <span className="sr-only">{subject} </span>Score
                      </>
                    }
                    // Text, not number: a number input hides "e" or "12,5" as empty, so the mistake went unreported.
                    type="text"
                    inputMode="decimal"
                    autoComplete="off"
                    value={entry(subject).score}
                    onChange={(e) => setEntry(subject, { score: e.target.value })}
                    error={errorAt(subject, 'score')}
                  />
                )}
                <TextField
                  label={
                    <>
                      <span className="sr-only">{subject} </span>Remarks
                    </>
                  }
                  value={entry(subject).remarks}
                  maxLength={300}
                  onChange={(e) => setEntry(subject, { remarks: e.target.value })}
                />
              </div>
            </fieldset>
          ))}
        </div>
        <div className="sticky bottom-0 -mx-4 border-t border-slate-200 bg-white/95 px-4 py-3 sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0">
          <SubmitButton busy={form.formState.isSubmitting} busyLabel="Saving..." className="w-full sm:w-auto">
            Save All Results
          </SubmitButton>
        </div>
      </form>
    </PageLayout>
  );
}
