import { TERMS, TERM_VALUES, termLabel, type Term } from '@portal/domain/constants';
import { ATTENDANCE_LABELS, type StudentAttendance } from '@portal/domain/attendance';
import { ATTENDANCE_STATUS_LABELS, PERIOD_LABELS, weekdayName } from '@portal/domain/attendance-rules';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { Card, DetailRow } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { querySection } from '../../../components/ui/query-view';
import { formatDate } from '../../../lib/datetime';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useStudentAttendance, type StudentQuery } from '../api';
import { StreakFlag } from './streak-flag';
import { SessionSelect } from '../../../components/school/session-select';

/** The session and term in the address; empty means the server's current term. */
export function useTermParams(): [StudentQuery, URLSearchParams, (next: Record<string, string>) => void] {
  const [params, set] = useSearchParamPatch();
  const sessionId = Number(params.get('session_id'));
  const term = params.get('term') ?? '';
  const q: StudentQuery = {
    ...(sessionId > 0 ? { session_id: sessionId } : {}),
    ...((TERM_VALUES as readonly string[]).includes(term) ? { term: term as Term } : {}),
  };
  return [q, params, set];
}

/** Session and term pickers showing what is open (the server's default until one is picked). */
export function TermPicker({
  shown,
  onChange,
}: {
  shown: { session_id?: number; term?: string };
  onChange: (next: Record<string, string>) => void;
}) {
  return (
    <>
      <SessionSelect
        label={L.session}
        value={shown.session_id ? String(shown.session_id) : ''}
        onChange={(e) => onChange({ session_id: e.target.value })}
      />
      <SelectField
        label={L.term}
        value={shown.term ?? ''}
        onChange={(e) => onChange({ term: e.target.value })}
        placeholder="Select term"
        options={TERMS}
      />
    </>
  );
}

/** A student's term: times opened, present and absent as the card counts them, the day's breakdown and the days missed. */
export function StudentAttendanceView({ data }: { data: StudentAttendance }) {
  const twoPeriods = data.days.some((d) => d.period === 'afternoon');
  return (
    <div className="flex flex-col gap-4" data-testid="student-attendance">
      <Card
        title={
          <>
            {data.name} <span className="text-sm font-normal text-slate-600">{data.admission_number}</span>
          </>
        }
      >
        <p className="mb-2 text-sm text-slate-700">
          {data.student_class} · {data.session_name} · {termLabel(data.term)}
        </p>
        {data.flagged && (
          <p className="mb-2">
            <StreakFlag days={data.current_streak} />
          </p>
        )}
        <dl>
          <DetailRow label={ATTENDANCE_LABELS.timesOpened} value={data.times_opened ?? '—'} />
          <DetailRow label={ATTENDANCE_LABELS.present} value={<span data-testid="times-present">{data.present}</span>} />
          <DetailRow label={ATTENDANCE_LABELS.absent} value={<span data-testid="times-absent">{data.absent}</span>} />
          <DetailRow label={L.late} value={data.counts.late} />
          <DetailRow label={L.excused} value={data.counts.excused} />
          {data.carried && (
            <DetailRow
              label={ATTENDANCE_LABELS.carried}
              value={`${data.carried.present} ${ATTENDANCE_STATUS_LABELS.present.toLowerCase()} · ${data.carried.absent} ${ATTENDANCE_STATUS_LABELS.absent.toLowerCase()}`}
            />
          )}
        </dl>
      </Card>
      <Card title={L.daysNotPresent}>
        {data.days.length === 0 ? (
          <p className="text-sm text-slate-700">{L.noDaysMissed}</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm" aria-label={L.daysNotPresent} data-testid="days-not-present">
            {data.days.map((d) => (
              <li key={`${d.date}-${d.period}`} className="flex flex-wrap justify-between gap-2 py-1.5">
                <span>
                  {weekdayName(d.date)} {formatDate(d.date)}
                  {twoPeriods ? ` · ${PERIOD_LABELS[d.period]}` : ''}
                </span>
                <span className="font-medium">{ATTENDANCE_STATUS_LABELS[d.status]}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

/** The fetch and the view, with the screen's error words. */
export const StudentAttendanceSection = querySection(useStudentAttendance, StudentAttendanceView, M.viewFailed);
