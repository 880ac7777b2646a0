import { sql } from 'kysely';
import type { Conn, DB } from '../../db/index';
import { nowIso } from '../../db/index';
import './results.tables';

/** A stored result of the sheet's class, term and subject, with its student and who changed it last. */
export interface SheetResultRow {
  id: number;
  student_id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  student_class: string;
  score: number;
  components: string | null;
  remarks: string;
  grade: string;
  version: number;
  updated_at: string;
  updated_by: string | null;
}

export interface SheetStudentRow {
  id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  student_class: string;
  status: string;
}

export interface NewResult {
  student_id: number;
  session_id: number;
  term: string;
  student_class: string;
  subject: string;
  score: number;
  components: string | null;
  remarks: string;
  grade: string;
}

/** Who changed a result last, as a person reads it: the staff member's or admin's name, else the sign-in. */
const UPDATER = sql<string | null>`coalesce(${sql.ref('st.first_name')} || ' ' || ${sql.ref('st.last_name')}, ${sql.ref('ad.first_name')} || ' ' || ${sql.ref('ad.last_name')}, ${sql.ref('u.email')})`;

/**
 * SQL of the class score grid: set-based reads of an arm's students and one subject's results, and
 * the batched writes of a grid save. A fixed number of statements whatever the number of students.
 */
export class ScoreSheetRepository {
  constructor(
    private readonly db: DB,
    private readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
  ) {}

  /**
   * The class's students for a session: in the current session the arm's active students, and in
   * any session everyone with a result of the session recorded in the class (a withdrawn student
   * keeps their row). One statement.
   */
  sheetStudents(sessionId: number, studentClass: string, current: boolean, conn: Conn = this.db): Promise<SheetStudentRow[]> {
    return conn
      .selectFrom('students as s')
      .select(['s.id', 's.admission_number', 's.first_name', 's.last_name', 's.student_class', 's.status'])
      .where((eb) =>
        eb.or([
          ...(current ? [eb.and([eb('s.status', '=', 'active'), eb('s.student_class', '=', studentClass)])] : []),
          eb(
            's.id',
            'in',
            eb
              .selectFrom('results as c')
              .select('c.student_id')
              .where('c.session_id', '=', sessionId)
              .where('c.student_class', '=', studentClass),
          ),
        ]),
      )
      .execute();
  }

  /** Every stored result of one class, term and subject, with names: the grid's cells and the ranking population. */
  subjectResults(sessionId: number, term: string, studentClass: string, subject: string, conn: Conn = this.db): Promise<SheetResultRow[]> {
    return conn
      .selectFrom('results as r')
      .innerJoin('students as s', 's.id', 'r.student_id')
      .leftJoin('users as u', 'u.id', 'r.updated_by')
      .leftJoin('staff as st', 'st.user_id', 'r.updated_by')
      .leftJoin('admins as ad', 'ad.user_id', 'r.updated_by')
      .select([
        'r.id',
        'r.student_id',
        's.admission_number',
        's.first_name',
        's.last_name',
        'r.student_class',
        'r.score',
        'r.components',
        'r.remarks',
        'r.grade',
        'r.version',
        'r.updated_at',
        UPDATER.as('updated_by'),
      ])
      .where('r.session_id', '=', sessionId)
      .where('r.term', '=', term)
      .where('r.student_class', '=', studentClass)
      .where('r.subject', '=', subject)
      .execute();
  }

  /** One stored result of a student for a term and subject (any class), with names: the `current` of a conflict. */
  async studentResult(studentId: number, sessionId: number, term: string, subject: string): Promise<SheetResultRow | undefined> {
    return this.db
      .selectFrom('results as r')
      .innerJoin('students as s', 's.id', 'r.student_id')
      .leftJoin('users as u', 'u.id', 'r.updated_by')
      .leftJoin('staff as st', 'st.user_id', 'r.updated_by')
      .leftJoin('admins as ad', 'ad.user_id', 'r.updated_by')
      .select([
        'r.id',
        'r.student_id',
        's.admission_number',
        's.first_name',
        's.last_name',
        'r.student_class',
        'r.score',
        'r.components',
        'r.remarks',
        'r.grade',
        'r.version',
        'r.updated_at',
        UPDATER.as('updated_by'),
      ])
      .where('r.student_id', '=', studentId)
      .where('r.session_id', '=', sessionId)
      .where('r.term', '=', term)
      .where('r.subject', '=', subject)
      .executeTakeFirst();
  }

  /** Students by admission number, one statement. */
  studentsByAdmission(numbers: readonly string[], conn: Conn): Promise<SheetStudentRow[]> {
    if (!numbers.length) return Promise.resolve([]);
    return conn
      .selectFrom('students')
      .select(['id', 'admission_number', 'first_name', 'last_name', 'student_class', 'status'])
      .where('admission_number', 'in', [...numbers])
      .execute();
  }

  /** The (term, class) pairs each of the students has results in for a session: the class rules of a save. */
  sessionClasses(studentIds: readonly number[], sessionId: number, conn: Conn) {
    if (!studentIds.length) return Promise.resolve([]);
    return conn
      .selectFrom('results')
      .select(['student_id', 'term', 'student_class'])
      .where('session_id', '=', sessionId)
      .where('student_id', 'in', [...studentIds])
      .groupBy(['student_id', 'term', 'student_class'])
      .execute();
  }

  /**
   * The stored rows of a term and subject for the given students (any class), locked until commit
   * on PostgreSQL so concurrent savers of the same row queue and then see the new version.
   */
  storedForUpdate(studentIds: readonly number[], sessionId: number, term: string, subject: string, conn: Conn) {
    if (!studentIds.length) return Promise.resolve([]);
    return conn
      .selectFrom('results')
      .select(['id', 'student_id', 'student_class', 'score', 'components', 'remarks', 'grade', 'version'])
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .where('subject', '=', subject)
      .where('student_id', 'in', [...studentIds])
      // One lock order for every saver: two whole-sheet saves never wait on each other in a circle.
      .orderBy('id')
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .execute();
  }

  /**
   * New results in one multi-row insert (chunked below the bind-parameter limits). A row someone
   * else inserted meanwhile is skipped: the caller compares what came back with what it sent.
   */
  async insertMany(conn: Conn, rows: readonly NewResult[], actor: number): Promise<{ id: number; student_id: number }[]> {
    const now = nowIso();
    const out: { id: number; student_id: number }[] = [];
    for (let i = 0; i < rows.length; i += 200) {
      const got = await conn
        .insertInto('results')
        .values(
          rows.slice(i, i + 200).map((r) => ({
            ...r,
            version: 1,
            created_by: actor,
            updated_by: actor,
            created_at: now,
            updated_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['student_id', 'session_id', 'term', 'subject']).doNothing())
        .returning(['id', 'student_id'])
        .execute();
      out.push(...got);
    }
    return out;
  }

  /** Updates one row only if it still has `version`; false when it changed or vanished meanwhile. */
  async updateIfVersion(
    conn: Conn,
    id: number,
    version: number,
    v: { score: number; components: string | null; remarks: string; grade: string; actor: number },
  ): Promise<boolean> {
    const res = await conn
      .updateTable('results')
      .set({
        score: v.score,
        components: v.components,
        remarks: v.remarks,
        grade: v.grade,
        version: version + 1,
        updated_by: v.actor,
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Deletes the rows whose (id, version) still match; returns how many went. */
  async deleteIfVersions(conn: Conn, rows: readonly { id: number; version: number }[]): Promise<number> {
    if (!rows.length) return 0;
    const res = await conn
      .deleteFrom('results')
      .where((eb) => eb.or(rows.map((r) => eb.and([eb('id', '=', r.id), eb('version', '=', r.version)]))))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
