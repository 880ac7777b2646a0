import type { AttendanceStatus, Role } from '@portal/domain';
import type { DatedMark } from './attendance.repository';

/** Who asks: the register and its views check the role and, for staff, the arm's form teacher. */
export interface Actor {
  id: number;
  role: Role;
}

export const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const periodOrder = (p: string) => (p === 'afternoon' ? 1 : 0);

/** Each student's statuses by date, for the streak rule. */
export function marksByStudent(marks: readonly DatedMark[]): Map<number, Map<string, AttendanceStatus[]>> {
  const out = new Map<number, Map<string, AttendanceStatus[]>>();
  for (const m of marks) {
    let days = out.get(m.student_id);
    if (!days) out.set(m.student_id, (days = new Map()));
    days.set(m.date, [...(days.get(m.date) ?? []), m.status as AttendanceStatus]);
  }
  return out;
}
