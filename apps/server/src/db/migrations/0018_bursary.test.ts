import { describe, expect, it } from 'vitest';
import { BURSARY_MESSAGES, type LedgerEntry, type Receipt } from '@portal/domain';
import { createPayment, createSession } from '../factories';
import { migrateToLatest } from '../index';
import { describeEachDatabase } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';
import '../../modules/payments/payments.tables';
import '../../modules/auth/capabilities.tables';

/** Tables whose rows the upgrade must keep unchanged (payments gains columns: checked column by column). */
const KEPT = upgrade.RELEASE_0017_TABLES.filter((t) => t !== 'payments' && t !== 'counters');
const NEW_TABLES = ['staff_capabilities', 'payment_scans'];
const OLD_PAYMENT_COLUMNS = ['id', 'reference', 'student_id', 'amount_kobo', 'status', 'paid_at', 'created_at'] as const;

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0018 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row of every table, adds the bursary tables empty, and an offline payment is recorded on it', async () => {
    const handle = upgrade.databaseFromFixture('release-0017', cleanups);
    const before = await upgrade.tableRows(handle, KEPT);
    const counts = Object.fromEntries(Object.entries(before).map(([t, rows]) => [t, rows.length]));
    expect(counts).toMatchObject({ students: 72, staff: 33, results: 1530, fee_items: 72 });
    await migrateToLatest(handle);
    // Read on the columns each table had: later migrations add some (fee_items.due_on, 0021).
    expect(await upgrade.tableRowsAsBefore(handle, before)).toEqual(before);
    expect(await upgrade.countRows(handle, NEW_TABLES)).toEqual({ staff_capabilities: 0, payment_scans: 0 });

    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const student = await handle.db.selectFrom('students').select('admission_number').orderBy('id').executeTakeFirstOrThrow();
    const session = await handle.db.selectFrom('academic_sessions').select('id').where('is_current', '=', 1).executeTakeFirstOrThrow();
    const res = await upgrade.recordOfflinePayment(
      app,
      auth,
      { admission_number: student.admission_number, session_id: session.id },
      { term: '1st', amount: 5000, method: 'cash', paid_on: '2025-10-01' },
    );
    expect(res.statusCode, res.body).toBe(201);
    // No payment before: the sequence starts at 1.
    expect(res.json<LedgerEntry>().receipt_number).toBe('R-000001');
  });
});

describeEachDatabase('migration 0018: payments of the previous release get receipt numbers', (dialect) => {
  it('numbers only the successful ones, in the order paid, and the counter continues from there', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0017_attendance', cleanups);
    const session = await createSession(handle.db, '2025/2026', true);
    const kid = await upgrade.oldStudent(handle, 'JSS 1A', 1);
    const pay = (reference: string, status: 'successful' | 'pending' | 'failed', paidAt: string | null, kobo = 1_000_000) =>
      createPayment(handle.db, {
        reference,
        studentId: kid.id,
        admissionNumber: kid.admissionNumber,
        arm: 'JSS 1A',
        session: session.name,
        amountKobo: kobo,
        status,
        paidAt,
      });
    // Written out of order: the later payment first.
    await pay('OLD-B', 'successful', '2025-10-02T09:00:00.000Z');
    await pay('OLD-P', 'pending', null);
    await pay('OLD-A', 'successful', '2025-10-01T23:30:00.000Z', 2_000_000);
    await pay('OLD-F', 'failed', null);
    await pay('OLD-C', 'successful', '2025-10-02T09:00:00.000Z');

    const before = await upgrade.tableRows(handle, KEPT);
    const paymentsBefore = await handle.db.selectFrom('payments').select(OLD_PAYMENT_COLUMNS).orderBy('id').execute();
    await migrateToLatest(handle);
    expect(await upgrade.tableRowsAsBefore(handle, before)).toEqual(before);
    expect(await handle.db.selectFrom('payments').select(OLD_PAYMENT_COLUMNS).orderBy('id').execute()).toEqual(paymentsBefore);

    const rows = await handle.db
      .selectFrom('payments')
      .select(['reference', 'receipt_number', 'paid_on', 'method', 'bank', 'bank_reference_key', 'reversal_of', 'reason'])
      .orderBy('reference')
      .execute();
    // Every old payment was an online one: no bank, no reversal, no reason.
    const online = (reference: string, receipt_number: string | null, paid_on: string | null) => ({
      reference,
      receipt_number,
      paid_on,
      method: 'online',
      bank: '',
      bank_reference_key: null,
      reversal_of: null,
      reason: '',
    });
    expect(rows).toEqual([
      // 23:30 UTC on 1 October is 00:30 on 2 October in Lagos: the school's date.
      online('OLD-A', 'R-000001', '2025-10-02'),
      online('OLD-B', 'R-000002', '2025-10-02'),
      online('OLD-C', 'R-000003', '2025-10-02'),
      online('OLD-F', null, null),
      online('OLD-P', null, null),
    ]);

    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const receipt = await app.inject({ method: 'GET', url: '/api/payments/receipt/OLD-B/', headers: auth });
    expect(receipt.json<Receipt>()).toMatchObject({ receipt_number: 'R-000002', method: 'online' });
    const recorded = await upgrade.recordOfflinePayment(
      app,
      auth,
      { admission_number: kid.admissionNumber, session_id: session.id },
      {
        term: null,
        amount: 700,
        method: 'cash',
        // Inside the allowed window (a year before the first term, undated here, .. today).
        paid_on: new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10),
      },
    );
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json<LedgerEntry>().receipt_number).toBe('R-000004');
    // An old payment can be reversed: a negative row passes the new amount check.
    const reversed = await app.inject({
      method: 'POST',
      url: '/api/bursary/payments/OLD-A/reverse/',
      headers: auth,
      payload: { reason: 'Charged twice' },
    });
    expect(reversed.statusCode, reversed.body).toBe(201);
    expect(reversed.json<LedgerEntry>()).toMatchObject({ amount: -20000, receipt_number: 'R-000005', method: 'online' });
    const again = await app.inject({
      method: 'POST',
      url: '/api/bursary/payments/OLD-A/reverse/',
      headers: auth,
      payload: { reason: 'x' },
    });
    expect(again.json()).toEqual({ detail: BURSARY_MESSAGES.alreadyReversed('R-000005') });
  });
});
