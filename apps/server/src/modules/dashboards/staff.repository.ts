import { sql, type SqlBool } from 'kysely';
import type { Conn, DB } from '../../db/index';

/**
 * The staff dashboard's reads across the tables of people and results (issue 36): a teacher's arms'
 * rosters and their scores of one term, each one statement whatever the school's size (bounded by the
 * teacher's own arms, never the whole school).
 */
export class StaffDashboardRepository {
  constructor(private readonly db: DB) {}

  /**
   * The students each arm's score sheet lists in a session (as the sheet reads them, decision 038): a
   * closed session's enrolment rows of the arm; while the session is live (no enrolment rows yet), the
   * arm's active students. One statement.
   */
  roster(sessionId: number, arms: readonly string[], conn: Conn = this.db): Promise<{ id: number; student_class: string }[]> {
    if (!arms.length) return Promise.resolve([]);
    const enrolled = conn
      .selectFrom('student_enrolments as se')
      .select(['se.student_id as id', 'se.student_class'])
      .where('se.session_id', '=', sessionId)
      .where('se.student_class', 'in', [...arms]);
    return conn
      .selectFrom('students as s')
      .select(['s.id', 's.student_class'])
      .where('s.status', '=', 'active')
      .where('s.student_class', 'in', [...arms])
      .where(sql<SqlBool>`not exists (select 1 from student_enrolments sx where sx.session_id = ${sessionId})`)
      .union(enrolled)
      .execute();
  }

  /** The stored scores of a term in the arms and subjects named (the teacher's sheets): one statement on the (session, term, class) index. */
  scores(
    sessionId: number,
    term: string,
    arms: readonly string[],
    subjects: readonly string[],
    conn: Conn = this.db,
  ): Promise<{ student_id: number; student_class: string; subject: string; score: number | string }[]> {
    if (!arms.length || !subjects.length) return Promise.resolve([]);
    return conn
      .selectFrom('results')
      .select(['student_id', 'student_class', 'subject', 'score'])
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .where('student_class', 'in', [...arms])
      .where('subject', 'in', [...subjects])
      .execute();
  }
}
