import { ATTENDANCE_LABELS } from '@portal/domain/attendance';

/** The "absent n school days in a row" flag: a badge seen at a glance, its words read out. */
export function StreakFlag({ days }: { days: number }) {
  return (
    <span className="mt-0.5 inline-block rounded-md bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900" data-testid="streak-flag">
      {ATTENDANCE_LABELS.streak(days)}
    </span>
  );
}
