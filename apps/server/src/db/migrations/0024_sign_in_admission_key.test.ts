import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../lib/passwords';
import * as upgrade from '../../../test/migrations';
import { login, TEST_PASSWORD } from '../../../test/helpers';

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0024 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row, indexes the admission-number key, and an upgraded student signs in with the number', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    expect(before.students).toHaveLength(72);
    await upgrade.migrateKeepingRows(handle, before);

    // The sign-in's lookup uses the new index rather than reading every student.
    const plan = await sql<{
      detail: string;
    }>`explain query plan select users.id from students inner join users on users.id = students.user_id
      where upper(replace(replace(students.admission_number, '-', ''), '/', '')) = ${'STU0001'}`.execute(handle.db);
    expect(plan.rows.map((r) => r.detail).join(' | ')).toMatch(/students_admission_key/);

    // A student the old release made signs in with their number written loosely.
    const pupil = await handle.db.selectFrom('students').select(['user_id', 'admission_number']).orderBy('id').executeTakeFirstOrThrow();
    await handle.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(TEST_PASSWORD), disabled: 0 })
      .where('id', '=', pupil.user_id)
      .execute();
    await handle.db.updateTable('students').set({ status: 'active' }).where('user_id', '=', pupil.user_id).execute();
    const { app } = await upgrade.appAsAdmin(handle, cleanups);
    const typed = pupil.admission_number.toLowerCase().replace(/[-/]/g, ' ');
    const res = await login(app, 'student', typed);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.admission_number).toBe(pupil.admission_number);
  });
});
