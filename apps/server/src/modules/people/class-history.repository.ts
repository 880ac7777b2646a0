import { sql } from 'kysely';
import type { Conn } from '../../db/index';
import { nowIso } from '../../db/index';
import { inArmOfSession, sessionIsClosed } from '../../db/class-history';
import { readTogether } from '../../db/read-together';
import type { EnrolmentOutcome } from '../../db/schema';

/** One student's arm in a closed session, as promotion writes it (decision record 038). */
export interface EnrolmentRow {
  student_id: number;
  session_id: number;
  student_class: string;
  stream_id: number | null;
  outcome: EnrolmentOutcome | null;
  run_id: number | null;
}

/** Where a student goes after a session: the arm, stream and status they have today from now on. */
export interface StudentMove {
  student_id: number;
  student_class: string;
  stream_id: number | null;
  /** 'graduated' makes the student alumni (sign-in off); 'active' (re)activates a graduate. */
  status: 'active' | 'graduated';
}

/** A student on a session's roster of an arm. */
export interface RosterStudent {
  id: number;
  user_id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  /** The student's arm in that session (the roster's arm). */
  student_class: string;
  stream_id: number | null;
  status: string;
}

/** Rows per statement: 8 parameters a row stays far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 500;
const ID_CHUNK = 1000;

function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** The SQL of class history (people's table `student_enrolments`, migration 0035). */
export class ClassHistoryRepository {
  async armsInSession(conn: Conn, sessionId: number, studentIds: readonly number[]) {
    const out: { id: number; student_class: string; stream_id: number | null }[] = [];
    if (!studentIds.length) return out;
    const closed = await sessionIsClosed(conn, sessionId);
    for (const slice of chunks([...new Set(studentIds)], ID_CHUNK)) {
      const rows = closed
        ? await conn
            .selectFrom('student_enrolments')
            .select(['student_id as id', 'student_class', 'stream_id'])
            .where('session_id', '=', sessionId)
            .where('student_id', 'in', slice)
            .execute()
        : await conn
            .selectFrom('students')
            .select(['id', 'student_class', (eb) => eb.ref('stream_id').$castTo<number | null>().as('stream_id')])
            .where('id', 'in', slice)
            .execute();
      out.push(...rows.map((r) => ({ id: r.id, student_class: r.student_class, stream_id: r.stream_id ?? null })));
    }
    return out;
  }

  /**
   * `armsInSession` for several sessions at once (the arrears' earlier sessions): which of them are
   * closed, the enrolment rows of the closed ones and today's arms for the live ones, in one statement
   * per 1,000 students (`readTogether`), whatever the number of sessions.
   */
  async armsInSessions(conn: Conn, sessionIds: readonly number[], studentIds: readonly number[]) {
    const out = new Map<number, { id: number; student_class: string; stream_id: number | null }[]>(sessionIds.map((id) => [id, []]));
    if (!studentIds.length || !sessionIds.length) return out;
    // From the enrolment rows alone (the index leading with the session): the sessions table is the
    // reference cache's (decision 047), read from memory elsewhere.
    const closedQuery = conn
      .selectFrom('student_enrolments')
      .select('session_id')
      .where('session_id', 'in', [...sessionIds])
      .groupBy('session_id');
    const reads = (slice: number[]) => ({
      // A session's enrolment rows of these students (a session with any is closed: kept below only for the closed ones).
      enrolled: conn
        .selectFrom('student_enrolments')
        .select(['session_id', 'student_id as id', 'student_class', 'stream_id'])
        .where('session_id', 'in', [...sessionIds])
        .where('student_id', 'in', slice),
      current: conn
        .selectFrom('students')
        .select(['id', 'student_class', (eb) => eb.ref('stream_id').$castTo<number | null>().as('stream_id')])
        .where('id', 'in', slice),
    });
    const slices = chunks([...new Set(studentIds)], ID_CHUNK);
    // Which sessions are closed, with the first 1,000 students' rows: one statement (issue 37.4).
    const first = await readTogether(conn, { closedRows: closedQuery, ...reads(slices[0]!) });
    const closed = new Set(first.closedRows.map((r) => Number(r.session_id)));
    const live = sessionIds.filter((id) => !closed.has(id));
    for (const [k, slice] of slices.entries()) {
      const { enrolled, current } = k === 0 ? first : await readTogether(conn, reads(slice));
      for (const r of enrolled)
        if (closed.has(Number(r.session_id)))
          out.get(Number(r.session_id))?.push({ id: r.id, student_class: r.student_class, stream_id: r.stream_id ?? null });
      for (const id of live)
        out.get(id)!.push(...current.map((r) => ({ id: r.id, student_class: r.student_class, stream_id: r.stream_id ?? null })));
    }
    return out;
  }

  async rosterInSession(conn: Conn, sessionId: number, arm: string): Promise<RosterStudent[]> {
    const closed = await sessionIsClosed(conn, sessionId);
    const q = closed
      ? conn
          .selectFrom('student_enrolments as se')
          .innerJoin('students as s', 's.id', 'se.student_id')
          .select(['se.student_class', 'se.stream_id'])
          .where('se.session_id', '=', sessionId)
          .where('se.student_class', '=', arm)
      : conn
          .selectFrom('students as s')
          .select(['s.student_class', (eb) => eb.ref('s.stream_id').$castTo<number | null>().as('stream_id')])
          .where(inArmOfSession({ id: sessionId, closed }, arm, { studentId: 's.id', currentArm: 's.student_class', status: 's.status' }));
    const rows = await q
      .select(['s.id', 's.user_id', 's.admission_number', 's.first_name', 's.last_name', 's.status'])
      .orderBy('s.last_name')
      .orderBy('s.first_name')
      .orderBy('s.id')
      .execute();
    return rows.map((r) => ({ ...r, stream_id: r.stream_id ?? null }));
  }

  async recordEnrolments(trx: Conn, rows: readonly EnrolmentRow[]): Promise<void> {
    const at = nowIso();
    for (const slice of chunks(rows, INSERT_CHUNK)) {
      // A row an earlier one-arm run wrote as the session's snapshot (no outcome yet) takes this run's outcome;
      // a row with an outcome is never overwritten.
      await trx
        .insertInto('student_enrolments')
        .values(slice.map((r) => ({ ...r, created_at: at })))
        .onConflict((oc) =>
          oc
            .columns(['student_id', 'session_id'])
            .doUpdateSet((eb) => ({
              student_class: eb.ref('excluded.student_class'),
              stream_id: eb.ref('excluded.stream_id'),
              outcome: eb.ref('excluded.outcome'),
              run_id: eb.ref('excluded.run_id'),
            }))
            .where('student_enrolments.outcome', 'is', null),
        )
        .execute();
    }
  }

  /**
   * Closes a session for every active student not promoted yet: a row of their arm today, with no
   * outcome (a one-arm run; decision record 038). Without it the session, closed by the first arm's
   * rows, would read the other arms' rosters empty until they are promoted too. One statement.
   */
  async snapshotSession(trx: Conn, sessionId: number, runId: number): Promise<void> {
    const at = nowIso();
    await trx
      .insertInto('student_enrolments')
      .columns(['student_id', 'session_id', 'student_class', 'stream_id', 'outcome', 'run_id', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('students as s')
          .select((b) => [
            's.id',
            b.val(sessionId).as('session_id'),
            's.student_class',
            's.stream_id',
            sql<null>`null`.as('outcome'),
            b.val(runId).as('run_id'),
            b.val(at).as('created_at'),
          ])
          .where('s.status', '=', 'active')
          .where((w) =>
            w.not(
              w.exists(
                w
                  .selectFrom('student_enrolments as e')
                  .select('e.id')
                  .whereRef('e.student_id', '=', 's.id')
                  .where('e.session_id', '=', sessionId),
              ),
            ),
          ),
      )
      .execute();
  }

  /**
   * A run's undo: its students' rows lose their outcome (they are back in the arm the row names, so
   * the row stays true as the session's snapshot); when no row of the session has an outcome any
   * more, the session is live again and its rows go.
   */
  async undoEnrolmentsOfRun(trx: Conn, runId: number, sessionId: number): Promise<void> {
    await trx
      .updateTable('student_enrolments')
      .set({ outcome: null })
      .where('run_id', '=', runId)
      .where('outcome', 'is not', null)
      .execute();
    const promoted = await trx
      .selectFrom('student_enrolments')
      .select('id')
      .where('session_id', '=', sessionId)
      .where('outcome', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    if (!promoted) await trx.deleteFrom('student_enrolments').where('session_id', '=', sessionId).execute();
  }

  async deleteEnrolmentsOfRun(trx: Conn, runId: number): Promise<number> {
    const res = await trx.deleteFrom('student_enrolments').where('run_id', '=', runId).executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async moveStudents(trx: Conn, moves: readonly StudentMove[]): Promise<void> {
    const now = nowIso();
    // One UPDATE per (arm, stream, status) group, in slices of ids: set-based for a whole school.
    const groups = new Map<string, { move: StudentMove; ids: number[] }>();
    for (const m of moves) {
      const key = JSON.stringify([m.student_class, m.stream_id, m.status]);
      const g = groups.get(key) ?? { move: m, ids: [] };
      g.ids.push(m.student_id);
      groups.set(key, g);
    }
    for (const { move, ids } of groups.values()) {
      for (const slice of chunks(ids, ID_CHUNK)) {
        if (move.status === 'graduated') {
          // Alumni: the account stops signing in and every token issued stops working.
          const users = trx.selectFrom('students').select('user_id').where('id', 'in', slice).where('status', '!=', 'graduated');
          await trx
            .updateTable('users')
            .set((eb) => ({ disabled: 1, token_version: eb('token_version', '+', 1), updated_at: now }))
            .where('id', 'in', users)
            .execute();
          await trx
            .updateTable('refresh_tokens')
            .set({ revoked_at: now })
            .where('user_id', 'in', trx.selectFrom('students').select('user_id').where('id', 'in', slice))
            .where('revoked_at', 'is', null)
            .execute();
        } else {
          // A graduate moved back (an undone promotion) signs in again.
          await trx
            .updateTable('users')
            .set({ disabled: 0, updated_at: now })
            .where('id', 'in', trx.selectFrom('students').select('user_id').where('id', 'in', slice).where('status', '=', 'graduated'))
            .execute();
        }
        await trx
          .updateTable('students')
          .set({
            student_class: move.student_class,
            stream_id: move.stream_id,
            status: move.status,
            graduated_at: move.status === 'graduated' ? sql<string>`coalesce(graduated_at, ${now})` : null,
            updated_at: now,
          })
          .where('id', 'in', slice)
          .execute();
      }
    }
  }
}
