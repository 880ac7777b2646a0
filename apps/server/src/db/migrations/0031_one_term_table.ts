import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * One term table: the report card's two fields of a term ("next term begins" and times opened, the
 * `report_terms` of migration 0016) move onto the term's row in `school_terms`, and `report_terms`
 * goes. A term the admin typed card fields for but gave no dates yet gets a row with empty dates
 * (the calendar reads only dated rows), so no value is lost. `starts_on`/`ends_on` become nullable:
 * SQLite rebuilds the table, PostgreSQL drops the constraints.
 */
export const oneTermTable: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    if (dialect === 'sqlite') {
      await db.schema
        .createTable('school_terms_new')
        .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
        .addColumn('term', 'varchar(3)', (c) => c.notNull())
        .addColumn('starts_on', 'varchar(10)')
        .addColumn('ends_on', 'varchar(10)')
        .addColumn('next_term_begins', 'text')
        .addColumn('times_opened', 'integer')
        .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('school_terms_pk', ['session_id', 'term'])
        .execute();
      await sql`insert into school_terms_new (session_id, term, starts_on, ends_on, updated_by, updated_at)
        select session_id, term, starts_on, ends_on, updated_by, updated_at from school_terms`.execute(db);
      await db.schema.dropTable('school_terms').execute();
      await db.schema.alterTable('school_terms_new').renameTo('school_terms').execute();
    } else {
      await db.schema
        .alterTable('school_terms')
        .alterColumn('starts_on', (c) => c.dropNotNull())
        .alterColumn('ends_on', (c) => c.dropNotNull())
        .execute();
      await db.schema.alterTable('school_terms').addColumn('next_term_begins', 'text').execute();
      await db.schema.alterTable('school_terms').addColumn('times_opened', 'integer').execute();
    }
    await sql`update school_terms set
        next_term_begins = (select r.next_term_begins from report_terms r where r.session_id = school_terms.session_id and r.term = school_terms.term),
        times_opened = (select r.times_opened from report_terms r where r.session_id = school_terms.session_id and r.term = school_terms.term)`.execute(
      db,
    );
    await sql`insert into school_terms (session_id, term, starts_on, ends_on, next_term_begins, times_opened, updated_by, updated_at)
      select r.session_id, r.term, null, null, r.next_term_begins, r.times_opened, r.updated_by, r.updated_at from report_terms r
      where not exists (select 1 from school_terms t where t.session_id = r.session_id and t.term = r.term)`.execute(db);
    await db.schema.dropTable('report_terms').execute();
  },
});
