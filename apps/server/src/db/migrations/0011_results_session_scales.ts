import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Grading scales belong to a session, and a change to a released
 * (published) result carries a reason.
 *
 * - `session_grading_scales`: one row per (session, level). Every existing session gets a copy of
 *   the scale it was graded with until now (the level's row of `grading_scales`), so nothing is
 *   regraded and no data is lost. `grading_scales` stays as the scale new sessions start from.
 * - `result_audit.reason`: why a released result was changed (null for other changes).
 */
export const resultsSessionScales: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('session_grading_scales')
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('bands', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'integer')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('session_grading_scales_pk', ['session_id', 'level'])
      .execute();
    await sql`insert into session_grading_scales (session_id, level, bands, updated_by, updated_at)
      select s.id, g.level, g.bands, g.updated_by, g.updated_at from academic_sessions s cross join grading_scales g`.execute(db);

    await db.schema.alterTable('result_audit').addColumn('reason', 'text').execute();
  },
});
