import type { Conn, Trx } from '../../db/index';
import { cachedRead } from '../../db/reference-cache';
import { sql } from 'kysely';
import { RESULT_MESSAGES, type GradeBand, type Level } from '@portal/domain';
import { nowIso, Repository } from '../../db/index';
import './results.tables';
import { isReleased } from './result-rows.queries';

/** The reason recorded on each result a scale change regrades. */
const REGRADE_REASON = RESULT_MESSAGES.regradeReason;

/**
 * The class names of a level, as a LIKE pattern: every class name starts with its level ("JSS 1A",
 * "SSS 2 Gold"), so this covers the school's current and retired arms alike without listing them.
 */
const classesOf = (level: Level) => `${level} %`;

/** A score range [from, below) of one band; null bounds are open. */
export interface BandRange {
  grade: string;
  from: number | null;
  below: number | null;
}

/**
 * SQL of grading scales. Each session has its own scale per level (`session_grading_scales`,
 * migration 0011); `grading_scales` is the scale a new session starts from.
 */
export class GradingRepository extends Repository {
  /**
   * The session's scale of a level, read inside a result-saving transaction. A session graded for
   * the first time takes the template scale, stored for it so later template changes never touch
   * it. On PostgreSQL the row is share-locked, so a concurrent scale change (which updates that row,
   * then regrades) waits for the save, or the save waits and then grades with the new scale: a grade
   * never mixes old and new bands. SQLite transactions are serialized already.
   */
  async lockedSessionBands(trx: Trx, sessionId: number, level: Level): Promise<string | undefined> {
    const read = () =>
      trx
        .selectFrom('session_grading_scales')
        .select('bands')
        .where('session_id', '=', sessionId)
        .where('level', '=', level)
        .$if(this.dialect === 'postgres', (q) => q.forShare())
        .executeTakeFirst();
    const row = await read();
    if (row) return row.bands;
    const template = await this.get(level, trx);
    if (!template) return undefined;
    await trx
      .insertInto('session_grading_scales')
      .values({ session_id: sessionId, level, bands: template.bands, updated_by: null, updated_at: nowIso() })
      .onConflict((oc) => oc.columns(['session_id', 'level']).doNothing())
      .execute();
    return (await read())?.bands;
  }

  all(conn: Conn = this.db) {
    return cachedRead(conn, 'scales', ['grading_scales'], () => this.templates(conn).execute());
  }

  ofSession(sessionId: number, conn: Conn = this.db) {
    return cachedRead(conn, `session-scales:${sessionId}`, ['session_grading_scales'], () => this.sessionScales(sessionId, conn).execute());
  }

  get(level: Level, conn: Conn = this.db) {
    return this.templates(conn).where('level', '=', level).executeTakeFirst();
  }

  getOfSession(sessionId: number, level: Level, conn: Conn = this.db) {
    return this.sessionScales(sessionId, conn).where('level', '=', level).executeTakeFirst();
  }

  /** The template scales (what new sessions start from), one per level. */
  private templates(conn: Conn) {
    return conn.selectFrom('grading_scales').select(['level', 'bands', 'updated_at', 'updated_by']);
  }

  /** A session's own scales, one per level. */
  private sessionScales(sessionId: number, conn: Conn) {
    return conn
      .selectFrom('session_grading_scales')
      .select(['level', 'bands', 'updated_at', 'updated_by'])
      .where('session_id', '=', sessionId);
  }

  /** How many levels have a scale of their own in a session. */
  async sessionScaleCount(sessionId: number, conn: Conn = this.db): Promise<number> {
    return (await this.sessionScales(sessionId, conn).execute()).length;
  }

  /** Copies a session's own scales into another (a level `to` has already keeps its own). Returns how many were added. */
  async copySessionScales(trx: Trx, from: number, to: number, actor: number): Promise<number> {
    const r = await trx
      .insertInto('session_grading_scales')
      .columns(['session_id', 'level', 'bands', 'updated_by', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('session_grading_scales as s')
          .select([
            sql<number>`${to}`.as('session_id'),
            's.level',
            's.bands',
            sql<number>`${actor}`.as('updated_by'),
            sql<string>`${nowIso()}`.as('updated_at'),
          ])
          .where('s.session_id', '=', from),
      )
      .onConflict((oc) => oc.columns(['session_id', 'level']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0);
  }

  /** Saves the template scale (what new sessions start from). */
  async put(conn: Conn, level: Level, bands: GradeBand[], actor: number): Promise<void> {
    const values = { level, bands: JSON.stringify(bands), updated_by: actor, updated_at: nowIso() };
    await conn
      .insertInto('grading_scales')
      .values(values)
      .onConflict((oc) => oc.column('level').doUpdateSet({ bands: values.bands, updated_by: actor, updated_at: values.updated_at }))
      .execute();
  }

  async putOfSession(conn: Conn, sessionId: number, level: Level, bands: GradeBand[], actor: number): Promise<string> {
    const values = { session_id: sessionId, level, bands: JSON.stringify(bands), updated_by: actor, updated_at: nowIso() };
    await conn
      .insertInto('session_grading_scales')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['session_id', 'level']).doUpdateSet({ bands: values.bands, updated_by: actor, updated_at: values.updated_at }),
      )
      .execute();
    return values.updated_at;
  }

  /** Results of one session and level whose stored grade differs from the band's grade for their score. */
  private changing(conn: Conn, sessionId: number, level: Level, r: BandRange) {
    return conn
      .selectFrom('results')
      .where('results.session_id', '=', sessionId)
      .where('results.student_class', 'like', classesOf(level))
      .where('results.grade', '!=', r.grade)
      .$if(r.from !== null, (q) => q.where('results.score', '>=', r.from!))
      .$if(r.below !== null, (q) => q.where('results.score', '<', r.below!));
  }

  /** How many results of the session's level a band would regrade, and how many of those are released. */
  async countChanges(conn: Conn, sessionId: number, level: Level, r: BandRange): Promise<{ changes: number; released: number }> {
    const all = await this.changing(conn, sessionId, level, r)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const released = await this.changing(conn, sessionId, level, r)
      .where(isReleased('results'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return { changes: Number(all.n), released: Number(released.n) };
  }

  /**
   * Regrades the session's results of the level in [from, below): first one `regrade` row per changed
   * result in the result audit trail (so Result History shows it), then one set-based UPDATE.
   */
  async regradeRange(conn: Conn, sessionId: number, level: Level, r: BandRange, actor: number, at: string): Promise<number> {
    await conn
      .insertInto('result_audit')
      .columns([
        'result_id',
        'action',
        'student_id',
        'admission_number',
        'session_id',
        'term',
        'student_class',
        'subject',
        'old_score',
        'new_score',
        'old_remarks',
        'new_remarks',
        'old_grade',
        'new_grade',
        'actor_user_id',
        'created_at',
        'reason',
      ])
      .expression(
        this.changing(conn, sessionId, level, r)
          .innerJoin('students', 'students.id', 'results.student_id')
          .select([
            'results.id',
            sql<string>`cast(${'regrade'} as text)`.as('action'),
            'results.student_id',
            'students.admission_number',
            'results.session_id',
            'results.term',
            'results.student_class',
            'results.subject',
            'results.score as old_score',
            'results.score as new_score',
            'results.remarks as old_remarks',
            'results.remarks as new_remarks',
            'results.grade as old_grade',
            sql<string>`cast(${r.grade} as text)`.as('new_grade'),
            sql<number>`cast(${actor} as integer)`.as('actor_user_id'),
            sql<string>`cast(${at} as text)`.as('created_at'),
            sql<string>`cast(${REGRADE_REASON} as text)`.as('reason'),
          ]),
      )
      .execute();
    const res = await conn
      .updateTable('results')
      .set({ grade: r.grade })
      .where('session_id', '=', sessionId)
      .where('student_class', 'like', classesOf(level))
      .where('grade', '!=', r.grade)
      .$if(r.from !== null, (q) => q.where('score', '>=', r.from!))
      .$if(r.below !== null, (q) => q.where('score', '<', r.below!))
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }
}
