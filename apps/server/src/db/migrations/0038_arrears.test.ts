import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase } from '../../../test/helpers';

const cleanups = upgrade.cleanupsAfterEach();

/** Every payment row reads 'arrears_first' after the upgrade, and a new row may say 'current_first'. */
async function allocationWorks(handle: DatabaseHandle): Promise<void> {
  const rows = (await sql<{ allocation: string }>`select allocation from payments`.execute(handle.db)).rows;
  expect(rows.every((r) => r.allocation === 'arrears_first')).toBe(true);
  const cols = await sql<{ n: number | string }>`select count(*) as n from payments where allocation = 'current_first'`.execute(handle.db);
  expect(Number(cols.rows[0]!.n)).toBe(0);
}

describe('migration 0038 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row; every payment settles arrears first', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    const payments = Number((await sql<{ n: number }>`select count(*) as n from payments`.execute(handle.db)).rows[0]!.n);
    await upgrade.migrateKeepingRows(handle, before);
    await allocationWorks(handle);
    const after = Number((await sql<{ n: number }>`select count(*) as n from payments`.execute(handle.db)).rows[0]!.n);
    expect(after).toBe(payments);
  });
});

describeEachDatabase('migration 0038 from 0034', (dialect) => {
  it('adds payments.allocation with its default', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0034_notice_templates_blasts', cleanups);
    await migrateToLatest(handle);
    await allocationWorks(handle);
  });
});
