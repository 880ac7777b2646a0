import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PEOPLE_MESSAGES, STUDENT_PAGE_SIZE } from '@portal/domain/people-constants';
import { useSession } from '../../../lib/auth-store';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Card, DetailRow, EmptyState } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { LoadingBlock } from '../../../components/ui/spinner';
import { useStudent, useStudentPage } from '../api';
import { ResetPasswordAction, fullName } from '../components/details';
import { ExportButton, Pager, StudentFilters } from '../components/list-tools';
import { useDebounced } from '../../../lib/use-debounced';

/** /student-data: the student list, each linking to /students/{admission_number} (paged). */
export function StudentDataPage() {
  const [filters, setFilters] = useState({ q: '', studentClass: '' });
  const [offset, setOffset] = useState(0);
  const q = useDebounced(filters.q);
  const page = useStudentPage({ q: q || undefined, student_class: filters.studentClass || undefined, offset });
  return (
    <PageLayout
      title="Student List"
      actions={
        <ExportButton
          path="/students/export/"
          filename="students.csv"
          query={{ student_class: filters.studentClass || undefined, q: q || undefined }}
        />
      }
    >
      <StudentFilters
        q={filters.q}
        studentClass={filters.studentClass}
        onChange={(f) => {
          setFilters(f);
          setOffset(0);
        }}
      />
      {page.isPending ? (
        <LoadingBlock />
      ) : page.isError ? (
        <Alert tone="error">{PEOPLE_MESSAGES.studentsFetchFailed}</Alert>
      ) : page.data.results.length === 0 ? (
        <EmptyState>{PEOPLE_MESSAGES.noStudents}</EmptyState>
      ) : (
        <>
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white" aria-label="Students">
            {page.data.results.map((s) => (
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
          <Pager offset={offset} pageSize={STUDENT_PAGE_SIZE} total={page.data.count} onChange={setOffset} />
        </>
      )}
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
                  <ButtonLink variant="secondary" to={`/DeleteStudent/${encodeURIComponent(data.admission_number)}`}>
                    Delete
                  </ButtonLink>
                </>
              }
            >
              <dl>
                <DetailRow label="Admission number" value={data.admission_number} />
                <DetailRow label="Name" value={fullName(data)} />
                <DetailRow label="Email" value={data.email} />
                <DetailRow label="Class" value={data.class_name} />
              </dl>
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
