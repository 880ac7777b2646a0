import type { Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/**
 * Parents (issue 33, docs/decisions/035). `users.role` may now be 'parent' (a text column without a
 * check: nothing to alter). New tables only, nothing existing changes:
 * - `parents`: one per parent account, identified by a Nigerian mobile number in E.164 (unique);
 * - `parent_links`: which students a parent reaches, with the relationship and where it came from;
 * - `parent_link_conflicts`: a phone given for a student under a name that disagrees with the
 *   phone's parent, held for the admin to settle (never merged silently); `resolved_at` once settled.
 * Existing students' father/mother phones are linked by the admin's one-time action
 * (POST /api/parents/backfill/), which uses the same rules as the student form.
 */
export const parents: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('parents'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('phone', 'varchar(20)', (c) => c.notNull().unique())
      .addColumn('email', 'text')
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('invited_at', 'varchar(30)')
      .addColumn('last_sign_in_at', 'varchar(30)')
      .execute();
    await withId(db.schema.createTable('parent_links'), dialect)
      .addColumn('parent_id', 'integer', (c) => c.notNull().references('parents.id').onDelete('cascade'))
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('relationship', 'varchar(20)', (c) => c.notNull())
      .addColumn('source', 'varchar(20)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addUniqueConstraint('parent_links_pair', ['parent_id', 'student_id'])
      .execute();
    // The access scope and the family's screens go from a student to their parents.
    await db.schema.createIndex('parent_links_student').on('parent_links').column('student_id').execute();
    await withId(db.schema.createTable('parent_link_conflicts'), dialect)
      .addColumn('phone', 'varchar(20)', (c) => c.notNull())
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('relationship', 'varchar(20)', (c) => c.notNull())
      .addColumn('name_given', 'text', (c) => c.notNull())
      .addColumn('source', 'varchar(20)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('resolved_at', 'varchar(30)')
      .addColumn('resolution', 'varchar(20)')
      .addUniqueConstraint('parent_link_conflicts_one', ['phone', 'student_id', 'relationship'])
      .execute();
    await db.schema.createIndex('parent_link_conflicts_student').on('parent_link_conflicts').column('student_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('parent_link_conflicts').ifExists().execute();
    await db.schema.dropTable('parent_links').ifExists().execute();
    await db.schema.dropTable('parents').ifExists().execute();
  },
});
