import { ATTENDANCE_SCREENS } from '@portal/domain/attendance';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { childQuery, useChild } from '../../../lib/parent-child';
import { useStudentAttendance } from '../api';
import { StudentAttendanceSection, TermPicker, useTermParams } from '../components/student-attendance';

/** /my-attendance (students): their own attendance, this term unless another is picked; a parent's child's (`?child=`). */
export default function MyAttendancePage() {
  const [term, , set] = useTermParams();
  const { isParent, child } = useChild();
  // A parent's page waits for the child; the server checks the child is theirs.
  const q = isParent ? (child ? { ...term, ...childQuery(child) } : null) : term;
  const data = useStudentAttendance(q).data;
  return (
    <PageLayout title={ATTENDANCE_SCREENS.mine.title}>
      <Card className="mb-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <TermPicker shown={{ session_id: term.session_id ?? data?.session_id, term: term.term ?? data?.term }} onChange={set} />
        </div>
      </Card>
      <StudentAttendanceSection q={q} />
    </PageLayout>
  );
}
