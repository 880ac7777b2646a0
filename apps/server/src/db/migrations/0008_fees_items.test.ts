import { afterEach, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { migrateToLatest } from '../index';
import { createAdmin, createSession, createStudent } from '../factories';
import { describeEachDatabase, login, TEST_PASSWORD } from '../../../test/helpers';
import { databaseAtMigration } from '../../../test/migrations';
import '../../modules/payments/payments.tables';

/**
 * Migration 0008 on a database made by the previous release: every fee schedule of
 * 0004 becomes one fee item, nothing lost, ids kept (their addresses keep working).
 */
describeEachDatabase('migration 0008: fee schedules become fee items', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const databaseAtPreviousRelease = () => databaseAtMigration(dialect, '0005_indexes', cleanups);

  it('copies every row with its id, amount, description and dates; names it; the old calls keep working', async () => {
    const handle = await databaseAtPreviousRelease();
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const s1 = await createSession(handle.db, '2024/2025');
    const s2 = await createSession(handle.db, '2025/2026', true);
    const long = `Tuition and everything else ${'x'.repeat(150)}`;
    const rows = [
      { id: 3, student_class: 'JSS 1A', session_id: s2.id, term: '1st', amount_kobo: 4_500_000, description: 'First term tuition' },
      { id: 7, student_class: 'JSS 1A', session_id: s2.id, term: '2nd', amount_kobo: 4_000_050, description: '' },
      { id: 8, student_class: 'SSS 3B', session_id: s1.id, term: '3rd', amount_kobo: 6_250_000, description: long },
      { id: 12, student_class: 'SSS 3B', session_id: s2.id, term: '1st', amount_kobo: 10_000, description: '  PTA   levy ' },
    ].map((r, i) => ({ ...r, created_at: `2025-0${i + 1}-01T08:00:00.000Z`, updated_at: `2025-0${i + 1}-02T09:00:00.000Z` }));
    await db.insertInto('fee_schedules').values(rows).execute();
    // A payment of the previous release, to see it untouched.
    const st = await createStudent(handle.db, {
      firstName: 'Ada',
      lastName: 'Eze',
      arm: 'JSS 1A',
      email: 'ada@m.test',
      password: TEST_PASSWORD,
    });

    await migrateToLatest(handle);

    const items = await handle.db.selectFrom('fee_items').selectAll().orderBy('id').execute();
    expect(items).toHaveLength(4);
    expect(
      items.map((f) => [f.id, f.student_class, f.session_id, f.term, f.amount_kobo, f.description, f.created_at, f.updated_at]),
    ).toEqual(rows.map((r) => [r.id, r.student_class, r.session_id, r.term, r.amount_kobo, r.description, r.created_at, r.updated_at]));
    expect(items.map((f) => [f.name, f.compulsory])).toEqual([
      ['First term tuition', 1],
      ['School fees', 1],
      [long.slice(0, 80), 1],
      ['PTA levy', 1],
    ]);
    expect(items[3]!.name_key).toBe('pta levy');
    // The old table is gone (in this test's own schema: other schemas on the server are other tests').
    const old =
      dialect === 'postgres'
        ? await sql<{
            n: number;
          }>`select count(*) as n from information_schema.tables where table_schema = ${handle.pgSchema} and table_name = 'fee_schedules'`.execute(
            handle.db,
          )
        : await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'fee_schedules'`.execute(handle.db);
    expect(Number(old.rows[0]!.n)).toBe(0);

    // The app on the migrated database: the old fee-schedule call lists them, edits by their old id,
    // a new item gets a fresh id (the PostgreSQL sequence moved past the copied ones), and the form owes them.
    const app = await buildApp({ config: testConfig(), handle, logger: false });
    cleanups.push(() => app.close());
    await app.ready();
    await createAdmin(handle.db, { email: 'admin@m.test', password: TEST_PASSWORD, username: 'madmin' });
    const auth = { authorization: `Bearer ${(await login(app, 'admin', 'admin@m.test')).json().data.access}` };
    const list = (
      await app.inject({ method: 'GET', url: `/api/payments/fee-schedules/?session_id=${s2.id}&class=JSS%201A`, headers: auth })
    ).json();
    expect(list.map((f: { id: number; amount: number; name: string }) => [f.id, f.amount, f.name])).toEqual([
      [3, 45000, 'First term tuition'],
      [7, 40000.5, 'School fees'],
    ]);
    const put = await app.inject({
      method: 'PUT',
      url: '/api/payments/fee-schedules/7/',
      headers: auth,
      payload: { amount: 41000, description: '' },
    });
    expect(put.json()).toMatchObject({ id: 7, amount: 41000, name: 'School fees' });
    const added = await app.inject({
      method: 'POST',
      url: '/api/payments/fee-schedules/',
      headers: auth,
      payload: { student_class: 'JSS 1A', session_id: s2.id, term: '1st', amount: 5000, description: 'PTA levy' },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().id).toBeGreaterThan(12);
    const stAuth = { authorization: `Bearer ${(await login(app, 'student', 'ada@m.test')).json().data.access}` };
    const c = (await app.inject({ method: 'GET', url: '/api/payments/context/', headers: stAuth })).json();
    expect(c.student).toMatchObject({ admission_number: st.admissionNumber, amount_due: 91000, term: '1st', suggested_amount: 50000 });
  });

  it('runs on a previous-release database with no fee schedules at all', async () => {
    const handle = await databaseAtPreviousRelease();
    await migrateToLatest(handle);
    expect(await handle.db.selectFrom('fee_items').selectAll().execute()).toEqual([]);
  });
});
