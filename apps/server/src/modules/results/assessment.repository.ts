import { sql } from 'kysely';
import { cachedRead } from '../../db/reference-cache';
import type { Conn, Trx } from '../../db/index';
import { nowIso, type DB } from '../../db/index';
import './results.tables';

/** SQL of assessment schemes (one row per session and level; none = the default scheme). */
export class AssessmentRepository {
  constructor(
    private readonly db: DB,
    private readonly dialect: 'sqlite' | 'postgres',
  ) {}

  /**
   * A level's scheme row for a session. Inside a result-saving transaction on PostgreSQL the row is
   * share-locked, so a scheme change waits for the save (or the save for the change).
   */
  get(sessionId: number, level: string, conn: Conn = this.db, lock: 'share' | 'update' | null = null) {
    if (lock) return this.scheme(sessionId, level, conn, lock);
    return cachedRead(conn, `scheme:${sessionId}:${level}`, ['assessment_schemes'], () => this.scheme(sessionId, level, conn, null));
  }

  private scheme(sessionId: number, level: string, conn: Conn, lock: 'share' | 'update' | null) {
    return conn
      .selectFrom('assessment_schemes')
      .select(['session_id', 'level', 'components', 'precision', 'updated_at'])
      .where('session_id', '=', sessionId)
      .where('level', '=', level)
      .$if(lock === 'share' && this.dialect === 'postgres', (q) => q.forShare())
      .$if(lock === 'update' && this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  ofSession(sessionId: number, conn: Conn = this.db) {
    return cachedRead(conn, `schemes:${sessionId}`, ['assessment_schemes'], () => this.schemesOfSession(sessionId, conn));
  }

  private schemesOfSession(sessionId: number, conn: Conn) {
    return conn
      .selectFrom('assessment_schemes')
      .select(['session_id', 'level', 'components', 'precision', 'updated_at'])
      .where('session_id', '=', sessionId)
      .execute();
  }

  /** Copies a session's schemes into another (a level `to` has already keeps its own). Returns how many were added. */
  async copySession(trx: Trx, from: number, to: number, actor: number): Promise<number> {
    const r = await trx
      .insertInto('assessment_schemes')
      .columns(['session_id', 'level', 'components', 'precision', 'updated_by', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('assessment_schemes as s')
          .select([
            sql<number>`${to}`.as('session_id'),
            's.level',
            's.components',
            's.precision',
            sql<number>`${actor}`.as('updated_by'),
            sql<string>`${nowIso()}`.as('updated_at'),
          ])
          .where('s.session_id', '=', from),
      )
      .onConflict((oc) => oc.columns(['session_id', 'level']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0);
  }

  /**
   * Results of a session by level (the class name's first three letters: JSS or SSS), counted apart
   * by whether they hold component scores. One query for both levels.
   */
  async resultCounts(sessionId: number, conn: Conn = this.db): Promise<Map<string, { components: number; totalOnly: number }>> {
    const rows = await conn
      .selectFrom('results')
      .select([
        sql<string>`substr(student_class, 1, 3)`.as('level'),
        sql<number>`sum(case when components is null then 0 else 1 end)`.as('with_components'),
        sql<number>`sum(case when components is null then 1 else 0 end)`.as('total_only'),
      ])
      .where('session_id', '=', sessionId)
      .groupBy(sql`substr(student_class, 1, 3)`)
      .execute();
    return new Map(rows.map((r) => [r.level, { components: Number(r.with_components), totalOnly: Number(r.total_only) }]));
  }

  async upsert(conn: Conn, v: { session_id: number; level: string; components: string; precision: string; actor: number }): Promise<void> {
    const now = nowIso();
    await conn
      .insertInto('assessment_schemes')
      .values({
        session_id: v.session_id,
        level: v.level,
        components: v.components,
        precision: v.precision,
        updated_by: v.actor,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['session_id', 'level'])
          .doUpdateSet({ components: v.components, precision: v.precision, updated_by: v.actor, updated_at: now }),
      )
      .execute();
  }
}
