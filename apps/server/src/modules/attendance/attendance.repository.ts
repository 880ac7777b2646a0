import { sql } from 'kysely';
import { armInSessionSql, enrolledInSession, inArmOfSession, sessionIsClosed } from '../../db/class-history';
import { nowIso, type Conn, type Trx, Repository } from '../../db/index';
import { leftJoinPerson, personNameOf } from '../../db/person-name';
import { inSlices } from '../../db/slices';
import './attendance.tables';

export interface StudentRow {
  id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  student_class: string;
}
export interface RegisterRecord {
  id: number;
  student_class: string;
  date: string;
  period: string;
  session_id: number;
  term: string;
  version: number;
  marked_at: string;
  updated_at: string;
  marked_by_name: string | null;
  updated_by_name: string | null;
}
/** A mark with its register's day: what streaks, grids and totals are computed from. */
export interface DatedMark {
  student_id: number;
  date: string;
  period: string;
  status: string;
}

const STUDENT_COLUMNS = ['s.id', 's.admission_number', 's.first_name', 's.last_name', 's.student_class'] as const;

const ARM_COLS = { studentId: 's.id', currentArm: 's.student_class', status: 's.status' };

/** The students with their arm in a session (decision 038): the enrolment row's in a closed one. */
function studentsInSession(conn: Conn, session: { id: number; closed: boolean }) {
  if (!session.closed) return selectStudents(conn);
  return conn
    .selectFrom('students as s')
    .select([
      's.id',
      's.admission_number',
      's.first_name',
      's.last_name',
      armInSessionSql(session.id, 's.id', 's.student_class').as('student_class'),
    ]);
}

/** The one student read of the views and the import: the same columns, whichever key finds them. */
function selectStudents(conn: Conn) {
  return conn.selectFrom('students as s').select(STUDENT_COLUMNS);
}

/** The distinct days of the registers `filter` keeps, in order. */
async function registerDates(
  conn: Conn,
  filter: (q: ReturnType<typeof registerDays>) => ReturnType<typeof registerDays>,
): Promise<string[]> {
  const rows = await filter(registerDays(conn)).orderBy('date').execute();
  return rows.map((r) => r.date);
}

function registerDays(conn: Conn) {
  return conn.selectFrom('attendance_registers').select('date').distinct();
}

/** A term's marks (`m`, with their registers `r`) counted by student and status: what the views and the card add up. */
function termMarkCounts(conn: Conn, sessionId: number, term: string) {
  return conn
    .selectFrom('attendance_marks as m')
    .innerJoin('attendance_registers as r', 'r.id', 'm.register_id')
    .select(['m.student_id', 'm.status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('r.session_id', '=', sessionId)
    .where('r.term', '=', term)
    .groupBy(['m.student_id', 'm.status']);
}

/** All attendance SQL: registers and marks, carried-in totals. Set-based reads. (Term dates and events: calendar.) */
export class AttendanceRepository extends Repository {
  // ---------- the days of registers (the calendar asks them: `RegisterDays`) ----------

  /** The distinct dates in [from, to] with any register, in order. */
  registerDatesBetween(from: string, to: string, conn: Conn = this.db): Promise<string[]> {
    return registerDates(conn, (q) => q.where('date', '>=', from).where('date', '<=', to));
  }

  /** The distinct dates of a term's registers outside [from, to], in order. */
  registerDatesOutside(sessionId: number, term: string, from: string, to: string, conn: Conn = this.db): Promise<string[]> {
    return registerDates(conn, (q) =>
      q
        .where('session_id', '=', sessionId)
        .where('term', '=', term)
        .where((eb) => eb.or([eb('date', '<', from), eb('date', '>', to)])),
    );
  }

  /** Registers saved per term of a session. */
  async registerCounts(sessionId: number, conn: Conn = this.db): Promise<Map<string, number>> {
    const rows = await conn
      .selectFrom('attendance_registers')
      .select(['term', (eb) => eb.fn.countAll<number>().as('n')])
      .where('session_id', '=', sessionId)
      .groupBy('term')
      .execute();
    return new Map(rows.map((r) => [r.term, Number(r.n)]));
  }

  // ---------- registers ----------

  register(cls: string, date: string, period: string, conn: Conn = this.db): Promise<RegisterRecord | undefined> {
    const registers = conn.selectFrom('attendance_registers as r');
    return leftJoinPerson(leftJoinPerson(registers, 'marker', 'r.marked_by'), 'updater', 'r.updated_by')
      .select([
        'r.id',
        'r.student_class',
        'r.date',
        'r.period',
        'r.session_id',
        'r.term',
        'r.version',
        'r.marked_at',
        'r.updated_at',
        personNameOf('marker').as('marked_by_name'),
        personNameOf('updater').as('updated_by_name'),
      ])
      .where('r.student_class', '=', cls)
      .where('r.date', '=', date)
      .where('r.period', '=', period)
      .executeTakeFirst();
  }

  /**
   * The arm's students in the register's session and anyone marked on the register (moved since):
   * one UNION. In a closed session (decision 038) the arm's students are its enrolment rows, each in
   * the arm they had then; in a live one (or with no session) today's active students.
   */
  async registerStudents(cls: string, sessionId: number | null, registerId: number | null, conn: Conn = this.db): Promise<StudentRow[]> {
    const closed = sessionId !== null && (await sessionIsClosed(conn, sessionId));
    const session = { id: sessionId ?? 0, closed };
    const active = studentsInSession(conn, session).where(inArmOfSession(session, cls, ARM_COLS));
    if (registerId === null) return active.execute();
    return active
      .union(
        studentsInSession(conn, session).innerJoin('attendance_marks as m', 'm.student_id', 's.id').where('m.register_id', '=', registerId),
      )
      .execute();
  }

  marks(registerId: number, conn: Conn = this.db) {
    return conn.selectFrom('attendance_marks').select(['student_id', 'status']).where('register_id', '=', registerId).execute();
  }

  /** The marks of the students on any register dated in [from, to]. */
  marksOfStudents(studentIds: readonly number[], from: string, to: string, conn: Conn = this.db): Promise<DatedMark[]> {
    if (!studentIds.length || to < from) return Promise.resolve([]);
    return conn
      .selectFrom('attendance_marks as m')
      .innerJoin('attendance_registers as r', 'r.id', 'm.register_id')
      .select(['m.student_id', 'r.date', 'r.period', 'm.status'])
      .where('m.student_id', 'in', [...studentIds])
      .where('r.date', '>=', from)
      .where('r.date', '<=', to)
      .execute();
  }

  /** The dates of the arm's registers in [from, to] (one row per register: a day marked twice gives two). */
  armRegisterDates(cls: string, from: string, to: string, conn: Conn = this.db): Promise<{ date: string }[]> {
    if (to < from) return Promise.resolve([]);
    return conn
      .selectFrom('attendance_registers')
      .select('date')
      .where('student_class', '=', cls)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .execute();
  }

  /** The arm's registers in [from, to] with their marks (a register without marks gives one row of nulls). */
  armMarks(cls: string, from: string, to: string, conn: Conn = this.db) {
    return conn
      .selectFrom('attendance_registers as r')
      .leftJoin('attendance_marks as m', 'm.register_id', 'r.id')
      .select(['r.id as register_id', 'r.date', 'r.period', 'm.student_id', 'm.status'])
      .where('r.student_class', '=', cls)
      .where('r.date', '>=', from)
      .where('r.date', '<=', to)
      .execute();
  }

  async insertRegister(
    trx: Trx,
    v: { student_class: string; date: string; period: string; session_id: number; term: string },
    actor: number,
    at: string,
  ): Promise<number> {
    const row = await trx
      .insertInto('attendance_registers')
      .values({ ...v, version: 1, marked_by: actor, marked_at: at, updated_by: actor, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** Bumps the register's version if it still has `version`; false when someone saved it since. */
  async bumpRegister(trx: Trx, id: number, version: number, actor: number, at: string): Promise<boolean> {
    const res = await trx
      .updateTable('attendance_registers')
      .set({ version: version + 1, updated_by: actor, updated_at: at })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Writes the marks in one statement per 300 rows (insert or replace the status). */
  async upsertMarks(trx: Trx, registerId: number, marks: readonly { student_id: number; status: string }[]): Promise<void> {
    await inSlices(marks, 300, (slice) =>
      trx
        .insertInto('attendance_marks')
        .values(slice.map((m) => ({ register_id: registerId, student_id: m.student_id, status: m.status })))
        .onConflict((oc) => oc.columns(['register_id', 'student_id']).doUpdateSet({ status: (eb) => eb.ref('excluded.status') }))
        .execute(),
    );
  }

  // ---------- views ----------

  studentsByIds(ids: readonly number[], conn: Conn = this.db): Promise<StudentRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return selectStudents(conn)
      .where('s.id', 'in', [...ids])
      .execute();
  }

  /** A student's marks in a session's term, with each register's day. */
  studentTermMarks(studentId: number, sessionId: number, term: string, conn: Conn = this.db): Promise<DatedMark[]> {
    return conn
      .selectFrom('attendance_marks as m')
      .innerJoin('attendance_registers as r', 'r.id', 'm.register_id')
      .select(['m.student_id', 'r.date', 'r.period', 'm.status'])
      .where('m.student_id', '=', studentId)
      .where('r.session_id', '=', sessionId)
      .where('r.term', '=', term)
      .execute();
  }

  /** Absent and excused marks of every register on a date, with the students. */
  absentees(date: string, conn: Conn = this.db) {
    return conn
      .selectFrom('attendance_marks as m')
      .innerJoin('attendance_registers as r', 'r.id', 'm.register_id')
      .innerJoin('students as s', 's.id', 'm.student_id')
      .select(['s.id', 's.admission_number', 's.first_name', 's.last_name', 'r.student_class', 'r.period', 'm.status'])
      .where('r.date', '=', date)
      .where('m.status', 'in', ['absent', 'excused'])
      .execute();
  }

  /** Arms with active students, and those of them with a morning register on `date`. */
  async armsMarked(date: string, conn: Conn = this.db): Promise<{ withStudents: string[]; marked: Set<string> }> {
    const [arms, marked] = await Promise.all([
      conn.selectFrom('students').select('student_class').distinct().where('status', '=', 'active').orderBy('student_class').execute(),
      conn.selectFrom('attendance_registers').select('student_class').where('date', '=', date).where('period', '=', 'morning').execute(),
    ]);
    return { withStudents: arms.map((a) => a.student_class), marked: new Set(marked.map((m) => m.student_class)) };
  }

  /** Marks of a term counted by student and status (the arm's registers only when `cls` is given): one grouped query. */
  async termCounts(sessionId: number, term: string, f: { cls?: string; studentIds?: readonly number[] }, conn: Conn = this.db) {
    if (f.studentIds && !f.studentIds.length) return [];
    const rows = await termMarkCounts(conn, sessionId, term)
      .$if(f.cls !== undefined, (qb) => qb.where('r.student_class', '=', f.cls!))
      .$if(f.studentIds !== undefined, (qb) => qb.where('m.student_id', 'in', [...f.studentIds!]))
      .execute();
    return rows.map((r) => ({ student_id: Number(r.student_id), status: r.status, n: Number(r.n) }));
  }

  /**
   * The students' marks of a term counted by status, and their carried-in totals (status
   * `+present` / `+absent`), in one statement: the report card reads it on every view.
   */
  async cardCounts(sessionId: number, term: string, studentIds: readonly number[], conn: Conn = this.db) {
    if (!studentIds.length) return [];
    const ids = [...studentIds];
    const carried = (status: '+present' | '+absent') =>
      conn
        .selectFrom('attendance_carried as c')
        .select([
          'c.student_id',
          sql<string>`cast(${status} as varchar(8))`.as('status'),
          (status === '+present' ? sql<number>`c.days_present` : sql<number>`c.days_absent`).as('n'),
        ])
        .where('c.session_id', '=', sessionId)
        .where('c.term', '=', term)
        .where('c.student_id', 'in', ids);
    const rows = await termMarkCounts(conn, sessionId, term)
      .where('m.student_id', 'in', ids)
      .unionAll(carried('+present'))
      .unionAll(carried('+absent'))
      .execute();
    return rows.map((r) => ({ student_id: Number(r.student_id), status: r.status, n: Number(r.n) }));
  }

  /** Students of the totals: active ones (of the arm), and anyone marked or carried in the term (on the arm's registers). */
  async totalsStudents(sessionId: number, term: string, cls: string | undefined, conn: Conn = this.db): Promise<StudentRow[]> {
    // In a closed session (decision 038): its enrolment rows, each student in the arm they had then.
    const session = { id: sessionId, closed: await sessionIsClosed(conn, sessionId) };
    const active = studentsInSession(conn, session).where(
      cls !== undefined ? inArmOfSession(session, cls, ARM_COLS) : enrolledInSession(session, ARM_COLS),
    );
    const marked = studentsInSession(conn, session).where('s.id', 'in', (eb) =>
      eb
        .selectFrom('attendance_marks as m')
        .innerJoin('attendance_registers as r', 'r.id', 'm.register_id')
        .select('m.student_id')
        .where('r.session_id', '=', sessionId)
        .where('r.term', '=', term)
        .$if(cls !== undefined, (qb) => qb.where('r.student_class', '=', cls!)),
    );
    return active.union(marked).execute();
  }

  // ---------- carried-in totals ----------

  async carried(sessionId: number, term: string, studentIds: readonly number[] | null, conn: Conn = this.db) {
    if (studentIds && !studentIds.length) return [];
    const rows = await conn
      .selectFrom('attendance_carried')
      .select(['student_id', 'days_present', 'days_absent'])
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .$if(studentIds !== null, (qb) => qb.where('student_id', 'in', [...studentIds!]))
      .execute();
    return rows.map((r) => ({
      student_id: Number(r.student_id),
      days_present: Number(r.days_present),
      days_absent: Number(r.days_absent),
    }));
  }

  /** Every student of the school by admission number (the import checks a file against them). */
  studentsByAdmission(numbers: readonly string[], conn: Conn = this.db): Promise<StudentRow[]> {
    if (!numbers.length) return Promise.resolve([]);
    return selectStudents(conn)
      .where('s.admission_number', 'in', [...numbers])
      .execute();
  }

  async upsertCarried(
    trx: Trx,
    sessionId: number,
    term: string,
    rows: readonly { student_id: number; days_present: number; days_absent: number }[],
    actor: number,
  ): Promise<void> {
    const at = nowIso();
    await inSlices(rows, 200, (slice) =>
      trx
        .insertInto('attendance_carried')
        .values(slice.map((r) => ({ ...r, session_id: sessionId, term, updated_by: actor, updated_at: at })))
        .onConflict((oc) =>
          oc.columns(['student_id', 'session_id', 'term']).doUpdateSet({
            days_present: (eb) => eb.ref('excluded.days_present'),
            days_absent: (eb) => eb.ref('excluded.days_absent'),
            updated_by: actor,
            updated_at: at,
          }),
        )
        .execute(),
    );
  }
}
