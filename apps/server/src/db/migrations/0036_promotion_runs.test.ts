import { describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase, TEST_PASSWORD } from '../../../test/helpers';
import { createAdmin, createSession, createStudent } from '../factories';
import '../../modules/promotion/promotion.tables';

const cleanups = upgrade.cleanupsAfterEach();

/** The new tables take rows on an upgraded database: a run and its move; a single move has no run; a run's moves go with it. */
async function tablesWork(handle: DatabaseHandle, userId: number): Promise<void> {
  const at = '2026-11-29T10:00:00.000Z';
  const s1 = await createSession(handle.db, '2040/2041');
  const s2 = await createSession(handle.db, '2041/2042');
  const student = await createStudent(handle.db, {
    email: 'promo-upgrade@test.school',
    password: TEST_PASSWORD,
    firstName: 'Up',
    lastName: 'Grade',
    arm: 'JSS 1A',
  });
  const run = await handle.db
    .insertInto('promotion_runs')
    .values({
      from_session_id: s1.id,
      to_session_id: s2.id,
      arm: null,
      status: 'done',
      summary: '{"promoted":1}',
      request: '{}',
      error: null,
      created_by: userId,
      created_at: at,
      finished_at: at,
      undone_by: null,
      undone_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const move = {
    student_id: student.id,
    outcome: 'promoted',
    from_class: 'JSS 1A',
    from_stream_id: null,
    from_status: 'active',
    to_class: 'JSS 2A',
    to_stream_id: null,
    to_status: 'active',
    reason: null,
    created_by: userId,
    created_at: at,
  };
  await handle.db
    .insertInto('promotion_moves')
    .values([
      { ...move, run_id: run.id },
      { ...move, run_id: null, outcome: 'moved', reason: 'Asked' },
    ])
    .execute();
  const row = await handle.db.selectFrom('promotion_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ status: 'done', total: 0, arm: null });
  await handle.db.deleteFrom('promotion_runs').where('id', '=', run.id).execute();
  const left = await handle.db.selectFrom('promotion_moves').select(['run_id', 'outcome']).execute();
  expect(left).toEqual([{ run_id: null, outcome: 'moved' }]);
}

describe('migration 0036 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and adds the promotion runs and moves', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const user = await handle.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    await tablesWork(handle, user.id);
  });
});

describeEachDatabase('migration 0036 from 0034', (dialect) => {
  it('creates promotion_runs and promotion_moves', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0034_notice_templates_blasts', cleanups);
    await migrateToLatest(handle);
    const user = await createAdmin(handle.db, { email: 'promo@test.school', password: TEST_PASSWORD, username: 'promoadmin' });
    await tablesWork(handle, user.userId);
  });
});
