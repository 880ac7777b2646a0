import { nowIso, Repository, type Conn } from '../../db/index';
import { leftJoinPerson, personNameOf } from '../../db/person-name';
import { inSlices } from '../../db/slices';
import { sql, type SqlBool } from 'kysely';
import './promotion.tables';
import type { PromotionMovesTable, PromotionRunsTable } from './promotion.tables';
import '../attendance/attendance.tables';
import '../payments/payments.tables';
import '../results/results.tables';

/** What a run starts with: its row's own columns (the rest are the database's or come later). */
export type RunInsert = Pick<PromotionRunsTable, 'from_session_id' | 'to_session_id' | 'arm' | 'summary' | 'request'> & {
  total: number;
  created_by: number;
};

/** One student's move in a run (or a single move): the row without its id and time. */
export type MoveInsert = Omit<PromotionMovesTable, 'id' | 'created_at' | 'created_by'> & { created_by: number };

/**
 * SQL of promotion: its runs and moves (migration 0036), the students of a selection (read-only, with
 * class history's SQL from db/class-history.ts), and one read across other modules' tables:
 * whether the new session already has scores, registers or payments (`sessionActivity`), the undo's
 * condition. Like the first-run checklist (decision 023) it asks only whether rows exist, in one
 * statement, and writes nothing there (decision record 039).
 */
/** A student of a promotion's selection, with whether they already have an enrolment row in the ending session (promoted already). */
export interface PromotionCandidate {
  id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  /** The student's arm today (for a student not yet promoted: their arm in the ending session). */
  student_class: string;
  stream_id: number | null;
  status: string;
  enrolled: boolean;
}

export class PromotionRepository extends Repository {
  /**
   * The students of a promotion: of `arm` today (or every arm), active or withdrawn, each with whether
   * they already have an enrolment row in the ending session (promoted already, by an earlier run).
   * One statement for the whole school.
   */
  async candidates(sessionId: number, arm: string | undefined, conn: Conn = this.db): Promise<PromotionCandidate[]> {
    const rows = await conn
      .selectFrom('students as s')
      .select([
        's.id',
        's.admission_number',
        's.first_name',
        's.last_name',
        's.student_class',
        (eb) => eb.ref('s.stream_id').$castTo<number | null>().as('stream_id'),
        's.status',
        // An enrolment row with an outcome in the ending session (class history, decision 038): promoted by an
        // earlier run. A row without one is the snapshot a one-arm run left: not promoted yet.
        sql<SqlBool>`exists (select 1 from student_enrolments se where se.student_id = ${sql.ref('s.id')} and se.session_id = ${sessionId} and se.outcome is not null)`.as(
          'enrolled',
        ),
      ])
      .where('s.status', 'in', ['active', 'withdrawn'])
      .$if(arm !== undefined, (q) => q.where('s.student_class', '=', arm!))
      .orderBy('s.student_class')
      .orderBy('s.last_name')
      .orderBy('s.first_name')
      .orderBy('s.id')
      .execute();
    return rows.map((r) => ({ ...r, stream_id: r.stream_id ?? null, enrolled: r.enrolled === true || Number(r.enrolled) === 1 }));
  }

  /** A student by admission number (upper case) for a single move. */
  async student(admissionNumber: string, conn: Conn = this.db) {
    const r = await conn
      .selectFrom('students')
      .select([
        'id',
        'admission_number',
        'first_name',
        'last_name',
        'student_class',
        (eb) => eb.ref('stream_id').$castTo<number | null>().as('stream_id'),
        'status',
      ])
      .where('admission_number', '=', admissionNumber)
      .executeTakeFirst();
    return r && { ...r, stream_id: r.stream_id ?? null };
  }

  async insertRun(conn: Conn, r: RunInsert): Promise<number> {
    const row = await conn
      .insertInto('promotion_runs')
      .values({ ...r, status: 'running', error: null, created_at: nowIso(), finished_at: null, undone_by: null, undone_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async finishRun(conn: Conn, id: number, f: { status: string; summary?: string; error?: string | null }): Promise<void> {
    await conn
      .updateTable('promotion_runs')
      .set({
        status: f.status,
        finished_at: nowIso(),
        ...(f.summary !== undefined ? { summary: f.summary } : {}),
        ...(f.error !== undefined ? { error: f.error } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  async markUndone(conn: Conn, id: number, actor: number): Promise<void> {
    await conn
      .updateTable('promotion_runs')
      .set({ status: 'undone', undone_by: actor, undone_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  private runsQuery(conn: Conn) {
    return leftJoinPerson(conn.selectFrom('promotion_runs as p'), 'creator', 'p.created_by').select([
      'p.id',
      'p.from_session_id',
      'p.to_session_id',
      'p.arm',
      'p.status',
      'p.total',
      'p.summary',
      'p.created_at',
      'p.finished_at',
      'p.error',
      personNameOf('creator').as('created_by_name'),
    ]);
  }

  run(id: number, conn: Conn = this.db) {
    return this.runsQuery(conn).where('p.id', '=', id).executeTakeFirst();
  }

  runs(conn: Conn = this.db) {
    return this.runsQuery(conn).orderBy('p.id', 'desc').limit(200).execute();
  }

  /** The run locked for its undo (PostgreSQL: two undos of one run queue; the second sees it undone). */
  runForUpdate(trx: Conn, id: number) {
    return trx
      .selectFrom('promotion_runs')
      .select(['id', 'status', 'to_session_id', 'from_session_id'])
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  async hasRunning(conn: Conn = this.db): Promise<boolean> {
    const row = await conn.selectFrom('promotion_runs').select('id').where('status', '=', 'running').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async insertMoves(trx: Conn, rows: readonly MoveInsert[]): Promise<void> {
    const at = nowIso();
    await inSlices(rows, 200, (slice) =>
      trx
        .insertInto('promotion_moves')
        .values(slice.map((r) => ({ ...r, created_at: at })))
        .returning('id')
        .execute(),
    );
  }

  movesOfRun(runId: number, conn: Conn = this.db) {
    return conn
      .selectFrom('promotion_moves')
      .select(['id', 'student_id', 'outcome', 'from_class', 'from_stream_id', 'from_status', 'to_class', 'to_stream_id', 'to_status'])
      .where('run_id', '=', runId)
      .orderBy('id')
      .execute();
  }

  /** Whether another run moved any of this run's students after it (its undo would overwrite that one's moves). */
  async laterRunMoves(runId: number, conn: Conn = this.db): Promise<boolean> {
    const row = await conn
      .selectFrom('promotion_moves as later')
      .innerJoin('promotion_runs as r', 'r.id', 'later.run_id')
      .select('later.id')
      .where('later.run_id', '>', runId)
      .where('r.status', '=', 'done')
      .where('later.student_id', 'in', (eb) => eb.selectFrom('promotion_moves').select('student_id').where('run_id', '=', runId))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Whether the session has scores, registers or successful payments: three `exists` probes in one statement. */
  async sessionActivity(sessionId: number, conn: Conn = this.db): Promise<{ scores: boolean; registers: boolean; payments: boolean }> {
    const row = await conn
      .selectNoFrom((eb) => [
        eb.exists(eb.selectFrom('results').select('id').where('session_id', '=', sessionId)).as('scores'),
        eb.exists(eb.selectFrom('attendance_registers').select('id').where('session_id', '=', sessionId)).as('registers'),
        eb
          .exists(eb.selectFrom('payments').select('id').where('session_id', '=', sessionId).where('status', '=', 'successful'))
          .as('payments'),
      ])
      .executeTakeFirstOrThrow();
    const yes = (v: unknown) => v === true || Number(v) === 1;
    return { scores: yes(row.scores), registers: yes(row.registers), payments: yes(row.payments) };
  }
}
