import { beforeAll, describe, expect, it } from 'vitest';
import { FEE_MESSAGES, PAYMENT_HTTP_MESSAGES, PAYMENT_MESSAGES } from '@portal/domain';
import { withSchool, describeEachDatabase, requestsOn, signInStudent, type SignedIn, type TestContext } from '../../../test/helpers';
import './payments.tables';

type Student = SignedIn & { admissionNumber: string; id: number };

/** Fee items, paid / part paid / unpaid, and an overpayment that needs a confirm. */
describeEachDatabase('fee items and what a student owes', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, previousSessionId: number, sessionId: number;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, (s) => ({ ctx, admin, staff, sessionId, previousSessionId } = s));

  const { get, post } = requestsOn(() => ctx);
  const addItem = (payload: Record<string, unknown>) => post(admin, '/api/payments/fee-schedules/', { session_id: sessionId, ...payload });

  /** A successful payment through the simulator (as the student would make it). */
  async function pay(s: Student, cls: string, amount: number, extra: Record<string, unknown> = {}) {
    const res = await post(s, '/api/payments/initiate/', {
      admission_number: s.admissionNumber,
      full_name: 'Pupil Payer',
      current_class: cls,
      current_session: '2025/2026',
      email: 'payer@example.com',
      amount,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { authorization_url, reference } = res.json().data as { authorization_url: string; reference: string };
    // The payer completes the simulator's checkout through the API, signed in.
    const code = new URL(authorization_url).pathname.split('/').pop();
    const done = await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/simulator/${code}/`,
      headers: s.auth,
      payload: { outcome: 'pay' },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await post(s, '/api/payments/verify/', { reference })).json().status).toBe('success');
    return reference;
  }

  describe('fee items', () => {
    it('adds "PTA levy" beside tuition for the same class and term; the balance is the sum of compulsory items', async () => {
      const tuition = await addItem({
        student_class: 'JSS 3A',
        term: '1st',
        amount: 85000,
        description: 'First term tuition',
        name: 'Tuition',
      });
      expect(tuition.statusCode, tuition.body).toBe(201);
      // The original call, no name: named after its description.
      const pta = await addItem({ student_class: 'JSS 3A', term: '1st', amount: '5000', description: 'PTA levy' });
      expect(pta.statusCode, pta.body).toBe(201);
      expect(pta.json()).toMatchObject({ name: 'PTA levy', amount: 5000, compulsory: true, term: '1st', student_class: 'JSS 3A' });
      const bus = await addItem({ student_class: 'JSS 3A', term: '1st', amount: 15000, name: 'School bus', compulsory: false });
      expect(bus.json()).toMatchObject({ name: 'School bus', compulsory: false, description: '' });

      const list = (await get(staff, `/api/payments/fee-schedules/?session_id=${sessionId}&class=JSS%203A`)).json();
      expect(list.map((f: { name: string }) => f.name)).toEqual(['Tuition', 'PTA levy', 'School bus']);
      // Each keeps the fee-schedule shape of before, with name, compulsory and the due date added.
      expect(Object.keys(list[0]).sort()).toEqual(
        [
          'amount',
          'compulsory',
          'description',
          'due_on',
          'id',
          'name',
          'session',
          'session_id',
          'student_class',
          'term',
          'updated_at',
        ].sort(),
      );

      const s = await signInStudent(ctx, { firstName: 'Ngozi', lastName: 'Ade', arm: 'JSS 3A' });
      const c = (await get(s, '/api/payments/context/')).json().student;
      expect(c).toMatchObject({ amount_due: 90000, outstanding: 90000, term: '1st', suggested_amount: 90000, status: 'unpaid' });
      expect(c.items).toHaveLength(3);
    });

    it("a real duplicate (same name, any case) is a 409 in a fee's words, never the payment message", async () => {
      const dup = await addItem({ student_class: 'JSS 3A', term: '1st', amount: 6000, name: '  pta   LEVY ' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toEqual({ detail: FEE_MESSAGES.itemExists('pta LEVY', 'JSS 3A', 'First Term') });
      expect(dup.json().detail).not.toBe(PAYMENT_HTTP_MESSAGES[409]);
      // Renaming an item onto another's name is the same duplicate.
      const list = (await get(admin, `/api/payments/fee-schedules/?session_id=${sessionId}&class=JSS%203A`)).json();
      const bus = list.find((f: { name: string }) => f.name === 'School bus');
      const rename = await ctx.app.inject({
        method: 'PUT',
        url: `/api/payments/fee-schedules/${bus.id}/`,
        headers: admin.auth,
        payload: { amount: 15000, description: '', name: 'Tuition' },
      });
      expect(rename.statusCode).toBe(409);
      const ok = await ctx.app.inject({
        method: 'PUT',
        url: `/api/payments/fee-schedules/${bus.id}/`,
        headers: admin.auth,
        payload: { amount: 16000, description: 'Both routes', compulsory: true },
      });
      expect(ok.json()).toMatchObject({ name: 'School bus', amount: 16000, compulsory: true, description: 'Both routes' });
      await ctx.app.inject({
        method: 'PUT',
        url: `/api/payments/fee-schedules/${bus.id}/`,
        headers: admin.auth,
        payload: { amount: 15000, description: '', compulsory: false },
      });
    });

    it('sets items once for all JSS classes: adds what is new, updates by name, audited, in one go', async () => {
      const jss = ['JSS 1A', 'JSS 1B', 'JSS 2A', 'JSS 2B', 'JSS 3A', 'JSS 3B'];
      const res = await post(admin, '/api/payments/fee-items/bulk/', {
        session_id: sessionId,
        term: '2nd',
        classes: jss,
        items: [
          { name: 'Tuition', amount: 80000 },
          { name: 'Books', amount: '12500.50', description: 'Textbooks' },
          { name: 'Uniform', amount: 9000, compulsory: false },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ created: 18, updated: 0 });
      expect(res.json().items).toHaveLength(18);
      const again = await post(admin, '/api/payments/fee-items/bulk/', {
        session_id: sessionId,
        term: '2nd',
        classes: ['JSS 1A', 'JSS 1B'],
        items: [{ name: 'tuition', amount: 82000 }],
      });
      expect(again.json()).toMatchObject({ created: 0, updated: 2 });
      const items = (await get(admin, `/api/payments/fee-schedules/?session_id=${sessionId}&class=JSS%201B`)).json();
      expect(
        items.filter((f: { term: string }) => f.term === '2nd').map((f: { name: string; amount: number }) => [f.name, f.amount]),
      ).toEqual([
        ['tuition', 82000],
        ['Books', 12500.5],
        ['Uniform', 9000],
      ]);
      const audit = await ctx.handle.db.selectFrom('audit_log').select('action').where('entity', '=', 'fee_schedule').execute();
      expect(audit.filter((a) => a.action === 'fee_schedule.update').length).toBeGreaterThanOrEqual(2);

      const bad = await post(admin, '/api/payments/fee-items/bulk/', {
        session_id: sessionId,
        term: '2nd',
        classes: [],
        items: [{ name: '', amount: 50 }],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ classes: [FEE_MESSAGES.classesRequired] });
      for (const who of [staff]) expect((await post(who, '/api/payments/fee-items/bulk/', {})).statusCode).toBe(403);
    });

    it("copies last term's items into a new term, keeping what the target already has", async () => {
      await post(admin, '/api/payments/fee-items/bulk/', {
        session_id: previousSessionId,
        term: '3rd',
        classes: ['SSS 1A', 'SSS 1B'],
        items: [
          { name: 'Tuition', amount: 95000 },
          { name: 'PTA levy', amount: 5000 },
        ],
      });
      await addItem({ student_class: 'SSS 1A', term: '1st', amount: 99000, name: 'Tuition' });
      const res = await post(admin, '/api/payments/fee-items/copy/', {
        from_session_id: previousSessionId,
        from_term: '3rd',
        to_session_id: sessionId,
        to_term: '1st',
        classes: ['SSS 1A', 'SSS 1B'],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ copied: 3, skipped: 1 });
      const a = (await get(admin, `/api/payments/fee-schedules/?session_id=${sessionId}&class=SSS%201A`)).json();
      expect(a.map((f: { name: string; amount: number }) => [f.name, f.amount])).toEqual([
        ['Tuition', 99000],
        ['PTA levy', 5000],
      ]);
      // Copying from a term with no items, or onto itself, is refused with its reason.
      for (const [fromSessionId, message] of [
        [previousSessionId, FEE_MESSAGES.nothingToCopy],
        [sessionId, FEE_MESSAGES.sameTerm],
      ] as const) {
        const refused = await post(admin, '/api/payments/fee-items/copy/', {
          from_session_id: fromSessionId,
          from_term: '1st',
          to_session_id: sessionId,
          to_term: '1st',
        });
        expect(refused.json()).toEqual({ from_term: [message] });
      }
    });
  });

  describe('paid, part paid, unpaid', () => {
    let full: Student;
    let part: Student;
    let tiny: Student;
    let none: Student;
    beforeAll(async () => {
      // SSS 3B: 1st term ₦85,000 (tuition + PTA levy), 2nd term ₦85,000, and an optional bus item.
      await post(admin, '/api/payments/fee-items/bulk/', {
        session_id: sessionId,
        term: '1st',
        classes: ['SSS 3B'],
        items: [
          { name: 'Tuition', amount: 80000 },
          { name: 'PTA levy', amount: 5000 },
          { name: 'Bus', amount: 20000, compulsory: false },
        ],
      });
      await post(admin, '/api/payments/fee-items/copy/', {
        from_session_id: sessionId,
        from_term: '1st',
        to_session_id: sessionId,
        to_term: '2nd',
        classes: ['SSS 3B'],
      });
      full = await signInStudent(ctx, { firstName: 'Amaka', lastName: 'Full', arm: 'SSS 3B' });
      part = await signInStudent(ctx, { firstName: 'Bisi', lastName: 'Part', arm: 'SSS 3B' });
      tiny = await signInStudent(ctx, { firstName: 'Chidi', lastName: 'Tiny', arm: 'SSS 3B' });
      none = await signInStudent(ctx, { firstName: 'Dupe', lastName: 'None', arm: 'SSS 3B' });
      await pay(full, 'SSS 3B', 85000, { term: '1st' });
      await pay(full, 'SSS 3B', 85000, { term: '2nd' });
      await pay(part, 'SSS 3B', 85000, { term: '1st' });
      await pay(tiny, 'SSS 3B', 100);
    });

    it('a ₦100 payment is part paid with its balance, never paid; the spec field says successful only when paid in full', async () => {
      const rows = (await get(staff, '/api/payments/report/?class=SSS%203B')).json<Record<string, unknown>[]>();
      const by = (s: Student) => rows.find((r) => r.admission_number === s.admissionNumber)!;
      expect(by(tiny)).toMatchObject({
        payment_status: 'unpaid',
        status: 'part_paid',
        amount_due: 170000,
        amount_paid: 100,
        outstanding: 169900,
        balance: 169900,
        last_payment_amount: 100,
      });
      expect(by(full)).toMatchObject({ payment_status: 'successful', status: 'paid', balance: 0, amount_paid: 170000 });
      expect(by(part)).toMatchObject({
        payment_status: 'unpaid',
        status: 'part_paid',
        balance: 85000,
        terms: [
          { term: '1st', amount_due: 85000, amount_paid: 85000, balance: 0, status: 'paid' },
          { term: '2nd', amount_due: 85000, amount_paid: 0, balance: 85000, status: 'unpaid' },
        ],
      });
      expect(by(none)).toMatchObject({ payment_status: 'unpaid', status: 'unpaid', balance: 170000, amount_paid: 0 });
    });

    it('the summary counts paid in full, part paid and unpaid; per term where asked', async () => {
      const s = (await get(admin, '/api/payments/report/summary/?class=SSS%203B')).json();
      expect(s).toEqual({
        class: 'SSS 3B',
        session: '2025/2026',
        term: null,
        students: 4,
        paid: 1,
        part_paid: 2,
        pending: 0,
        unpaid: 1,
        amount_due: 680000,
        amount_paid: 255100,
        outstanding: 424900,
      });
      const first = (await get(admin, '/api/payments/report/summary/?class=SSS%203B&term=1st')).json();
      expect(first).toMatchObject({ term: '1st', paid: 2, part_paid: 1, unpaid: 1, amount_due: 340000, outstanding: 169900 });
      const rows = (await get(staff, '/api/payments/report/?class=SSS%203B&term=1st')).json<
        { admission_number: string; payment_status: string }[]
      >();
      expect(rows.find((r) => r.admission_number === part.admissionNumber)!.payment_status).toBe('successful');
      const bad = await get(staff, '/api/payments/report/?class=SSS%203B&term=4th');
      expect(bad.json()).toEqual({ term: [PAYMENT_MESSAGES.termInvalid] });
    });

    it('a pending payment keeps the spec status pending without counting as paid', async () => {
      await post(none, '/api/payments/initiate/', {
        admission_number: none.admissionNumber,
        full_name: 'Dupe None',
        current_class: 'SSS 3B',
        current_session: '2025/2026',
        email: 'dupe@example.com',
        amount: 85000,
      });
      const rows = (await get(staff, '/api/payments/report/?class=SSS%203B')).json<Record<string, unknown>[]>();
      expect(rows.find((r) => r.admission_number === none.admissionNumber)).toMatchObject({ payment_status: 'pending', status: 'unpaid' });
      expect((await get(admin, '/api/payments/report/summary/?class=SSS%203B')).json()).toMatchObject({ paid: 1, pending: 1, unpaid: 1 });
    });

    it('the form context offers what is owed now: the first term not paid in full', async () => {
      expect((await get(part, '/api/payments/context/')).json().student).toMatchObject({
        term: '2nd',
        suggested_amount: 85000,
        outstanding: 85000,
        status: 'part_paid',
      });
      expect((await get(full, '/api/payments/context/')).json().student).toMatchObject({
        term: null,
        suggested_amount: 0,
        outstanding: 0,
        status: 'paid',
      });
    });

    it('refuses a term already paid in full or more than the balance unless confirmed', async () => {
      const body = (s: Student, extra: Record<string, unknown>) => ({
        admission_number: s.admissionNumber,
        full_name: 'Bisi Part',
        current_class: 'SSS 3B',
        current_session: '2025/2026',
        email: 'bisi@example.com',
        ...extra,
      });
      const again = await post(part, '/api/payments/initiate/', body(part, { amount: 85000, term: '1st' }));
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ detail: FEE_MESSAGES.termAlreadyPaid('First Term'), code: 'term_already_paid', balance: 85000 });
      const tooMuch = await post(staff, '/api/payments/initiate/', body(part, { amount: 300000, term: '2nd' }));
      expect(tooMuch.statusCode).toBe(409);
      expect(tooMuch.json()).toEqual({
        detail: FEE_MESSAGES.exceedsBalance('₦300,000.00', '₦85,000.00'),
        code: 'exceeds_balance',
        balance: 85000,
      });
      const allPaid = await post(full, '/api/payments/initiate/', body(full, { amount: 1000 }));
      expect(allPaid.json()).toMatchObject({ detail: FEE_MESSAGES.nothingOutstanding, code: 'exceeds_balance', balance: 0 });
      // Nothing was recorded for the refused attempts.
      const pending = await ctx.handle.db
        .selectFrom('payments')
        .select('id')
        .where('student_id', 'in', [part.id, full.id])
        .where('status', '=', 'pending')
        .execute();
      expect(pending).toEqual([]);
      // What is owed goes through; an explicit confirm lets the payer go beyond it.
      expect((await post(part, '/api/payments/initiate/', body(part, { amount: 85000, term: '2nd' }))).statusCode).toBe(200);
      expect((await post(part, '/api/payments/initiate/', body(part, { amount: 300000, term: '2nd', confirm: true }))).statusCode).toBe(
        200,
      );
      expect((await post(part, '/api/payments/initiate/', body(part, { amount: 1000, confirm: 'yes' }))).statusCode).toBe(400);
    });
  });
});
