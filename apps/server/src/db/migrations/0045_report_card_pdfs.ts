import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * PDFs made once (issue 37 item 3, docs/decisions/050): the released report cards' PDFs, stored in the
 * database (both instances behind nginx share it; they may not share a disk) with the fingerprint of
 * everything the card shows. `report_card_pdfs`: one file per student's term card and audience (the
 * student's view hides unreleased terms, the staff's shows them). `report_class_pdfs`: an arm's
 * cards as one file, assembled from the stored cards. Derived data: deleting a row only costs a
 * render on the next request. A new pair of tables only.
 */
export const reportCardPdfs: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`;
    await db.schema
      .createTable('report_card_pdfs')
      .addColumn('student_id', 'integer', (c) => c.notNull().references('students.id').onDelete('cascade'))
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(4)', (c) => c.notNull())
      .addColumn('audience', 'varchar(8)', (c) => c.notNull())
      .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
      .addColumn('pdf', bytes, (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('rendered_at', 'varchar(30)', (c) => c.notNull())
      .addPrimaryKeyConstraint('report_card_pdfs_pk', ['student_id', 'session_id', 'term', 'audience'])
      .execute();
    await db.schema
      .createTable('report_class_pdfs')
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'varchar(4)', (c) => c.notNull())
      // By the arm's name, so a rename reaches it (the file itself is redrawn: its fingerprint changes with the name).
      .addColumn('student_class', 'varchar(100)', (c) =>
        c.notNull().references('class_arms.name').onUpdate('cascade').onDelete('cascade'),
      )
      .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
      .addColumn('pdf', bytes, (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('rendered_at', 'varchar(30)', (c) => c.notNull())
      .addPrimaryKeyConstraint('report_class_pdfs_pk', ['session_id', 'term', 'student_class'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('report_class_pdfs').execute();
    await db.schema.dropTable('report_card_pdfs').execute();
  },
});
