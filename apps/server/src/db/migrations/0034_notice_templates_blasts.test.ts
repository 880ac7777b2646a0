import { describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase, TEST_PASSWORD } from '../../../test/helpers';
import { createAdmin } from '../factories';
import '../../modules/notices/templates.tables';

const cleanups = upgrade.cleanupsAfterEach();

/** The new tables take rows on an upgraded database: a template per (kind, channel), reminder days, a blast. */
async function tablesWork(handle: DatabaseHandle, userId: number): Promise<void> {
  const at = '2026-11-28T10:00:00.000Z';
  await handle.db
    .insertInto('notice_templates')
    .values([
      { kind: 'absent_today', channel: 'sms', subject: null, body: '{student_name} absent', updated_at: at, updated_by: userId },
      { kind: 'absent_today', channel: 'email', subject: 'Absent', body: 'Dear {parent_name}', updated_at: at, updated_by: userId },
    ])
    .execute();
  await expect(
    handle.db
      .insertInto('notice_templates')
      .values({ kind: 'absent_today', channel: 'sms', subject: null, body: 'again', updated_at: at, updated_by: null })
      .execute(),
  ).rejects.toThrow();
  await handle.db.insertInto('notice_reminder_days').values({ days: 7, updated_at: at, updated_by: userId }).execute();
  const blast = await handle.db
    .insertInto('notice_blasts')
    .values({
      created_by: userId,
      audience: '{"kind":"all"}',
      channels: '["sms"]',
      subject: null,
      body: 'PTA',
      status: 'sending',
      created_at: at,
      finished_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await handle.db.selectFrom('notice_blasts').selectAll().where('id', '=', blast.id).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ status: 'sending', recipients: 0, audience: '{"kind":"all"}' });
}

describe('migration 0034 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and adds the template, reminder and blast tables', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const user = await handle.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    await tablesWork(handle, user.id);
  });
});

describeEachDatabase('migration 0034 from 0031', (dialect) => {
  it('creates notice_templates, notice_reminder_days and notice_blasts', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0031_one_term_table', cleanups);
    await migrateToLatest(handle);
    const user = await createAdmin(handle.db, { email: 'np@test.school', password: TEST_PASSWORD, username: 'npadmin' });
    await tablesWork(handle, user.userId);
  });
});
