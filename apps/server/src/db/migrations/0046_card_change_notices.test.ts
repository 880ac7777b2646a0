import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase, TEST_PASSWORD } from '../../../test/helpers';
import { createSession, createStudent } from '../factories';

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0046 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row (SQLite: nothing to add)', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
  });
});

describeEachDatabase('migration 0046 from 0045', (dialect) => {
  it('keeps the rows and, on PostgreSQL, notifies a write to a card table at commit, and not a parent sign-in', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0045_report_card_pdfs', cleanups);
    const session = await createSession(handle.db, '2025/2026', true);
    const student = await createStudent(handle.db, {
      email: 'notice@test.school',
      password: TEST_PASSWORD,
      firstName: 'Ada',
      lastName: 'Obi',
      arm: 'JSS 1A',
    });
    await migrateToLatest(handle);
    const back = await handle.db.selectFrom('students').select(['id', 'first_name']).where('id', '=', student.id).executeTakeFirstOrThrow();
    expect(back.first_name).toBe('Ada');
    expect((await handle.db.selectFrom('academic_sessions').select('id').where('id', '=', session.id).execute()).length).toBe(1);
    if (dialect !== 'postgres') return;

    const heard = await upgrade.tableChangesHeard(
      async () => {
        await handle.db.updateTable('students').set({ first_name: 'Adaeze' }).where('id', '=', student.id).execute();
        const userId = (
          await handle.db.selectFrom('users').select('id').where('email', '=', 'notice@test.school').executeTakeFirstOrThrow()
        ).id;
        await handle.db
          .insertInto('parents')
          .values({ user_id: userId, name: 'Mrs Obi', phone: '+2348000000009', email: null, created_at: '2026-11-29T00:00:00Z' })
          .execute();
        await handle.db.updateTable('parents').set({ last_sign_in_at: '2026-11-29T08:00:00Z' }).execute();
      },
      (h) => h.some((x) => x.endsWith('.parents')),
    );
    const schema = handle.pgSchema!;
    expect(heard).toContain(`${schema}.students`);
    // The insert is heard; the sign-in's bookkeeping is not (one notice for parents, not two).
    expect(heard.filter((h) => h === `${schema}.parents`)).toHaveLength(1);
  });
});
