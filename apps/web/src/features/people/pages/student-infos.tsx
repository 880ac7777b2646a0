import { useState } from 'react';
import { Link } from 'react-router';
import { PEOPLE_MESSAGES, type StudentRecord } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { ButtonLink } from '../../../components/ui/button';
import { Card, DetailRow } from '../../../components/ui/card';
import { useSession } from '../../../lib/auth-store';
import { useStudent } from '../api';
import { StudentDetailList, fullName } from '../components/details';
import { ExportButton, StudentListBody, useStudentList } from '../components/list-tools';
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
                  {students.map((s) => {
                    const open = expanded === s.admission_number;
                    const panel = `student-${s.admission_number}`;
                    return (
                      <li key={s.admission_number}>
                        <button
                          type="button"
                          className="flex min-h-12 w-full items-center justify-between gap-3 px-4 py-2 text-left hover:bg-brand-50"
                          aria-expanded={open}
                          aria-controls={panel}
                          onClick={() => setExpanded(open ? null : s.admission_number)}
                        >
                          <span className="font-medium text-slate-900">{fullName(s)}</span>
                          <span className="text-sm text-slate-600">{s.admission_number}</span>
                        </button>
                        {open && (
                          <div id={panel} className="bg-slate-50 px-4 pt-1 pb-3">
                            <dl>
                              <DetailRow label="Email" value={s.email} />
                              <DetailRow label="Date of birth" value={s.date_of_birth} />
                              <DetailRow label="Father's name" value={s.fathers_name} />
                              <DetailRow label="Mother's name" value={s.mothers_name} />
                              <DetailRow label="Home address" value={s.home_address} />
                            </dl>
                            <Link
                              to={`/students/${encodeURIComponent(s.admission_number)}`}
                              className="mt-2 inline-block text-sm font-medium text-brand-800 hover:underline"
                            >
                              Full record of {fullName(s)}
                            </Link>
                          </div>
                        )}
                      </li>
                    );
                  })}
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
