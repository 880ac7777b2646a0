import { Link, useParams } from 'react-router';
import { PEOPLE_MESSAGES } from '@portal/domain/people-constants';
import { PROMOTION_SCREEN_LABELS, SESSION_END_SCREENS } from '@portal/domain/session-end-screens';
import { useSession } from '../../../lib/auth-store';
import { PageLayout } from '../../../components/layout/app-layout';
import { ButtonLink } from '../../../components/ui/button';
import { Card, DetailList } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { useStudent } from '../api';
import { ResetPasswordAction, STUDENT_DETAILS, fullName, studentDetailValues } from '../components/details';
import { ExportButton, StudentListBody, useStudentList } from '../components/list-tools';

/** /student-data: the student list, each linking to /students/{admission_number} (paged). */
export function StudentDataPage() {
  const list = useStudentList();
  return (
    <PageLayout title="Student List" actions={<ExportButton path="/students/export/" filename="students.csv" query={list.exportQuery} />}>
      <StudentListBody list={list}>
        {(rows, pager) => (
          <>
            <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white" aria-label="Students">
              {rows.map((s) => (
                <li key={s.admission_number} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2.5">
                  <Link to={`/students/${encodeURIComponent(s.admission_number)}`} className="font-medium text-brand-900 hover:underline">
                    {fullName(s)}
                  </Link>
                  <span className="text-sm text-slate-600">
                    {s.student_class} · {s.admission_number}
                  </span>
                </li>
              ))}
            </ul>
            {pager}
          </>
        )}
      </StudentListBody>
    </PageLayout>
  );
}

/** /students/:admission_number: admission number, name, email, class name, with Back to List. */
export function StudentDetailPage() {
  const { admission_number: adm = '' } = useParams();
  const q = useStudent(adm.toUpperCase());
  const isAdmin = useSession()?.role === 'admin';
  return (
    <PageLayout title="Student Details" width="max-w-2xl">
      <Link to="/student-data" className="no-print mb-3 inline-block text-sm font-medium text-brand-800 hover:underline">
        ← Back to List
      </Link>
      <QueryView query={q} messages={{ notFound: PEOPLE_MESSAGES.studentNotFound, fallback: PEOPLE_MESSAGES.studentsFetchFailed }}>
        {(data) => (
          <div className="flex flex-col gap-4">
            <Card
              title={fullName(data)}
              actions={
                <>
                  <ButtonLink variant="secondary" to={`/UpdateStudentDetails?admission_number=${data.admission_number}`}>
                    Update
                  </ButtonLink>
                  {isAdmin && (
                    <ButtonLink variant="secondary" to={`/student-subjects?admission_number=${encodeURIComponent(data.admission_number)}`}>
                      Subjects
                    </ButtonLink>
                  )}
                  {isAdmin && (
                    <ButtonLink
                      variant="secondary"
                      to={`${SESSION_END_SCREENS.move.to}?admission_number=${encodeURIComponent(data.admission_number)}`}
                    >
                      {String(data.status) === 'graduated' ? PROMOTION_SCREEN_LABELS.transcript : SESSION_END_SCREENS.move.label}
                    </ButtonLink>
                  )}
                  <ButtonLink variant="secondary" to={`/DeleteStudent/${encodeURIComponent(data.admission_number)}`}>
                    Delete
                  </ButtonLink>
                </>
              }
            >
              <DetailList
                labels={STUDENT_DETAILS}
                values={studentDetailValues(data)}
                only={['admission_number', 'name', 'email', 'class_name']}
              />
            </Card>
            <ResetPasswordAction
              kind="student"
              publicId={data.admission_number}
              person={{ first_name: data.first_name, last_name: data.last_name, email: data.email, group: data.student_class }}
            />
            <div className="no-print">
              <ButtonLink to="/student-data" variant="secondary">
                Back to List
              </ButtonLink>
            </div>
          </div>
        )}
      </QueryView>
    </PageLayout>
  );
}
