import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ArmApproval, ClassArm, CommentSheet } from '@portal/domain';
import { migrateToLatest, nowIso, type DatabaseHandle } from '../index';
import { createSession, describeEachDatabase } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';

const cleanups = upgrade.cleanupsAfterEach();

/** Fee items under class names that have no arm: from before 0014 (which scanned only students and results). */
async function orphanFeeItems(handle: DatabaseHandle, sessionId: number) {
  for (const [student_class, name] of [
    ['JSS 1 Nowhere', 'Lab fee'],
    ['Old Boys', 'Levy'],
  ] as const)
    await sql`insert into fee_items (session_id, term, student_class, name, name_key, amount_kobo, created_at, updated_at)
      values (${sessionId}, '1st', ${student_class}, ${name}, ${name.toLowerCase()}, 100000, ${nowIso()}, ${nowIso()})`.execute(handle.db);
}

describe('migration 0022 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row, index and counter; names without an arm get a retired one; a rename then carries through', async () => {
    const handle = upgrade.databaseFromFixture('release-0019', cleanups);
    const sqlite = handle.sqlite!;
    // The tables that name a class (read from the old release's schema); the results audit keeps the name it was written with.
    const CLASS_TABLES = (
      sqlite
        .prepare(
          `select m.name from sqlite_master m join pragma_table_info(m.name) c
           where m.type = 'table' and c.name = 'student_class' and m.name <> 'result_audit' order by m.name`,
        )
        .all() as { name: string }[]
    ).map((t) => t.name);
    expect(CLASS_TABLES).toHaveLength(7);
    await orphanFeeItems(handle, 2);
    const before = await upgrade.tableRows(handle, upgrade.RELEASE_0019_TABLES);
    const indexesOf = () =>
      sqlite
        .prepare(
          `select name, sql from sqlite_master where type = 'index' and tbl_name in (${CLASS_TABLES.map(() => '?').join(',')}) order by name`,
        )
        .all(...CLASS_TABLES);
    const indexes = indexesOf();
    const counters = sqlite.prepare('select name, seq from sqlite_sequence order by name').all();
    expect(before.report_card_status).toHaveLength(1);
    expect(before.attendance_registers).toHaveLength(3);
    await migrateToLatest(handle);

    const after = await upgrade.tableRowsAsBefore(handle, before);
    // class_arms gains the two retired arms; every other row of every table is as it was.
    const added = after.class_arms!.filter((r) => !before.class_arms!.includes(r)).map((r) => JSON.parse(r) as Record<string, unknown>);
    expect(added).toEqual([
      expect.objectContaining({ level: 'JSS 1', arm: 'Nowhere', name: 'JSS 1 Nowhere', retired: 1 }),
      expect.objectContaining({ level: '', arm: '?1', name: 'Old Boys', retired: 1 }),
    ]);
    expect(
      upgrade.withoutRecomputedKeys({ ...after, class_arms: after.class_arms!.filter((r) => before.class_arms!.includes(r)) }),
    ).toEqual(upgrade.withoutRecomputedKeys(before));
    // Every index is back as it was (a later migration adds students_admission_key).
    expect(indexesOf()).toEqual(expect.arrayContaining(indexes));
    // AUTOINCREMENT counters are kept (class_arms counts its two new rows).
    const seq = (rows: unknown[]) => Object.fromEntries((rows as { name: string; seq: number }[]).map((r) => [r.name, r.seq]));
    const countersAfter = seq(sqlite.prepare('select name, seq from sqlite_sequence order by name').all());
    expect(countersAfter).toEqual({ ...seq(counters), class_arms: seq(counters).class_arms! + 2 });
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(sqlite.prepare('pragma foreign_key_check').all()).toEqual([]);
    expect(sqlite.prepare('pragma integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);

    // JSS 2B (registers, comments, ratings, an approved 1st term) renamed from the admin's screen's API.
    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const get = async <T>(url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<T>();
    };
    const arm = (await get<ClassArm[]>('/api/classes/')).find((a) => a.name === 'JSS 2B')!;
    const patch = await app.inject({ method: 'PATCH', url: `/api/classes/${arm.id}/`, headers: auth, payload: { arm: 'X' } });
    expect(patch.statusCode, patch.body).toBe(200);
    const approvals = await get<ArmApproval[]>('/api/report-approvals/?session_id=2&term=1st');
    expect(approvals.find((a) => a.student_class === 'JSS 2X')).toMatchObject({ status: 'approved', form_comments: 4 });
    const sheet = await get<CommentSheet>(`/api/class-comments/?session_id=2&term=1st&student_class=${encodeURIComponent('JSS 2X')}`);
    expect(sheet.rows.filter((r) => r.form_comment).length).toBe(4);
    for (const table of CLASS_TABLES) {
      const old = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where student_class = 'JSS 2B'`.execute(handle.db);
      expect(Number(old.rows[0]!.n), table).toBe(0);
    }
    const moved = await sql<{ n: number }>`select count(*) as n from attendance_registers where student_class = 'JSS 2X'`.execute(
      handle.db,
    );
    expect(Number(moved.rows[0]!.n)).toBe(3);
  });
});

describeEachDatabase('migration 0022: class names refer to their arm', (dialect) => {
  it('adds the references with every row kept, an arm for each name that had none, and cascades a rename', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0021_fee_due_dates', cleanups);
    const session = await createSession(handle.db, '2025/2026', true);
    await orphanFeeItems(handle, session.id);
    const student = await upgrade.oldStudent(handle, 'JSS 2B', 1);
    const before = await upgrade.tableRows(handle, ['fee_items', 'students', 'users']);
    await migrateToLatest(handle);
    expect(await upgrade.tableRowsAsBefore(handle, before)).toEqual(before);
    const arms = await handle.db
      .selectFrom('class_arms')
      .select(['level', 'arm', 'name', 'retired'])
      .where('retired', '=', 1)
      .orderBy('name')
      .execute();
    expect(arms).toEqual([
      { level: 'JSS 1', arm: 'Nowhere', name: 'JSS 1 Nowhere', retired: 1 },
      { level: '', arm: '?1', name: 'Old Boys', retired: 1 },
    ]);
    await handle.db.updateTable('class_arms').set({ arm: 'X', name: 'JSS 2X' }).where('name', '=', 'JSS 2B').execute();
    const moved = await handle.db.selectFrom('students').select('student_class').where('id', '=', student.id).executeTakeFirstOrThrow();
    expect(moved.student_class).toBe('JSS 2X');
    // A name with no arm is refused now.
    await expect(
      handle.db.updateTable('students').set({ student_class: 'JSS 9Z' }).where('id', '=', student.id).execute(),
    ).rejects.toThrow();
  });
});
