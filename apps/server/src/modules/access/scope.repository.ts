import { sql } from 'kysely';
import type { Conn, DB } from '../../db/index';
import { QueryTemplates } from '../../db/query-templates';

/**
 * A student as every scope decision sees them: who they are (record and account), their arm, and
 * what a payment or a screen names them by. One shape for results, attendance, payments and people.
 */
export interface ScopedStudent {
  id: number;
  user_id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  student_class: string;
  gender: string | null;
  phone_number: string;
  /** Null for a student without one. */
  email: string | null;
}

/** A staff member's reach in one session: the arms they are form teacher of, the arm–subject pairs they teach. */
export interface TeacherReach {
  formArms: string[];
  armSubjects: { arm: string; subject: string }[];
}

/**
 * The one reader behind the access scope: students (by account, admission number or id) and a
 * teacher's form arms and teaching assignments. Read only; the tables belong to people and
 * teaching, which write them.
 */
export class ScopeRepository {
  /** A student's own record is read on every page a student opens: compiled once. */
  private readonly hot = new QueryTemplates();

  constructor(readonly db: DB) {}

  private students(conn: Conn) {
    return conn
      .selectFrom('students')
      .innerJoin('users', 'users.id', 'students.user_id')
      .select([
        'students.id',
        'students.user_id',
        'students.admission_number',
        'students.first_name',
        'students.last_name',
        'students.student_class',
        'students.gender',
        'students.phone_number',
        'users.email',
      ]);
  }

  async studentByUser(userId: number, conn: Conn = this.db): Promise<ScopedStudent | undefined> {
    const rows = await this.hot.execute(conn, 'byUser', (slot) => this.students(this.db).where('students.user_id', '=', slot('userId')), {
      userId,
    });
    return rows[0];
  }

  async studentByAdmission(admissionNumber: string, conn: Conn = this.db): Promise<ScopedStudent | undefined> {
    const rows = await this.hot.execute(
      conn,
      'byAdmission',
      (slot) => this.students(this.db).where('students.admission_number', '=', slot('admissionNumber')),
      { admissionNumber },
    );
    return rows[0];
  }

  studentById(id: number, conn: Conn = this.db): Promise<ScopedStudent | undefined> {
    return this.students(conn).where('students.id', '=', id).executeTakeFirst();
  }

  /** The ids of the students a parent account is linked to (parent_links, migration 0032): one indexed statement, compiled once. */
  async parentChildIds(userId: number, conn: Conn = this.db): Promise<number[]> {
    const rows = await this.hot.execute(
      conn,
      'parentChildren',
      (slot) =>
        this.db
          .selectFrom('parent_links as pl')
          .innerJoin('parents as p', 'p.id', 'pl.parent_id')
          .select('pl.student_id')
          .where('p.user_id', '=', slot('userId')),
      { userId },
    );
    return rows.map((r) => r.student_id);
  }

  /**
   * The student's arm in a session (decision 038): in a closed session (one with enrolment rows) the
   * student's row, or null when they were not in it; in a live one today's arm. One statement.
   */
  async armInSession(studentId: number, sessionId: number, conn: Conn = this.db): Promise<string | null> {
    const row = await conn
      .selectFrom('students as s')
      .select(
        sql<string | null>`coalesce(
          (select se.student_class from student_enrolments se where se.student_id = s.id and se.session_id = ${sessionId}),
          case when exists (select 1 from student_enrolments sx where sx.session_id = ${sessionId}) then null else s.student_class end)`.as(
          'arm',
        ),
      )
      .where('s.id', '=', studentId)
      .executeTakeFirst();
    return row?.arm ?? null;
  }

  /** What a staff member reaches in a session as form teacher and as subject teacher: one statement. */
  async teacherReach(userId: number, sessionId: number, conn: Conn = this.db): Promise<TeacherReach> {
    const rows = await conn
      .selectFrom('form_teachers as f')
      .innerJoin('staff as st', 'st.id', 'f.staff_id')
      .innerJoin('class_arms as a', 'a.id', 'f.arm_id')
      .select(['a.name as arm', sql<string | null>`null`.as('subject')])
      .where('f.session_id', '=', sessionId)
      .where('st.user_id', '=', userId)
      .unionAll(
        conn
          .selectFrom('teaching_assignments as t')
          .innerJoin('staff as st', 'st.id', 't.staff_id')
          .innerJoin('class_arms as a', 'a.id', 't.arm_id')
          .innerJoin('subjects as s', 's.id', 't.subject_id')
          .select(['a.name as arm', 's.name as subject'])
          .where('t.session_id', '=', sessionId)
          .where('st.user_id', '=', userId),
      )
      .execute();
    const reach: TeacherReach = { formArms: [], armSubjects: [] };
    for (const r of rows) {
      if (r.subject === null) reach.formArms.push(r.arm);
      else reach.armSubjects.push({ arm: r.arm, subject: r.subject });
    }
    return reach;
  }
}
