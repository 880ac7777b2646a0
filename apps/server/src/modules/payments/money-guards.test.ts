import { expect, it } from 'vitest';
import { PAYMENT_DATE_MESSAGES, shiftYears } from '@portal/domain';
import { describeEachDatabase, signInStaff, signInStudent, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { greyPng } from '../../../test/grey-png';
import './payments.tables';

type Student = SignedIn & { admissionNumber: string; id: number };

/** The school's date `days` from today (Africa/Lagos, the default zone). */
function lagosDay(days = 0): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const pngDataUrl = () => `data:image/png;base64,${greyPng(4, 4).toString('base64')}`;

/** Issue 30.5: a payment date falls between a year before the current session's first term and today. */
describeEachDatabase('payment dates (issue 30.5)', (dialect) => {
  let ctx: TestContext, admin: SignedIn, sessionId: number, bursar: SignedIn & { staffId: string }, pupil: Student;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, async (s) => {
    ({ ctx, admin, sessionId } = s);
    bursar = await signInStaff(ctx, { firstName: 'Bola', lastName: 'Bursar' });
    const granted = await ctx.app.inject({
      method: 'PUT',
      url: `/api/staff-capabilities/${bursar.staffId}/`,
      headers: admin.auth,
      payload: { capabilities: ['bursar'] },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    pupil = await signInStudent(ctx, { studentClass: 'JSS 2A' });
  });

  let seq = 0;
  const record = (paid_on: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/bursary/payments/',
      headers: bursar.auth,
      payload: {
        admission_number: pupil.admissionNumber,
        session_id: sessionId,
        term: '1st',
        amount: 1000,
        method: 'bank_teller',
        bank: 'First Bank',
        bank_reference: `DATE-${dialect}-${++seq}`,
        paid_on,
      },
    });
  const report = (paid_on: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/bursary/transfer-reports/',
      headers: pupil.auth,
      payload: {
        session_id: sessionId,
        term: null,
        amount: 1000,
        method: 'bank_transfer',
        bank: 'GTBank',
        bank_reference: `TRF-${dialect}-${++seq}`,
        paid_on,
        scan: pngDataUrl(),
      },
    });

  it('refuses 1900-01-01 and the future, with clear messages, for the bursar and a reported transfer', async () => {
    const min = shiftYears(lagosDay(), -1);
    for (const send of [record, report]) {
      const old = await send('1900-01-01');
      expect(old.statusCode, old.body).toBe(400);
      expect(old.json()).toEqual({ paid_on: [PAYMENT_DATE_MESSAGES.tooEarly(min)] });
      const future = await send(lagosDay(2));
      expect(future.statusCode).toBe(400);
      expect(future.json()).toEqual({ paid_on: [PAYMENT_DATE_MESSAGES.future] });
    }
    // The session's first term has no dates yet: a year before today is the earliest day.
    expect((await record(dayBefore(min))).statusCode).toBe(400);
    expect((await record(min)).statusCode).toBe(201);
    expect((await record(lagosDay())).statusCode).toBe(201);
  });

  it("with the first term dated, the earliest day is a year before the term's first day", async () => {
    const starts = lagosDay(-200);
    const terms = await ctx.app.inject({
      method: 'PUT',
      url: '/api/attendance/terms/',
      headers: admin.auth,
      payload: { session_id: sessionId, term: '1st', starts_on: starts, ends_on: lagosDay(-120) },
    });
    expect(terms.statusCode, terms.body).toBe(200);
    const min = shiftYears(starts, -1);
    const early = await record(dayBefore(min));
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ paid_on: [PAYMENT_DATE_MESSAGES.tooEarly(min)] });
    expect((await record(min)).statusCode).toBe(201);
    expect((await report(min)).statusCode).toBe(201);
  });
});
