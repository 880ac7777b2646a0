import { sql } from 'kysely';
import { nowIso, type Conn, Repository } from '../../db/index';
import { inSlices } from '../../db/slices';
import { ENTRY_FIELDS, type ReportCardEntriesTable } from './report-cards.tables';
import './results.tables';

/** A student's stored card entry for a term. */
export type EntryRow = Pick<ReportCardEntriesTable, (typeof ENTRY_FIELDS)[number] | 'version'>;

/** An entry as written: every field (the service merges a save over what is stored). */
export interface EntryWrite extends Omit<EntryRow, 'version'> {
  /** The version the writer read (0: no entry yet); the row is written only if it still has it. */
  version: number;
}

/**
 * SQL of the report card sheets: the students' card entries, the term's dates and the arm's approval
 * status. Set-based: a sheet is one read, a save one upsert per 200 rows, whatever the arm's size.
 */
export class CardEntriesRepository extends Repository {
  // ---------- entries ----------

  /**
   * The entries of a term for the given students (any arm), locked until commit on PostgreSQL
   * (`lock`, inside a transaction) so two savers of the same rows queue.
   */
  entries(studentIds: readonly number[], sessionId: number, term: string, conn: Conn = this.db, lock = false): Promise<EntryRow[]> {
    if (!studentIds.length) return Promise.resolve([]);
    return (
      conn
        .selectFrom('report_card_entries')
        .select([...ENTRY_FIELDS, 'version'])
        .where('session_id', '=', sessionId)
        .where('term', '=', term)
        .where('student_id', 'in', [...new Set(studentIds)])
        // One lock order for every saver: two whole-sheet saves never wait on each other in a circle.
        .orderBy('student_id')
        .$if(lock && this.dialect === 'postgres', (q) => q.forUpdate())
        .execute()
    );
  }

  /**
   * Inserts or updates many entries, each only if it still has the version the writer read (0: none
   * yet): one statement per 200 rows. Returns the student ids written with their new versions; a
   * student missing from them changed (or was created) meanwhile.
   */
  async upsertIfVersion(
    trx: Conn,
    sessionId: number,
    term: string,
    rows: readonly EntryWrite[],
    actor: number,
  ): Promise<Map<number, number>> {
    const now = nowIso();
    // In student order: concurrent inserts of the same new rows wait on each other in one order.
    const sorted = [...rows].sort((a, b) => a.student_id - b.student_id);
    const done = await inSlices(sorted, 200, (slice) =>
      trx
        .insertInto('report_card_entries')
        .values(
          slice.map((r) => ({
            student_id: r.student_id,
            session_id: sessionId,
            term,
            student_class: r.student_class,
            ratings: r.ratings,
            form_comment: r.form_comment,
            principal_comment: r.principal_comment,
            days_present: r.days_present,
            days_absent: r.days_absent,
            promotion_override: r.promotion_override,
            override_reason: r.override_reason,
            version: r.version + 1,
            updated_by: actor,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['student_id', 'session_id', 'term'])
            .doUpdateSet((eb) => ({
              student_class: eb.ref('excluded.student_class'),
              ratings: eb.ref('excluded.ratings'),
              form_comment: eb.ref('excluded.form_comment'),
              principal_comment: eb.ref('excluded.principal_comment'),
              days_present: eb.ref('excluded.days_present'),
              days_absent: eb.ref('excluded.days_absent'),
              promotion_override: eb.ref('excluded.promotion_override'),
              override_reason: eb.ref('excluded.override_reason'),
              version: eb.ref('excluded.version'),
              updated_by: eb.ref('excluded.updated_by'),
              updated_at: eb.ref('excluded.updated_at'),
            }))
            // The stored row must still be the one the writer read (its version is one below the new one).
            .where(sql<boolean>`report_card_entries.version = excluded.version - 1`),
        )
        .returning(['student_id', 'version'])
        .execute(),
    );
    return new Map(done.map((r) => [Number(r.student_id), Number(r.version)]));
  }
}
