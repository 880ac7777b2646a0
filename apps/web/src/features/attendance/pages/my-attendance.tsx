import { ATTENDANCE_SCREENS } from '@portal/domain/attendance';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { useStudentAttendance } from '../api';
import { StudentAttendanceSection, TermPicker, useTermParams } from '../components/student-attendance';

/** /my-attendance (students): their own attendance, this term unless another is picked. */
export default function MyAttendancePage() {
  const [q, , set] = useTermParams();
  const data = useStudentAttendance(q).data;
  return (
    <PageLayout title={ATTENDANCE_SCREENS.mine.title}>
      <Card className="mb-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <TermPicker shown={{ session_id: q.session_id ?? data?.session_id, term: q.term ?? data?.term }} onChange={set} />
        </div>
      </Card>
      <StudentAttendanceSection q={q} />
    </PageLayout>
  );
}
