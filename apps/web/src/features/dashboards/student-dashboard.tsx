import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { termLabel } from '@portal/domain/constants';
import { STUDENT_DASHBOARD_TEXT as T, type StudentDashboard as Dashboard } from '@portal/domain/dashboard-student';
import { formatNaira } from '@portal/domain/money';
import { FigureList } from '../../components/ui/figure-list';
import { QueryView } from '../../components/ui/query-view';
import { api } from '../../lib/api-client';
import type { DashboardProps } from '../../lib/dashboard-slot';
import { childPath } from '../../lib/parent-child';
import { StudentCharts } from './student-charts';

const LINK = 'font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900';

export const studentDashboardKey = (child: string | null) => ['dashboard-student', child ?? 'own'] as const;

/** GET /api/dashboards/student/: the signed-in student's own, or a parent's child (`child`). */
export function useStudentDashboard(child: string | null) {
  return useQuery({
    queryKey: studentDashboardKey(child),
    queryFn: () => api.get<Dashboard>('/dashboards/student/', { query: child ? { student: child } : {}, timeout: 15_000 }),
  });
}

/**
 * The student's term at a glance (issue 36 item 4), on the student's home and, for each child, on
 * the parent's home: average and position term by term (a line), this term's subjects against the
 * class average (bars), attendance this term and the fee balance. Each chart has its numbers in a
 * table one tap away; every figure links to the screen it comes from.
 */
export default function StudentDashboard({ child = null, name }: DashboardProps) {
  const query = useStudentDashboard(child);
  const to = (path: string) => (child ? childPath(path, child) : path);
  const title = name ? T.childTitle(name) : T.title;
  return (
    <section aria-label={title} data-testid="student-dashboard" data-child={child ?? undefined} className="flex min-w-0 flex-col gap-4">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <QueryView query={query} messages={{ fallback: 'The dashboard could not be loaded.', useDetail: true }}>
        {(d) => (
          <>
            {d.student.status === 'graduated' && <p className="text-sm text-slate-700">{T.graduated}</p>}
            {d.withheld.length > 0 && (
              <p
                className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
                data-testid="dashboard-withheld"
              >
                {T.withheld(d.withheld.length)}{' '}
                <Link className={LINK} to={to('/PaymentForm')}>
                  Pay now
                </Link>
              </p>
            )}
            <StudentCharts d={d} cardLink={to('/report-card')} />
            <div className="grid min-w-0 gap-4 sm:grid-cols-2">
              <Attendance d={d} link={to('/my-attendance')} />
              <Fees d={d} statement={to('/my-statement')} pay={to('/PaymentForm')} />
            </div>
          </>
        )}
      </QueryView>
    </section>
  );
}

function Attendance({ d, link }: { d: Dashboard; link: string }) {
  const a = d.attendance;
  const heading = d.term ? `${T.attendanceTitle} (${termLabel(d.term)})` : T.attendanceTitle;
  return (
    <section aria-label={T.attendanceTitle} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="dashboard-attendance">
      <h3 className="mb-2 text-base font-semibold text-slate-900">{heading}</h3>
      {!a ? (
        <p className="text-sm text-slate-600">{T.attendanceNone}</p>
      ) : (
        <FigureList
          className="mb-2 grid grid-cols-2 gap-2 text-sm"
          figures={[
            { label: 'Present', value: a.present, testId: 'dash-present' },
            { label: 'Late', value: a.late, testId: 'dash-late' },
            { label: 'Absent', value: a.absent, testId: 'dash-absent' },
            { label: 'Attended', value: a.percent === null ? '—' : `${a.percent.toFixed(1)}%`, testId: 'dash-percent' },
          ]}
        />
      )}
      <Link className={`${LINK} text-sm`} to={link}>
        Attendance details
      </Link>
    </section>
  );
}

function Fees({ d, statement, pay }: { d: Dashboard; statement: string; pay: string }) {
  const f = d.fees;
  return (
    <section aria-label={T.feesTitle} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="dashboard-fees">
      <h3 className="mb-2 text-base font-semibold text-slate-900">{f ? `${T.feesTitle}, ${f.session}` : T.feesTitle}</h3>
      {!f ? (
        <p className="text-sm text-slate-600">No fees this session.</p>
      ) : (
        <FigureList
          className="mb-2 grid grid-cols-2 gap-2 text-sm"
          figures={[
            {
              label: f.balance < 0 ? 'In credit' : 'Balance owed',
              value: formatNaira(Math.abs(f.balance)),
              testId: 'dash-balance',
            },
            f.brought_forward !== 0 && { label: 'From last session', value: formatNaira(f.brought_forward) },
          ]}
        />
      )}
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <Link className={LINK} to={statement}>
          Statement
        </Link>
        <Link className={LINK} to={pay}>
          Pay fees
        </Link>
      </div>
    </section>
  );
}
