import type { Conn } from '../../db/index';
import { recordNoticeEvent } from '../../db/notice-outbox';

/** Absent school days in a row that make a streak parents are told of (decision record 037). */
export const ABSENCE_STREAK_DAYS = 3;

/**
 * The parents' absence notices of one register save (decision record 037), recorded in its
 * transaction and only for today's register: "absent today" for each student marked absent, and
 * "absent N days in a row" for one whose absence today makes the streak exactly `ABSENCE_STREAK_DAYS`.
 * Keyed per student per day: a register saved again, or its afternoon period, tells nobody twice.
 */
export async function recordAbsenceNotices(
  conn: Conn,
  v: { date: string; student_class: string; absent: readonly { student_id: number; absent_before: number }[] },
): Promise<void> {
  for (const s of v.absent) {
    await recordNoticeEvent(conn, {
      kind: 'absent_today',
      key: `absent_today:${s.student_id}:${v.date}`,
      payload: { student_id: s.student_id, student_class: v.student_class, date: v.date },
    });
    if (s.absent_before + 1 === ABSENCE_STREAK_DAYS)
      await recordNoticeEvent(conn, {
        kind: 'absent_streak',
        key: `absent_streak:${s.student_id}:${v.date}`,
        payload: { student_id: s.student_id, student_class: v.student_class, date: v.date, days: ABSENCE_STREAK_DAYS },
      });
  }
}
