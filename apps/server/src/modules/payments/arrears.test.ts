import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { CollectionSummary, DebtorsPage, LedgerEntry, PaymentContext, Statement } from '@portal/domain';
import { addArm, describeEachDatabase, signInStudent, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { siblingDiscount } from '../../../test/payments-fixtures';
import './payments.tables';

/** The school's date today (Africa/Lagos, the default zone). */
const lagosToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/**
 * Arrears and credits (decision 041): what 2024/2025 left unpaid (or overpaid) opens the student's
 * 2025/2026 statement, counts in debtors, the collection summary and the payment form, and is paid
 * arrears first unless the bursar records a payment "current term first". Kobo amounts throughout.
 */
describeEachDatabase('arrears and credits brought forward', (dialect) => {
  let ctx: TestContext, admin: SignedIn, sessionId: number, previousSessionId: number;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, (s) => ({ ctx, admin, sessionId, previousSessionId } = s));

  const post = (url: string, payload: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url, headers: admin.auth, payload });
  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: admin.auth });
  const statement = async (adm: string, session?: number) => {
    const res = await get(`/api/bursary/statement/?admission_number=${adm}${session ? `&session_id=${session}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Statement>();
  };
  const pay = async (adm: string, session: number, amount: number, extra: Record<string, unknown> = {}) => {
    const res = await post('/api/bursary/payments/', {
      admission_number: adm,
      session_id: session,
      term: '1st',
      amount,
      method: 'cash',
      paid_on: lagosToday(),
      confirm: true,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<LedgerEntry>();
  };

  /** A student of `arm` admitted long before either session, with the arm's fees set in both. */
  async function pupil(arm: string): Promise<SignedIn & { admissionNumber: string; id: number }> {
    const kid = await signInStudent(ctx, { arm });
    await ctx.handle.db.updateTable('students').set({ created_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', kid.id).execute();
    for (const [session, term, amount] of [
      [previousSessionId, '1st', 60000.25],
      [sessionId, '1st', 100000],
      [sessionId, '2nd', 50000.5],
    ] as const) {
      const res = await post('/api/payments/fee-schedules/', { session_id: session, student_class: arm, term, amount, name: 'Tuition' });
      expect(res.statusCode, res.body).toBe(201);
    }
    return kid;
  }

  it('opens the next session with the unpaid balance, to the kobo, and follows a late old-session payment and its reversal', async () => {
    const kid = await pupil('JSS 3B');
    await pay(kid.admissionNumber, previousSessionId, 20000.1);
    const past = await statement(kid.admissionNumber, previousSessionId);
    expect(past).toMatchObject({ balance: 40000.15, brought_forward: 0, brought_forward_from: null });

    const st = await statement(kid.admissionNumber);
    expect(st).toMatchObject({ session_id: sessionId, brought_forward: 40000.15, brought_forward_from: '2024/2025', balance: 190000.65 });
    expect(st.lines[0]).toMatchObject({
      kind: 'brought_forward',
      description: 'Balance brought forward from 2024/2025',
      debit: 40000.15,
      credit: 0,
      balance: 40000.15,
    });
    expect(st.arrears).toEqual({ charged: 40000.15, paid: 0, outstanding: 40000.15 });

    // A payment for the old session arrives late: the new session's opening follows at once; so does its reversal.
    const late = await pay(kid.admissionNumber, previousSessionId, 15000.05);
    expect((await statement(kid.admissionNumber)).brought_forward).toBe(25000.1);
    const rev = await post(`/api/bursary/payments/${late.reference}/reverse/`, { reason: 'Bounced cheque' });
    expect(rev.statusCode, rev.body).toBe(201);
    expect((await statement(kid.admissionNumber)).brought_forward).toBe(40000.15);

    // Debtors and the collection summary count it.
    const debtors = (await get(`/api/bursary/debtors/?session_id=${sessionId}&term=session&student_class=JSS%203B`)).json<DebtorsPage>();
    const row = debtors.debtors.find((d) => d.admission_number === kid.admissionNumber);
    expect(row).toMatchObject({ brought_forward: 40000.15, due: 190000.65, paid: 0, balance: 190000.65 });
    const csv = (await get(`/api/bursary/debtors.csv?session_id=${sessionId}&term=session&student_class=JSS%203B`)).body;
    expect(csv.split('\n')[0]).toContain('brought_forward');
    expect(csv).toContain('40000.15');
    const pdf = await get(`/api/bursary/debtors.pdf?session_id=${sessionId}&term=session&student_class=JSS%203B`);
    expect(pdf.statusCode).toBe(200);
    const summary = (await get(`/api/bursary/collections/?session_id=${sessionId}`)).json<CollectionSummary>();
    expect(summary.totals.brought_forward).toBeGreaterThanOrEqual(40000.15);
    expect(summary.by_item.find((i) => i.name === 'Balance brought forward from 2024/2025')).toMatchObject({ expected: 40000.15 });
  });

  it('pays arrears first unless the bursar records the payment "current term first"; terms[] shows the allocation', async () => {
    const kid = await pupil('JSS 2B');
    const first = await pay(kid.admissionNumber, sessionId, 50000);
    expect(first.allocation).toBe('arrears_first');
    let st = await statement(kid.admissionNumber);
    expect(st.arrears).toEqual({ charged: 60000.25, paid: 50000, outstanding: 10000.25 });
    expect(st.terms.find((t) => t.term === '1st')).toEqual({ term: '1st', charged: 100000, paid: 0, outstanding: 100000 });

    const second = await pay(kid.admissionNumber, sessionId, 30000, { term: '2nd', allocation: 'current_first' });
    expect(second.allocation).toBe('current_first');
    const stored = await ctx.handle.db
      .selectFrom('payments')
      .select('allocation')
      .where('reference', '=', second.reference)
      .executeTakeFirstOrThrow();
    expect(stored.allocation).toBe('current_first');
    st = await statement(kid.admissionNumber);
    expect(st.terms.find((t) => t.term === '2nd')).toEqual({ term: '2nd', charged: 50000.5, paid: 30000, outstanding: 20000.5 });
    expect(st.arrears.outstanding).toBe(10000.25);
    expect(st.balance).toBe(60000.25 + 150000.5 - 80000);

    // A bad choice is a clear 400 and writes nothing.
    const bad = await post('/api/bursary/payments/', {
      admission_number: kid.admissionNumber,
      session_id: sessionId,
      term: '1st',
      amount: 100,
      method: 'cash',
      paid_on: lagosToday(),
      allocation: 'whatever',
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('Choose how the payment is applied.');
  });

  it('an overpayment carries forward as a credit that settles the new terms', async () => {
    const kid = await pupil('JSS 1B');
    await pay(kid.admissionNumber, previousSessionId, 80000.25);
    const st = await statement(kid.admissionNumber);
    expect(st.brought_forward).toBe(-20000);
    expect(st.lines[0]).toMatchObject({ kind: 'brought_forward', debit: 0, credit: 20000, balance: -20000 });
    expect(st.terms.find((t) => t.term === '1st')).toEqual({ term: '1st', charged: 100000, paid: 20000, outstanding: 80000 });
    expect(st.balance).toBe(150000.5 - 20000);
    const debtors = (await get(`/api/bursary/debtors/?session_id=${sessionId}&term=session&student_class=JSS%201B`)).json<DebtorsPage>();
    expect(debtors.debtors.find((d) => d.admission_number === kid.admissionNumber)).toMatchObject({
      brought_forward: -20000,
      balance: 130000.5,
    });
  });

  it("the student's payment form offers the arrears, and checkout counts them in the balance", async () => {
    const kid = await pupil('SSS 1A');
    const res = await ctx.app.inject({ method: 'GET', url: '/api/payments/context/', headers: kid.auth });
    expect(res.statusCode, res.body).toBe(200);
    const student = res.json<PaymentContext>().student!;
    expect(student).toMatchObject({ brought_forward: 60000.25, outstanding: 210000.75 });
    // Arrears first, then the first term.
    expect(student.suggested_amount).toBe(160000.25);
    expect(student.terms.find((t) => t.term === '1st')).toMatchObject({ amount_paid: 0, balance: 100000 });
  });

  it("a promoted student's arrears are their old arm's fees (class history, decision 038), not their new arm's", async () => {
    for (const [level, arm] of [
      ['JSS 1', 'C'],
      ['JSS 2', 'C'],
      ['JSS 1', 'D'],
    ] as const)
      await addArm(ctx, level, arm, `${level}${arm}`);
    const kid = await pupil('JSS 1C');
    // 2024/2025 closed by promotion: the student was in JSS 1C, now in JSS 2C (whose old fees differ).
    const other = await post('/api/payments/fee-schedules/', {
      session_id: previousSessionId,
      student_class: 'JSS 2C',
      term: '1st',
      amount: 99999,
      name: 'Tuition',
    });
    expect(other.statusCode, other.body).toBe(201);
    await sql`insert into student_enrolments (student_id, session_id, student_class, stream_id, outcome, run_id, created_at)
      values (${kid.id}, ${previousSessionId}, 'JSS 1C', null, 'promoted', null, '2025-07-30T10:00:00.000Z')`.execute(ctx.handle.db);
    await ctx.handle.db.updateTable('students').set({ student_class: 'JSS 2C' }).where('id', '=', kid.id).execute();
    const st = await statement(kid.admissionNumber);
    expect(st.brought_forward).toBe(60000.25);
    // A student with no row in the closed session was not in it: nothing brought forward.
    const newcomer = await pupil('JSS 1D');
    expect((await statement(newcomer.admissionNumber)).brought_forward).toBe(0);
  });

  it("an old session's discount lowers what it brings forward (the one due rule)", async () => {
    const kid = await pupil('JSS 3A');
    const plain = await signInStudent(ctx, { arm: 'JSS 3A' });
    await ctx.handle.db.updateTable('students').set({ created_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', plain.id).execute();
    // 2024/2025 was closed by the promotion test above: both were in JSS 3A then.
    for (const id of [kid.id, plain.id])
      await sql`insert into student_enrolments (student_id, session_id, student_class, stream_id, outcome, run_id, created_at)
        values (${id}, ${previousSessionId}, 'JSS 3A', null, 'repeat', null, '2025-07-30T10:00:00.000Z')`.execute(ctx.handle.db);
    const given = await post('/api/bursary/discounts/', { ...siblingDiscount(kid.admissionNumber, previousSessionId), percent: 10 });
    expect(given.statusCode, given.body).toBe(201);
    // 10% of 60,000.25 is 6,000.03 (rounded as the discount rule rounds): the plain student brings the whole fee.
    expect((await statement(plain.admissionNumber)).brought_forward).toBe(60000.25);
    const past = await statement(kid.admissionNumber, previousSessionId);
    expect((await statement(kid.admissionNumber)).brought_forward).toBe(past.balance);
    expect(past.balance).toBeLessThan(60000.25);
  });

  it('a student admitted after the old session ended brings nothing forward', async () => {
    const kid = await signInStudent(ctx, { arm: 'JSS 3B' });
    const st = await statement(kid.admissionNumber);
    expect(st.brought_forward).toBe(0);
    expect(st.lines.some((l) => l.kind === 'brought_forward')).toBe(false);
  });
});
