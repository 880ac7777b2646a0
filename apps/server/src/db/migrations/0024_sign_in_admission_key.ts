import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Students sign in with their admission number as well as their email. The sign-in looks a number
 * up by its comparison key (no dashes or slashes, upper case: the domain's `admissionNumberKey` for
 * the characters a stored number may hold), so `stu 0001` finds STU-0001. An expression index on that
 * key, in both dialects; the sign-in query uses the identical expression (auth.repository.ts), which
 * SQLite requires to use it. Nothing is rewritten: no row changes.
 */
export const signInAdmissionKey: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('students_admission_key')
      .ifNotExists()
      .on('students')
      .expression(sql`upper(replace(replace(admission_number, '-', ''), '/', ''))`)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('students_admission_key').ifExists().execute();
  },
});
