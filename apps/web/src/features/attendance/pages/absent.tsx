import { ATTENDANCE_LABELS, ATTENDANCE_SCREENS, type AbsentToday } from '@portal/domain/attendance';
import { ATTENDANCE_STATUS_LABELS, PERIOD_LABELS, weekdayName } from '@portal/domain/attendance-rules';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { formatDate } from '../../../lib/datetime';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useAbsentToday } from '../api';
import { StreakFlag } from '../components/streak-flag';

function byArm(list: AbsentToday['absentees']): [string, AbsentToday['absentees']][] {
  const out = new Map<string, AbsentToday['absentees']>();
  for (const a of list) out.set(a.student_class, [...(out.get(a.student_class) ?? []), a]);
  return [...out];
}

function AbsentList({ data }: { data: AbsentToday }) {
  const twoPeriods = data.absentees.some((a) => a.period === 'afternoon');
  return (
    <div className="flex flex-col gap-4">
      <p className="font-medium">
        {weekdayName(data.date)} {formatDate(data.date)}
      </p>
      {!data.day.school_day && <Alert tone="warning">{data.day.message}</Alert>}
      <Card title={L.absentees}>
        {data.absentees.length === 0 ? (
          <p className="text-sm text-slate-700">{ATTENDANCE_LABELS.noAbsentees}</p>
        ) : (
          <div className="flex flex-col gap-4" data-testid="absentees">
            {byArm(data.absentees).map(([arm, list]) => (
              <section key={arm} aria-label={arm}>
                <h3 className="mb-1 text-base font-semibold">
                  {arm} <span className="text-sm font-normal text-slate-600">({list.length})</span>
                </h3>
                <ul className="divide-y divide-slate-100 text-sm">
                  {list.map((a) => (
                    <li
                      key={`${a.admission_number}-${a.period}`}
                      className={`flex flex-wrap items-center justify-between gap-2 px-1 py-1.5 ${a.flagged ? 'bg-red-50' : ''}`}
                      data-testid={`absent-${a.admission_number}`}
                    >
                      <span>
                        {a.name} <span className="text-xs text-slate-600">{a.admission_number}</span>
                        {a.flagged && (
                          <span className="block">
                            <StreakFlag days={a.streak} />
                          </span>
                        )}
                      </span>
                      <span className="font-medium">
                        {ATTENDANCE_STATUS_LABELS[a.status]}
                        {twoPeriods ? ` · ${PERIOD_LABELS[a.period]}` : ''}
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </Card>
      {data.day.school_day && (
        <Card title={L.notMarkedArms}>
          {data.arms_not_marked.length === 0 ? (
            <p className="text-sm text-slate-700">{ATTENDANCE_LABELS.allMarked}</p>
          ) : (
            <ul className="flex flex-wrap gap-2 text-sm" data-testid="arms-not-marked">
              {data.arms_not_marked.map((a) => (
                <li key={a} className="rounded-md bg-amber-100 px-2 py-1 font-medium text-amber-950">
                  {a}
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}
    </div>
  );
}

/** /attendance/absent (admin): who is absent across the school on a day, today unless another is picked. */
export default function AbsentTodayPage() {
  const [params, patch] = useSearchParamPatch();
  const date = params.get('date') ?? '';
  const query = useAbsentToday(date);
  return (
    <PageLayout title={ATTENDANCE_SCREENS.absent.title}>
      <Card className="mb-4">
        <TextField label={L.date} type="date" value={date || query.data?.date || ''} onChange={(e) => patch({ date: e.target.value })} />
      </Card>
      <QueryView query={query} messages={{ fallback: M.viewFailed, useDetail: true }}>
        {(data) => <AbsentList data={data} />}
      </QueryView>
    </PageLayout>
  );
}
