import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/** Frozen copy of the reference tables the cache keeps (db/table-changes.ts, decision record 047). */
const TABLES = [
  'settings',
  'grading_scales',
  'session_grading_scales',
  'subjects',
  'level_subjects',
  'stream_subjects',
  'class_arms',
  'academic_sessions',
  'school_terms',
  'assessment_schemes',
  'calendar_events',
];

/**
 * PostgreSQL: each reference table notifies `portal_table_changes` with `<schema>.<table>` after every
 * statement that writes it (issue 37.4, decision record 047). NOTIFY is transactional: listeners (the
 * other instances' caches) hear it at commit, never for a rolled-back change, whatever wrote the rows
 * (the app, an import, a later migration, psql). SQLite: one process, nothing to tell; no change.
 */
export const tableChangeNotices: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await sql`
      create or replace function portal_table_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('portal_table_changes', tg_table_schema || '.' || tg_table_name);
        return null;
      end $$`.execute(db);
    for (const t of TABLES) {
      await sql
        .raw(
          `create trigger ${t}_changed after insert or update or delete or truncate on ${t} for each statement execute function portal_table_changed()`,
        )
        .execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    for (const t of TABLES) await sql.raw(`drop trigger if exists ${t}_changed on ${t}`).execute(db);
    await sql`drop function if exists portal_table_changed()`.execute(db);
  },
});
