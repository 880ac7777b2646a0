import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Every stored class name refers to its arm (decision record 016): each table's class column becomes
 * a foreign key to `class_arms(name)` with ON UPDATE CASCADE, so renaming an arm is an update of its
 * one `class_arms` row and the database carries the new name to every row that holds it. Deleting
 * an arm that rows still name is refused (no action), as nothing deletes arms today.
 *
 * A name with no arm (rows from before 0014 that it did not scan, such as fee items of a class with
 * no students, or rows a broken rename left behind) gets a retired arm of its own first, so no row is
 * lost and the constraint holds. A name that is not of the form "JSS 1A" gets the level '' (no level).
 *
 * PostgreSQL adds the constraints in place. SQLite cannot add a constraint to a table, so each table
 * is rebuilt (its documented procedure: foreign keys off, new table, copy, drop, rename, indexes back,
 * AUTOINCREMENT counter kept) in one transaction, then the new references are checked.
 * The list is written out here: a released migration never changes.
 */
const CLASS_COLUMNS = [
  'students',
  'results',
  'result_publications',
  'fee_items',
  'report_card_entries',
  'report_card_status',
  'attendance_registers',
] as const;
const COLUMN = 'student_class';
const CLASS_NAME = /^((?:JSS|SSS) [1-3])\s*([A-Za-z0-9][A-Za-z0-9 ]{0,19})$/;

const constraintName = (table: string) => `${table}_class_arm_fk`;

async function addMissingArms(db: Kysely<unknown>): Promise<void> {
  const names = new Set<string>();
  for (const table of CLASS_COLUMNS) {
    const rows = await sql<{ v: string }>`select distinct ${sql.ref(COLUMN)} as v from ${sql.table(table)}
      where ${sql.ref(COLUMN)} not in (select name from class_arms)`.execute(db);
    for (const r of rows.rows) names.add(r.v);
  }
  if (!names.size) return;
  const taken = new Set(
    (await sql<{ level: string; arm: string }>`select level, arm from class_arms`.execute(db)).rows.map((r) => `${r.level}|${r.arm}`),
  );
  const now = new Date().toISOString();
  let n = 0;
  for (const name of [...names].sort()) {
    const m = CLASS_NAME.exec(name);
    let level = m ? m[1]! : '';
    let arm = m ? m[2]!.trim() : '';
    if (!m || taken.has(`${level}|${arm}`)) {
      // No level of its own (or its level and label are another arm's): a placeholder label.
      level = '';
      do arm = `?${++n}`;
      while (taken.has(`|${arm}`));
    }
    taken.add(`${level}|${arm}`);
    await sql`insert into class_arms (level, arm, name, retired, created_at) values (${level}, ${arm}, ${name}, 1, ${now})`.execute(db);
  }
}

async function rebuildSqliteTable(db: Kysely<unknown>, table: string): Promise<void> {
  const temp = `arms_new_${table}`;
  const master = await sql<{ type: string; sql: string | null }>`select type, sql from sqlite_master where tbl_name = ${table}`.execute(db);
  const create = master.rows.find((r) => r.type === 'table')?.sql;
  if (!create) throw new Error(`0022: no table ${table}`);
  const head = new RegExp(`^create\\s+table\\s+("?)${table}\\1\\s*\\(`, 'i');
  const body = create.trimEnd();
  if (!head.test(body) || !body.endsWith(')')) throw new Error(`0022: cannot read the definition of ${table}`);
  const rebuilt =
    body.replace(head, `create table "${temp}" (`).slice(0, -1) +
    `, constraint "${constraintName(table)}" foreign key ("${COLUMN}") references "class_arms" ("name") on update cascade)`;
  const others = master.rows.filter((r) => r.type !== 'table' && r.sql).map((r) => r.sql!);
  const seq = await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(db).catch(() => ({ rows: [] }));

  await sql.raw(rebuilt).execute(db);
  await sql`insert into ${sql.table(temp)} select * from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(temp)} rename to ${sql.table(table)}`.execute(db);
  for (const s of others) await sql.raw(s).execute(db);
  // Kept as it was: a table with no counter row yet gets none (the copy may have made one).
  if (seq.rows[0]) await sql`update sqlite_sequence set seq = ${seq.rows[0].seq} where name = ${table}`.execute(db);
  else await sql`delete from sqlite_sequence where name = ${table}`.execute(db).catch(() => undefined);
}

export const classNameReferences: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    if (dialect === 'postgres') {
      // PostgreSQL runs the migration in a transaction already.
      await addMissingArms(db);
      for (const table of CLASS_COLUMNS) {
        await sql`alter table ${sql.table(table)} add constraint ${sql.ref(constraintName(table))}
          foreign key (${sql.ref(COLUMN)}) references class_arms (name) on update cascade`.execute(db);
      }
      return;
    }
    // SQLite: foreign keys must be off while a referenced table (students) is dropped and put back,
    // and the pragma is ignored inside a transaction, so it is set around ours.
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await db.transaction().execute(async (trx) => {
        await addMissingArms(trx);
        for (const table of CLASS_COLUMNS) await rebuildSqliteTable(trx, table);
        for (const table of CLASS_COLUMNS) {
          const bad = await sql<{ parent: string }>`select * from pragma_foreign_key_check(${table})`.execute(trx);
          if (bad.rows.some((r) => r.parent === 'class_arms')) throw new Error(`0022: ${table} names a class with no arm`);
        }
      });
    } finally {
      await sql`pragma foreign_keys = on`.execute(db);
    }
  },
});
