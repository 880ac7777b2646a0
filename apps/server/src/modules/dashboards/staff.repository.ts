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

  /**
   * The scores of a term in the arms and subjects named (the teacher's sheets), counted per arm and
   * subject: how many, their sum (the sheet's average), and how many belong to the sheet's roster (the
   * arm's students as `roster` reads them; the rest are students who left the arm). One grouped
   * statement on the (session, term, class) covering index.
   */
  scoreCounts(
    sessionId: number,
    term: string,
    arms: readonly string[],
    subjects: readonly string[],
    conn: Conn = this.db,
  ): Promise<
    { student_class: string; subject: string; entered: number | string; total: number | string | null; in_roster: number | string | null }[]
  > {
    if (!arms.length || !subjects.length) return Promise.resolve([]);
    const inRoster = sql<number>`case when exists (
        select 1 from students s where s.id = r.student_id and s.status = 'active' and s.student_class = r.student_class
          and not exists (select 1 from student_enrolments sx where sx.session_id = ${sessionId}))
      or exists (
        select 1 from student_enrolments se
        where se.session_id = ${sessionId} and se.student_id = r.student_id and se.student_class = r.student_class)
      then 1 else 0 end`;
    return conn
      .selectFrom('results as r')
      .select((eb) => [
        'r.student_class',
        'r.subject',
        eb.fn.countAll<number | string>().as('entered'),
        eb.fn.sum<number | string | null>('r.score').as('total'),
        eb.fn.sum<number | string | null>(inRoster).as('in_roster'),
      ])
      .where('r.session_id', '=', sessionId)
      .where('r.term', '=', term)
      .where('r.student_class', 'in', [...arms])
      .where('r.subject', 'in', [...subjects])
      .groupBy(['r.student_class', 'r.subject'])
      .execute();
  }
}
