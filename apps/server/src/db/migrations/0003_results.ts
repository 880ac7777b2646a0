import { sql, type Kysely } from 'kysely';
import { DEFAULT_JSS_SCALE, DEFAULT_SSS_SCALE } from '@portal/domain/grading';
import { withId, type DialectMigration } from './util';

/** Results: grading scales, publications, the result audit trail, one current session. */
export const results: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    const real = dialect === 'postgres' ? 'double precision' : 'real';

    // One row per level (JSS, SSS), starting with the default scales of packages/domain/grading.ts.
    await db.schema
      .createTable('grading_scales')
      .addColumn('level', 'text', (c) => c.primaryKey())
      .addColumn('bands', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'integer')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // Rows always exist (updated_by null = still the default), so a result save can lock its level's row.
    const at = new Date().toISOString();
    await (db as Kysely<{ grading_scales: { level: string; bands: string; updated_by: number | null; updated_at: string } }>)
      .insertInto('grading_scales')
      .values([
        { level: 'JSS', bands: JSON.stringify(DEFAULT_JSS_SCALE), updated_by: null, updated_at: at },
        { level: 'SSS', bands: JSON.stringify(DEFAULT_SSS_SCALE), updated_by: null, updated_at: at },
      ])
      .execute();

    // A class's results for a term are visible to its students only once published.
    await withId(db.schema.createTable('result_publications'), dialect)
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'text', (c) => c.notNull())
      .addColumn('student_class', 'text', (c) => c.notNull())
      .addColumn('published_by', 'integer')
      .addColumn('published_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('result_publications_one', ['session_id', 'term', 'student_class'])
      .execute();

    // Every create, change and delete of a score: who, when, before and after, queryable by student and class.
    // No foreign keys on purpose: the trail outlives the result (and the student) it describes.
    await withId(db.schema.createTable('result_audit'), dialect)
      .addColumn('result_id', 'integer', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('student_id', 'integer', (c) => c.notNull())
      .addColumn('admission_number', 'text', (c) => c.notNull())
      .addColumn('session_id', 'integer', (c) => c.notNull())
      .addColumn('term', 'text', (c) => c.notNull())
      .addColumn('student_class', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('old_score', real)
      .addColumn('new_score', real)
      .addColumn('old_remarks', 'text')
      .addColumn('new_remarks', 'text')
      .addColumn('old_grade', 'text')
      .addColumn('new_grade', 'text')
      .addColumn('actor_user_id', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('result_audit_student').on('result_audit').columns(['admission_number', 'id']).execute();
    await db.schema.createIndex('result_audit_class').on('result_audit').columns(['student_class', 'session_id', 'term', 'id']).execute();

    // Exactly one current session at most, enforced by the database itself.
    await sql`create unique index academic_sessions_one_current on academic_sessions (is_current) where is_current = 1`.execute(db);
    // The report card and the student's own views look results up by student.
    await db.schema.createIndex('results_student').on('results').columns(['student_id', 'session_id', 'term']).execute();
    // Covering index for the class ranking behind every report card: no table lookups per row.
    await db.schema
      .createIndex('results_class_scores')
      .on('results')
      .columns(['session_id', 'term', 'student_class', 'student_id', 'subject', 'score'])
      .execute();
  },
});
