import { useState, type FormEvent } from 'react';
import { CLASSES, SUBJECTS } from '@portal/domain/constants';
import { RESULT_MESSAGES, scoreField, type Result } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import { createResult, fetchResults, patchResult, serverMessage } from '../api';
import { SessionTermFields } from '../components/session-term-fields';

interface Row {
  subject: string;
  score: string;
  remarks: string;
  existing?: Result;
}

const blankRows = (): Row[] => SUBJECTS.map((subject) => ({ subject, score: '', remarks: '' }));

/** /UpdateResult: search a student's term results, edit them, save each subject in parallel. */
export default function UpdateResultPage() {
  const toast = useToast();
  const [admission, setAdmission] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const [studentClass, setStudentClass] = useState<string>(CLASSES[0]);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [searching, setSearching] = useState(false);
  const [saving, setSaving] = useState(false);
  const [searched, setSearched] = useState({ admission: '', sessionId: '', term: '', studentClass: '' });

  async function search(e?: FormEvent) {
    e?.preventDefault();
    setMessage(null);
    const adm = admission.trim().toUpperCase();
    if (!adm || !sessionId || !term) {
      setMessage({ tone: 'error', text: RESULT_MESSAGES.searchNeedsAll });
      return;
    }
    setSearching(true);
    try {
      const results = await fetchResults({ session_id: sessionId, term, admission_number: adm });
      const next = blankRows();
      for (const r of results) {
        const row = next.find((x) => x.subject === r.subject);
        if (row) Object.assign(row, { score: String(r.score), remarks: r.remarks, existing: r });
      }
      const cls = results[0]?.student_class ?? studentClass;
      setStudentClass(cls);
      setRows(next);
      setErrors({});
      setSearched({ admission: adm, sessionId, term, studentClass: cls });
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

  function reset() {
    setAdmission('');
    setTerm('');
    setRows(null);
    setErrors({});
    setMessage(null);
  }

  async function save() {
    if (!rows) return;
    const errs: Record<string, string> = {};
    for (const r of rows) {
      if (!r.score.trim()) continue;
      const parsed = scoreField.safeParse(r.score);
      if (!parsed.success) errs[r.subject] = parsed.error.issues[0]!.message;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const head = {
      admission_number: searched.admission,
      session_id: Number(searched.sessionId),
      term: searched.term,
      student_class: studentClass,
    };
    const changed = rows.filter(
      (r) => r.score.trim() !== '' && (!r.existing || Number(r.score) !== r.existing.score || r.remarks !== r.existing.remarks),
    );
    if (!changed.length) {
      toast.info('No changes to save.');
      return;
    }
    setSaving(true);
    // One request per subject, in parallel (spec §7): existing rows are updated, empty rows created.
    const outcomes = await Promise.allSettled(
      changed.map((r) =>
        r.existing
          ? patchResult(r.existing.id, {
              ...head,
              subject: r.subject,
              score: Number(r.score),
              remarks: r.remarks,
              version: r.existing.version,
            })
          : createResult({ ...head, subject: r.subject, name: r.subject, score: Number(r.score), remarks: r.remarks, version: 0 }),
      ),
    );
    setSaving(false);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (!failure) {
      toast.success(RESULT_MESSAGES.updated);
      reset();
      return;
    }
    const err = failure.reason as unknown;
    if (err instanceof ApiError && err.kind === 'network') toast.error(RESULT_MESSAGES.networkTryAgain);
    else toast.error(serverMessage(err) ?? RESULT_MESSAGES.updateFailed);
    // Show what is stored now (some subjects may have saved), so nothing is re-sent on a stale version.
    await search();
  }

  const setRow = (subject: string, patch: Partial<Row>) => {
    setRows((rs) => rs?.map((r) => (r.subject === subject ? { ...r, ...patch } : r)) ?? null);
    setErrors((e) => ({ ...e, [subject]: '' }));
  };

  return (
    <PageLayout title="Update Results">
      <Card className="mb-5">
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" onSubmit={(e) => void search(e)} noValidate>
          <TextField
            label="Admission Number"
            required
            value={admission}
            autoComplete="off"
            onChange={(e) => setAdmission(e.target.value.toUpperCase())}
          />
          <SessionTermFields sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
          <SelectField label="Class" value={studentClass} onChange={(e) => setStudentClass(e.target.value)} options={CLASSES} />
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
      {rows && (
        <Card title={`${searched.admission} · ${studentClass}`}>
          <div className="flex flex-col divide-y divide-slate-100">
            {rows.map((r) => (
              <div key={r.subject} className="grid gap-2 py-3 sm:grid-cols-[1fr_8rem_1fr] sm:items-start">
                <p className="font-medium sm:pt-9">
                  {r.subject}
                  {r.existing && <span className="ml-2 text-xs text-slate-500">({r.existing.grade})</span>}
                </p>
                <TextField
                  label={
                    <>
                      <span className="sr-only">{r.subject} </span>Score
                    </>
                  }
                  type="number"
                  inputMode="decimal"
                  step="any"
                  min={0}
                  max={100}
                  value={r.score}
                  onChange={(e) => setRow(r.subject, { score: e.target.value })}
                  error={errors[r.subject] || undefined}
                />
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
              </div>
            ))}
          </div>
          <Button className="mt-4 w-full sm:w-auto" loading={saving} onClick={() => void save()}>
            {saving ? 'Saving...' : 'Save Changes'}
          </Button>
        </Card>
      )}
    </PageLayout>
  );
}
