import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Report card settings kept per session (decision record 058). `settings.report_cards` stays the
 * current session's; `session_report_settings` holds those a session ended with, so that editing
 * today's traits, pass mark or signature no longer changes last year's released cards.
 *
 * Every session before the open one (the current session, or the newest by name when none is
 * current) gets today's settings: they are what its cards showed until now, so no card changes at
 * upgrade. Sessions after it (started ahead, not yet current) keep reading the current settings.
 * A school that never saved its settings has none stored: those sessions get `{}`, read as today's
 * defaults, as the live row's absence is.
 *
 * PostgreSQL: the table notifies `portal_table_changes` as the other reference tables do (0044), so
 * other instances' caches and card memos drop what they read from it at the writer's commit.
 */
export const sessionReportSettings: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('session_report_settings')
      .addColumn('session_id', 'integer', (c) => c.primaryKey().references('academic_sessions.id').onDelete('cascade'))
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await sql`
      insert into session_report_settings (session_id, value, updated_at)
      select s.id,
             coalesce((select st.value from settings st where st.key = 'report_cards'), '{}'),
             ${new Date().toISOString()}
        from academic_sessions s
       where s.name < (select o.name from academic_sessions o
                        order by o.is_current desc, o.name desc limit 1)`.execute(db);
    if (dialect === 'postgres') {
      await sql`create trigger session_report_settings_changed after insert or update or delete or truncate on session_report_settings
        for each statement execute function portal_table_changed()`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('session_report_settings').execute();
  },
});
