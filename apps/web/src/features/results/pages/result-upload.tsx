// One file (about 435 lines): one page whose class/subject choice, entries, draft and upload share
// one state; it has no sub-components that stand alone.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
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
import { checkScore, fetchStudentSummary, useLookupResults, useSaveResults, type StudentSummary } from '../api';
import { ReasonField } from '../components/reason-field';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { ClassSelect } from '../../../components/school/class-select';
import { useSubjectAccess } from '../components/subject-access';
import { useComponentScheme } from '../assessment-api';
import { ComponentScoreFields, draftHasWork, draftOf, readComponents, type ComponentDraft } from '../components/component-scores';
import { TEACHING_SCREEN_MESSAGES } from '@portal/domain/teaching-screens';

interface Entry {
  score: string;
  remarks: string;
  /** On a scheme with several components: what is typed per component (the total is computed). */
  components?: ComponentDraft;
  /** The loaded result was entered as one total (no components stored). */
  totalOnly?: boolean;
  /** The version loaded by the lookup (0 = none existed); undefined before any lookup. */
  version?: number;
}
type Entries = Record<string, Entry>;
type Errors = Record<string, string[] | undefined>;

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

function fromResults(results: Result[]): Entries {
  const out: Entries = {};
  for (const r of results)
    out[r.subject] = r.components
      ? { score: String(r.score), remarks: r.remarks, version: r.version, components: draftOf(r.components) }
      : { score: String(r.score), remarks: r.remarks, version: r.version, totalOnly: true };
  return out;
}

const normalize = (v: string) => v.trim().toUpperCase();

/** /ResultUpload: enter a student's scores for a term; existing results load after 500 ms. */
export default function ResultUploadPage() {
  const toast = useToast();
  const lookupResults = useLookupResults();
  const saveResults = useSaveResults();
  const [draft] = useState(() => readDraft<Draft>(DRAFT));
  const [admission, setAdmission] = useState(draft?.admission ?? '');
  const [sessionId, setSessionId] = useState(draft?.sessionId ?? '');
  const [term, setTerm] = useState(draft?.term ?? '');
  const [params] = useSearchParams();
  // From My classes: the class is preset, the student's own record then confirms it.
  const [arm, setArm] = useState(draft?.arm ?? params.get('student_class') ?? '');
  const [entries, setEntries] = useState<Entries>(() => ({ ...(draft?.entries ?? {}) }));
  const [reason, setReason] = useState(draft?.reason ?? '');
  const [needReason, setNeedReason] = useState(!!draft?.reason);
  const [existing, setExisting] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState('');
  const [saving, setSaving] = useState(false);
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
  const entry = (s: string): Entry => entries[s] ?? { ...BLANK, version: baseVersion };
  // The student's subjects, then any subject with a stored result or typed work outside that list.
  // Rows wait for the scheme too, so no one types into a single score that then becomes components.
  const rowSubjects =
    access.ready && classScheme !== undefined
      ? [
          ...access.subjects,
          ...Object.keys(entries).filter((s) => !access.subjects.includes(s) && ((entries[s]!.version ?? 0) > 0 || typed(entries[s]))),
        ]
      : [];

  // Keep the unsaved work of this user on this screen.
  useEffect(() => {
    if (!admission.trim() && !hasWork(entries)) clearDraft(DRAFT);
    else writeDraft(DRAFT, { admission, sessionId, term, arm, entries, reason } satisfies Draft);
  }, [admission, sessionId, term, arm, entries, reason]);

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
            for (const [s, e] of Object.entries(keep))
              if (typed(e)) loaded[s] = { ...e, version: loaded[s]?.version ?? 0, totalOnly: loaded[s]?.totalOnly };
          setEntries(loaded);
          setArm(results[0]!.student_class);
        } else {
          setExisting(false);
          setBaseVersion(0);
          setEntries((prev) => Object.fromEntries(Object.entries(prev).map(([s, e]) => [s, { ...e, version: 0 }])));
        }
      } catch (err) {
        if (seq !== lookupSeq.current) return;
        setExisting(false);
        setLookupNote(err instanceof ApiError && err.status === 404 ? (err.detail ?? '') : '');
      }
    },
    [lookupResults],
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
          if (!existingRef.current) setArm(st.student_class);
        })
        .catch((err: unknown) => {
          if (err instanceof ApiError && err.status === 404) setLookupNote(RESULT_MESSAGES.studentNotFound(adm));
        });
    }, TIMINGS.resultLookupDebounce);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [admission]);

  /** Another student: nothing typed for the previous one may be saved for this one. */
  function changeAdmission(value: string) {
    const next = value.toUpperCase();
    if (normalize(next) !== normalize(admission)) {
      lookupSeq.current++;
      restored.current = null;
      setBaseVersion(undefined);
      setEntries({});
      setExisting(false);
      setArm('');
      setReason('');
      setNeedReason(false);
      setErrors({});
      setFormError('');
      setLookupNote('');
    }
    setAdmission(next);
  }

  const setEntry = (subject: string, patch: Partial<Entry>) => {
    setEntries((e) => ({ ...e, [subject]: { ...(e[subject] ?? { ...BLANK, version: baseVersion }), ...patch } }));
    setErrors((x) => ({ ...x, [`${subject}.score`]: undefined, subjects: undefined }));
  };

  const setComponent = (subject: string, label: string, value: string) => {
    setEntries((e) => {
      const prev = e[subject] ?? { ...BLANK, version: baseVersion };
      return { ...e, [subject]: { ...prev, components: { ...prev.components, [label]: value } } };
    });
    setErrors((x) => ({
      ...x,
      [`${subject}.components.${label}`]: undefined,
      [`${subject}.components`]: undefined,
      [`${subject}.score`]: undefined,
      subjects: undefined,
    }));
  };

  function validate(): Errors {
    const errs: Errors = {};
    const adm = admissionNumberField.safeParse(admission);
    if (!adm.success) errs.admission_number = [adm.error.issues[0]!.message];
    if (!sessionId) errs.session_id = [RESULT_MESSAGES.sessionRequired];
    if (!term) errs.term = [RESULT_MESSAGES.termRequired];
    if (!arm) errs.student_class = [RESULT_MESSAGES.classRequired];
    for (const s of rowSubjects) {
      if (access.locked(s)) continue;
      if (scheme) {
        for (const [label, message] of Object.entries(readComponents(scheme, entry(s).components).errors))
          errs[`${s}.components.${label}`] = [message];
        continue;
      }
      const checked = checkScore(entry(s).score, s);
      if (!checked.ok) errs[`${s}.score`] = [checked.message];
    }
    return errs;
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const errs = validate();
    const filled = rowSubjects.filter(
      (s) => !access.locked(s) && (scheme ? draftHasWork(entry(s).components) : entry(s).score.trim() !== ''),
    );
    if (!filled.length && !Object.keys(errs).length) errs.subjects = [RESULT_MESSAGES.subjectsRequired];
    setErrors(errs);
    // One message per attempt, beside the form (no stack of toasts): the fields say what is wrong.
    if (Object.keys(errs).length) {
      setFormError(errs.subjects?.[0] ?? RESULT_MESSAGES.saveFailed);
      return;
    }
    setFormError('');
    setSaving(true);
    try {
      const adm = normalize(admission);
      await saveResults.mutateAsync({
        admission_number: adm,
        session_id: Number(sessionId),
        term,
        student_class: arm,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        subjects: filled.map((name) => ({
          name,
          // The total of components is the server's to compute.
          ...(scheme ? { components: readComponents(scheme, entry(name).components).scores } : { score: Number(entry(name).score) }),
          remarks: entry(name).remarks,
          ...(entry(name).version !== undefined ? { version: entry(name).version } : {}),
        })),
      });
      clearDraft(DRAFT);
      setReason('');
      setNeedReason(false);
      toast.success(RESULT_MESSAGES.saved);
      await lookup(adm, sessionId, term);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        const mapped: Errors = {};
        for (const [k, v] of Object.entries(err.fieldErrors)) {
          const m = /^subjects\.(\d+)\.(score|components(?:\..+)?)$/.exec(k);
          mapped[m ? `${filled[Number(m[1])]}.${m[2]}` : k] = v;
        }
        if (mapped.reason) setNeedReason(true);
        setErrors(mapped);
      }
      setFormError(
        serverMessage(err) ??
          (err instanceof ApiError && err.kind === 'network' ? RESULT_MESSAGES.networkTryAgain : RESULT_MESSAGES.saveFailed),
      );
    } finally {
      setSaving(false);
    }
  }

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
              onChange={(e) => {
                changeAdmission(e.target.value);
                setErrors((x) => ({ ...x, admission_number: undefined }));
              }}
              error={errors.admission_number}
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
              onSession={setSessionId}
              onTerm={setTerm}
              errors={{ session_id: errors.session_id, term: errors.term }}
            />
            <ClassSelect
              required
              value={arm}
              onChange={(e) => {
                setArm(e.target.value);
                setErrors((x) => ({ ...x, student_class: undefined }));
              }}
              error={errors.student_class}
            />
            {needReason && (
              <ReasonField
                value={reason}
                onChange={(r) => {
                  setReason(r);
                  setErrors((x) => ({ ...x, reason: undefined }));
                }}
                error={errors.reason}
              />
            )}
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
                    errors={(label) => errors[`${subject}.components.${label}`]}
                    totalError={[...(errors[`${subject}.score`] ?? []), ...(errors[`${subject}.components`] ?? [])]}
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
                    error={errors[`${subject}.score`]}
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
          <SubmitButton busy={saving} busyLabel="Saving..." className="w-full sm:w-auto">
            Save All Results
          </SubmitButton>
        </div>
      </form>
    </PageLayout>
  );
}
