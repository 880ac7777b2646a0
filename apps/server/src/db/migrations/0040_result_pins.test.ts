import { describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase, TEST_PASSWORD } from '../../../test/helpers';
import { createAdmin, createSession } from '../factories';
import '../../modules/pins/pins.tables';

const cleanups = upgrade.cleanupsAfterEach();

/** The new tables take rows on an upgraded database: a batch, its cards (serial and hash unique), the uses log. */
async function tablesWork(handle: DatabaseHandle, userId: number): Promise<void> {
  const at = '2026-11-29T10:00:00.000Z';
  const session = await createSession(handle.db, '2031/2032');
  const batch = await handle.db
    .insertInto('result_pin_batches')
    .values({ session_id: session.id, term: null, count: 2, uses: 5, created_at: at, created_by: userId, sealed_at: null, sealed_by: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const card = (serial: string, hash: string) => ({
    batch_id: batch.id,
    serial,
    pin_hash: hash,
    printable: 'x',
    max_uses: 5,
    student_id: null,
    first_used_at: null,
    last_used_at: null,
    sold_at: null,
    sold_by: null,
    sold_to: null,
    price_kobo: null,
  });
  await handle.db
    .insertInto('result_pins')
    .values([card('0001-00001', 'a'.repeat(64)), card('0001-00002', 'b'.repeat(64))])
    .execute();
  await expect(
    handle.db
      .insertInto('result_pins')
      .values(card('0001-00003', 'a'.repeat(64)))
      .execute(),
  ).rejects.toThrow();
  await expect(
    handle.db
      .insertInto('result_pins')
      .values(card('0001-00001', 'c'.repeat(64)))
      .execute(),
  ).rejects.toThrow();
  const pin = await handle.db.selectFrom('result_pins').select(['id', 'uses']).where('serial', '=', '0001-00001').executeTakeFirstOrThrow();
  expect(pin.uses).toBe(0);
  await handle.db
    .insertInto('result_pin_uses')
    .values({
      pin_id: pin.id,
      admission_key: 'STU0001',
      student_id: null,
      session_id: session.id,
      term: '1st',
      ip: '127.0.0.1',
      result: 'wrong',
      created_at: at,
    })
    .execute();
  expect(await handle.db.selectFrom('result_pin_uses').select('result').execute()).toEqual([{ result: 'wrong' }]);
}

describe('migration 0040 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and adds the PIN batches, cards and uses log', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const user = await handle.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    await tablesWork(handle, user.id);
  });
});

describeEachDatabase('migration 0040 from 0034', (dialect) => {
  it('creates result_pin_batches, result_pins and result_pin_uses', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0034_notice_templates_blasts', cleanups);
    await migrateToLatest(handle);
    const user = await createAdmin(handle.db, { email: 'pins@test.school', password: TEST_PASSWORD, username: 'pinsadmin' });
    await tablesWork(handle, user.userId);
  });
});
