import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase, insertStudentUser, studentBody } from '../../../test/helpers';

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0025 on a database made by the previous release (SQLite fixture)', () => {
  it('rebuilds users with the email optional: every row, id counter, index and foreign key kept', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    expect(before.users).toHaveLength(106);
    const seqBefore = handle.sqlite!.prepare(`select seq from sqlite_sequence where name = 'users'`).get() as { seq: number };
    const fksBefore = handle.sqlite!.prepare(`select * from sqlite_master where type = 'table' and sql like '%references "users"%'`).all();
    expect(fksBefore.length).toBeGreaterThan(5);

    await upgrade.migrateKeepingRows(handle, before);

    const cols = handle.sqlite!.prepare(`pragma table_info(users)`).all() as { name: string; notnull: number }[];
    expect(cols.map((c) => c.name)).toEqual([
      'id',
      'role',
      'email',
      'password_hash',
      'must_change_password',
      'disabled',
      'token_version',
      'created_at',
      'updated_at',
    ]);
    expect(cols.find((c) => c.name === 'email')!.notnull).toBe(0);
    expect(handle.sqlite!.prepare(`select seq from sqlite_sequence where name = 'users'`).get()).toEqual(seqBefore);
    // The other tables still reference users, foreign keys are on again and hold.
    // (Later migrations rebuild some of them with more keys and add tables of their own: compare by name;
    // 0031 merges report_terms into school_terms, which references users too.)
    const names = (rows: unknown[]) => (rows as { name: string }[]).map((r) => r.name);
    expect(
      names(handle.sqlite!.prepare(`select * from sqlite_master where type = 'table' and sql like '%references "users"%'`).all()),
    ).toEqual(expect.arrayContaining([...names(fksBefore).filter((n) => n !== 'report_terms'), 'school_terms']));
    expect(handle.sqlite!.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(handle.sqlite!.prepare('pragma foreign_key_check').all()).toEqual([]);
    expect(handle.sqlite!.prepare('pragma integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    // A deleted account still takes its student record with it (ON DELETE CASCADE survived the swap).
    const pupil = await handle.db.selectFrom('students').select(['id', 'user_id']).orderBy('id').executeTakeFirstOrThrow();
    await handle.db.deleteFrom('users').where('id', '=', pupil.user_id).execute();
    expect(await handle.db.selectFrom('students').select('id').where('id', '=', pupil.id).executeTakeFirst()).toBeUndefined();

    // The upgraded portal registers a pupil without an email.
    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const res = await app.inject({
      method: 'POST',
      url: '/api/students/',
      headers: auth,
      payload: studentBody({ email: '', student_class: 'JSS 1A' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().email).toBeNull();
  });
});

describeEachDatabase('migration 0025: users.email optional, unique among the emails given', (dialect) => {
  it('keeps the rows, allows any number of accounts without an email, and still refuses a repeated email', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0024_sign_in_admission_key', cleanups);
    await insertStudentUser(handle.db, 'first@pupil.school');
    await migrateToLatest(handle);
    expect(await handle.db.selectFrom('users').select('email').execute()).toEqual([{ email: 'first@pupil.school' }]);
    await insertStudentUser(handle.db, null);
    await insertStudentUser(handle.db, null);
    await expect(insertStudentUser(handle.db, 'first@pupil.school')).rejects.toThrow(/unique|duplicate/i);
    const nulls = await sql<{ n: number }>`select count(*) as n from users where email is null`.execute(handle.db);
    expect(Number(nulls.rows[0]!.n)).toBe(2);
  });
});
