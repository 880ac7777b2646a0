import { describe, expect, it } from 'vitest';
import {
  BURSARY_MESSAGES,
  DISCOUNT_MESSAGES,
  PAYMENT_MESSAGES,
  type ClassReportRow,
  type Discount,
  type LedgerEntry,
  type PaymentContext,
  type Receipt,
  type Statement,
} from '@portal/domain';
import {
  addArm,
  auditRow,
  describeEachDatabase,
  requestsOn,
  signInStudent,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { lagosDay, siblingDiscount, signInBursar, type Student } from '../../../test/payments-fixtures';
import './payments.tables';

describeEachDatabase('discounts and scholarships', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number, bursar: SignedIn;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, async (s) => {
    ({ ctx, admin, staff, sessionId } = s);
    bursar = await signInBursar(ctx, admin);
    // JSS 2A: 1st term Tuition 100,000 + Books 20,000, 2nd term Tuition 50,000 (170,000); a bus fee that is not owed.
    for (const item of [
      { term: '1st', name: 'Tuition', amount: 100000 },
      { term: '1st', name: 'Books', amount: 20000 },
      { term: '2nd', name: 'Tuition', amount: 50000 },
      { term: '1st', name: 'Bus', amount: 7000, compulsory: false },
    ]) {
      const res = await post(admin, '/api/payments/fee-schedules/', { session_id: sessionId, student_class: 'JSS 2A', ...item });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  const { get, post } = requestsOn(() => ctx);

  const kid = () => signInStudent(ctx, { arm: 'JSS 2A' }) as Promise<Student>;
  const body = (s: Student, over: Record<string, unknown> = {}) => ({ ...siblingDiscount(s.admissionNumber, sessionId), ...over });
  const give = (s: Student, over: Record<string, unknown> = {}, who: SignedIn = bursar) =>
    post(who, '/api/bursary/discounts/', body(s, over));
  const revoke = (id: number, reason = 'Sister left the school', who: SignedIn = bursar) =>
    post(who, `/api/bursary/discounts/${id}/revoke/`, { reason });
  const statementOf = async (s: Student) =>
    (await get(bursar, `/api/bursary/statement/?admission_number=${s.admissionNumber}&session_id=${sessionId}`)).json<Statement>();
  const contextOf = async (s: Student) => (await get(s, '/api/payments/context/')).json<PaymentContext>().student!;
  const reportRowOf = async (s: Student) =>
    (await get(admin, '/api/payments/report/?class=JSS%202A&session=2025/2026'))
      .json<ClassReportRow[]>()
      .find((r) => r.admission_number === s.admissionNumber)!;

  describe('giving a discount', () => {
    it('a percentage on named items: label, value, audit; every balance (statement, payment form, class report) shows it', async () => {
      const s = await kid();
      const res = await give(s, { items: ['  tuition '] });
      expect(res.statusCode, res.body).toBe(201);
      const d = res.json<Discount>();
      expect(d).toMatchObject({
        admission_number: s.admissionNumber,
        student_class: 'JSS 2A',
        session: '2025/2026',
        term: null,
        kind: 'sibling',
        basis: 'percent',
        percent: 10,
        amount: null,
        // Stored as the schedule spells it.
        items: ['Tuition'],
        label: 'Sibling discount, 10% on Tuition',
        value: 15000,
        given_by: 'Bola Bursar',
        revoked_at: null,
      });
      const audit = await auditRow(ctx, 'fee_discount', String(d.id), 'fee_discount.give');
      expect(audit.actor_user_id).toBe(bursar.userId);
      expect(JSON.parse(audit.after!)).toMatchObject({ percent_bp: 1000, items: ['Tuition'], admission_number: s.admissionNumber });

      const st = await statementOf(s);
      expect(st).toMatchObject({ charged: 170000, discounts: 15000, paid: 0, balance: 155000 });
      expect(st.lines.map((l) => [l.kind, l.description, l.debit, l.credit, l.balance])).toEqual([
        ['charge', 'Tuition (First Term)', 100000, 0, 100000],
        ['charge', 'Books (First Term)', 20000, 0, 120000],
        ['discount', 'Sibling discount, 10% on Tuition (First Term)', 0, 10000, 110000],
        ['charge', 'Tuition (Second Term)', 50000, 0, 160000],
        ['discount', 'Sibling discount, 10% on Tuition (Second Term)', 0, 5000, 155000],
      ]);
      // Each term's discount right after its charges, dated like the charge it reduces.
      expect(st.lines[2]!.date).toBe(st.lines[0]!.date);
      expect(st.lines[4]!.date).toBe(st.lines[3]!.date);

      const context = await contextOf(s);
      expect(context).toMatchObject({ amount_due: 155000, outstanding: 155000 });
      expect(context.discounts).toEqual([{ label: 'Sibling discount, 10% on Tuition', amount: 15000 }]);
      expect(context.terms.map((t) => [t.term, t.amount_due])).toEqual([
        ['1st', 110000],
        ['2nd', 45000],
      ]);
      expect(await reportRowOf(s)).toMatchObject({ amount_due: 155000, outstanding: 155000 });
      // The student's own statement is the bursar's.
      expect((await get(s, '/api/bursary/statement/')).json<Statement>()).toEqual(st);
    });

    it('a fixed amount each term takes the items in order; one larger than the term is capped at it, never negative', async () => {
      const s = await kid();
      const each = await give(s, { kind: 'scholarship', basis: 'fixed', percent: null, amount: 20000, items: [] });
      expect(each.statusCode, each.body).toBe(201);
      expect(each.json<Discount>()).toMatchObject({
        label: 'Scholarship, ₦20,000 off each term',
        basis: 'fixed',
        percent: null,
        amount: 20000,
        items: [],
        value: 40000,
      });
      const huge = await give(s, { kind: 'staff_child', term: '2nd', basis: 'fixed', percent: null, amount: 5_000_000, items: [] });
      expect(huge.statusCode, huge.body).toBe(201);
      // 2nd term is 50,000, of which the scholarship took 20,000: 30,000 is left.
      expect(huge.json<Discount>()).toMatchObject({ label: 'Staff child, ₦5,000,000 off Second Term', value: 30000 });
      const st = await statementOf(s);
      expect(st).toMatchObject({ charged: 170000, discounts: 70000, balance: 100000 });
      expect(st.lines.filter((l) => l.kind === 'discount').map((l) => [l.description, l.credit])).toEqual([
        ['Scholarship, ₦20,000 off each term (First Term)', 20000],
        ['Scholarship, ₦20,000 off each term (Second Term)', 20000],
        ['Staff child, ₦5,000,000 off Second Term', 30000],
      ]);
      const context = await contextOf(s);
      // The fee rule lists the terms that still carry fees: the 2nd is discounted away.
      expect(context.terms.map((t) => [t.term, t.amount_due, t.status])).toEqual([['1st', 100000, 'unpaid']]);
      expect(context.outstanding).toBe(100000);
    });

    it('100% on everything owes nothing; a payment is then a credit, never a negative due', async () => {
      const s = await kid();
      expect((await give(s, { kind: 'scholarship', percent: 100, items: [] })).json<Discount>().value).toBe(170000);
      const st = await statementOf(s);
      expect(st).toMatchObject({ discounts: 170000, balance: 0 });
      expect(await reportRowOf(s)).toMatchObject({ amount_due: 0, outstanding: 0 });
      expect(await contextOf(s)).toMatchObject({ amount_due: 0, outstanding: 0, suggested_amount: 0, term: null });
      const paid = await post(bursar, '/api/bursary/payments/', {
        admission_number: s.admissionNumber,
        session_id: sessionId,
        term: null,
        amount: 1000,
        method: 'cash',
        paid_on: lagosDay(),
      });
      expect(paid.statusCode, paid.body).toBe(201);
      expect((await statementOf(s)).balance).toBe(-1000);
      expect(await contextOf(s)).toMatchObject({ amount_due: 0, amount_paid: 1000, outstanding: 0, status: 'paid' });
    });

    it('refuses unknown students and sessions as a payment does, items the class does not owe, and a class with none', async () => {
      const s = await kid();
      const noStudent = await give({ ...s, admissionNumber: 'STU-9999' });
      expect(noStudent.statusCode).toBe(400);
      expect(noStudent.json()).toEqual({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
      const noSession = await give(s, { session_id: 99999 });
      expect(noSession.statusCode).toBe(400);
      expect(noSession.json()).toEqual({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
      // Bus is not compulsory; Books is not a 2nd term item; Lab does not exist.
      for (const [over, name] of [
        [{ items: ['Tuition', 'Bus'] }, 'Bus'],
        [{ term: '2nd', items: ['Books'] }, 'Books'],
        [{ items: ['Lab'] }, 'Lab'],
      ] as const) {
        const res = await give(s, over);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ items: [DISCOUNT_MESSAGES.itemUnknown(name)] });
      }
      const none = await give(s, { term: '3rd', items: [] });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual({ items: [DISCOUNT_MESSAGES.noItems] });
      // An arm with no fee items (every stored class name is an arm's: decision 016).
      await addArm(ctx, 'JSS 3', 'C', 'JSS 3C');
      const other = await signInStudent(ctx, { arm: 'JSS 3C' });
      const empty = await give(other, { items: [] });
      expect(empty.json()).toEqual({ items: [DISCOUNT_MESSAGES.noItems] });
      expect((await get(bursar, `/api/bursary/discounts/?admission_number=${s.admissionNumber}&include_revoked=true`)).json()).toEqual([]);
    });

    it('checks every field with its message: percent 100.001, 0, NaN, "10", three decimals; amounts; kind; reason; control characters', async () => {
      const s = await kid();
      for (const percent of [100.001, 0, -5, 'NaN', '10', 12.345, null]) {
        const res = await give(s, { percent });
        expect(res.statusCode, JSON.stringify(percent)).toBe(400);
        expect(res.json()).toEqual({ percent: [DISCOUNT_MESSAGES.percentInvalid] });
      }
      expect((await give(s, { percent: 12.5 })).json<Discount>()).toMatchObject({
        percent: 12.5,
        label: 'Sibling discount, 12.5% on Tuition',
      });
      const noAmount = await give(s, { basis: 'fixed', percent: null, amount: null });
      expect(noAmount.json()).toEqual({ amount: [DISCOUNT_MESSAGES.amountRequired] });
      for (const amount of [0, -100, '1e309', 'NaN']) expect((await give(s, { basis: 'fixed', amount })).statusCode).toBe(400);
      expect((await give(s, { kind: 'bribe' })).json()).toEqual({ kind: [DISCOUNT_MESSAGES.kindRequired] });
      expect((await give(s, { basis: 'barter' })).json()).toEqual({ basis: [DISCOUNT_MESSAGES.basisRequired] });
      expect((await give(s, { reason: '   ' })).json()).toEqual({ reason: [DISCOUNT_MESSAGES.reasonRequired] });
      for (const bad of ['Sibling\u0000', '\u202Etxt', '\u200B\u200C', 'a\u0007b']) {
        expect((await give(s, { reason: bad })).statusCode, JSON.stringify(bad)).toBe(400);
        expect((await give(s, { items: [bad] })).statusCode, JSON.stringify(bad)).toBe(400);
      }
      const tooMany = await give(s, { items: Array.from({ length: 31 }, (_, i) => `Item ${i}`) });
      expect(tooMany.json()).toEqual({ items: [DISCOUNT_MESSAGES.itemsTooMany] });
      // A huge list is refused before any query (400 by the schema, or 413 by the body limit), never a 500.
      const huge = await give(s, { items: Array.from({ length: 100_000 }, (_, i) => `Item ${i}`) });
      expect([400, 413]).toContain(huge.statusCode);
      // Nothing above was stored except the 12.5 % discount.
      const list = (await get(bursar, `/api/bursary/discounts/?admission_number=${s.admissionNumber}`)).json<Discount[]>();
      expect(list.map((d) => d.percent)).toEqual([12.5]);
    });
  });

  describe('listing and revoking', () => {
    it('lists a student’s discounts (revoked ones on request); revokes once with a reason and the balance returns', async () => {
      const s = await kid();
      const other = await kid();
      const d = (await give(s)).json<Discount>();
      const theirs = (await give(other, { percent: 50 })).json<Discount>();
      const list = await get(bursar, `/api/bursary/discounts/?admission_number=${s.admissionNumber}&session_id=${sessionId}`);
      expect(list.statusCode).toBe(200);
      expect(list.json<Discount[]>()).toEqual([d]);

      const blank = await revoke(d.id, ' ');
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual({ reason: [DISCOUNT_MESSAGES.revokeReasonRequired] });
      const res = await revoke(d.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Discount>()).toMatchObject({
        id: d.id,
        value: 0,
        revoked_by: 'Bola Bursar',
        revoke_reason: 'Sister left the school',
      });
      expect(res.json<Discount>().revoked_at).not.toBeNull();
      const audit = await auditRow(ctx, 'fee_discount', String(d.id), 'fee_discount.revoke');
      expect(JSON.parse(audit.after!)).toMatchObject({ revoke_reason: 'Sister left the school' });
      expect((await statementOf(s)).balance).toBe(170000);
      expect((await contextOf(s)).discounts).toEqual([]);
      // The other student's discount is untouched.
      expect((await statementOf(other)).balance).toBe(170000 - 75000);

      const again = await revoke(d.id, 'Again', admin);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ detail: DISCOUNT_MESSAGES.alreadyRevoked });
      expect((await get(bursar, `/api/bursary/discounts/?admission_number=${s.admissionNumber}`)).json()).toEqual([]);
      const all = (await get(bursar, `/api/bursary/discounts/?admission_number=${s.admissionNumber}&include_revoked=true`)).json<
        Discount[]
      >();
      expect(all.map((x) => [x.id, x.revoke_reason])).toEqual([[d.id, 'Sister left the school']]);
      const bySession = (await get(bursar, `/api/bursary/discounts/?session_id=${sessionId}`)).json<Discount[]>();
      expect(bySession.map((x) => x.id)).toContain(theirs.id);
      expect(bySession.map((x) => x.id)).not.toContain(d.id);

      const unknown = await revoke(987654);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ detail: DISCOUNT_MESSAGES.discountNotFound });
      expect((await post(bursar, '/api/bursary/discounts/abc/revoke/', { reason: 'x' })).statusCode).toBe(400);
      const badQuery = await get(bursar, '/api/bursary/discounts/?admission_number=STU-9999');
      expect(badQuery.json()).toEqual({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
    });

    it('two revokes racing: one wins, the other hears it was already revoked; one audit row', async () => {
      const s = await kid();
      const d = (await give(s)).json<Discount>();
      const both = await Promise.all([revoke(d.id, 'one'), revoke(d.id, 'two', admin)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(both.find((r) => r.statusCode === 409)!.json()).toEqual({ detail: DISCOUNT_MESSAGES.alreadyRevoked });
      const rows = await ctx.handle.db
        .selectFrom('audit_log')
        .select('id')
        .where('entity', '=', 'fee_discount')
        .where('entity_id', '=', String(d.id))
        .where('action', '=', 'fee_discount.revoke')
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('only the bursar or the admin: a student (even about themself) and plain staff are refused, anonymous 401', async () => {
      const s = await kid();
      const d = (await give(s, {}, admin)).json<Discount>();
      for (const who of [s, staff]) {
        const refused = [
          await give(s, {}, who),
          await get(who, `/api/bursary/discounts/?admission_number=${s.admissionNumber}`),
          await revoke(d.id, 'mine', who),
        ];
        expect(refused.map((r) => r.statusCode)).toEqual([403, 403, 403]);
        if (who === staff) expect(refused[0]!.json()).toEqual({ detail: BURSARY_MESSAGES.bursarOnly });
      }
      expect((await ctx.app.inject({ method: 'GET', url: '/api/bursary/discounts/' })).statusCode).toBe(401);
      const still = (await get(admin, `/api/bursary/discounts/?admission_number=${s.admissionNumber}`)).json<Discount[]>();
      expect(still.map((x) => x.revoked_at)).toEqual([null]);
    });
  });

  describe('receipts', () => {
    it("show the session's discounts and the balance once each payment counted (screen and PDF)", async () => {
      const s = await kid();
      await give(s);
      const pay = async (amount: number) => {
        const res = await post(bursar, '/api/bursary/payments/', {
          admission_number: s.admissionNumber,
          session_id: sessionId,
          term: null,
          amount,
          method: 'cash',
          paid_on: lagosDay(),
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<LedgerEntry>();
      };
      const first = await pay(50000);
      const second = await pay(30000);
      const receiptOf = async (e: LedgerEntry) => (await get(s, `/api/payments/receipt/${e.reference}/`)).json<Receipt>();
      expect(await receiptOf(first)).toMatchObject({
        discounts: [{ label: 'Sibling discount, 10% on Tuition', amount: 15000 }],
        balance_after: 105000,
      });
      expect((await receiptOf(second)).balance_after).toBe(75000);
      const pdf = await get(s, `/api/payments/receipt/${second.reference}/pdf/`);
      expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
    });
  });
});
