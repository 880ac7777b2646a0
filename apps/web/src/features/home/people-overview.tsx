import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PEOPLE_MESSAGES } from '@portal/domain/people-constants';
import { api } from '../../lib/api-client';
import { Card } from '../../components/ui/card';
import { QueryView } from '../../components/ui/query-view';

interface StaffRow {
  staff_id: string;
  first_name: string;
  last_name: string;
  designation: string;
}
interface StudentRow {
  admission_number: string;
  first_name: string;
  last_name: string;
  student_class: string;
}

/** The admin home's combined overview: staff and students side by side (menu hidden). */
export function PeopleOverview() {
  const staff = useQuery({ queryKey: ['staff', 'list'], queryFn: () => api.get<StaffRow[]>('/staff/list/', { timeout: 10_000 }) });
  // The first page only, with the total: a school of thousands stays fast on a phone.
  const students = useQuery({
    queryKey: ['students', 'overview'],
    queryFn: () => api.get<{ count: number; results: StudentRow[] }>('/students/search/', { query: { limit: 200 }, timeout: 10_000 }),
  });
  return (
    <div className="grid gap-5 lg:grid-cols-2" data-testid="people-overview">
      <Card title={`Staff${staff.data ? ` (${staff.data.length})` : ''}`}>
        <QueryView query={staff} messages={PEOPLE_MESSAGES.staffListFailed} empty={PEOPLE_MESSAGES.noStaff}>
          {(data) => (
            <ul className="max-h-[32rem] divide-y divide-slate-100 overflow-auto" aria-label="Staff list">
              {data.map((s) => (
                <li key={s.staff_id} className="flex items-center justify-between gap-2 py-2 text-sm">
                  <Link to={`/staff/${s.staff_id}`} className="font-medium text-brand-900 hover:underline">
                    {s.first_name} {s.last_name}
                  </Link>
                  <span className="text-slate-600">{s.designation || s.staff_id}</span>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </Card>
      <Card title={`Students${students.data ? ` (${students.data.count.toLocaleString('en-NG')})` : ''}`}>
        <QueryView
          query={students}
          messages={PEOPLE_MESSAGES.studentsFetchFailed}
          empty={PEOPLE_MESSAGES.noStudents}
          isEmpty={(data) => data.results.length === 0}
        >
          {(data) => (
            <>
              <ul className="max-h-[32rem] divide-y divide-slate-100 overflow-auto" aria-label="Student list">
                {data.results.map((s) => (
                  <li key={s.admission_number} className="flex items-center justify-between gap-2 py-2 text-sm">
                    <Link to={`/students/${encodeURIComponent(s.admission_number)}`} className="font-medium text-brand-900 hover:underline">
                      {s.first_name} {s.last_name}
                    </Link>
                    <span className="text-slate-600">
                      {s.student_class} · {s.admission_number}
                    </span>
                  </li>
                ))}
              </ul>
              {data.count > data.results.length && (
                <Link to="/student-data" className="mt-3 inline-block text-sm font-medium text-brand-800 hover:underline">
                  View all {data.count.toLocaleString('en-NG')} students
                </Link>
              )}
            </>
          )}
        </QueryView>
      </Card>
    </div>
  );
}
