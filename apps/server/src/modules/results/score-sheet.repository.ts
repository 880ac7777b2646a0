import { sql, type SqlBool } from 'kysely';
import { armInSessionSql } from '../../db/class-history';
import { TERM_VALUES } from '@portal/domain';
import type { Conn, DB } from '../../db/index';
import { nowIso } from '../../db/index';
import { leftJoinPerson, personNameOf } from '../../db/person-name';
import { inSlices } from '../../db/slices';
import './results.tables';
import { RESULT_STUDENT_COLUMNS, SCORE_COLUMNS, resultsWithStudents } from './result-rows.queries';

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

/** A stored result as a write reads it (locked on PostgreSQL): the sheet's row without the names, with its subject. */
export type StoredResultRow = Pick<
  SheetResultRow,
  'id' | 'student_id' | 'student_class' | 'score' | 'components' | 'remarks' | 'grade' | 'version'
> & { subject: string };

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

/**
 * SQL of the class score grid (set-based reads of an arm's students and one subject's results) and
 * of the one score writer (`score-writer.ts`: the stored rows locked, then batched inserts, updates
 * and deletes): a fixed number of statements whatever the number of students or subjects.
 */
export class ScoreSheetRepository {
  constructor(
    private readonly db: DB,
    private readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
  ) {}

  /**
   * The sheet's students. In the current session: the arm's active students and anyone with a
   * result of this term and subject recorded in the class (a withdrawn student keeps their row). In
   * a past session: everyone with a result of the session recorded in the class. One statement.
   * Without a subject (the report card sheets), a result of the term in any subject counts.
   */
  sheetStudents(
    q: { sessionId: number; term: string; arm: string; subject?: string; current: boolean },
    conn: Conn = this.db,
  ): Promise<SheetStudentRow[]> {
    // Each student in the arm they had in the session (decision 038): a closed session's enrolment
    // row, today's arm otherwise (one lookup on the unique key).
    const columns = [
      's.id',
      's.admission_number',
      's.first_name',
      's.last_name',
      armInSessionSql(q.sessionId, 's.id', 's.student_class').as('student_class'),
      's.status',
    ] as const;
    const recorded = conn
      .selectFrom('students as s')
      .select(columns)
      .where('s.id', 'in', (eb) =>
        eb
          .selectFrom('results as c')
          .select('c.student_id')
          .where('c.session_id', '=', q.sessionId)
          // Every term named in a past session: the (session, term, class) index is searched three
          // times rather than the whole session's results read.
          .where('c.term', 'in', q.current ? [q.term] : [...TERM_VALUES])
          .where('c.student_class', '=', q.arm)
          .$if(q.current && q.subject !== undefined, (qb) => qb.where('c.subject', '=', q.subject!)),
      );
    // A closed session's roster: its enrolment rows of the arm (the (session, class) index).
    const enrolled = conn
      .selectFrom('student_enrolments as se')
      .innerJoin('students as s', 's.id', 'se.student_id')
      .select(columns)
      .where('se.session_id', '=', q.sessionId)
      .where('se.student_class', '=', q.arm);
    if (!q.current) return recorded.union(enrolled).execute();
    // Three indexed reads in a UNION (with an OR, PostgreSQL scans every student): today's active
    // students of the arm only while the session is live (no enrolment rows; evaluated once).
    return conn
      .selectFrom('students as s')
      .select(columns)
      .where('s.status', '=', 'active')
      .where('s.student_class', '=', q.arm)
      .where(sql<SqlBool>`not exists (select 1 from student_enrolments sx where sx.session_id = ${q.sessionId})`)
      .union(enrolled)
      .union(recorded)
      .execute();
  }

  /** Stored results with their student's names and who changed each last: the rows the grid shows. */
  private resultsWithNames(conn: Conn) {
    return leftJoinPerson(resultsWithStudents(conn), 'updater', 'r.updated_by').select([
      'r.id',
      ...RESULT_STUDENT_COLUMNS,
      'r.student_class',
      ...SCORE_COLUMNS,
      'r.version',
      'r.updated_at',
      // Who changed a result last, as a person reads it.
      personNameOf('updater').as('updated_by'),
    ]);
  }

  /** Every stored result of one class, term and subject, with names: the grid's cells and the ranking population. */
  subjectResults(sessionId: number, term: string, arm: string, subject: string, conn: Conn = this.db): Promise<SheetResultRow[]> {
    return this.resultsWithNames(conn)
      .where('r.session_id', '=', sessionId)
      .where('r.term', '=', term)
      .where('r.student_class', '=', arm)
      .where('r.subject', '=', subject)
      .execute();
  }

  /** One stored result of a student for a term and subject (any class), with names: the `current` of a conflict. */
  async studentResult(studentId: number, sessionId: number, term: string, subject: string): Promise<SheetResultRow | undefined> {
    return this.resultsWithNames(this.db)
      .where('r.student_id', '=', studentId)
      .where('r.session_id', '=', sessionId)
      .where('r.term', '=', term)
      .where('r.subject', '=', subject)
      .executeTakeFirst();
  }

  /** Students by admission number, one statement. */
  studentsByAdmission(numbers: readonly string[], conn: Conn = this.db): Promise<SheetStudentRow[]> {
    if (!numbers.length) return Promise.resolve([]);
    return conn
      .selectFrom('students')
      .select(['id', 'admission_number', 'first_name', 'last_name', 'student_class', 'status'])
      .where('admission_number', 'in', [...numbers])
      .execute();
  }

  /** The (term, class) pairs each of the students has results in for a session: the class rules of a save. */
  async sessionClasses(studentIds: readonly number[], sessionId: number, conn: Conn) {
    if (!studentIds.length) return [];
    // By student only, the session filtered here: with `session_id = ?` in the query SQLite prefers the
    // (session, term, class) index and reads the whole session's results (ms) instead of the students' few.
    const rows = await conn
      .selectFrom('results')
      .select(['student_id', 'session_id', 'term', 'student_class'])
      .where('student_id', 'in', [...studentIds])
      .groupBy(['student_id', 'session_id', 'term', 'student_class'])
      .execute();
    return rows.filter((r) => r.session_id === sessionId);
  }

  /**
   * The stored rows of a term in the given subjects for the given students (any class), locked until
   * commit on PostgreSQL so concurrent savers of the same row queue and then see the new version.
   */
  storedForUpdate(
    studentIds: readonly number[],
    sessionId: number,
    term: string,
    subjects: readonly string[],
    conn: Conn,
  ): Promise<StoredResultRow[]> {
    if (!studentIds.length || !subjects.length) return Promise.resolve([]);
    return (
      conn
        .selectFrom('results')
        .select(['id', 'student_id', 'subject', 'student_class', 'score', 'components', 'remarks', 'grade', 'version'])
        .where('session_id', '=', sessionId)
        .where('term', '=', term)
        .where('subject', 'in', [...subjects])
        .where('student_id', 'in', [...studentIds])
        // One lock order for every saver: two whole-sheet saves never wait on each other in a circle.
        .orderBy('id')
        .$if(this.dialect === 'postgres', (q) => q.forUpdate())
        .execute()
    );
  }

  /**
   * New results in one multi-row insert (chunked below the bind-parameter limits). A row someone
   * else inserted meanwhile is skipped: the caller compares what came back with what it sent.
   */
  async insertMany(conn: Conn, rows: readonly NewResult[], actor: number): Promise<{ id: number; student_id: number; subject: string }[]> {
    const now = nowIso();
    return inSlices(rows, 200, (slice) =>
      conn
        .insertInto('results')
        .values(
          slice.map((r) => ({
            ...r,
            version: 1,
            created_by: actor,
            updated_by: actor,
            created_at: now,
            updated_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['student_id', 'session_id', 'term', 'subject']).doNothing())
        .returning(['id', 'student_id', 'subject'])
        .execute(),
    );
  }

  /**
   * Updates many rows in one statement per 200, each only if it still has its `version`; returns the
   * ids updated (a row missing from them changed or vanished meanwhile).
   */
  async updateManyIfVersion(
    conn: Conn,
    rows: readonly {
      id: number;
      version: number;
      score: number;
      components: string | null;
      remarks: string;
      grade: string;
      subject: string;
    }[],
    actor: number,
  ): Promise<Set<number>> {
    const done = new Set<number>();
    const real = sql.raw(this.dialect === 'postgres' ? 'double precision' : 'real');
    const now = nowIso();
    for (let i = 0; i < rows.length; i += 200) {
      // A derived table of the new values (SELECT … UNION ALL: both dialects, typed by the casts).
      const values = sql.join(
        rows
          .slice(i, i + 200)
          .map(
            (r) =>
              sql`select cast(${r.id} as integer) as id, cast(${r.version} as integer) as version, cast(${r.score} as ${real}) as score, cast(${r.components} as text) as components, cast(${r.remarks} as text) as remarks, cast(${r.grade} as text) as grade, cast(${r.subject} as text) as subject`,
          ),
        sql` union all `,
      );
      const res = await sql<{ id: number }>`update results set score = v.score, components = v.components, remarks = v.remarks,
          grade = v.grade, subject = v.subject, version = v.version + 1, updated_by = ${actor}, updated_at = ${now}
        from (${values}) as v
        where results.id = v.id and results.version = v.version
        returning results.id`.execute(conn);
      for (const r of res.rows) done.add(Number(r.id));
    }
    return done;
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
