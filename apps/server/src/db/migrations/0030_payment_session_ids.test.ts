import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Statement } from '@portal/domain';
import { migrateToLatest } from '../index';
import { createPayment } from '../factories';
import { createSession, describeEachDatabase } from '../../../test/helpers';
import * as upgrade from '../../../test/migrations';
import '../../modules/payments/payments.tables';

const cleanups = upgrade.cleanupsAfterEach();

describe('migration 0030 on a database made by the previous release (SQLite fixture)', () => {
  it("keeps every row of every table and gives each payment its session's id", async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    expect(before.payments!.length).toBeGreaterThan(0);
    await upgrade.migrateKeepingRows(handle, before);
    // Every payment names a session the school has: each now holds that session's id.
    const rows = await sql<{ current_session: string; session_id: number | null; name: string | null }>`
      select p.current_session, p.session_id, s.name from payments p left join academic_sessions s on s.id = p.session_id`.execute(
      handle.db,
    );
    expect(rows.rows.length).toBe(before.payments!.length);
    for (const r of rows.rows) expect(r.name).toBe(r.current_session);
  });
});

describeEachDatabase('migration 0030: payments key by session id', (dialect) => {
  it('fills the id from the name, leaves a name of no session empty, and the statement counts the payment', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0028_idempotency_keys', cleanups);
    const session = await createSession(handle.db, '2025/2026', true);
    const other = await createSession(handle.db, '2024/2025', false);
    const student = await upgrade.oldStudent(handle, 'JSS 1A', 1);
    const pay = (reference: string, name: string) =>
      createPayment(handle.db, {
        reference,
        studentId: student.id,
        admissionNumber: student.admissionNumber,
        arm: 'JSS 1A',
        session: name,
        amountKobo: 1_000_000,
        status: 'successful',
        term: '1st',
      });
    await pay('P-NOW', '2025/2026');
    await pay('P-OLD', '2024/2025');
    await pay('P-NONE', '1999/2000');
    await migrateToLatest(handle);

    const ids = await handle.db.selectFrom('payments').select(['reference', 'session_id']).orderBy('reference').execute();
    expect(ids).toEqual([
      { reference: 'P-NONE', session_id: null },
      { reference: 'P-NOW', session_id: session.id },
      { reference: 'P-OLD', session_id: other.id },
    ]);

    // Renaming the session keeps its payment on the upgraded school's statement.
    await handle.db.updateTable('academic_sessions').set({ name: '2025/2026 (corrected)' }).where('id', '=', session.id).execute();
    const { app, auth } = await upgrade.appAsAdmin(handle, cleanups);
    const res = await app.inject({
      method: 'GET',
      url: `/api/bursary/statement/?admission_number=${student.admissionNumber}&session_id=${session.id}`,
      headers: auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Statement>()).toMatchObject({ session: '2025/2026 (corrected)', paid: 10000 });
  });
});
