import { sql } from 'kysely';
import type { DB } from '../../db/index';
import '../attendance/attendance.tables';
import '../results/results.tables';

/** A student of a session with the arm they had in it (live session: today's active students). */
export interface SessionStudent {
  id: number;
  student_class: string;
}

/**
 * The admin dashboard's own reads (issue 36): each one GROUP BY statement (or one list of ids and
 * arms), so the number of statements never grows with the school. The money figures are not here:
 * they are the payments module's reports' (`FeeReportsService`), read as they are.
 */
export class AdminDashboardQueries {
  constructor(private readonly db: DB) {}

  /**
   * The session's students and their arm: a closed session's enrolment rows (decision 038), else
   * today's active students (as the score sheet's roster, `ScoreSheetRepository.sheetStudents`).
   */
  async sessionStudents(sessionId: number): Promise<SessionStudent[]> {
    const { rows } = await sql<SessionStudent>`
      select s.id as id, s.student_class as student_class from students s
       where s.status = 'active'
         and not exists (select 1 from student_enrolments sx where sx.session_id = ${sessionId})
      union all
      select se.student_id as id, se.student_class as student_class from student_enrolments se
       where se.session_id = ${sessionId}`.execute(this.db);
    return rows.map((r) => ({ id: Number(r.id), student_class: r.student_class }));
  }

  /** Today's active students per arm (the register's roster), one row per arm. */
  async activeByArm(): Promise<{ student_class: string; students: number }[]> {
    const rows = await this.db
      .selectFrom('students')
      .select(['student_class', (eb) => eb.fn.countAll<number>().as('students')])
      .where('status', '=', 'active')
      .groupBy('student_class')
      .execute();
    return rows.map((r) => ({ student_class: r.student_class, students: Number(r.students) }));
  }

  /**
   * The day's morning registers per arm (the absent-today report's "marked": `armsMarked`) and their
   * marks; present and late count as present.
   */
  async registersOn(date: string): Promise<{ student_class: string; present: number; marks: number }[]> {
    const { rows } = await sql<{ student_class: string; present: number | string | null; marks: number | string }>`
      select r.student_class as student_class,
             sum(case when m.status in ('present', 'late') then 1 else 0 end) as present,
             count(m.student_id) as marks
        from attendance_registers r
        left join attendance_marks m on m.register_id = r.id
       where r.date = ${date} and r.period = 'morning'
       group by r.student_class`.execute(this.db);
    return rows.map((r) => ({ student_class: r.student_class, present: Number(r.present ?? 0), marks: Number(r.marks) }));
  }

  /** Results stored for a term, per arm and subject (a row is an entry, ABS included). */
  async enteredByArmSubject(sessionId: number, term: string): Promise<{ student_class: string; subject: string; entered: number }[]> {
    const rows = await this.db
      .selectFrom('results')
      .select(['student_class', 'subject', (eb) => eb.fn.countAll<number>().as('entered')])
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .groupBy(['student_class', 'subject'])
      .execute();
    return rows.map((r) => ({ student_class: r.student_class, subject: r.subject, entered: Number(r.entered) }));
  }

  /** The terms of a session with at least one arm's results released. */
  async releasedTerms(sessionId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('result_publications').select('term').distinct().where('session_id', '=', sessionId).execute();
    return rows.map((r) => r.term);
  }

  /** Grades of a term's released arms, per subject and grade (a result without a grade is left out). */
  async gradesReleased(sessionId: number, term: string): Promise<{ subject: string; grade: string; n: number }[]> {
    const { rows } = await sql<{ subject: string; grade: string; n: number | string }>`
      select r.subject as subject, r.grade as grade, count(*) as n
        from results r
        join result_publications p
          on p.session_id = r.session_id and p.term = r.term and p.student_class = r.student_class
       where r.session_id = ${sessionId} and r.term = ${term} and r.grade is not null and r.grade <> ''
       group by r.subject, r.grade`.execute(this.db);
    return rows.map((r) => ({ subject: r.subject, grade: r.grade, n: Number(r.n) }));
  }
}
