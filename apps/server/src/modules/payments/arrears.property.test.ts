import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { DebtorsPage, LedgerEntry, Statement } from '@portal/domain';
import { addArm, describeEachDatabase, signInStudent, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import './payments.tables';

const lagosToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
/** Naira with kobo, from integer kobo (the API's unit). */
const naira = (k: number) => k / 100;
const toKobo = (n: number) => Math.round(n * 100);

/**
 * Arrears to the kobo through the API (decision 041), for random fees, payments (some reversed) and
 * allocation choices over two sessions: the old statement's closing balance is the new one's opening;
 * brought forward + charges − discounts − payments = balance; the sum over sessions is conserved; the
 * debtors list agrees; no line is allocated more than its charge.
 */
describeEachDatabase('arrears through statements and debtors (property)', (dialect) => {
  let ctx: TestContext, admin: SignedIn, sessionId: number, previousSessionId: number;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, (s) => ({ ctx, admin, sessionId, previousSessionId } = s));
  const post = (url: string, payload: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url, headers: admin.auth, payload });
  const get = async <T>(url: string) => {
    const res = await ctx.app.inject({ method: 'GET', url, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  let n = 0;

  const money = fc.integer({ min: 10_000, max: 20_000_000 });
  const paymentArb = fc.record({
    kobo: money,
    reversed: fc.boolean(),
    allocation: fc.constantFrom('arrears_first', 'current_first'),
    term: fc.constantFrom('1st', '2nd', '3rd'),
  });

  it('holds for random fees, payments and reversals', async () => {
    await fc.assert(
      fc.asyncProperty(
        money,
        money,
        money,
        fc.array(paymentArb, { maxLength: 3 }),
        fc.array(paymentArb, { maxLength: 3 }),
        async (oldFee, fee1, fee2, oldPays, newPays) => {
          n++;
          const arm = await addArm(ctx, 'SSS 3', `Q${n}`, `SSS 3Q${n}`);
          const kid = await signInStudent(ctx, { arm });
          await ctx.handle.db.updateTable('students').set({ created_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', kid.id).execute();
          for (const [session, term, k] of [
            [previousSessionId, '1st', oldFee],
            [sessionId, '1st', fee1],
            [sessionId, '2nd', fee2],
          ] as const) {
            const r = await post('/api/payments/fee-schedules/', {
              session_id: session,
              student_class: arm,
              term,
              amount: naira(k),
              name: 'Fees',
            });
            expect(r.statusCode, r.body).toBe(201);
          }
          let standing = { old: 0, now: 0 };
          for (const [session, list, key] of [
            [previousSessionId, oldPays, 'old'],
            [sessionId, newPays, 'now'],
          ] as const) {
            for (const p of list) {
              const r = await post('/api/bursary/payments/', {
                admission_number: kid.admissionNumber,
                session_id: session,
                term: p.term,
                amount: naira(p.kobo),
                method: 'cash',
                paid_on: lagosToday(),
                confirm: true,
                allocation: p.allocation,
              });
              expect(r.statusCode, r.body).toBe(201);
              if (p.reversed) {
                const rev = await post(`/api/bursary/payments/${r.json<LedgerEntry>().reference}/reverse/`, { reason: 'test' });
                expect(rev.statusCode, rev.body).toBe(201);
              } else standing = { ...standing, [key]: standing[key] + p.kobo };
            }
          }
          const old = await get<Statement>(
            `/api/bursary/statement/?admission_number=${kid.admissionNumber}&session_id=${previousSessionId}`,
          );
          const now = await get<Statement>(`/api/bursary/statement/?admission_number=${kid.admissionNumber}&session_id=${sessionId}`);
          expect(toKobo(old.balance)).toBe(oldFee - standing.old);
          // Chained: the new session opens with the old one's closing balance.
          expect(toKobo(now.brought_forward)).toBe(toKobo(old.balance));
          expect(toKobo(now.balance)).toBe(toKobo(now.brought_forward) + toKobo(now.charged) - toKobo(now.discounts) - toKobo(now.paid));
          // Conserved over sessions: every charge less every payment that stands.
          expect(toKobo(now.balance)).toBe(oldFee + fee1 + fee2 - standing.old - standing.now);
          // Allocation: no line gets more than its charge; placed money never exceeds the money there is.
          for (const t of now.terms) expect(toKobo(t.paid)).toBeLessThanOrEqual(toKobo(t.charged));
          expect(toKobo(now.arrears.paid)).toBeLessThanOrEqual(toKobo(now.arrears.charged));
          const placed = toKobo(now.arrears.paid) + now.terms.reduce((s, t) => s + toKobo(t.paid), 0);
          expect(placed).toBeLessThanOrEqual(standing.now + Math.max(0, -toKobo(now.brought_forward)));
          // The debtors list agrees (whole session).
          const debtors = await get<DebtorsPage>(
            `/api/bursary/debtors/?session_id=${sessionId}&term=session&student_class=${encodeURIComponent(arm)}`,
          );
          const row = debtors.debtors.find((d) => d.admission_number === kid.admissionNumber);
          if (toKobo(now.balance) > 0) {
            expect(row).toBeDefined();
            expect(toKobo(row!.balance)).toBe(toKobo(now.balance));
            expect(toKobo(row!.brought_forward)).toBe(toKobo(now.brought_forward));
          } else expect(row).toBeUndefined();
        },
      ),
      { numRuns: 8 },
    );
  });
});
