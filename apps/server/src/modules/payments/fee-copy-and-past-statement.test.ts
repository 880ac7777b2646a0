import { expect, it } from 'vitest';
import type { FeeItem, Statement } from '@portal/domain';
import { describeEachDatabase, signInStudent, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import './payments.tables';

/** The school's date today (Africa/Lagos, the default zone). */
const lagosToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

describeEachDatabase('fee items copied to named classes, and a past session’s statement', (dialect) => {
  let ctx: TestContext, admin: SignedIn, sessionId: number, previousSessionId: number;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, (s) => ({ ctx, admin, sessionId, previousSessionId } = s));

  const post = (url: string, payload: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url, headers: admin.auth, payload });
  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: admin.auth });
  const itemsOf = async (session: number, cls: string) =>
    (await get(`/api/payments/fee-schedules/?session_id=${session}&class=${encodeURIComponent(cls)}`))
      .json<FeeItem[]>()
      .map((f) => [f.term, f.name, f.amount]);

  it('copying fee items to one class copies them to that class only', async () => {
    const saved = await post('/api/payments/fee-items/bulk/', {
      session_id: previousSessionId,
      term: '3rd',
      classes: ['JSS 1A', 'JSS 1B'],
      items: [
        { name: 'Tuition', amount: 70000 },
        { name: 'Sports', amount: 2500 },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const res = await post('/api/payments/fee-items/copy/', {
      from_session_id: previousSessionId,
      from_term: '3rd',
      to_session_id: sessionId,
      to_term: '1st',
      classes: ['JSS 1A'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ copied: 2, skipped: 0 });
    expect(await itemsOf(sessionId, 'JSS 1A')).toEqual([
      ['1st', 'Tuition', 70000],
      ['1st', 'Sports', 2500],
    ]);
    expect(await itemsOf(sessionId, 'JSS 1B')).toEqual([]);
    expect(await itemsOf(sessionId, 'JSS 2A')).toEqual([]);
    // The source is left as it was.
    expect(await itemsOf(previousSessionId, 'JSS 1B')).toEqual([
      ['3rd', 'Tuition', 70000],
      ['3rd', 'Sports', 2500],
    ]);
  });

  it('a past session’s statement is that session’s: its charges, its payments, its name', async () => {
    const kid = await signInStudent(ctx, { arm: 'JSS 3B' });
    for (const [session, amount] of [
      [previousSessionId, 60000],
      [sessionId, 100000],
    ] as const) {
      const res = await post('/api/payments/fee-schedules/', {
        session_id: session,
        student_class: 'JSS 3B',
        term: '1st',
        amount,
        name: 'Tuition',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const paid = await post('/api/bursary/payments/', {
      admission_number: kid.admissionNumber,
      session_id: previousSessionId,
      term: '1st',
      amount: 20000,
      method: 'cash',
      paid_on: lagosToday(),
    });
    expect(paid.statusCode, paid.body).toBe(201);

    const past = await get(`/api/bursary/statement/?admission_number=${kid.admissionNumber}&session_id=${previousSessionId}`);
    expect(past.statusCode, past.body).toBe(200);
    const st = past.json<Statement>();
    expect(st).toMatchObject({
      session_id: previousSessionId,
      session: '2024/2025',
      charged: 60000,
      paid: 20000,
      balance: 40000,
      upcoming: 0,
    });
    expect(st.lines.map((l) => [l.kind, l.term, l.debit, l.credit, l.balance])).toEqual([
      ['charge', '1st', 60000, 0, 60000],
      ['payment', '1st', 0, 20000, 40000],
    ]);

    const current = (await get(`/api/bursary/statement/?admission_number=${kid.admissionNumber}`)).json<Statement>();
    // What 2024/2025 left unpaid opens 2025/2026 (decision 041).
    expect(current).toMatchObject({
      session_id: sessionId,
      session: '2025/2026',
      charged: 100000,
      paid: 0,
      brought_forward: 40000,
      brought_forward_from: '2024/2025',
      balance: 140000,
    });
    expect(current.lines.map((l) => [l.kind, l.debit, l.balance])).toEqual([
      ['brought_forward', 40000, 40000],
      ['charge', 100000, 140000],
    ]);
  });
});
