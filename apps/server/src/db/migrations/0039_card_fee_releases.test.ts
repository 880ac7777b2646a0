import { describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase, TEST_PASSWORD } from '../../../test/helpers';
import { createAdmin, createSession, createStudent } from '../factories';
import '../../modules/results/card-fee-releases.tables';

const cleanups = upgrade.cleanupsAfterEach();

/** The new table takes a release on an upgraded database, once per student's term card. */
async function tableWorks(handle: DatabaseHandle, userId: number, studentId: number, sessionId: number): Promise<void> {
  const at = '2026-11-29T10:00:00.000Z';
  const row = {
    student_id: studentId,
    session_id: sessionId,
    term: '1st',
    reason: 'Scholarship pending',
    created_by: userId,
    created_at: at,
  };
  await handle.db.insertInto('card_fee_releases').values(row).execute();
  await expect(handle.db.insertInto('card_fee_releases').values(row).execute()).rejects.toThrow();
  await handle.db
    .insertInto('card_fee_releases')
    .values({ ...row, term: '2nd' })
    .execute();
  const rows = await handle.db.selectFrom('card_fee_releases').selectAll().where('session_id', '=', sessionId).orderBy('term').execute();
  expect(rows.map((r) => [r.term, r.reason])).toEqual([
    ['1st', 'Scholarship pending'],
    ['2nd', 'Scholarship pending'],
  ]);
}

describe('migration 0039 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and adds card_fee_releases', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const user = await handle.db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    const student = await handle.db.selectFrom('students').select('id').orderBy('id').executeTakeFirstOrThrow();
    const session = await handle.db.selectFrom('academic_sessions').select('id').orderBy('id').executeTakeFirstOrThrow();
    await tableWorks(handle, user.id, student.id, session.id);
  });
});

describeEachDatabase('migration 0039 from 0034', (dialect) => {
  it('creates card_fee_releases, unique per student, session and term', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0034_notice_templates_blasts', cleanups);
    await migrateToLatest(handle);
    const admin = await createAdmin(handle.db, { email: 'gate@test.school', password: TEST_PASSWORD, username: 'gateadmin' });
    const session = await createSession(handle.db, '2025/2026', true);
    const student = await createStudent(handle.db, {
      email: 'gs@test.school',
      password: TEST_PASSWORD,
      firstName: 'Ada',
      lastName: 'Obi',
      arm: 'JSS 1A',
    });
    await tableWorks(handle, admin.userId, student.id, session.id);
  });
});
