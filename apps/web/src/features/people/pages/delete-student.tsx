import { useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import {
  PEOPLE_MESSAGES,
  studentDeleted,
  studentReadmitted,
  studentWithdrawnDone,
  type StudentHistory,
  type StudentRecord,
} from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, DetailRow } from '../../../components/ui/card';
import { useToast } from '../../../lib/toast';
import { ApiError } from '../../../lib/api-client';
import { fetchLegacyStudent, fetchStudent, fetchStudentHistory, useDeleteStudent, useStudentStatus } from '../api';
import { fullName, genderLabel } from '../components/details';
import { IdSearchCard } from '../components/id-search';
import { schoolDay } from '../../../lib/datetime';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-NG')} ${n === 1 ? one : many}`;

/**
 * /DeleteStudent and /DeleteStudent/:_id: search by admission number, see the student, then a
 * two-step confirmation. The path id may be a legacy internal id or an admission number.
 * A student with results or payments is offered "Withdraw" first (kept read-only,
 * sign-in off); the spec's delete stays for records created by mistake, and the confirmation says
 * how the two differ.
 */
export default function DeleteStudentPage() {
  const { _id: pathId } = useParams();
  const [id, setId] = useState('');
  const [student, setStudent] = useState<StudentRecord | null>(null);
  const [history, setHistory] = useState<StudentHistory | null>(null);
  const [step, setStep] = useState<'view' | 'confirm' | 'withdraw'>('view');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const remove = useDeleteStudent();
  const status = useStudentStatus();
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
      const [found, counts] = await Promise.all([fetchStudent(adm), fetchStudentHistory(adm).catch(() => null)]);
      setStudent(found);
      setHistory(counts);
    } catch {
      setStudent(null);
      setHistory(null);
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

  async function changeStatus(action: 'withdraw' | 'readmit') {
    if (!student) return;
    setError(null);
    try {
      const updated = await status.mutateAsync({ adm: student.admission_number, action });
      setStudent(updated);
      setStep('view');
      const message = (action === 'withdraw' ? studentWithdrawnDone : studentReadmitted)(fullName(updated), updated.admission_number);
      setSuccess(message);
    } catch (err) {
      setError(err instanceof ApiError && err.detail ? err.detail : PEOPLE_MESSAGES.updateStudentFailed);
    }
  }

  async function confirmDelete() {
    if (!student) {
      setError(PEOPLE_MESSAGES.searchFirst);
      return;
    }
    try {
      await remove.mutateAsync(student.admission_number);
      setSuccess(studentDeleted(student.admission_number));
      setStudent(null);
      setHistory(null);
      setId('');
      setStep('view');
    } catch {
      setError(PEOPLE_MESSAGES.deleteStudentFailed);
      toast.error(PEOPLE_MESSAGES.deleteStudentFailedToast);
    }
  }

  const withdrawn = student?.status === 'withdrawn';
  const hasHistory = Boolean(history && (history.results > 0 || history.payments > 0));

  return (
    <PageLayout title="Delete Student" width="max-w-2xl">
      <div className="flex flex-col gap-4">
        {success && <Alert tone="success">{success}</Alert>}
        {error && <Alert tone="error">{error}</Alert>}
        <IdSearchCard
          label="Student ID (admission number)"
          placeholder="STU-0001"
          value={id}
          busy={searching}
          button="Search"
          variant="secondary"
          onChange={setId}
          onSearch={() => void search(id)}
        />
        {student && (
          <Card title="Student found">
            <dl>
              <DetailRow label="Name" value={fullName(student)} />
              <DetailRow label="Admission number" value={student.admission_number} />
              <DetailRow label="Class" value={student.student_class} />
              <DetailRow label="Gender" value={genderLabel(student.gender)} />
              <DetailRow
                label="Status"
                value={withdrawn ? `Withdrawn (${student.withdrawn_at ? schoolDay(student.withdrawn_at) : ''})` : 'Active'}
              />
              {history && (
                <DetailRow
                  label="Records"
                  value={`${plural(history.results, 'result', 'results')}, ${plural(history.payments, 'payment', 'payments')}`}
                />
              )}
            </dl>
            <Alert tone="warning" className="mt-4">
              {PEOPLE_MESSAGES.deleteAlsoRemoves}
            </Alert>
          </Card>
        )}
        {student && step === 'view' && (
          <Card title={withdrawn ? 'This student is withdrawn' : 'Withdraw or delete?'}>
            {withdrawn ? (
              <p className="text-sm text-slate-700">{PEOPLE_MESSAGES.studentWithdrawn}</p>
            ) : (
              <ul className="flex list-disc flex-col gap-2 pl-5 text-sm text-slate-700" data-testid="withdraw-or-delete">
                <li>{PEOPLE_MESSAGES.withdrawExplained}</li>
                <li>{PEOPLE_MESSAGES.deleteExplained}</li>
              </ul>
            )}
          </Card>
        )}
        {step === 'confirm' && student ? (
          <Alert tone="error" title={`Delete ${fullName(student)} (${student.admission_number})?`}>
            <p>{PEOPLE_MESSAGES.deletePermanent}</p>
            <p className="mt-2">{PEOPLE_MESSAGES.deleteExplained}</p>
            {hasHistory && history && (
              <p className="mt-2 font-semibold">
                {`${plural(history.results, 'result', 'results')} will be deleted and ${plural(history.payments, 'payment', 'payments')} will no longer be linked to this student. If the student is leaving, withdraw instead.`}
              </p>
            )}
            <div className="mt-3 flex flex-wrap gap-2">
              <Button variant="danger" loading={remove.isPending} onClick={() => void confirmDelete()}>
                Yes, delete permanently
              </Button>
              {hasHistory && !withdrawn && (
                <Button onClick={() => setStep('withdraw')} disabled={remove.isPending}>
                  Withdraw instead
                </Button>
              )}
              <Button variant="secondary" onClick={() => setStep('view')} disabled={remove.isPending}>
                Cancel
              </Button>
            </div>
          </Alert>
        ) : step === 'withdraw' && student ? (
          <Alert tone="warning" title={`Withdraw ${fullName(student)} (${student.admission_number})?`}>
            <p>{PEOPLE_MESSAGES.withdrawExplained}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button loading={status.isPending} onClick={() => void changeStatus('withdraw')}>
                Yes, withdraw
              </Button>
              <Button variant="secondary" onClick={() => setStep('view')} disabled={status.isPending}>
                Cancel
              </Button>
            </div>
          </Alert>
        ) : (
          <div className="flex flex-wrap gap-2">
            {student && !withdrawn && (
              <Button variant={hasHistory ? 'primary' : 'secondary'} onClick={() => setStep('withdraw')}>
                Withdraw Student
              </Button>
            )}
            {student && withdrawn && (
              <Button variant="secondary" loading={status.isPending} onClick={() => void changeStatus('readmit')}>
                Readmit Student
              </Button>
            )}
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
