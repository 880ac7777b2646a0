import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PROMOTION_SCREEN_LABELS as L, PROMOTION_SCREEN_MESSAGES as M, SESSION_END_SCREENS as S } from '@portal/domain/session-end-screens';
import { classLevelOf } from '@portal/domain/teaching';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, RequestButton, SubmitButton } from '../../../components/ui/button';
import { Card, DetailRow } from '../../../components/ui/card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { ClassSelect } from '../../../components/school/class-select';
import { downloadBlob } from '../../../lib/api-client';
import { formatDate } from '../../../lib/datetime';
import { errorMessage, fieldErrorsOf, firstServerMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { downloadTranscript, useMoveStudent, useStreams, useStudentRecord } from '../api';
import type { StudentRecord } from '@portal/domain/people-constants';

/**
 * /promotion/move?admission_number= (admin): one student moved to another class with a reason
 * (audited; after a promotion can no longer be undone), or, for a graduate, the transcript: every
 * session's released cards as one PDF. The student's details page links here.
 */
export default function StudentMovePage() {
  const [params, setParams] = useSearchParams();
  const adm = (params.get('admission_number') ?? '').trim().toUpperCase();
  const [typed, setTyped] = useState(adm);
  const student = useStudentRecord(adm);

  return (
    <PageLayout title={S.move.title} width="max-w-2xl">
      <Link to={S.promotion.to} className="no-print mb-3 inline-block text-sm font-medium text-brand-800 hover:underline">
        ← {S.promotion.title}
      </Link>
      <Card className="mb-4">
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            setParams(typed.trim() ? { admission_number: typed.trim().toUpperCase() } : {});
          }}
        >
          <div className="min-w-0 flex-1">
            <TextField label={L.admissionNumber} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
          </div>
          <Button type="submit">{L.find}</Button>
        </form>
      </Card>
      {adm && (
        <QueryView query={student} messages={{ notFound: M.studentNotFound, fallback: M.lookupFailed }}>
          {(s) => <StudentPanel key={s.admission_number} student={s} />}
        </QueryView>
      )}
    </PageLayout>
  );
}

function StudentPanel({ student }: { student: StudentRecord & { graduated_at?: string | null } }) {
  const name = `${student.first_name} ${student.last_name}`;
  const status = String(student.status);
  const toast = useToast();
  return (
    <div className="flex flex-col gap-4">
      <Card title={name}>
        <dl>
          <DetailRow label={L.admissionNumber} value={student.admission_number} />
          <DetailRow label={L.currentArm} value={<span data-testid="student-arm">{student.student_class}</span>} />
          {status === 'graduated' && <DetailRow label={L.graduatedOn} value={formatDate(student.graduated_at ?? null) || L.graduated} />}
        </dl>
        <Link
          to={`/students/${encodeURIComponent(student.admission_number)}`}
          className="mt-2 inline-block text-sm font-medium text-brand-800 hover:underline"
        >
          {L.profile}
        </Link>
      </Card>
      {status === 'graduated' ? (
        <Card>
          <Alert tone="info" className="mb-3">
            {M.graduateNote}
          </Alert>
          <RequestButton
            variant="secondary"
            run={async () => {
              try {
                downloadBlob(await downloadTranscript(student.admission_number), `transcript-${student.admission_number}.pdf`);
              } catch (err) {
                toast.error(errorMessage(err, { fallback: M.transcriptFailed, useDetail: true }));
              }
            }}
          >
            {L.transcript}
          </RequestButton>
        </Card>
      ) : status === 'withdrawn' ? (
        <Alert tone="info">{M.withdrawnNote}</Alert>
      ) : (
        <MoveForm student={student} name={name} />
      )}
    </div>
  );
}

function MoveForm({ student, name }: { student: StudentRecord; name: string }) {
  const move = useMoveStudent();
  const streams = useStreams();
  const toast = useToast();
  const [arm, setArm] = useState('');
  const [stream, setStream] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState('');
  const senior = classLevelOf(arm)?.startsWith('SSS') === true;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure('');
    const local: Record<string, string[]> = {};
    if (!arm) local.to_arm = [M.targetRequired];
    if (!reason.trim()) local.reason = [M.reasonRequired];
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      await move.mutateAsync({
        admission_number: student.admission_number,
        to_arm: arm,
        ...(senior ? { stream_id: stream ? Number(stream) : null } : {}),
        reason: reason.trim(),
      });
      toast.success(L.moved(name, arm));
      setReason('');
    } catch (err) {
      const fields = fieldErrorsOf(err, { leaf: true });
      setErrors(fields);
      // A reason the form shows at its field is not said twice; any other (the student's own) above the button.
      const shown = ['to_arm', 'stream_id', 'reason'].some((f) => fields[f]);
      if (!shown) setFailure(firstServerMessage(err) ?? errorMessage(err, { fallback: M.moveFailed }));
    }
  }

  return (
    <Card title={L.moveOne}>
      <p className="mb-3 text-sm text-slate-700">{M.moveHint}</p>
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <ClassSelect label={L.target} value={arm} onChange={(e) => setArm(e.target.value)} error={errors.to_arm} required />
        {senior && (
          <SelectField
            label={L.stream}
            value={stream}
            placeholder={L.noStream}
            options={(streams.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
            onChange={(e) => setStream(e.target.value)}
            error={errors.stream_id}
          />
        )}
        <TextAreaField
          label={L.reason}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={errors.reason}
          required
          rows={3}
        />
        {failure && <Alert tone="error">{failure}</Alert>}
        <div>
          <SubmitButton busy={move.isPending} busyLabel={L.move}>
            {L.move}
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}
