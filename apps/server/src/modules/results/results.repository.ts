// One file (about 430 lines): one repository class, the SQL of results, session look-ups,
// publications and the result audit; its services are built with it, so a split changes their wiring.
import type { Conn } from '../../db/index';
import { sql, type Selectable } from 'kysely';
import type { StudentsTable } from '../../db/schema';
import { nowIso, Repository } from '../../db/index';
import { leftJoinPerson } from '../../db/person-name';
import { inSlices } from '../../db/slices';
import { QueryTemplates } from '../../db/query-templates';
import { readTogether } from '../../db/read-together';
import { entriesQuery, photosQuery } from './report-card-rows.queries';
import { RESULT_STUDENT_COLUMNS, SCORE_COLUMNS, inStudentNameOrder, isReleased, resultsWithStudents } from './result-rows.queries';
import './results.tables';
import type { ResultAuditTable } from './results.tables';
import type { Result } from '@portal/domain';

export type StudentRow = Pick<
  Selectable<StudentsTable>,
  'id' | 'user_id' | 'admission_number' | 'first_name' | 'last_name' | 'student_class' | 'gender'
>;

/** A stored result as the API shows it, with its student's id and name instead of the joined full name. */
export type ResultRow = Omit<Result, 'student_name' | 'components'> & {
  student_id: number;
  first_name: string;
  last_name: string;
  /** Stored JSON of the component scores (parseStoredComponents); null for a one-score result. */
  components: string | null;
};

export interface ResultFilters {
  sessionId?: number;
  term?: string;
  studentId?: number;
  arm?: string;
  /** Only rows of published (session, term, class) groups. */
  publishedOnly?: boolean;
  limit?: number;
  offset?: number;
}

export type AuditInsert = Omit<ResultAuditTable, 'id' | 'created_at'>;

/** Whether `table` has a row of the class's term (results: any result; publications: the release). */
function hasClassTermRow(conn: Conn, table: 'results' | 'result_publications', sessionId: number, term: string, arm: string) {
  return conn
    .selectFrom(table)
    .select('id')
    .where('session_id', '=', sessionId)
    .where('term', '=', term)
    .where('student_class', '=', arm)
    .limit(1)
    .executeTakeFirst()
    .then(Boolean);
}

const RESULT_COLUMNS = [
  'r.id',
  ...RESULT_STUDENT_COLUMNS,
  'r.session_id',
  'r.term',
  'r.student_class',
  'r.subject',
  ...SCORE_COLUMNS,
  'r.version',
  'r.updated_at',
] as const;

/** SQL of results, sessions lookups, publications and the result audit trail. */
export class ResultsRepository extends Repository {
  /** The two queries behind every results page a student or teacher opens, compiled once per shape. */
  private readonly hot = new QueryTemplates();

  /** Row locks inside a transaction: PostgreSQL needs them; SQLite write transactions are serialized already. */
  private get lockRows(): boolean {
    return this.dialect === 'postgres';
  }

  async findStudent(admissionNumber: string, conn: Conn = this.db): Promise<StudentRow | undefined> {
    const rows = await this.hot.execute(
      conn,
      'findStudent',
      (slot) =>
        this.db
          .selectFrom('students')
          .select(['id', 'user_id', 'admission_number', 'first_name', 'last_name', 'student_class', 'gender'])
          .where('admission_number', '=', slot('admissionNumber')),
      { admissionNumber },
    );
    return rows[0];
  }

  listResults(f: ResultFilters): Promise<ResultRow[]> {
    const has = {
      sessionId: f.sessionId !== undefined,
      term: f.term !== undefined,
      studentId: f.studentId !== undefined,
      arm: f.arm !== undefined,
      publishedOnly: f.publishedOnly === true,
      limit: f.limit !== undefined,
    };
    const shape = `listResults:${Object.entries(has)
      .filter(([, present]) => present)
      .map(([name]) => name)
      .join(',')}`;
    return this.hot.execute(
      this.db,
      shape,
      (slot) => {
        let q = resultsWithStudents(this.db)
          .select(RESULT_COLUMNS)
          .$if(has.sessionId, (qb) => qb.where('r.session_id', '=', slot('sessionId')))
          .$if(has.term, (qb) => qb.where('r.term', '=', slot('term')))
          .$if(has.studentId, (qb) => qb.where('r.student_id', '=', slot('studentId')))
          .$if(has.arm, (qb) => qb.where('r.student_class', '=', slot('arm')))
          .$if(has.publishedOnly, (qb) => qb.where(isReleased('r')))
          .orderBy('r.session_id')
          .orderBy('r.term')
          .$call(inStudentNameOrder)
          .orderBy('r.id');
        if (has.limit) q = q.limit(slot('limit')).offset(slot('offset'));
        return q;
      },
      { ...f, offset: f.offset ?? 0 },
    );
  }

  /** Stored results by id, one statement (in no particular order). */
  async getResults(ids: readonly number[], conn: Conn = this.db): Promise<ResultRow[]> {
    if (!ids.length) return [];
    return resultsWithStudents(conn)
      .select(RESULT_COLUMNS)
      .where('r.id', 'in', [...ids])
      .execute();
  }

  /** With `lock` (inside a transaction), the row stays locked until commit: concurrent writers queue. */
  getResult(id: number, conn: Conn = this.db, lock = false): Promise<ResultRow | undefined> {
    return resultsWithStudents(conn)
      .select(RESULT_COLUMNS)
      .where('r.id', '=', id)
      .$if(lock && this.lockRows, (q) => q.forUpdate('r'))
      .executeTakeFirst();
  }

  /** Changes with a reason (edits of released results) to a student's results of one term, newest first. */
  revisions(f: { studentId?: number; arm?: string }, sessionId: number, term: string) {
    return this.revisionsQuery(f, sessionId, term).execute();
  }

  private revisionsQuery(f: { studentId?: number; arm?: string }, sessionId: number, term: string) {
    return this.db
      .selectFrom('result_audit')
      .select(['student_id', 'subject', 'created_at', 'reason'])
      .$if(f.studentId !== undefined, (q) => q.where('student_id', '=', f.studentId!))
      .$if(f.arm !== undefined, (q) => q.where('student_class', '=', f.arm!))
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .where('reason', 'is not', null)
      .where('action', '!=', 'regrade')
      .orderBy('id', 'desc')
      .limit(5000);
  }

  /** The result-audit rows of one write (`score-writer.ts`, a regrade), one insert per 200 rows. */
  async writeAudit(conn: Conn, rows: AuditInsert[]): Promise<void> {
    const at = nowIso();
    await inSlices(rows, 200, (slice) =>
      conn
        .insertInto('result_audit')
        .values(slice.map((r) => ({ ...r, created_at: at })))
        .execute(),
    );
  }

  listAudit(f: { admissionNumber?: string; arm?: string; sessionId?: number; term?: string; limit: number }) {
    const audit = this.db
      .selectFrom('result_audit as a')
      .leftJoin('students as s', 's.id', 'a.student_id')
      .leftJoin('academic_sessions as ses', 'ses.id', 'a.session_id');
    return leftJoinPerson(audit, 'actor', 'a.actor_user_id')
      .select([
        'a.id',
        'a.action',
        'a.admission_number',
        's.first_name',
        's.last_name',
        'a.session_id',
        'ses.name as session_name',
        'a.term',
        'a.student_class',
        'a.subject',
        'a.old_score',
        'a.new_score',
        'a.old_components',
        'a.new_components',
        'a.old_remarks',
        'a.new_remarks',
        'a.old_grade',
        'a.new_grade',
        'actor.email as actor_email',
        'actor.role as actor_role',
        'actor_staff.staff_id',
        'actor_staff.first_name as staff_first',
        'actor_staff.last_name as staff_last',
        'actor_admin.first_name as admin_first',
        'actor_admin.last_name as admin_last',
        'a.created_at',
        'a.reason',
      ])
      .$if(f.admissionNumber !== undefined, (q) => q.where('a.admission_number', '=', f.admissionNumber!))
      .$if(f.arm !== undefined, (q) => q.where('a.student_class', '=', f.arm!))
      .$if(f.sessionId !== undefined, (q) => q.where('a.session_id', '=', f.sessionId!))
      .$if(f.term !== undefined, (q) => q.where('a.term', '=', f.term!))
      .orderBy('a.id', 'desc')
      .limit(f.limit)
      .execute();
  }

  /** Students with results for a session and term (optionally one class), with how many subjects. */
  studentsWithResults(sessionId: number, term: string, arm?: string) {
    return resultsWithStudents(this.db)
      .select(['s.admission_number', 's.first_name', 's.last_name', 'r.student_class', sql<number>`count(*)`.as('subjects')])
      .where('r.session_id', '=', sessionId)
      .where('r.term', '=', term)
      .$if(arm !== undefined, (q) => q.where('r.student_class', '=', arm!))
      .groupBy(['s.admission_number', 's.first_name', 's.last_name', 'r.student_class'])
      .orderBy('r.student_class')
      .$call(inStudentNameOrder)
      .execute();
  }

  /** Each (session, term, class) a student has results in, with whether it is published. */
  termsOfStudent(studentId: number) {
    return this.db
      .selectFrom('results as r')
      .innerJoin('academic_sessions as ses', 'ses.id', 'r.session_id')
      .leftJoin('result_publications as p', (j) =>
        j.onRef('p.session_id', '=', 'r.session_id').onRef('p.term', '=', 'r.term').onRef('p.student_class', '=', 'r.student_class'),
      )
      .select([
        'r.session_id',
        'ses.name as session_name',
        'r.term',
        'r.student_class',
        sql<number>`count(*)`.as('subjects'),
        sql<number>`max(case when p.id is null then 0 else 1 end)`.as('released'),
      ])
      .where('r.student_id', '=', studentId)
      .groupBy(['r.session_id', 'ses.name', 'r.term', 'r.student_class'])
      .orderBy('ses.name', 'desc')
      .orderBy('r.term', 'desc')
      .execute();
  }

  // ---------- publications ----------

  listPublications(f: { sessionId?: number; term?: string }, conn: Conn = this.db) {
    return conn
      .selectFrom('result_publications as p')
      .leftJoin('users as u', 'u.id', 'p.published_by')
      .select(['p.id', 'p.session_id', 'p.term', 'p.student_class', 'p.published_at', 'u.email as published_by'])
      .$if(f.sessionId !== undefined, (q) => q.where('p.session_id', '=', f.sessionId!))
      .$if(f.term !== undefined, (q) => q.where('p.term', '=', f.term!))
      .orderBy('p.session_id', 'desc')
      .orderBy('p.term')
      .orderBy('p.student_class')
      .execute();
  }

  /** Whether a class has any result for a session and term. */
  hasResults(conn: Conn, sessionId: number, term: string, arm: string) {
    return hasClassTermRow(conn, 'results', sessionId, term, arm);
  }

  isPublished(sessionId: number, term: string, arm: string, conn: Conn = this.db) {
    return hasClassTermRow(conn, 'result_publications', sessionId, term, arm);
  }

  publishedInSession(sessionId: number) {
    return this.publishedInSessionQuery(sessionId).execute();
  }

  private publishedInSessionQuery(sessionId: number) {
    return this.db.selectFrom('result_publications').select(['term', 'student_class', 'published_at']).where('session_id', '=', sessionId);
  }

  getPublication(id: number, conn: Conn = this.db) {
    return conn
      .selectFrom('result_publications')
      .select(['id', 'session_id', 'term', 'student_class', 'published_at', 'published_by'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async deletePublication(conn: Conn, id: number): Promise<boolean> {
    const r = await conn.deleteFrom('result_publications').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }

  // ---------- report cards and broadsheets: set-based reads ----------

  /** Every score of a class for a term: the whole population of the ranking, one query. */
  classScores(sessionId: number, term: string, arm: string) {
    return this.db
      .selectFrom('results')
      .select(['student_id', 'subject', 'score'])
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .where('student_class', '=', arm)
      .execute();
  }

  /**
   * What one student's card reads of its own rows, in ONE statement (issue 37.4; `readTogether`): the
   * student's rows of the session (`cardRows`), the session's publications, the revisions, the card's
   * entry and the photo. (The arm's scores stay rows of their own, `classScores`: a class's hundreds
   * of rows cost PostgreSQL more as JSON than the round trip they would save.)
   */
  oneCard(sessionId: number, terms: readonly string[], studentId: number, term: string) {
    return readTogether(this.db, {
      rows: this.cardRowsQuery(sessionId, terms, { studentId }),
      published: this.publishedInSessionQuery(sessionId),
      revisions: this.revisionsQuery({ studentId }, sessionId, term),
      entries: entriesQuery(this.db, sessionId, term, { studentIds: [studentId] }),
      photos: photosQuery(this.db, [studentId]),
    });
  }

  /**
   * The rows of a set of students for a session, terms up to `terms`, with the student's details:
   * what their report cards print (the term's subjects and, in the third term, the earlier terms).
   */
  cardRows(
    sessionId: number,
    terms: readonly string[],
    students: { studentId?: number; sessionClassTerm?: { arm: string; term: string } },
  ) {
    return this.cardRowsQuery(sessionId, terms, students).execute();
  }

  private cardRowsQuery(
    sessionId: number,
    terms: readonly string[],
    students: { studentId?: number; sessionClassTerm?: { arm: string; term: string } },
  ) {
    return resultsWithStudents(this.db)
      .select([...RESULT_STUDENT_COLUMNS, 's.gender', 'r.term', 'r.student_class', 'r.subject', ...SCORE_COLUMNS])
      .where('r.session_id', '=', sessionId)
      .where('r.term', 'in', [...terms])
      .$if(students.studentId !== undefined, (q) => q.where('r.student_id', '=', students.studentId!))
      .$if(students.sessionClassTerm !== undefined, (q) =>
        q.where('r.student_id', 'in', (eb) =>
          eb
            .selectFrom('results as c')
            .select('c.student_id')
            .where('c.session_id', '=', sessionId)
            .where('c.term', '=', students.sessionClassTerm!.term)
            .where('c.student_class', '=', students.sessionClassTerm!.arm),
        ),
      )
      .$call(inStudentNameOrder);
  }

  /**
   * The scores of a session's three terms for promotion: of the given students, or of the whole
   * session (`studentIds` undefined), without names; one statement (an index range on session).
   */
  sessionScores(sessionId: number, studentIds?: readonly number[], conn: Conn = this.db) {
    return conn
      .selectFrom('results')
      .select(['student_id', 'term', 'subject', 'score'])
      .where('session_id', '=', sessionId)
      .$if(studentIds !== undefined, (q) => q.where('student_id', 'in', studentIds!.length ? [...studentIds!] : [-1]))
      .execute();
  }

  /** A whole term (optionally one class) with names: the broadsheet, one query. */
  /**
   * The classes with results in a session's term, in order (the streamed whole-school sheet's
   * batches). A loose index scan: one index probe per class instead of reading every result (a
   * plain DISTINCT read 531,500 index entries in 180 ms on PostgreSQL; this takes under 1 ms).
   */
  async broadsheetClassNames(sessionId: number, term: string): Promise<string[]> {
    const { rows } = await sql<{ cls: string }>`
      with recursive c(cls) as (
        select min(student_class) from results where session_id = ${sessionId} and term = ${term}
        union all
        select (select min(r.student_class) from results r where r.session_id = ${sessionId} and r.term = ${term} and r.student_class > c.cls)
        from c where c.cls is not null
      )
      select cls from c where cls is not null`.execute(this.db);
    return rows.map((r) => r.cls);
  }

  broadsheetRows(sessionId: number, term: string, classes?: readonly string[]) {
    return resultsWithStudents(this.db)
      .select([...RESULT_STUDENT_COLUMNS, 'r.student_class', 'r.subject', 'r.score', 'r.components'])
      .where('r.session_id', '=', sessionId)
      .where('r.term', '=', term)
      .$if(classes !== undefined, (q) => q.where('r.student_class', 'in', classes!.length ? classes! : ['']))
      .orderBy('r.student_class')
      .$call(inStudentNameOrder)
      .execute();
  }
}
