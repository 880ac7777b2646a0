import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { PEOPLE_MESSAGES, studentDeleted, type StudentRecord } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, DetailRow } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { useToast } from '../../../lib/toast';
import { fetchLegacyStudent, fetchStudent, useDeleteStudent } from '../api';
import { fullName, genderLabel } from '../components/details';

/**
 * /DeleteStudent and /DeleteStudent/:_id: search by admission number, see the student, then a
 * two-step confirmation (spec §2, §4). The path id may be a legacy internal id or an admission number.
 */
export default function DeleteStudentPage() {
  const { _id: pathId } = useParams();
  const [id, setId] = useState('');
  const [student, setStudent] = useState<StudentRecord | null>(null);
  const [step, setStep] = useState<'view' | 'confirm'>('view');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const remove = useDeleteStudent();
  const toast = useToast();

  async function search(value: string) {
    setError(null);
    setSuccess(null);
    setStep('view');
    const adm = value.trim().toUpperCase();
    if (!adm) {
      setError(PEOPLE_MESSAGES.enterStudentIdToDelete);
      return;
    }
    setSearching(true);
    try {
      setStudent(await fetchStudent(adm));
    } catch {
      setStudent(null);
      setError(PEOPLE_MESSAGES.deleteStudentSearchFailed);
    } finally {
      setSearching(false);
    }
  }

  // /DeleteStudent/:_id: look the student up straight away.
  const started = useRef(false);
  useEffect(() => {
    if (!pathId || started.current) return;
    started.current = true;
    void (async () => {
      let adm = pathId.toUpperCase();
      if (/^\d+$/.test(pathId)) {
        try {
          adm = (await fetchLegacyStudent(pathId)).admissionNumber;
        } catch {
          setError(PEOPLE_MESSAGES.deleteStudentSearchFailed);
          return;
        }
      }
      setId(adm);
      await search(adm);
    })();
  }, [pathId]);

  async function confirmDelete() {
    if (!student) {
      setError(PEOPLE_MESSAGES.searchFirst);
      return;
    }
    try {
      await remove.mutateAsync(student.admission_number);
      setSuccess(studentDeleted(student.admission_number));
      setStudent(null);
      setId('');
      setStep('view');
    } catch {
      setError(PEOPLE_MESSAGES.deleteStudentFailed);
      toast.error(PEOPLE_MESSAGES.deleteStudentFailedToast);
    }
  }

  return (
    <PageLayout title="Delete Student" width="max-w-2xl">
      <div className="flex flex-col gap-4">
        {success && <Alert tone="success">{success}</Alert>}
        {error && <Alert tone="error">{error}</Alert>}
        <Card>
          <form
            className="flex flex-wrap items-end gap-3"
            noValidate
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              void search(id);
            }}
          >
            <div className="min-w-56 flex-1">
              <TextField
                label="Student ID (admission number)"
                placeholder="STU-0001"
                autoComplete="off"
                value={id}
                onChange={(e) => setId(e.target.value.toUpperCase())}
              />
            </div>
            <Button type="submit" variant="secondary" loading={searching}>
              Search
            </Button>
          </form>
        </Card>
        {student && (
          <Card title="Student found">
            <dl>
              <DetailRow label="Name" value={fullName(student)} />
              <DetailRow label="Admission number" value={student.admission_number} />
              <DetailRow label="Class" value={student.student_class} />
              <DetailRow label="Gender" value={genderLabel(student.gender)} />
            </dl>
            <Alert tone="warning" className="mt-4">
              {PEOPLE_MESSAGES.deleteAlsoRemoves}
            </Alert>
          </Card>
        )}
        {step === 'confirm' && student ? (
          <Alert tone="error" title={`Delete ${fullName(student)} (${student.admission_number})?`}>
            <p>{PEOPLE_MESSAGES.deletePermanent}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button variant="danger" loading={remove.isPending} onClick={() => void confirmDelete()}>
                Yes, delete permanently
              </Button>
              <Button variant="secondary" onClick={() => setStep('view')} disabled={remove.isPending}>
                Cancel
              </Button>
            </div>
          </Alert>
        ) : (
          <div>
            <Button
              variant="danger"
              onClick={() => {
                if (!student) setError(PEOPLE_MESSAGES.searchFirst);
                else setStep('confirm');
              }}
            >
              Delete Student
            </Button>
          </div>
        )}
      </div>
    </PageLayout>
  );
}
