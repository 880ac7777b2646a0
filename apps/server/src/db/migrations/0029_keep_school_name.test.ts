import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../index';
import * as upgrade from '../../../test/migrations';
import { createTestContext, describeEachDatabase } from '../../../test/helpers';

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0029 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row, and a school in use that never saved its settings keeps the name it showed', async () => {
    const handle = upgrade.databaseFromFixture('release-0019', cleanups);
    const before = await upgrade.tableRows(handle, upgrade.RELEASE_0019_TABLES);
    expect(before.settings).toEqual([]);
    await migrateToLatest(handle);
    const after = await upgrade.tableRowsAsBefore(handle, before);
    expect({ ...after, settings: [] }).toEqual(before);
    const { app } = await upgrade.appAsAdmin(handle, cleanups);
    const settings = (await app.inject({ method: 'GET', url: '/api/settings/' })).json();
    expect(settings).toMatchObject({
      school_name: 'Role Models College',
      address: '12 School Road, Ikeja, Lagos',
      time_zone: 'Africa/Lagos',
    });
  });
});

describeEachDatabase('migration 0029 on new and saved databases', (dialect) => {
  it('a new (empty) database stays neutral', async () => {
    const ctx = await createTestContext(dialect);
    cleanups.push(() => ctx.close());
    const settings = (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json();
    expect(settings.school_name).toBe('School portal');
  });

  it('a school’s saved settings are never replaced', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0024_sign_in_admission_key', cleanups);
    await upgrade.oldStudent(handle, 'JSS 1A', 1);
    const own = JSON.stringify({ school_name: 'Hilltop Academy' });
    await handle.db.insertInto('settings').values({ key: 'school', value: own }).execute();
    await migrateToLatest(handle);
    const row = await handle.db.selectFrom('settings').select('value').where('key', '=', 'school').executeTakeFirstOrThrow();
    expect(row.value).toBe(own);
  });

  it('a school in use without saved settings keeps the old defaults', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0024_sign_in_admission_key', cleanups);
    await upgrade.oldStudent(handle, 'JSS 1A', 1);
    await migrateToLatest(handle);
    const row = await handle.db.selectFrom('settings').select('value').where('key', '=', 'school').executeTakeFirstOrThrow();
    expect(JSON.parse(row.value)).toMatchObject({ school_name: 'Role Models College' });
  });
});
