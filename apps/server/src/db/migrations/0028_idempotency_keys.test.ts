import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase, TEST_PASSWORD } from '../../../test/helpers';
import { createAdmin } from '../factories';
import { IdempotencyRepository } from '../../http/idempotency.repository';

const cleanups = upgrade.cleanupsAfterEach();

/** The claim works on an upgraded database: one insert of a (user, route, key) wins, a second finds it. */
async function claimsOnce(handle: Parameters<typeof migrateToLatest>[0], userId: number): Promise<void> {
  const repo = new IdempotencyRepository(handle.db);
  const scope = { userId, route: 'POST /api/bursary/payments/', key: 'upgrade-key-1' };
  const now = new Date().toISOString();
  const [a, b] = await Promise.all([repo.claim(scope, 'h', now), repo.claim(scope, 'h', now)]);
  expect([a, b].filter((x) => x !== null)).toHaveLength(1);
  expect(await repo.find(scope)).toMatchObject({ request_hash: 'h', status_code: null });
  expect(await repo.prune(new Date(Date.now() + 1000).toISOString())).toBe(1);
}

describe('migration 0028 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and adds the retry keys', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const user = await handle.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    await claimsOnce(handle, user.id);
  });
});

describeEachDatabase('migration 0028 from 0024', (dialect) => {
  it('creates idempotency_keys with its unique claim', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0024_sign_in_admission_key', cleanups);
    await migrateToLatest(handle);
    const user = await createAdmin(handle.db, { email: 'keys@test.school', password: TEST_PASSWORD, username: 'keysadmin' });
    await claimsOnce(handle, user.userId);
  });
});
