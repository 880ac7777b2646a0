import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * A user's email becomes optional: pupils are often registered without one (their parents' phones
 * are the contacts) and sign in with their admission number. Unique among the emails that exist:
 * both dialects let a unique column hold any number of nulls. No row changes.
 *
 * PostgreSQL drops the NOT NULL. SQLite cannot, so the table is rebuilt the documented way
 * (https://sqlite.org/lang_altertable.html#otheralter): the new table is made from the stored
 * CREATE TABLE text with only the email's NOT NULL removed, so every column any earlier migration
 * added is kept; every row is copied with its id; the table's own indexes and triggers are made
 * again and the AUTOINCREMENT counter is carried over (ids of deleted users are never reused).
 * Foreign keys are off during the swap (dropping `users` with them on would cascade to every
 * table that references it) and checked before the commit.
 */
export const usersEmailOptional: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    if (dialect === 'postgres') {
      await sql`alter table users alter column email drop not null`.execute(db);
      return;
    }
    const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'users'`.execute(db);
    const createSql = table.rows[0]?.sql;
    if (!createSql) throw new Error('0025: no users table');
    const emailDef = /("email"\s+text)\s+not\s+null(\s+unique)/i;
    if (!emailDef.test(createSql)) throw new Error(`0025: unexpected users table: ${createSql}`);
    const newSql = createSql.replace(/^CREATE TABLE\s+"?users"?/i, 'CREATE TABLE "users_0025"').replace(emailDef, '$1$2');
    const extras = await sql<{
      sql: string;
    }>`select sql from sqlite_master where tbl_name = 'users' and type in ('index', 'trigger') and sql is not null`.execute(db);
    const seq = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'users'`.execute(db);

    // PRAGMA foreign_keys is a no-op inside a transaction: set it before BEGIN (SQLite migrations
    // run outside one: Kysely's SQLite adapter has no transactional DDL).
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await sql`begin`.execute(db);
      try {
        await sql.raw(newSql).execute(db);
        await sql`insert into users_0025 select * from users`.execute(db);
        await sql`drop table users`.execute(db);
        await sql`alter table users_0025 rename to users`.execute(db);
        for (const e of extras.rows) await sql.raw(e.sql).execute(db);
        if (seq.rows[0]) await sql`update sqlite_sequence set seq = ${seq.rows[0].seq} where name = 'users'`.execute(db);
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length) throw new Error(`0025: foreign keys broken by the rebuild: ${JSON.stringify(broken.rows.slice(0, 5))}`);
        await sql`commit`.execute(db);
      } catch (err) {
        await sql`rollback`.execute(db);
        throw err;
      }
    } finally {
      await sql`pragma foreign_keys = on`.execute(db);
    }
  },
});
