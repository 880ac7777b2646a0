import { ABSENCE_STREAK_ALERT, countMarks, type AttendanceStatus, type MarkCounts } from '@portal/domain/attendance-rules';
import { type Register, type RegisterRow, type RegisterSave } from '@portal/domain/attendance';

/** The marks on screen, by admission number (null: not marked yet). */
export type Marks = Readonly<Record<string, AttendanceStatus | null>>;

export function marksOf(rows: readonly RegisterRow[]): Marks {
  return Object.fromEntries(rows.map((r) => [r.admission_number, r.status]));
}

/** "Mark all present": every student present, whatever was tapped before. */
export function markAllPresent(rows: readonly RegisterRow[]): Marks {
  return Object.fromEntries(rows.map((r) => [r.admission_number, 'present' as const]));
}

export function setMark(marks: Marks, admissionNumber: string, status: AttendanceStatus): Marks {
  return { ...marks, [admissionNumber]: status };
}

/** The running summary: counts of each status and how many are not marked yet. */
export function summaryOf(rows: readonly RegisterRow[], marks: Marks): { counts: MarkCounts; unmarked: number } {
  const statuses = rows.map((r) => marks[r.admission_number] ?? null);
  return {
    counts: countMarks(statuses.filter((s): s is AttendanceStatus => s !== null)),
    unmarked: statuses.filter((s) => s === null).length,
  };
}

export function unmarkedNames(rows: readonly RegisterRow[], marks: Marks): string[] {
  return rows.filter((r) => !marks[r.admission_number]).map((r) => r.name);
}

/** Marks that differ from the stored register (`stored`: its marks, by default as loaded): what would be lost on leaving. */
export function changedCount(rows: readonly RegisterRow[], marks: Marks, stored: Marks = marksOf(rows)): number {
  return rows.filter((r) => (marks[r.admission_number] ?? null) !== (stored[r.admission_number] ?? null)).length;
}

export function flagged(row: RegisterRow): boolean {
  return row.absent_before >= ABSENCE_STREAK_ALERT;
}

/**
 * The save request, made on the stored `version` (by default the one loaded), or the names still
 * unmarked (the server wants every student).
 */
export function saveRequest(
  reg: Register,
  marks: Marks,
  version = reg.saved?.version ?? 0,
): { body: RegisterSave } | { unmarked: string[] } {
  const unmarked = unmarkedNames(reg.rows, marks);
  if (unmarked.length) return { unmarked };
  return {
    body: {
      student_class: reg.student_class,
      date: reg.date,
      period: reg.period,
      marks: reg.rows.map((r) => ({ admission_number: r.admission_number, status: marks[r.admission_number]! })),
      version,
    },
  };
}
