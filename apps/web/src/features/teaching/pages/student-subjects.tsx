import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { admissionNumberField } from '@portal/domain/result-schemas';
import {
  classLevelOf,
  sectionAllows,
  studentSubjectIds,
  type StudentSubjects,
  type SubjectPlan,
  type TeachingStructure,
} from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useSaveStudentSubjects, useStructure, useStudentSubjectsOf } from '../api';
import { teachingError } from '../errors';

function planOf(structure: TeachingStructure): SubjectPlan {
  const live = structure.subjects.filter((s) => !s.retired);
  return {
    names: new Map(live.map((s) => [s.id, s.name])),
    order: new Map(structure.subjects.map((s, i) => [s.id, i])),
    offerings: new Map(structure.offerings.map((o) => [o.class_level, new Map(o.subjects.map((x) => [x.subject_id, x.compulsory]))])),
    streams: new Map(structure.streams.map((s) => [s.id, new Set(s.subject_ids)])),
  };
}

/** /student-subjects?admission_number= (admin): a student's stream, electives added and subjects dropped. */
export default function StudentSubjectsPage() {
  const [params, setParams] = useSearchParams();
  const asked = (params.get('admission_number') ?? '').trim().toUpperCase();
  const [typed, setTyped] = useState(asked);
  const [error, setError] = useState('');
  const structure = useStructure();
  const student = useStudentSubjectsOf(asked || null);

  function find(e: FormEvent) {
    e.preventDefault();
    const adm = admissionNumberField.safeParse(typed.trim().toUpperCase());
    if (!adm.success) {
      setError(adm.error.issues[0]!.message);
      return;
    }
    setError('');
    setParams({ admission_number: adm.data });
  }

  return (
    <PageLayout title="Student Subjects" width="max-w-4xl">
      <Card className="mb-5">
        <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={find} noValidate>
          <div className="sm:w-64">
            <TextField
              label="Admission Number"
              value={typed}
              autoComplete="off"
              onChange={(e) => setTyped(e.target.value.toUpperCase())}
              error={error || undefined}
            />
          </div>
          <Button type="submit" className="sm:mt-6">
            Show subjects
          </Button>
        </form>
        <p className="mt-3 text-sm text-slate-600">{M.studentSubjectsExplain}</p>
      </Card>
      {asked &&
        (student.isPending || structure.isPending ? (
          <LoadingBlock />
        ) : student.isError ? (
          <Alert tone="error">{errorMessage(student.error, { fallback: M.loadFailed, useDetail: true })}</Alert>
        ) : structure.isError ? (
          <Alert tone="error">{M.loadFailed}</Alert>
        ) : (
          // Keyed by what was loaded: a save or another student starts from the stored choices.
          <Choices key={`${student.data.admission_number}|${student.dataUpdatedAt}`} data={student.data} structure={structure.data} />
        ))}
    </PageLayout>
  );
}

function Choices({ data, structure }: { data: StudentSubjects; structure: TeachingStructure }) {
  const toast = useToast();
  const save = useSaveStudentSubjects(data.admission_number);
  const [streamId, setStreamId] = useState<number | null>(data.stream_id);
  const [add, setAdd] = useState<number[]>(data.add);
  const [drop, setDrop] = useState<number[]>(data.drop);
  const [error, setError] = useState('');
  const level = classLevelOf(data.student_class);
  const senior = level?.startsWith('SSS') ?? false;
  const plan = planOf(structure);
  const base = new Set(studentSubjectIds(plan, { class_level: level, stream_id: streamId, add: [], drop: [] }));
  const takes = new Set(studentSubjectIds(plan, { class_level: level, stream_id: streamId, add, drop }));
  const candidates = structure.subjects.filter((s) => !s.retired && ((level && sectionAllows(s.section, level)) || add.includes(s.id)));

  function toggle(id: number, on: boolean) {
    setError('');
    if (base.has(id)) setDrop((l) => (on ? l.filter((x) => x !== id) : [...new Set([...l, id])]));
    else setAdd((l) => (on ? [...new Set([...l, id])] : l.filter((x) => x !== id)));
  }

  async function submit() {
    try {
      // Only real choices are stored: an added subject the level already gives, or a dropped one it does not, is left out.
      await save.mutateAsync({
        stream_id: senior ? streamId : null,
        add: add.filter((id) => !base.has(id)),
        drop: drop.filter((id) => base.has(id)),
      });
      toast.success(M.studentSubjectsSaved);
    } catch (err) {
      setError(teachingError(err));
    }
  }

  return (
    <Card title={`${data.admission_number} · ${data.student_class}`}>
      {senior ? (
        <div className="mb-4 sm:w-64">
          <SelectField
            label="Stream"
            value={streamId === null ? '' : String(streamId)}
            onChange={(e) => setStreamId(e.target.value === '' ? null : Number(e.target.value))}
            options={[{ value: '', label: 'No stream' }, ...structure.streams.map((s) => ({ value: String(s.id), label: s.name }))]}
          />
        </div>
      ) : (
        <p className="mb-4 text-sm text-slate-600">{M.streamOnlySenior}</p>
      )}
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-800">Subjects the student takes</legend>
        <div className="grid gap-x-4 sm:grid-cols-2">
          {candidates.map((s) => (
            <label key={s.id} className="inline-flex min-h-11 items-center gap-2 text-sm">
              <input type="checkbox" checked={takes.has(s.id)} onChange={(e) => toggle(s.id, e.target.checked)} />
              <span>
                {s.name}
                {base.has(s.id) && !takes.has(s.id) && <span className="ml-1 text-xs text-red-800">(dropped)</span>}
                {!base.has(s.id) && takes.has(s.id) && <span className="ml-1 text-xs text-brand-800">(added)</span>}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {error && (
        <Alert tone="error" className="mt-3">
          {error}
        </Alert>
      )}
      <Button className="mt-4" loading={save.isPending} onClick={() => void submit()}>
        Save subjects
      </Button>
      <section className="mt-5 border-t border-slate-200 pt-3" aria-label="Saved subject list">
        <h3 className="mb-1 text-sm font-semibold text-slate-800">Saved subject list ({data.subjects.length})</h3>
        <p className="text-sm text-slate-700" data-testid="derived-subjects">
          {data.subjects.join(', ')}
        </p>
      </section>
    </Card>
  );
}
