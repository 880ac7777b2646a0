import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * Frozen copy of the tables whose writes may change a report card or who may read one, beyond the
 * reference tables migration 0044 already watches (db/table-changes.ts `UNSHOWN_TABLES` lists the
 * others; decision record 053).
 */
const TABLES = [
  'admins',
  'attendance',
  'attendance_carried',
  'attendance_marks',
  'attendance_registers',
  'bank_reference_reviews',
  'banks',
  'card_fee_releases',
  'counters',
  'fee_discounts',
  'fee_items',
  'form_teachers',
  'parent_link_conflicts',
  'parent_links',
  'payment_scans',
  'payments',
  'promotion_moves',
  'promotion_runs',
  'report_card_entries',
  'report_card_status',
  'result_audit',
  'result_publications',
  'results',
  'score_entry_windows',
  'session_teaching',
  'staff',
  'staff_capabilities',
  'streams',
  'student_enrolments',
  'student_photos',
  'student_subjects',
  'students',
  'teaching_assignments',
  'transfer_reports',
  'users',
];

/** `parents` less its sign-in bookkeeping (`last_sign_in_at`, written at every parent's sign-in). */
const PARENT_COLUMNS = ['id', 'user_id', 'name', 'phone', 'email', 'created_at', 'invited_at'];

/**
 * PostgreSQL: the card memo's tables notify `portal_table_changes` after every statement that writes
 * them, as migration 0044 made the reference tables do, so other instances drop their memoised report
 * cards at the writer's commit (decision 053). SQLite: one process, nothing to tell; no change.
 */
export const cardChangeNotices: DialectMigration = (dialect) => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    for (const t of TABLES) {
      await sql
        .raw(
          `create trigger ${t}_changed after insert or update or delete or truncate on ${t} for each statement execute function portal_table_changed()`,
        )
        .execute(db);
    }
    await sql
      .raw(
        `create trigger parents_changed after insert or delete or truncate or update of ${PARENT_COLUMNS.join(', ')} on parents for each statement execute function portal_table_changed()`,
      )
      .execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    for (const t of [...TABLES, 'parents']) await sql.raw(`drop trigger if exists ${t}_changed on ${t}`).execute(db);
  },
});
