import { describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase } from '../../../test/helpers';
import { createSession } from '../factories';

const cleanups = upgrade.cleanupsAfterEach();

/**
 * The new table takes rows on an upgraded database (one per student and session), old students read
 * as active with no graduation date, and a student can be made a graduate.
 */
async function tablesWork(handle: DatabaseHandle, studentId: number): Promise<void> {
  const at = '2026-11-29T10:00:00.000Z';
  const session = await createSession(handle.db, '2031/2032');
  const before = await handle.db
    .selectFrom('students')
    .select(['status', 'graduated_at'])
    .where('id', '=', studentId)
    .executeTakeFirstOrThrow();
  expect(before.graduated_at).toBeNull();
  await handle.db
    .insertInto('student_enrolments')
    .values({
      student_id: studentId,
      session_id: session.id,
      student_class: 'JSS 1A',
      stream_id: null,
      outcome: 'promoted',
      run_id: 7,
      created_at: at,
    })
    .execute();
  await expect(
    handle.db
      .insertInto('student_enrolments')
      .values({
        student_id: studentId,
        session_id: session.id,
        student_class: 'JSS 1B',
        stream_id: null,
        outcome: null,
        run_id: null,
        created_at: at,
      })
      .execute(),
  ).rejects.toThrow();
  const row = await handle.db.selectFrom('student_enrolments').selectAll().where('session_id', '=', session.id).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ student_id: studentId, student_class: 'JSS 1A', outcome: 'promoted', run_id: 7, stream_id: null });
  await handle.db.updateTable('students').set({ status: 'graduated', graduated_at: at }).where('id', '=', studentId).execute();
  const after = await handle.db
    .selectFrom('students')
    .select(['status', 'graduated_at'])
    .where('id', '=', studentId)
    .executeTakeFirstOrThrow();
  expect(after).toEqual({ status: 'graduated', graduated_at: at });
}

describe('migration 0035 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row, adds student_enrolments and students.graduated_at', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const students = await handle.db.selectFrom('students').select(['id', 'status', 'graduated_at']).orderBy('id').execute();
    expect(students.length).toBeGreaterThan(0);
    // Every student of the old release is still active or withdrawn, none graduated.
    expect(students.every((s) => s.status !== 'graduated' && s.graduated_at === null)).toBe(true);
    await tablesWork(handle, students[0]!.id);
  });
});

describeEachDatabase('migration 0035 from 0034', (dialect) => {
  it('creates student_enrolments and students.graduated_at on a database at 0034', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0034_notice_templates_blasts', cleanups);
    const arm = 'JSS 1A';
    const student = await upgrade.oldStudent(handle, arm, 35);
    await migrateToLatest(handle);
    await tablesWork(handle, student.id);
  });
});
