import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Conn } from './schema';

/**
 * Class history per session (decision record 038), as SQL every module's reader can use without
 * importing people's code. A session **with** `student_enrolments` rows is closed: its rosters and
 * each student's arm in it come from those rows only. A session **without** rows is live: arms come
 * from `students.student_class`. Readers of a past session use these so that promotion never
 * rewrites history; each is set-based (one join or one correlated lookup on the unique
 * (student_id, session_id) key), never a query per student.
 */

/** Whether the session is closed (has enrolment rows). One indexed probe. */
export async function sessionIsClosed(conn: Conn, sessionId: number): Promise<boolean> {
  const row = await conn.selectFrom('student_enrolments').select('id').where('session_id', '=', sessionId).limit(1).executeTakeFirst();
  return !!row;
}

/**
 * The student's arm in `sessionId` (SQL): the enrolment row's arm when there is one, today's arm
 * otherwise. `studentId` and `currentArm` are the reader's columns (e.g. `s.id`, `s.student_class`).
 */
export function armInSessionSql(sessionId: number | Expression<number>, studentId: string, currentArm: string): RawBuilder<string> {
  return sql<string>`coalesce((select se.student_class from student_enrolments se where se.student_id = ${sql.ref(studentId)} and se.session_id = ${sessionId}), ${sql.ref(currentArm)})`;
}

/** The student's stream in `sessionId` (SQL), as `armInSessionSql`. */
export function streamInSessionSql(sessionId: number, studentId: string, currentStream: string): RawBuilder<number | null> {
  return sql<
    number | null
  >`coalesce((select se.stream_id from student_enrolments se where se.student_id = ${sql.ref(studentId)} and se.session_id = ${sessionId}), ${sql.ref(currentStream)})`;
}

/**
 * A roster's filter for the students of `arm` in a session, given whether it is closed: a closed
 * session's roster is its enrolment rows of the arm (whatever the students' status today: a graduate
 * stays on their last arm's past roster); a live session's is today's active students of the arm.
 * `studentId`, `currentArm` and `status` are the reader's columns.
 */
export function inArmOfSession(
  session: { id: number; closed: boolean },
  arm: string | readonly string[],
  cols: { studentId: string; currentArm: string; status: string },
): RawBuilder<SqlBool> {
  const arms = typeof arm === 'string' ? [arm] : [...arm];
  if (!arms.length) return sql<SqlBool>`1 = 0`;
  if (session.closed) {
    return sql<SqlBool>`exists (select 1 from student_enrolments se where se.student_id = ${sql.ref(cols.studentId)} and se.session_id = ${session.id} and se.student_class in (${sql.join(arms)}))`;
  }
  return sql<SqlBool>`(${sql.ref(cols.status)} = 'active' and ${sql.ref(cols.currentArm)} in (${sql.join(arms)}))`;
}

/**
 * Whether the student belongs to a session at all (SQL): in a closed session, only students with an
 * enrolment row; in a live one, today's active students. A student admitted after a session closed
 * is not on its lists.
 */
export function enrolledInSession(
  session: { id: number; closed: boolean },
  cols: { studentId: string; status: string },
): RawBuilder<SqlBool> {
  if (session.closed) {
    return sql<SqlBool>`exists (select 1 from student_enrolments se where se.student_id = ${sql.ref(cols.studentId)} and se.session_id = ${session.id})`;
  }
  return sql<SqlBool>`${sql.ref(cols.status)} = 'active'`;
}
