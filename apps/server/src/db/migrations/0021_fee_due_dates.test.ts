import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DebtorsPage, FeeItem } from '@portal/domain';
import { migrateToLatest, nowIso } from '../index';
import { createSession, describeEachDatabase } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';
import { testClock } from '../../../test/attendance-fixtures';
import '../../modules/payments/payments.tables';

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0021 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row of every table; every fee item falls due when its term begins until a date is set', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    expect(before.fee_items).toHaveLength(72);
    expect(before.payments!.length).toBeGreaterThan(0);
    // Every row is still there with every value it had (bank reference keys are 0020's); fee items gain one column, empty.
    await upgrade.migrateKeepingRows(handle, before);
    const dated = await sql<{ n: number }>`select count(*) as n from fee_items where due_on is not null`.execute(handle.db);
    expect(Number(dated.rows[0]!.n)).toBe(0);

    // The upgraded school, in its 1st term: items read with no due date, set one, and debtors open on the current term.
    const clock = testClock('2025-11-28');
    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups, { now: clock.now });
    const items = (await app.inject({ method: 'GET', url: '/api/payments/fee-schedules/', headers: auth })).json<FeeItem[]>();
    expect(items.length).toBe(72);
    expect(items.every((i) => i.due_on === null)).toBe(true);
    const one = items.find((i) => i.compulsory)!;
    const put = await app.inject({
      method: 'PUT',
      url: `/api/payments/fee-schedules/${one.id}/`,
      headers: auth,
      payload: { amount: one.amount, description: one.description, due_on: '2025-12-01' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<FeeItem>().due_on).toBe('2025-12-01');
    const debtors = await app.inject({ method: 'GET', url: '/api/bursary/debtors/', headers: auth });
    expect(debtors.statusCode, debtors.body).toBe(200);
    expect(debtors.json<DebtorsPage>()).toMatchObject({ term: '1st', as_of: '2025-11-28' });
  });
});

describeEachDatabase('migration 0021: fee items gain an optional due date', (dialect) => {
  it('adds the column empty on both databases; an item keeps its values and takes a date', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0019_bursary_office', cleanups);
    const session = await createSession(handle.db, '2025/2026', true);
    const row = {
      student_class: 'JSS 1A',
      session_id: session.id,
      term: '2nd',
      name: 'Tuition',
      name_key: 'tuition',
      amount_kobo: 8_500_000,
      compulsory: 1,
      description: '',
      created_at: nowIso(),
      updated_at: nowIso(),
    };
    await handle.db.insertInto('fee_items').values(row).execute();
    await migrateToLatest(handle);
    const stored = await handle.db.selectFrom('fee_items').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ ...row, due_on: null });
    await handle.db.updateTable('fee_items').set({ due_on: '2026-01-05' }).where('id', '=', stored.id).execute();
    expect((await handle.db.selectFrom('fee_items').select('due_on').executeTakeFirstOrThrow()).due_on).toBe('2026-01-05');
  });
});
