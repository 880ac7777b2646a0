import { expect, it } from 'vitest';
import type { LedgerPage, Payment, Receipt, Statement } from '@portal/domain';
import { describeEachDatabase, signInStudent, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { lagosDay, recordPayment, signInBursar, type Student } from '../../../test/payments-fixtures';
import './payments.tables';

/**
 * Payments key by their session's id (migration 0030): a session renamed after its payments were
 * made (a typo corrected) keeps them on the statement, the ledger, the history and the receipt, and
 * they are shown under the new name. Keyed by the name, the statement lost every payment.
 */
describeEachDatabase('a renamed session keeps its payments', (dialect) => {
  let ctx: TestContext, admin: SignedIn, sessionId: number;
  let bursar: SignedIn;
  let pupil: Student;
  withSchool(dialect, { sessions: ['2025/2025'] }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    bursar = await signInBursar(ctx, admin);
    pupil = await signInStudent(ctx, { arm: 'JSS 2A' });
  });
  const get = (who: SignedIn, url: string) => ctx.app.inject({ method: 'GET', url, headers: who.auth });

  it('statement, ledger, history and receipt follow the session after its rename', async () => {
    const { reference } = await recordPayment(ctx, bursar, {
      admission_number: pupil.admissionNumber,
      session_id: sessionId,
      term: '1st',
      amount: 25000,
      method: 'cash',
      bank: '',
      bank_reference: '',
      paid_on: lagosDay(),
      note: '',
    });

    const renamed = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/sessions/${sessionId}/`,
      headers: admin.auth,
      payload: { name: '2025/2026' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const statement = (
      await get(bursar, `/api/bursary/statement/?admission_number=${pupil.admissionNumber}&session_id=${sessionId}`)
    ).json<Statement>();
    expect(statement.session).toBe('2025/2026');
    expect(statement.paid).toBe(25000);
    expect(statement.lines.filter((l) => l.kind === 'payment').map((l) => l.credit)).toEqual([25000]);

    const ledger = (await get(bursar, `/api/bursary/payments/?session_id=${sessionId}`)).json<LedgerPage>();
    expect(ledger.entries.map((e) => [e.reference, e.session])).toEqual([[reference, '2025/2026']]);

    const history = (await get(pupil, `/api/payments/history/?admission_number=${pupil.admissionNumber}`)).json<Payment[]>();
    expect(history.map((p) => [p.reference, p.current_session])).toEqual([[reference, '2025/2026']]);

    const receipt = await get(pupil, `/api/payments/receipt/${reference}/`);
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.json<Receipt>()).toMatchObject({ current_session: '2025/2026', amount: 25000, balance_after: 0 });
  });
});
