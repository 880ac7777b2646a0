import { describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase, TEST_PASSWORD } from '../../../test/helpers';
import { createAdmin } from '../factories';
import { queueNoticeMessages, recordNoticeEvent } from '../notice-outbox';
import '../../modules/notices/notices.tables';

const cleanups = upgrade.cleanupsAfterEach();

/** The outbox works on an upgraded database: an event recorded twice is one row, a fan-out queued twice one message each. */
async function outboxWorks(handle: DatabaseHandle, userId: number): Promise<void> {
  const first = await recordNoticeEvent(handle.db, { kind: 'custom', key: 'upgrade:1', payload: { a: 1 } });
  const again = await recordNoticeEvent(handle.db, { kind: 'custom', key: 'upgrade:1', payload: { a: 2 } });
  expect(first).toBeGreaterThan(0);
  expect(again).toBeNull();
  const drafts = [
    { kind: 'custom' as const, channel: 'in_app' as const, recipientUserId: userId, toAddress: '', body: 'Hello', eventId: first },
    {
      kind: 'custom' as const,
      channel: 'sms' as const,
      recipientUserId: userId,
      toAddress: '+2348031234567',
      body: 'Hello',
      eventId: first,
    },
  ];
  expect(await queueNoticeMessages(handle.db, drafts)).toBe(2);
  expect(await queueNoticeMessages(handle.db, drafts)).toBe(0);
  const rows = await handle.db.selectFrom('notice_messages').select(['status', 'attempts', 'urgent']).execute();
  expect(rows).toEqual([
    { status: 'queued', attempts: 0, urgent: 0 },
    { status: 'queued', attempts: 0, urgent: 0 },
  ]);
  await handle.db
    .insertInto('notice_preferences')
    .values({ user_id: userId, kind: 'custom', opted_out: 1, updated_at: new Date().toISOString() })
    .execute();
  await handle.db
    .insertInto('notice_settings')
    .values({ id: 1, value: '{}', updated_by: userId, updated_at: new Date().toISOString() })
    .execute();
}

describe('migration 0033 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and adds the notices outbox', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const user = await handle.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    await outboxWorks(handle, user.id);
  });
});

describeEachDatabase('migration 0033 from 0031', (dialect) => {
  it('creates the notices tables with their unique keys', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0031_one_term_table', cleanups);
    await migrateToLatest(handle);
    const user = await createAdmin(handle.db, { email: 'notices@test.school', password: TEST_PASSWORD, username: 'noticesadmin' });
    await outboxWorks(handle, user.userId);
  });
});
