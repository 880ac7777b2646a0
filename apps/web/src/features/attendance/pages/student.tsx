import { useState, type FormEvent } from 'react';
import { ATTENDANCE_SCREENS } from '@portal/domain/attendance';
import { ATTENDANCE_SCREEN_LABELS as L } from '@portal/domain/attendance-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { useStudentAttendance } from '../api';
import { StudentAttendanceSection, TermPicker, useTermParams } from '../components/student-attendance';

/** /attendance/student?admission_number&session_id&term (form teacher of the student's arm, admin). */
export default function StudentAttendancePage() {
  const [termQ, params, set] = useTermParams();
  const adm = params.get('admission_number') ?? '';
  const [typed, setTyped] = useState(adm);
  const q = adm ? { ...termQ, admission_number: adm } : null;
  const data = useStudentAttendance(q).data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    set({ admission_number: typed.trim().toUpperCase() });
  };
  return (
    <PageLayout title={ATTENDANCE_SCREENS.student.title}>
      <Card className="mb-4">
        <form className="grid gap-3 sm:grid-cols-4 sm:items-end" onSubmit={submit} noValidate aria-label={ATTENDANCE_SCREENS.student.title}>
          <TextField
            label={L.admissionNumber}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            placeholder="STU-0001"
          />
          <TermPicker shown={{ session_id: termQ.session_id ?? data?.session_id, term: termQ.term ?? data?.term }} onChange={set} />
          <Button type="submit">{L.open}</Button>
        </form>
      </Card>
      <StudentAttendanceSection q={q} />
    </PageLayout>
  );
}
