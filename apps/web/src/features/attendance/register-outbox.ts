import type { QueryClient } from '@tanstack/react-query';
import { PERIODS, type Period } from '@portal/domain/attendance-rules';
import type { Register, RegisterSave } from '@portal/domain/attendance';
import type { CurrentTerm } from '@portal/domain/current-term';
import { api } from '../../lib/api-client';
import { myClassesQuery } from '../../lib/my-classes';
import type { OutboxRecord } from '../../lib/offline';
import { sessionsQuery } from '../../lib/school-calendar';
import { calendarQuery, registerQuery, type RegisterQuery } from './api';
import { marksOf, type Marks } from './register-model';

/**
 * The register on the offline core (issue 35.2): its queued row is one register (key
 * `arm|date|period`, value the marks, base the stored version and marks), sent by `flushOutbox`
 * when no register is open (sign-out's "send first", signing in again after an expired session).
 */
export { REGISTER_KIND } from './register-kind';

export interface StoredRegister {
  version: number;
  marks: Marks;
}

export const registerKeyOf = (q: RegisterQuery) => `${q.student_class}|${q.date}|${q.period}`;

/** The register a queued row's key names (null: not a register's key). */
export function registerOfKey(key: string): RegisterQuery | null {
  const [student_class, date, period] = key.split('|');
  if (!student_class || !date || !(PERIODS as readonly string[]).includes(period ?? '')) return null;
  return { student_class, date, period: period as Period };
}

/** The save of a queued register (every student must be marked: the server says which are not). */
export function queuedSave(key: string, marks: Marks, base: StoredRegister): RegisterSave | null {
  const q = registerOfKey(key);
  if (!q) return null;
  return {
    ...q,
    marks: Object.entries(marks)
      .filter((e): e is [string, NonNullable<(typeof e)[1]>] => e[1] !== null)
      .map(([admission_number, status]) => ({ admission_number, status })),
    version: base.version,
  };
}

/** Sends a queued register with no register open; the answer goes in the query cache (the page then shows it). */
export async function sendQueuedRegister(rec: OutboxRecord, qc: QueryClient): Promise<StoredRegister> {
  const base = rec.base as StoredRegister;
  const body = queuedSave(rec.row, rec.value as Marks, base);
  if (!body) throw new Error(`Not a register: ${rec.row}`);
  const saved = await api.put<Register>('/attendance/register/', body, { timeout: 15_000 });
  qc.setQueryData(registerQuery({ student_class: saved.student_class, date: saved.date, period: saved.period }).queryKey, saved);
  return { version: saved.saved?.version ?? base.version, marks: marksOf(saved.rows) };
}

/**
 * Online, a form teacher's day is kept on this phone before it is needed: the sessions, the current
 * session's calendar, the arm list (their form classes) and today's register of each form class, so
 * the register opens offline in a classroom without signal though it was not opened today.
 */
export async function keepRegisterOffline(qc: QueryClient, current: CurrentTerm): Promise<void> {
  const sessions = await qc.fetchQuery(sessionsQuery);
  const session = sessions.find((s) => s.id === current.session_id) ?? sessions.find((s) => s.is_current);
  if (!session) return;
  const [mine] = await Promise.all([qc.fetchQuery(myClassesQuery(String(session.id))), qc.fetchQuery(calendarQuery(session.id))]);
  const arms = mine.form_classes.map((c) => c.class_name);
  const first = await Promise.all(arms.map((a) => qc.fetchQuery(registerQuery({ student_class: a, date: current.today, period: 'morning' }))));
  // Two registers a day: the afternoon's too.
  await Promise.all(
    first
      .filter((r) => r.periods_per_day === 2 && r.day.school_day)
      .map((r) => qc.fetchQuery(registerQuery({ student_class: r.student_class, date: r.date, period: 'afternoon' }))),
  );
}
