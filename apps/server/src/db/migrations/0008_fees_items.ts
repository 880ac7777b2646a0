import { sql, type Kysely } from 'kysely';
import { withId, type DialectMigration } from './util';

/** One key per item name, as packages/domain's feeItemKey (kept here: a migration never changes). */
function nameKey(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
}

interface OldSchedule {
  id: number;
  student_class: string;
  session_id: number;
  term: string;
  amount_kobo: number;
  description: string;
  created_at: string;
  updated_at: string;
}

/**
 * Fee items: a term's fees are several named items per class (tuition, PTA levy,
 * books, optional bus), not one amount per class and term. Every fee schedule of the previous
 * release becomes one compulsory item with the same id (so its address keeps working), amount,
 * description and timestamps, named after its description ("School fees" when it had none);
 * then the old table, whose one-per-term constraint is what this replaces, is dropped.
 */
export const feesItems: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('fee_items'), dialect)
      .addColumn('student_class', 'text', (c) => c.notNull())
      .addColumn('session_id', 'integer', (c) => c.notNull().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('term', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('amount_kobo', 'integer', (c) => c.notNull())
      .addColumn('compulsory', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('fee_items_one_name_per_term', ['session_id', 'student_class', 'term', 'name_key'])
      .addCheckConstraint('fee_items_amount_positive', sql`amount_kobo > 0`)
      .addCheckConstraint('fee_items_compulsory_bool', sql`compulsory in (0, 1)`)
      .execute();

    const old =
      await sql<OldSchedule>`select id, student_class, session_id, term, amount_kobo, description, created_at, updated_at from fee_schedules order by id`.execute(
        db,
      );
    for (let i = 0; i < old.rows.length; i += 200) {
      const chunk = old.rows.slice(i, i + 200).map((r) => {
        const d = String(r.description ?? '')
          .trim()
          .replace(/\s+/g, ' ');
        const name = d ? d.slice(0, 80) : 'School fees';
        return { ...r, id: Number(r.id), name, name_key: nameKey(name), compulsory: 1, description: r.description ?? '' };
      });
      await db
        .insertInto('fee_items' as never)
        .values(chunk)
        .execute();
    }
    if (dialect === 'postgres') {
      // Ids were copied: move the serial past them.
      await sql`select setval(pg_get_serial_sequence('fee_items', 'id'), coalesce((select max(id) from fee_items), 0) + 1, false)`.execute(
        db,
      );
    }
    const copied = await sql<{ n: number | string }>`select count(*) as n from fee_items`.execute(db);
    if (Number(copied.rows[0]?.n ?? 0) !== old.rows.length) throw new Error('fee_items: not every fee schedule was copied');

    await db.schema.dropTable('fee_schedules').execute();
    // The class report and the payment form read a class's items of one session.
    await db.schema.createIndex('fee_items_class').on('fee_items').columns(['student_class', 'session_id', 'term']).execute();
  },
});
