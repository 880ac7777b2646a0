import { describe, expect, it } from 'vitest';
import { BURSARY_MESSAGES, type LedgerEntry, type ReferenceReview } from '@portal/domain';
import { migrateToLatest, nowIso } from '../index';
import { createSession, describeEachDatabase } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';
import '../../modules/payments/payments.tables';

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0020 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and value, keys each bank reference by bank code, releases the reversed teller, and the app works on it', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);

    const payments = await handle.db
      .selectFrom('payments')
      .select(['receipt_number', 'bank', 'bank_reference', 'bank_reference_key', 'reversed', 'replaces'])
      .where('provider', '=', 'offline')
      .orderBy('id')
      .execute();
    expect(payments).toEqual([
      {
        receipt_number: 'R-000001',
        bank: 'Access Bank',
        bank_reference: 'FBN-2231-7781',
        bank_reference_key: '044|FBN22317781',
        reversed: 0,
        replaces: null,
      },
      {
        receipt_number: 'R-000002',
        bank: 'GTBank',
        bank_reference: 'TRF 0099 1234',
        bank_reference_key: '058|TRF00991234',
        reversed: 1,
        replaces: null,
      },
      { receipt_number: 'R-000003', bank: '', bank_reference: '', bank_reference_key: null, reversed: 0, replaces: null },
      {
        receipt_number: 'R-000004',
        bank: 'Zenith Bank',
        bank_reference: 'pos-55501',
        bank_reference_key: '057|POS55501',
        reversed: 0,
        replaces: null,
      },
      {
        receipt_number: 'R-000005',
        bank: 'GTBank',
        bank_reference: 'TRF 0099 1234',
        bank_reference_key: null,
        reversed: 0,
        replaces: null,
      },
      {
        receipt_number: 'R-000006',
        bank: 'UBA',
        bank_reference: 'UBA/TRX/77812',
        bank_reference_key: '033|UBATRX77812',
        reversed: 0,
        replaces: null,
      },
    ]);
    const report = await handle.db.selectFrom('transfer_reports').select(['bank_reference_key', 'waiting_key']).executeTakeFirstOrThrow();
    expect(report).toEqual({ bank_reference_key: '033|UBATRX77812', waiting_key: null });
    expect(await handle.db.selectFrom('bank_reference_reviews').selectAll().execute()).toEqual([]);

    // The upgraded school: the reversed GTBank teller is recorded again and replaces R-000002; the others still hold theirs.
    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const student = await handle.db
      .selectFrom('payments')
      .select(['admission_number'])
      .where('receipt_number', '=', 'R-000002')
      .executeTakeFirstOrThrow();
    const session = await handle.db.selectFrom('academic_sessions').select('id').where('name', '=', '2025/2026').executeTakeFirstOrThrow();
    const record = (bank: string, bank_reference: string) =>
      upgrade.recordOfflinePayment(
        app,
        auth,
        { admission_number: student.admission_number, session_id: session.id },
        { term: '1st', amount: 90000, method: 'bank_teller', bank, bank_reference, paid_on: '2026-11-27', note: '' },
      );
    const again = await record('Guaranty Trust Bank', 'TRF-0099-1234');
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json<LedgerEntry>().replaces?.receipt_number).toBe('R-000002');
    for (const [bank, ref, receipt] of [
      ['Access Bank Plc', 'FBN 2231 7781', 'R-000001'],
      ['zenith', 'POS\u200B55501', 'R-000004'],
      ['United Bank for Africa', 'uba trx 77812', 'R-000006'],
    ] as const) {
      const taken = await record(bank, ref);
      expect(taken.statusCode, `${bank} ${ref}`).toBe(409);
      expect(taken.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(receipt) });
    }
  });
});

describeEachDatabase('migration 0020: stored duplicates are kept and reported, never deleted', (dialect) => {
  it('the oldest holds the key, later ones are listed for the bursar; an unlisted bank keeps its name in the key', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0019_bursary_office', cleanups);
    const session = await createSession(handle.db, '2025/2026', true);
    const student = await upgrade.oldStudent(handle, 'JSS 1A', 1);
    const now = nowIso();
    /** A row written as the old release wrote it, and its id. */
    const insertedId = async (table: 'payments' | 'transfer_reports', values: Record<string, unknown>) =>
      (
        await handle.db
          .insertInto(table)
          .values(values as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const pay = (bank: string, bank_reference: string, old_key: string) =>
      insertedId('payments', {
        reference: `OFF-${old_key}`,
        student_id: null,
        admission_number: 'STU-0001',
        full_name: 'Old Row1',
        current_class: 'JSS 1A',
        current_session: '2025/2026',
        term: '1st',
        email: 'm1@test.school',
        phone_number: null,
        amount_kobo: 500_000,
        currency: 'NGN',
        status: 'successful',
        provider: 'offline',
        provider_transaction_id: null,
        provider_access_code: null,
        provider_status: null,
        initiated_by: null,
        paid_at: now,
        created_at: now,
        updated_at: now,
        method: 'bank_teller',
        bank,
        bank_reference,
        bank_reference_key: old_key,
        paid_on: '2025-10-01',
        receipt_number: `R-${old_key}`,
      });
    const a = await pay('Access Bank', 'ACC-1', 'ACCESSBANK|ACC1');
    const b = await pay('Access Bank Plc', 'acc 1', 'ACCESSBANKPLC|ACC1');
    const c = await pay('GTBank', 'ZW\u200B9', 'GTBANK|ZW\u200B9');
    const d = await pay('Guaranty Trust Bank', 'zw9', 'GUARANTYTRUSTBANK|ZW9');
    const e = await pay('Bank of Lagos', 'L-1', 'BANKOFLAGOS|L1');
    const report = (bank: string, bank_reference: string, key: string) =>
      insertedId('transfer_reports', {
        student_id: student.id,
        session_id: session.id,
        term: '1st',
        amount_kobo: 100_000,
        method: 'bank_transfer',
        bank,
        bank_reference,
        bank_reference_key: key,
        paid_on: '2025-10-01',
        note: '',
        scan_mime: 'image/png',
        scan_data: 'AA==',
        scan_bytes: 1,
        reported_by: null,
        reported_at: now,
        waiting_key: key,
      });
    const r1 = await report('GTB', 'W-1', 'GTB|W1');
    const r2 = await report('GTBank', 'w 1', 'GTBANK|W1');
    const rowsBefore = await upgrade.countRows(handle, ['payments', 'transfer_reports']);

    await migrateToLatest(handle);
    expect(await upgrade.countRows(handle, ['payments', 'transfer_reports'])).toEqual(rowsBefore);
    const keys = Object.fromEntries(
      (await handle.db.selectFrom('payments').select(['id', 'bank_reference_key']).execute()).map((p) => [p.id, p.bank_reference_key]),
    );
    expect([keys[a], keys[b], keys[c], keys[d], keys[e]]).toEqual(['044|ACC1', null, '058|ZW9', null, '?LAGOS|L1']);
    const reviews = await handle.db
      .selectFrom('bank_reference_reviews')
      .select(['entity', 'entity_id', 'holder_id', 'reference_key'])
      .orderBy('id')
      .execute();
    expect(reviews).toEqual([
      { entity: 'payment', entity_id: b, holder_id: a, reference_key: '044|ACC1' },
      { entity: 'payment', entity_id: d, holder_id: c, reference_key: '058|ZW9' },
      { entity: 'transfer_report', entity_id: r2, holder_id: r1, reference_key: '058|W1' },
    ]);
    const waiting = await handle.db
      .selectFrom('transfer_reports')
      .select(['id', 'bank_reference_key', 'waiting_key'])
      .orderBy('id')
      .execute();
    expect(waiting).toEqual([
      { id: r1, bank_reference_key: '058|W1', waiting_key: '058|W1' },
      { id: r2, bank_reference_key: '058|W1', waiting_key: null },
    ]);

    // The bursar reads them (both sides named), plain staff are not asked to.
    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const listed = await app.inject({ method: 'GET', url: '/api/bursary/reference-reviews/', headers: auth });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(
      listed
        .json<ReferenceReview[]>()
        .map((r) => [r.entity, r.receipt_number ?? r.report_id, r.holder_receipt_number ?? r.holder_report_id, r.bank, r.holder_bank]),
    ).toEqual([
      ['payment', 'R-ACCESSBANKPLC|ACC1', 'R-ACCESSBANK|ACC1', 'Access Bank Plc', 'Access Bank'],
      ['payment', 'R-GUARANTYTRUSTBANK|ZW9', 'R-GTBANK|ZW\u200B9', 'Guaranty Trust Bank', 'GTBank'],
      ['transfer_report', r2, r1, 'GTBank', 'GTB'],
    ]);

    // The unique index covers payments not reversed only.
    await expect(handle.db.updateTable('payments').set({ bank_reference_key: '044|ACC1' }).where('id', '=', b).execute()).rejects.toThrow();
    await handle.db.updateTable('payments').set({ reversed: 1 }).where('id', '=', a).execute();
    await handle.db.updateTable('payments').set({ bank_reference_key: '044|ACC1' }).where('id', '=', b).execute();
  });
});
