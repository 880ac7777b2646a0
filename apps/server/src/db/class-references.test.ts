import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase, withTestContext, type TestContext } from '../../test/helpers';
import type { DatabaseHandle } from './index';

/**
 * Decision 016: every column that holds a class name refers to its arm — a foreign key to
 * `class_arms(name)` ON UPDATE CASCADE (or to `class_arms(id)`) — so renaming an arm, one row, reaches
 * every table. This reads the migrated schema itself, so a table added later with a class column that a
 * rename would miss fails here. History columns keep the name as it was and are listed with why.
 */
const HISTORY: Record<string, string> = {
  // The score's audit trail: what the row said when it was changed.
  'result_audit.student_class': 'history',
  // A receipt's class on the day it was paid.
  'payments.current_class': 'history',
};

/** A column holds a class name when its name says "class" (a class level, fixed, is not one). */
const holdsClassName = (column: string) => /class/.test(column) && !/level/.test(column);

interface Reference {
  table: string;
  column: string;
  refTable: string;
  refColumn: string;
  onUpdate: string;
}

async function classColumns(handle: DatabaseHandle): Promise<{ columns: string[]; refs: Reference[] }> {
  const columns: string[] = [];
  const refs: Reference[] = [];
  if (handle.dialect === 'sqlite') {
    const tables = handle.sqlite!.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as {
      name: string;
    }[];
    for (const { name } of tables) {
      for (const c of handle.sqlite!.prepare('select name from pragma_table_info(?)').all(name) as { name: string }[])
        columns.push(`${name}.${c.name}`);
      for (const f of handle.sqlite!.prepare('select * from pragma_foreign_key_list(?)').all(name) as {
        table: string;
        from: string;
        to: string;
        on_update: string;
      }[])
        refs.push({ table: name, column: f.from, refTable: f.table, refColumn: f.to, onUpdate: f.on_update });
    }
  } else {
    // pg_catalog, scoped to this test's schema: the information_schema views join across every schema
    // in the database and took over 30 s while the full suite's other schemas existed beside this one.
    const cols = await sql<{ t: string; c: string }>`select c.relname as t, a.attname as c
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`.execute(
      handle.db,
    );
    for (const r of cols.rows) columns.push(`${r.t}.${r.c}`);
    // One row per column of each single- or multi-column foreign key; confupdtype 'c' is ON UPDATE CASCADE.
    const fks = await sql<{ t: string; c: string; rt: string; rc: string; u: string }>`
      select src.relname as t, sa.attname as c, dst.relname as rt, da.attname as rc,
        case k.confupdtype when 'c' then 'CASCADE' when 'r' then 'RESTRICT' when 'n' then 'SET NULL'
          when 'd' then 'SET DEFAULT' else 'NO ACTION' end as u
      from pg_constraint k
      join pg_class src on src.oid = k.conrelid
      join pg_class dst on dst.oid = k.confrelid
      cross join lateral unnest(k.conkey, k.confkey) as pair(src_att, dst_att)
      join pg_attribute sa on sa.attrelid = k.conrelid and sa.attnum = pair.src_att
      join pg_attribute da on da.attrelid = k.confrelid and da.attnum = pair.dst_att
      where k.contype = 'f' and k.connamespace = current_schema()::regnamespace`.execute(handle.db);
    for (const r of fks.rows) refs.push({ table: r.t, column: r.c, refTable: r.rt, refColumn: r.rc, onUpdate: r.u });
  }
  return { columns: columns.filter((c) => holdsClassName(c.split('.')[1]!)).sort(), refs };
}

/** The class columns a rename of `class_arms` would not reach. */
async function missedByRename(handle: DatabaseHandle): Promise<string[]> {
  const { columns, refs } = await classColumns(handle);
  return columns.filter((col) => {
    if (HISTORY[col]) return false;
    const [table, column] = col.split('.');
    return !refs.some(
      (r) =>
        r.table === table &&
        r.column === column &&
        r.refTable === 'class_arms' &&
        (r.refColumn === 'id' || (r.refColumn === 'name' && r.onUpdate.toUpperCase() === 'CASCADE')),
    );
  });
}

describeEachDatabase('class name columns', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));

  it('every table with a class column refers to class_arms so a rename reaches it', async () => {
    const { columns } = await classColumns(ctx.handle);
    // The ones there are today, so the check is known to look at them.
    expect(columns).toEqual(
      expect.arrayContaining([
        'attendance_registers.student_class',
        'fee_items.student_class',
        'report_card_entries.student_class',
        'report_card_status.student_class',
        'result_publications.student_class',
        'results.student_class',
        'students.student_class',
      ]),
    );
    expect(await missedByRename(ctx.handle)).toEqual([]);
  });

  it('fails for a class column added without the reference', async () => {
    await sql`create table probe_sheet (id integer primary key, student_class varchar(40) not null)`.execute(ctx.handle.db);
    try {
      expect(await missedByRename(ctx.handle)).toEqual(['probe_sheet.student_class']);
    } finally {
      await sql`drop table probe_sheet`.execute(ctx.handle.db);
    }
  });
});
