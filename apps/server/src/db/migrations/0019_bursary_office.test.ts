import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../index';
import * as upgrade from '../../../test/migrations';
import '../../modules/payments/payments.tables';
import '../../modules/auth/capabilities.tables';

const NEW_TABLES = ['fee_discounts', 'transfer_reports'];
const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0019 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row of every table and adds the discounts and transfer reports empty', async () => {
    const handle = upgrade.databaseFromFixture('release-0018', cleanups);
    const before = await upgrade.tableRows(handle, upgrade.RELEASE_0018_TABLES);
    const counts = Object.fromEntries(Object.entries(before).map(([t, rows]) => [t, rows.length]));
    expect(counts).toMatchObject({ students: 72, staff: 33, results: 1530, fee_items: 72, staff_capabilities: 1 });
    await migrateToLatest(handle);
    // Read on the columns each table had: later migrations add some (fee_items.due_on, 0021).
    expect(await upgrade.tableRowsAsBefore(handle, before)).toEqual(before);
    expect(await upgrade.countRows(handle, NEW_TABLES)).toEqual({ fee_discounts: 0, transfer_reports: 0 });
  });
});
