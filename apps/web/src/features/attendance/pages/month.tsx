import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ATTENDANCE_SCREENS, ATTENDANCE_LABELS, type MonthGrid } from '@portal/domain/attendance';
import {
  ATTENDANCE_STATUS_LABELS,
  ATTENDANCE_STATUS_LETTERS,
  ATTENDANCE_STATUSES,
  addDays,
  todayIn,
  weekdayName,
} from '@portal/domain/attendance-rules';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { DEFAULT_TIME_ZONE } from '@portal/domain/datetime';
import { REPORT_MESSAGES } from '@portal/domain/report-card-rules';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { ScrollTable } from '../../../components/ui/scroll-table';
import { useSchoolSettings } from '../../../lib/school-settings';
import { useCalendar, useMonthGrid, useSessionOfDates } from '../api';
import { ArmField } from '../components/arm-field';

/** A day's cell: the letters of its registers ('·' for a register without the student). */
function cellText(marks: readonly (string | null)[] | undefined): string {
  return (marks ?? []).map((s) => (s ? ATTENDANCE_STATUS_LETTERS[s as keyof typeof ATTENDANCE_STATUS_LETTERS] : '·')).join('');
}

function Grid({ grid, termQuery }: { grid: MonthGrid; termQuery: string }) {
  return (
    <>
      <p className="mb-2 text-xs text-slate-700">
        {ATTENDANCE_STATUSES.map((s) => `${ATTENDANCE_STATUS_LETTERS[s]} ${ATTENDANCE_STATUS_LABELS[s]}`).join(' · ')}
      </p>
      <ScrollTable
        label={`${grid.student_class}, ${grid.month}`}
        className="max-h-[75vh] overflow-auto rounded-lg border border-slate-200"
        tableClassName="border-collapse text-xs"
        testId="month-grid"
      >
        <thead className="sticky top-0 z-20 bg-slate-50">
          <tr>
            <th scope="col" className="sticky left-0 z-30 w-32 min-w-32 bg-slate-50 p-1.5 text-left">
              {L.student}
            </th>
            {grid.days.map((d) => (
              <th
                key={d.date}
                scope="col"
                title={d.note ?? undefined}
                className={`w-7 min-w-7 p-1 text-center font-medium ${d.school_day ? '' : 'bg-slate-200 text-slate-600'}`}
              >
                <abbr title={`${weekdayName(d.date)} ${d.date}${d.note ? `: ${d.note}` : ''}`} className="no-underline">
                  {Number(d.date.slice(8))}
                </abbr>
              </th>
            ))}
            {ATTENDANCE_STATUSES.map((s) => (
              <th key={s} scope="col" className="min-w-8 p-1 text-center">
                <abbr title={ATTENDANCE_STATUS_LABELS[s]}>{ATTENDANCE_STATUS_LETTERS[s]}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {grid.rows.map((r) => (
            <tr key={r.admission_number} className={r.flagged ? 'bg-red-50' : 'bg-white'} data-testid={`month-row-${r.admission_number}`}>
              <th
                scope="row"
                className={`sticky left-0 z-10 w-32 max-w-32 min-w-32 px-1.5 text-left font-medium [overflow-wrap:anywhere] ${r.flagged ? 'bg-red-50' : 'bg-white'}`}
              >
                {/* The whole cell's height is the tap target: 44 px, for a thumb. */}
                <Link
                  to={`/attendance/student?admission_number=${encodeURIComponent(r.admission_number)}${termQuery}`}
                  className="flex min-h-11 items-center text-brand-800 hover:underline"
                >
                  {r.name}
                </Link>
                {r.flagged && (
                  <span className="block text-[11px] font-semibold text-red-900">{ATTENDANCE_LABELS.streak(r.longest_streak)}</span>
                )}
              </th>
              {grid.days.map((d) => (
                <td
                  key={d.date}
                  title={d.note ?? undefined}
                  className={`p-1 text-center tabular-nums ${d.school_day ? '' : 'bg-slate-200 text-slate-600'}`}
                >
                  {cellText(r.marks[d.date])}
                </td>
              ))}
              {ATTENDANCE_STATUSES.map((s) => (
                <td key={s} className="p-1 text-center font-semibold tabular-nums">
                  {r.counts[s]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </>
  );
}

/** The first and last day of a YYYY-MM month. */
function monthDates(month: string): { from: string; to: string } {
  const from = `${month}-01`;
  return { from, to: addDays(`${addDays(from, 31).slice(0, 7)}-01`, -1) };
}

/** /attendance/month (form teacher, admin): an arm's month, one narrow column a day, scrolling sideways on a phone. */
export default function MonthPage() {
  const [params, setParams] = useSearchParams();
  const zone = useSchoolSettings().data?.time_zone ?? DEFAULT_TIME_ZONE;
  const cls = params.get('class') ?? '';
  const month = params.get('month') || todayIn(zone).slice(0, 7);
  const grid = useMonthGrid(cls, month);
  const set = useCallback(
    (k: string, v: string) =>
      setParams(
        (p) => {
          const out = new URLSearchParams(p);
          out.set(k, v);
          return out;
        },
        { replace: true },
      ),
    [setParams],
  );
  const onArm = useCallback((arm: string) => set('class', arm), [set]);
  // A name opens the student's term of this month, not the current one.
  const dates = monthDates(month);
  const sessionId = useSessionOfDates(dates.from, dates.to, true);
  const term = useCalendar(sessionId).data?.terms.find(
    (t) => t.starts_on && t.ends_on && t.starts_on <= dates.to && dates.from <= t.ends_on,
  );
  const termQuery = term ? `&session_id=${term.session_id}&term=${term.term}` : '';
  return (
    <PageLayout title={ATTENDANCE_SCREENS.month.title} width="max-w-6xl">
      <Card className="mb-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <ArmField value={cls} onChange={onArm} dates={dates} />
          <TextField label={L.month} type="month" value={month} onChange={(e) => e.target.value && set('month', e.target.value)} />
        </div>
      </Card>
      {cls && (
        <QueryView
          query={grid}
          messages={{ fallback: M.viewFailed, useDetail: true }}
          isEmpty={(g) => !g.rows.length}
          empty={REPORT_MESSAGES.noStudents}
        >
          {(g) => <Grid grid={g} termQuery={termQuery} />}
        </QueryView>
      )}
    </PageLayout>
  );
}
