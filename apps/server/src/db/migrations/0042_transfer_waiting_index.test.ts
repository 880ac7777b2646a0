import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase } from '../../../test/helpers';

const cleanups = upgrade.cleanupsAfterEach();

/** The transfer reports' indexes by name (SQLite's schema table or PostgreSQL's pg_indexes). */
async function indexes(handle: DatabaseHandle): Promise<string[]> {
  const rows =
    handle.dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'transfer_reports'`.execute(
          handle.db,
        )
      : await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where tablename = 'transfer_reports' and schemaname = current_schema()`.execute(
          handle.db,
        );
  return rows.rows.map((r) => r.name);
}

describe('migration 0042 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and puts the amount in the waiting transfers index (read by the index alone)', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const names = await indexes(handle);
    expect(names).toContain('transfer_reports_status_amount');
    expect(names).not.toContain('transfer_reports_status');
    const plan = await sql<{ detail: string }>`explain query plan
      select count(*), sum(amount_kobo), min(reported_at) from transfer_reports where status = 'to_confirm'`.execute(handle.db);
    expect(plan.rows.map((r) => r.detail).join(' ')).toContain('COVERING INDEX transfer_reports_status_amount');
  });
});

describeEachDatabase('migration 0042 from 0040', (dialect) => {
  it('replaces the (status, reported_at) index by (status, reported_at, amount_kobo)', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0040_result_pins', cleanups);
    expect(await indexes(handle)).toContain('transfer_reports_status');
    await migrateToLatest(handle);
    const names = await indexes(handle);
    expect(names).toContain('transfer_reports_status_amount');
    expect(names).not.toContain('transfer_reports_status');
  });
});
