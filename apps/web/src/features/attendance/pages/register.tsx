import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { AUTOSAVE_MESSAGES } from '@portal/domain/autosave-screens';
import {
  ATTENDANCE_CODES,
  ATTENDANCE_MESSAGES,
  ATTENDANCE_STATUSES,
  ATTENDANCE_STATUS_LABELS,
  ATTENDANCE_STATUS_LETTERS,
  PERIODS,
  PERIOD_LABELS,
  todayIn,
  weekdayName,
  type AttendanceStatus,
  type Period,
} from '@portal/domain/attendance-rules';
import { ATTENDANCE_LABELS, ATTENDANCE_SCREENS, type Register, type RegisterRow } from '@portal/domain/attendance';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { DEFAULT_TIME_ZONE } from '@portal/domain/datetime';
import { REPORT_MESSAGES } from '@portal/domain/report-card-rules';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { LeaveGuard } from '../../../components/ui/leave-guard';
import { SelectField, TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { UNSAVED_STATUSES } from '../../../lib/autosave/row-outbox';
import { saveFailure } from '../../../lib/autosave/save-failure';
import { useAutosaveRows } from '../../../lib/autosave/use-autosave-rows';
import { useSession } from '../../../lib/auth-store';
import { OfflineBanner, usePersistentRows, type OfflineScope } from '../../../lib/offline';
import { keptAt, unreachable } from '../../../lib/offline-query';
import { OFFLINE_SAFETY_MESSAGES } from '@portal/domain/offline-safety-screens';
import { useOfflineScope } from '../../../lib/offline-session';
import { formatDate, formatDateTime } from '../../../lib/datetime';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useSchoolSettings } from '../../../lib/school-settings';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useToast } from '../../../lib/toast';
import { useRegister, useSaveRegister, type RegisterQuery } from '../api';
import { ArmField } from '../components/arm-field';
import { REGISTER_KIND, registerKeyOf, type StoredRegister } from '../register-outbox';
import { StreakFlag } from '../components/streak-flag';
import {
  changedCount,
  flagged,
  marksOf,
  markAllPresent,
  saveRequest,
  setMark,
  summaryOf,
  unmarkedNames,
  type Marks,
} from '../register-model';

const STATUS_STYLE: Record<AttendanceStatus, string> = {
  present: 'border-brand-700 bg-brand-700 text-white',
  late: 'border-amber-600 bg-amber-500 text-slate-950',
  absent: 'border-red-700 bg-red-700 text-white',
  excused: 'border-sky-700 bg-sky-700 text-white',
};

/** One student: name, the streak flag, and four big tap targets. */
function StudentRow({
  row,
  status,
  disabled,
  onMark,
}: {
  row: RegisterRow;
  status: AttendanceStatus | null;
  disabled: boolean;
  onMark: (adm: string, s: AttendanceStatus) => void;
}) {
  return (
    <li
      className={`flex flex-wrap items-center justify-between gap-2 rounded-xl border bg-white p-2.5 shadow-sm ${
        status ? 'border-slate-200' : 'border-l-4 border-amber-500'
      }`}
      data-testid={`register-row-${row.admission_number}`}
    >
      <div className="min-w-[8rem] flex-1 [overflow-wrap:anywhere]">
        <p className="font-medium text-slate-900">{row.name}</p>
        {!status && <p className="text-xs font-medium text-amber-800">{ATTENDANCE_LABELS.notMarked}</p>}
        {flagged(row) && <StreakFlag days={row.absent_before} />}
      </div>
      <div role="group" aria-label={row.name} className="flex shrink-0 gap-1.5">
        {ATTENDANCE_STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={status === s}
            // Named with the student: a screen reader's list of buttons says whose mark each one is.
            aria-label={`${ATTENDANCE_STATUS_LABELS[s]}: ${row.name}`}
            title={ATTENDANCE_STATUS_LABELS[s]}
            disabled={disabled}
            onClick={() => onMark(row.admission_number, s)}
            className={`h-12 w-12 rounded-lg border-2 text-lg font-bold transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${
              status === s ? STATUS_STYLE[s] : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100'
            }`}
          >
            {ATTENDANCE_STATUS_LETTERS[s]}
          </button>
        ))}
      </div>
    </li>
  );
}

/**
 * The marks of one opened register, kept on screen until saved. The register is one row of the
 * autosave outbox (lib/autosave): sent when the teacher presses Save (or leaves with every student
 * marked), and a failed save is sent again on its own (backoff, and at once back online) with the
 * latest marks; a 409 offers Reload.
 */
function RegisterSheet({
  reg,
  fetchedAt,
  scope,
  onReload,
}: {
  reg: Register;
  /** When the register was read from the server. */
  fetchedAt: number;
  scope: OfflineScope | null;
  onReload: () => void;
}) {
  const toast = useToast();
  const save = useSaveRegister();
  const [unmarked, setUnmarked] = useState<string[] | null>(null);
  const editable = reg.may_edit;
  const key = registerKeyOf(reg);
  const loaded = useMemo(() => {
    const marks = marksOf(reg.rows);
    return [{ key, value: marks, base: { version: reg.saved?.version ?? 0, marks } }];
  }, [reg, key]);
  // The register's row kept on this phone (the offline core): marked offline, it survives a reload
  // and is sent once when the network is back, by this page or by the core's flush.
  const kept = usePersistentRows<Marks, StoredRegister>({
    scope,
    kind: REGISTER_KIND,
    sheet: key,
    send: async (_key, marks, base) => {
      const req = saveRequest(reg, marks, base.version);
      if ('unmarked' in req) throw new Error('unmarked');
      const saved = await save.mutateAsync(req.body);
      return { version: saved.saved?.version ?? base.version, marks: marksOf(saved.rows) };
    },
  });
  const outbox = useAutosaveRows<Marks, StoredRegister>({
    rows: loaded,
    store: kept.store,
    restore: kept.restore,
    debounceMs: null,
    rules: {
      valid: (marks) => editable && unmarkedNames(reg.rows, marks).length === 0,
      unchanged: (marks, base) => changedCount(reg.rows, marks, base.marks) === 0,
      stored: (base) => base.version > 0,
      version: (base) => base.version,
      failure: (err) => {
        const f = saveFailure<StoredRegister>(err, { conflictCode: ATTENDANCE_CODES.changed, fallback: M.saveFailed });
        if (f.kind === 'conflict') return { ...f, message: ATTENDANCE_MESSAGES.changedByOther };
        if (f.kind === 'refused') {
          const fields = Object.values(fieldErrorsOf(err)).flat();
          return {
            kind: 'refused',
            message: fields.length ? fields.join('\n') : errorMessage(err, { fallback: M.saveFailed, useDetail: true }),
          };
        }
        return f;
      },
      // Reloading after a conflict shows the register as stored now.
      reloaded: (_row, stored, marks) => ({ value: marks, base: stored, queue: false }),
    },
    send: kept.send,
    onSaved: () => toast.success(M.registerSaved),
  });
  const row = outbox.rows[key];
  const marks = row?.value ?? loaded[0]!.value;
  const summary = summaryOf(reg.rows, marks);
  const { edit, saveNow } = outbox;
  // A new mark makes the unmarked list stale.
  const onMark = useCallback(
    (adm: string, s: AttendanceStatus) => {
      edit(key, (m) => setMark(m, adm, s));
      setUnmarked(null);
    },
    [edit, key],
  );

  const submit = () => {
    const left = unmarkedNames(reg.rows, marks);
    if (left.length) {
      // The count is in the summary just above: the names only, so the sticky bar stays small.
      setUnmarked(left);
      // On a phone the first one left is likely off screen: bring it up, above the Save bar.
      const first = reg.rows.find((r) => !marks[r.admission_number]);
      const button = first && document.querySelector<HTMLElement>(`[data-testid="register-row-${first.admission_number}"] button`);
      button?.scrollIntoView({ block: 'center' });
      button?.focus({ preventScroll: true });
      return;
    }
    setUnmarked(null);
    // Nothing changed since the last save: it is stored as it stands.
    if (row && !UNSAVED_STATUSES.has(row.status)) toast.success(M.registerSaved);
    else saveNow(key);
  };
  const failed = row && (row.status === 'failed' || row.status === 'conflict') ? row : null;

  return (
    <>
      {editable && <LeaveGuard {...outbox.guard} notSaved={() => M.leaveUnsaved} />}
      {/* Offline (or shown from the copy kept on this phone): since when, and the data's time. */}
      {editable ? (
        <OfflineBanner fetchedAt={keptAt(reg) ?? fetchedAt} fromCopy={keptAt(reg) !== null} entries />
      ) : (
        <OfflineBanner fetchedAt={keptAt(reg) ?? fetchedAt} fromCopy={keptAt(reg) !== null} />
      )}
      {reg.saved && (
        <p className="mb-2 text-sm text-slate-700" data-testid="register-saved">
          {ATTENDANCE_LABELS.saved(formatDateTime(reg.saved.updated_at), reg.saved.updated_by)}
        </p>
      )}
      {!editable && reg.refusal && (
        <Alert tone="warning" className="mb-3">
          {reg.refusal}
        </Alert>
      )}
      {editable && (
        <div className="mb-3">
          <Button
            variant="secondary"
            className="w-full sm:w-auto"
            onClick={() => {
              edit(key, () => markAllPresent(reg.rows));
              setUnmarked(null);
            }}
          >
            {ATTENDANCE_LABELS.markAllPresent}
          </Button>
        </div>
      )}
      <ul className="flex flex-col gap-2" aria-label={`${L.arm}: ${reg.student_class}`} data-testid="register-list">
        {reg.rows.map((r) => (
          <StudentRow key={r.admission_number} row={r} status={marks[r.admission_number] ?? null} disabled={!editable} onMark={onMark} />
        ))}
      </ul>
      <div className="sticky bottom-0 z-10 -mx-4 mt-4 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-2px_6px_rgba(0,0,0,0.06)] backdrop-blur">
        <p className="mb-2 text-sm text-slate-800" role="status" aria-live="polite" data-testid="register-summary">
          {ATTENDANCE_LABELS.summary(summary.counts)}
          {summary.unmarked > 0 && <span className="font-semibold text-amber-800"> · {ATTENDANCE_LABELS.unmarked(summary.unmarked)}</span>}
        </p>
        {unmarked && (
          <Alert tone="error" className="mb-2">
            {M.notMarked(unmarked)}
          </Alert>
        )}
        {failed && (
          <Alert tone="error" className="mb-2">
            {failed.message}
            {failed.status === 'failed' && failed.autoRetry && <span className="mt-1 block">{AUTOSAVE_MESSAGES.autoRetry}</span>}
            {failed.status === 'conflict' && (
              <span className="mt-2 block">
                <Button variant="secondary" onClick={onReload}>
                  {L.reload}
                </Button>
              </span>
            )}
          </Alert>
        )}
        {editable && (
          <Button className="w-full sm:w-auto" loading={row?.status === 'saving'} onClick={submit}>
            {ATTENDANCE_LABELS.save}
          </Button>
        )}
      </div>
    </>
  );
}

/** /attendance (form teacher of the arm, admin): the day's register of an arm, made for one thumb on a phone. */
export default function RegisterPage() {
  const [params, set] = useSearchParamPatch();
  const zone = useSchoolSettings().data?.time_zone ?? DEFAULT_TIME_ZONE;
  const cls = params.get('class') ?? '';
  const datePicked = params.get('date') ?? '';
  const date = datePicked || todayIn(zone);
  const period = (PERIODS as readonly string[]).includes(params.get('period') ?? '') ? (params.get('period') as Period) : 'morning';
  const q = useMemo<RegisterQuery | null>(() => (cls && date ? { student_class: cls, date, period } : null), [cls, date, period]);
  const register = useRegister(q);
  const reg = register.data;
  const scope = useOfflineScope(useSession());
  // The server's today wins over the browser's clock when the teacher has not picked a date.
  useEffect(() => {
    if (!datePicked && reg && reg.today !== date) set({ date: reg.today });
  }, [datePicked, reg, date, set]);
  const loadError = register.error;
  const fieldErrors = fieldErrorsOf(loadError);
  const onArm = useCallback((arm: string) => set({ class: arm }), [set]);
  // Registers a day, kept from the last register read: the period picker stays while the other period loads.
  const [periodsPerDay, setPeriodsPerDay] = useState<1 | 2 | null>(null);
  if (reg && reg.periods_per_day !== periodsPerDay) setPeriodsPerDay(reg.periods_per_day);

  return (
    <PageLayout title={ATTENDANCE_SCREENS.register.title}>
      <Card className="mb-4">
        <div className="grid gap-3 sm:grid-cols-3">
          <ArmField value={cls} onChange={onArm} dates={{ from: date, to: date }} error={fieldErrors.student_class} />
          <TextField
            label={L.date}
            type="date"
            value={date}
            max={reg?.today}
            onChange={(e) => set({ date: e.target.value })}
            error={fieldErrors.date}
          />
          {periodsPerDay === 2 && (
            <SelectField
              label={L.period}
              value={period}
              onChange={(e) => set({ period: e.target.value })}
              options={PERIODS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))}
            />
          )}
        </div>
      </Card>
      {!q ? null : register.isPending ? (
        <LoadingBlock />
      ) : loadError || !reg ? (
        Object.keys(fieldErrors).length ? null : (
          <Alert tone={unreachable(loadError) ? 'warning' : 'error'}>
            {unreachable(loadError) ? OFFLINE_SAFETY_MESSAGES.noSavedCopy : errorMessage(loadError, { fallback: M.loadFailed, useDetail: true })}
          </Alert>
        )
      ) : !reg.day.school_day ? (
        <Alert tone="warning">
          <span className="text-base font-semibold" data-testid="not-school-day">
            {reg.day.message}
          </span>
        </Alert>
      ) : !reg.rows.length ? (
        <EmptyState>{REPORT_MESSAGES.noStudents}</EmptyState>
      ) : (
        <>
          <p className="mb-2 font-medium">
            {reg.student_class} · {weekdayName(reg.date)} {formatDate(reg.date)}
            {reg.periods_per_day === 2 ? ` · ${PERIOD_LABELS[reg.period]}` : ''}
          </p>
          <RegisterSheet
            // Not keyed by version: a save (or a reload after a conflict) updates the outbox's row in place.
            key={`${reg.student_class}|${reg.date}|${reg.period}`}
            reg={reg}
            fetchedAt={register.dataUpdatedAt}
            scope={scope}
            onReload={() => void register.refetch()}
          />
        </>
      )}
      {reg && reg.unmarked_days.length > 0 && (
        // The term's past school days nobody marked: each opens that day's register.
        <Card className="mt-4" title={ATTENDANCE_LABELS.unmarkedDaysTitle(reg.unmarked_days.length)}>
          <ul className="flex flex-wrap gap-2" data-testid="unmarked-days">
            {reg.unmarked_days.map((d) => (
              <li key={d}>
                <Link
                  to={`/attendance?${new URLSearchParams({ class: reg.student_class, date: d }).toString()}`}
                  className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-2 text-sm text-brand-800 hover:underline"
                >
                  {weekdayName(d)} {formatDate(d)}
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </PageLayout>
  );
}
