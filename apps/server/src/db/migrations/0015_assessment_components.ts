import type { Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Assessment components: a scheme (components with labels and maxima) per session and level, and
 * each result's component scores. Nothing stored changes: a level without a scheme row has the
 * single component of 100, and every existing result keeps its score as its total with no component
 * scores (`components` null), which is what a one-score result is.
 */
export const assessmentComponents: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('assessment_schemes')
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('level', 'varchar(3)', (c) => c.notNull())
      // JSON array of {name, label, max}
      .addColumn('components', 'text', (c) => c.notNull())
      .addColumn('precision', 'varchar(12)', (c) => c.notNull().defaultTo('one_decimal'))
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('assessment_schemes_pk', ['session_id', 'level'])
      .execute();
    // JSON object label → marks or "ABS"; null: entered as one score.
    await db.schema.alterTable('results').addColumn('components', 'text').execute();
    await db.schema.alterTable('result_audit').addColumn('old_components', 'text').execute();
    await db.schema.alterTable('result_audit').addColumn('new_components', 'text').execute();
  },
});
