import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { CLASSES, SUBJECTS, TIMINGS } from '@portal/domain/constants';
import { admissionNumberField, RESULT_MESSAGES, scoreField, type Result } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import { fetchResults, saveResults, serverMessage } from '../api';
import { SessionTermFields } from '../components/session-term-fields';

interface Entry {
  score: string;
  remarks: string;
  /** The version loaded by the lookup (0 = none existed); undefined before any lookup. */
  version?: number;
}
type Entries = Record<string, Entry>;
type Errors = Record<string, string[] | undefined>;

const emptyEntries = (): Entries => Object.fromEntries(SUBJECTS.map((s) => [s, { score: '', remarks: '' }]));

function fromResults(results: Result[]): Entries {
  const out = emptyEntries();
  for (const s of SUBJECTS) out[s] = { score: '', remarks: '', version: 0 };
  for (const r of results) out[r.subject] = { score: String(r.score), remarks: r.remarks, version: r.version };
  return out;
}

/** /ResultUpload: enter a student's scores for a term; existing results load after 500 ms. */
export default function ResultUploadPage() {
  const toast = useToast();
  const [admission, setAdmission] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const [studentClass, setStudentClass] = useState('');
  const [entries, setEntries] = useState<Entries>(emptyEntries);
  const [existing, setExisting] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [lookupNote, setLookupNote] = useState('');
  const lookupSeq = useRef(0);

  const lookup = useCallback(async (adm: string, sid: string, t: string) => {
    const seq = ++lookupSeq.current;
    try {
      const results = await fetchResults({ session_id: sid, term: t, admission_number: adm });
      if (seq !== lookupSeq.current) return;
      setLookupNote('');
      if (results.length) {
        setExisting(true);
        setEntries(fromResults(results));
        setStudentClass(results[0]!.student_class);
      } else {
        setExisting(false);
        setEntries((prev) => Object.fromEntries(SUBJECTS.map((s) => [s, { ...prev[s]!, version: 0 }])));
      }
    } catch (err) {
      if (seq !== lookupSeq.current) return;
      setExisting(false);
      setLookupNote(err instanceof ApiError && err.status === 404 ? (err.detail ?? '') : '');
    }
  }, []);

  // Session + admission number + term -> load existing results after 500 ms of quiet.
  useEffect(() => {
    const adm = admission.trim().toUpperCase();
    if (!adm || !sessionId || !term || !admissionNumberField.safeParse(adm).success) {
      lookupSeq.current++;
      setExisting(false);
      setLookupNote('');
      return;
    }
    const timer = setTimeout(() => void lookup(adm, sessionId, term), TIMINGS.resultLookupDebounce);
    return () => clearTimeout(timer);
  }, [admission, sessionId, term, lookup]);

  const setEntry = (subject: string, patch: Partial<Entry>) => {
    setEntries((e) => ({ ...e, [subject]: { ...e[subject]!, ...patch } }));
    setErrors((x) => ({ ...x, [`${subject}.score`]: undefined }));
  };

  function validate(): Errors {
    const errs: Errors = {};
    const adm = admissionNumberField.safeParse(admission);
    if (!adm.success) errs.admission_number = [adm.error.issues[0]!.message];
    if (!sessionId) errs.session_id = [RESULT_MESSAGES.sessionRequired];
    if (!term) errs.term = [RESULT_MESSAGES.termRequired];
    if (!studentClass) errs.student_class = [RESULT_MESSAGES.classRequired];
    for (const s of SUBJECTS) {
      const raw = entries[s]!.score.trim();
      if (!raw) continue;
      const parsed = scoreField.safeParse(raw);
      if (!parsed.success) errs[`${s}.score`] = [parsed.error.issues[0]!.message];
    }
    return errs;
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const errs = validate();
    const filled = SUBJECTS.filter((s) => entries[s]!.score.trim() !== '');
    if (!filled.length && !Object.keys(errs).length) errs.subjects = [RESULT_MESSAGES.subjectsRequired];
    setErrors(errs);
    if (Object.keys(errs).length) {
      toast.error(errs.subjects?.[0] ?? RESULT_MESSAGES.saveFailed);
      return;
    }
    setSaving(true);
    try {
      const adm = admission.trim().toUpperCase();
      await saveResults({
        admission_number: adm,
        session_id: Number(sessionId),
        term,
        student_class: studentClass,
        subjects: filled.map((name) => ({
          name,
          score: Number(entries[name]!.score),
          remarks: entries[name]!.remarks,
          ...(entries[name]!.version !== undefined ? { version: entries[name]!.version } : {}),
        })),
      });
      toast.success(RESULT_MESSAGES.saved);
      await lookup(adm, sessionId, term);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        const fe = err.fieldErrors;
        const mapped: Errors = {};
        for (const [k, v] of Object.entries(fe)) {
          const m = /^subjects\.(\d+)\.score$/.exec(k);
          mapped[m ? `${filled[Number(m[1])]}.score` : k] = v;
        }
        setErrors(mapped);
      }
      toast.error(serverMessage(err) ?? RESULT_MESSAGES.saveFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <PageLayout title={existing ? 'Update Results' : 'Create Results'}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <Card>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Admission Number"
              required
              value={admission}
              autoComplete="off"
              placeholder="STU-0001"
              onChange={(e) => {
                setAdmission(e.target.value.toUpperCase());
                setErrors((x) => ({ ...x, admission_number: undefined }));
              }}
              error={errors.admission_number}
              hint={lookupNote || undefined}
            />
            <SessionTermFields
              sessionId={sessionId}
              term={term}
              onSession={setSessionId}
              onTerm={setTerm}
              errors={{ session_id: errors.session_id, term: errors.term }}
            />
            <SelectField
              label="Class"
              required
              value={studentClass}
              onChange={(e) => setStudentClass(e.target.value)}
              placeholder="Select class"
              options={CLASSES}
              error={errors.student_class}
            />
          </div>
          {existing && (
            <p className="mt-3 text-sm text-brand-800" role="status">
              Existing results found: change the scores you need and save.
            </p>
          )}
        </Card>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {SUBJECTS.map((subject) => (
            <fieldset key={subject} className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
              <legend className="px-1 text-sm font-semibold text-brand-900">{subject}</legend>
              <div className="flex flex-col gap-2">
                <TextField
                  label={
                    <>
                      <span className="sr-only">{subject} </span>Score
                    </>
                  }
                  type="number"
                  inputMode="decimal"
                  min={0}
                  max={100}
                  step="any"
                  value={entries[subject]!.score}
                  onChange={(e) => setEntry(subject, { score: e.target.value })}
                  error={errors[`${subject}.score`]}
                />
                <TextField
                  label={
                    <>
                      <span className="sr-only">{subject} </span>Remarks
                    </>
                  }
                  value={entries[subject]!.remarks}
                  maxLength={300}
                  onChange={(e) => setEntry(subject, { remarks: e.target.value })}
                />
              </div>
            </fieldset>
          ))}
        </div>
        <div className="sticky bottom-0 -mx-4 border-t border-slate-200 bg-white/95 px-4 py-3 sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0">
          <Button type="submit" loading={saving} className="w-full sm:w-auto">
            {saving ? 'Saving...' : 'Save All Results'}
          </Button>
        </div>
      </form>
    </PageLayout>
  );
}
