import { useState } from 'react';
import { PEOPLE_MESSAGES, type StudentRecord } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { ButtonLink } from '../../../components/ui/button';
import { Card, DetailList } from '../../../components/ui/card';
import { useSession } from '../../../lib/auth-store';
import { useStudent } from '../api';
import { STUDENT_DETAILS, StudentDetailList, fullName, studentDetailValues } from '../components/details';
import { DisclosureRow, ExportButton, StudentListBody, useStudentList } from '../components/list-tools';
import { QueryView } from '../../../components/ui/query-view';

/**
 * /StudentInfos. Staff and admin: Registered Students grouped by class, one expanded at a time
 * (paged, so it stays fast with thousands). A student: only their own profile (View My Profile).
 */
export default function StudentInfosPage() {
  const session = useSession();
  if (session?.role === 'student') return <MyProfile admissionNumber={session.publicId} />;
  return <RegisteredStudents />;
}

/** What a student's row shows when opened. */
const PANEL_DETAILS = ['email', 'date_of_birth', 'fathers_name', 'mothers_name', 'home_address'] as const;

function MyProfile({ admissionNumber }: { admissionNumber: string }) {
  const q = useStudent(admissionNumber);
  return (
    <PageLayout title="My Profile" width="max-w-2xl">
      <QueryView query={q} messages={PEOPLE_MESSAGES.studentsFetchFailed}>
        {(data) => (
          <Card title={fullName(data)}>
            <StudentDetailList s={data} />
          </Card>
        )}
      </QueryView>
    </PageLayout>
  );
}

function RegisteredStudents() {
  const list = useStudentList();
  const [expanded, setExpanded] = useState<string | null>(null);
  const page = list.page;

  const groups = new Map<string, StudentRecord[]>();
  for (const s of page.data?.results ?? []) {
    const inClass = groups.get(s.student_class) ?? [];
    inClass.push(s);
    groups.set(s.student_class, inClass);
  }

  return (
    <PageLayout
      title="Registered Students"
      actions={
        <>
          <ButtonLink to="/StudentReg" variant="secondary">
            Register Student
          </ButtonLink>
          <ButtonLink to="/import/students" variant="secondary">
            Import CSV
          </ButtonLink>
          <ExportButton path="/students/export/" filename="students.csv" query={list.exportQuery} />
        </>
      }
    >
      <StudentListBody list={list}>
        {(_rows, pager) => (
          <div className="flex flex-col gap-5" aria-busy={page.isFetching}>
            {[...groups.entries()].map(([cls, students]) => (
              <section key={cls} aria-labelledby={`class-${cls.replace(/\s/g, '')}`}>
                <h2 id={`class-${cls.replace(/\s/g, '')}`} className="mb-2">
                  {cls} <span className="text-sm font-normal text-slate-600">({students.length})</span>
                </h2>
                <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
                  {students.map((s) => (
                    <DisclosureRow
                      key={s.admission_number}
                      rowId={s.admission_number}
                      openRow={expanded}
                      onOpenRow={setExpanded}
                      panelId={`student-${s.admission_number}`}
                      title={fullName(s)}
                      aside={s.admission_number}
                      more={{ to: `/students/${encodeURIComponent(s.admission_number)}`, label: `Full record of ${fullName(s)}` }}
                    >
                      <DetailList labels={STUDENT_DETAILS} values={studentDetailValues(s)} only={PANEL_DETAILS} />
                    </DisclosureRow>
                  ))}
                </ul>
              </section>
            ))}
            {pager}
          </div>
        )}
      </StudentListBody>
    </PageLayout>
  );
}
