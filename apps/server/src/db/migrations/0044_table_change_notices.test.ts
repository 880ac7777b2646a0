import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrateToLatest } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase } from '../../../test/helpers';
import { TABLE_CHANGES_CHANNEL } from '../table-listener';

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0044 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row (SQLite: nothing to add)', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
  });
});

describeEachDatabase('migration 0044 from 0040', (dialect) => {
  it('PostgreSQL: a committed write to a reference table notifies `<schema>.<table>`; a rolled-back one does not', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0040_result_pins', cleanups);
    await migrateToLatest(handle);
    await handle.db.insertInto('settings').values({ key: 'probe', value: '1' }).execute();
    if (dialect !== 'postgres') return;
    const heard: string[] = [];
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    cleanups.push(() => client.end());
    client.on('notification', (n) => heard.push(n.payload ?? ''));
    await client.query(`listen ${TABLE_CHANGES_CHANNEL}`);
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('settings').set({ value: '2' }).where('key', '=', 'probe').execute();
        throw new Error('undo');
      })
      .catch(() => undefined);
    await handle.db.updateTable('settings').set({ value: '3' }).where('key', '=', 'probe').execute();
    await handle.db.deleteFrom('calendar_events').execute();
    // Notifications arrive in commit order: the delete's follows the update's.
    for (let i = 0; i < 100 && heard.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(heard).toEqual([`${handle.pgSchema}.settings`, `${handle.pgSchema}.calendar_events`]);
  });
});
