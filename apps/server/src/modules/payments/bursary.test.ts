import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BURSARY_MESSAGES,
  DISCOUNT_MESSAGES,
  LEDGER_PAGE_SIZE,
  PAYMENT_MESSAGES,
  feeBalance,
  formatDay,
  formatPaidWhen,
  type Discount,
  type LedgerEntry,
  type LedgerPage,
  type Payment,
  type PaymentContext,
  type Receipt,
  type Statement,
  type StaffCapabilities,
} from '@portal/domain';
import {
  auditRow,
  describeEachDatabase,
  requestsOn,
  signInStaff,
  signInStudent,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { expectScansRefused, lagosDay, pngDataUrl, withBursary, type BursarySchool, type Student } from '../../../test/payments-fixtures';
import { greyPng } from '../../../test/grey-png';
import './payments.tables';

describeEachDatabase("the bursar's office", (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number, bursar: BursarySchool['bursar'], pupil: Student;
  withBursary(dialect, { sessions: ['2024/2025', '2025/2026'], arm: 'JSS 2A' }, async (s) => {
    ({ ctx, admin, staff, sessionId, bursar, pupil } = s);
    // 1st term 100,000 + 2nd term 50,000 compulsory; a bus fee that is not owed.
    for (const item of [
      { term: '1st', name: 'Tuition', amount: 100000 },
      { term: '2nd', name: 'Tuition', amount: 50000 },
      { term: '1st', name: 'Bus', amount: 7000, compulsory: false },
    ]) {
      const res = await post(admin, '/api/payments/fee-schedules/', { session_id: sessionId, student_class: 'JSS 2A', ...item });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  const { get, post, put } = requestsOn(() => ctx);

  let refSeq = 0;
  const body = (over: Record<string, unknown> = {}) => ({
    admission_number: pupil.admissionNumber,
    session_id: sessionId,
    term: '1st',
    amount: 10000,
    method: 'bank_teller',
    bank: 'First Bank of Nigeria',
    bank_reference: `TLR-${dialect}-${++refSeq}`,
    paid_on: lagosDay(),
    note: '',
    ...over,
  });
  const record = (who: SignedIn, over: Record<string, unknown> = {}) => post(who, '/api/bursary/payments/', body(over));

  describe('the bursar capability', () => {
    it('admits the admin and the bursar, refuses plain staff with its message, and a revoke takes effect at once', async () => {
      const plain = await record(staff);
      expect(plain.statusCode).toBe(403);
      expect(plain.json()).toEqual({ detail: BURSARY_MESSAGES.bursarOnly });
      expect((await record(admin)).statusCode).toBe(201);

      const temp = await signInStaff(ctx, { firstName: 'Tunde', lastName: 'Temp' });
      expect((await put(admin, `/api/staff-capabilities/${temp.staffId}/`, { capabilities: ['bursar'] })).statusCode).toBe(200);
      expect((await record(temp)).statusCode).toBe(201);
      expect((await get(temp, '/api/me/capabilities/')).json()).toEqual({ capabilities: ['bursar'] });
      const revoked = await put(admin, `/api/staff-capabilities/${temp.staffId}/`, { capabilities: [] });
      expect(revoked.json<StaffCapabilities>()).toMatchObject({ staff_id: temp.staffId, capabilities: [] });
      // The same access token, refused at once.
      const after = await record(temp);
      expect(after.statusCode).toBe(403);
      expect(after.json()).toEqual({ detail: BURSARY_MESSAGES.bursarOnly });
      expect((await get(temp, '/api/me/capabilities/')).json()).toEqual({ capabilities: [] });

      const audit = await auditRow(ctx, 'staff', temp.staffId, 'staff_capabilities.update');
      expect(audit.actor_user_id).toBe(admin.userId);
    });

    it('lists every staff member for the admin; refuses others; an unknown staff id is 404', async () => {
      const list = await get(admin, '/api/staff-capabilities/');
      expect(list.statusCode).toBe(200);
      const rows = list.json<StaffCapabilities[]>();
      expect(rows.find((r) => r.staff_id === bursar.staffId)).toMatchObject({ name: 'Bola Bursar', capabilities: ['bursar'] });
      expect((await get(bursar, '/api/staff-capabilities/')).statusCode).toBe(403);
      const unknown = await put(admin, '/api/staff-capabilities/STAFF-9999/', { capabilities: ['bursar'] });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ detail: BURSARY_MESSAGES.staffNotFound });
      expect((await get(admin, '/api/me/capabilities/')).json()).toEqual({ capabilities: ['bursar'] });
    });

    it('lets the bursar keep fee items, plain staff not', async () => {
      const item = { session_id: sessionId, student_class: 'JSS 3A', term: '3rd', name: 'Lab levy', amount: 2000 };
      const byBursar = await post(bursar, '/api/payments/fee-schedules/', item);
      expect(byBursar.statusCode, byBursar.body).toBe(201);
      const byStaff = await post(staff, '/api/payments/fee-schedules/', { ...item, name: 'Other levy' });
      expect(byStaff.statusCode).toBe(403);
      expect(byStaff.json()).toEqual({ detail: BURSARY_MESSAGES.bursarOnly });
      expect(
        (await ctx.app.inject({ method: 'DELETE', url: `/api/payments/fee-schedules/${byBursar.json().id}/`, headers: bursar.auth }))
          .statusCode,
      ).toBe(204);
    });
  });

  describe('recording an offline payment', () => {
    it('credits at once with a receipt number, stores the teller scan, and is audited without the scan bytes', async () => {
      const scan = greyPng(8, 8);
      const res = await record(bursar, { amount: 25000, scan: pngDataUrl(scan), note: 'Father paid' });
      expect(res.statusCode, res.body).toBe(201);
      const entry = res.json<LedgerEntry>();
      expect(entry).toMatchObject({
        kind: 'payment',
        amount: 25000,
        method: 'bank_teller',
        bank: 'First Bank of Nigeria',
        has_scan: true,
        note: 'Father paid',
        reverses: null,
        reversed_by: null,
        recorded_by: 'Bola Bursar',
        student_class: 'JSS 2A',
        session: '2025/2026',
      });
      expect(entry.receipt_number).toMatch(/^R-\d{6}$/);
      expect(entry.reference).toMatch(/^OFF-/);
      // The answer (built from the row written) is what the ledger reads back.
      const listed = (await get(bursar, `/api/bursary/payments/?admission_number=${pupil.admissionNumber}`)).json<LedgerPage>();
      expect(listed.entries.find((e) => e.reference === entry.reference)).toEqual(entry);

      const file = await get(bursar, `/api/bursary/payments/${entry.reference}/scan/`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toMatch(/^inline/);
      expect(file.headers['cache-control']).toBe('no-store');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.rawPayload.equals(scan)).toBe(true);
      expect((await get(staff, `/api/bursary/payments/${entry.reference}/scan/`)).statusCode).toBe(403);

      const audit = await auditRow(ctx, 'payment', entry.reference, 'payment.record');
      expect(audit.actor_user_id).toBe(bursar.userId);
      expect(audit.after).not.toContain(scan.toString('base64'));
      expect(JSON.parse(audit.after!)).toMatchObject({
        receipt_number: entry.receipt_number,
        amount_kobo: 2_500_000,
        scan: { mime: 'image/png' },
      });

      // The payment history names the day paid, so no screen shows the stored noon as a time.
      const history = (await get(pupil, `/api/payments/history/?admission_number=${pupil.admissionNumber}`)).json<Payment[]>();
      expect(history.find((p) => p.reference === entry.reference)).toMatchObject({ paid_on: lagosDay() });
      expect(formatPaidWhen(history.find((p) => p.reference === entry.reference)!)).toBe(formatDay(lagosDay()));

      // The same receipt as an online payment, with the method, bank and reference.
      const receipt = await get(pupil, `/api/payments/receipt/${entry.reference}/`);
      expect(receipt.statusCode, receipt.body).toBe(200);
      expect(receipt.json<Receipt>()).toMatchObject({
        receipt_number: entry.receipt_number,
        method: 'bank_teller',
        bank: 'First Bank of Nigeria',
        bank_reference: entry.bank_reference,
        provider: 'Bank teller',
        amount: 25000,
      });
      const noScan = await record(bursar, { method: 'cash', bank: '', bank_reference: '' });
      expect(noScan.statusCode, noScan.body).toBe(201);
      const none = await get(bursar, `/api/bursary/payments/${noScan.json<LedgerEntry>().reference}/scan/`);
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ detail: BURSARY_MESSAGES.noScan });
    });

    it('refuses an unknown student, a future date, and a banked method without bank or reference', async () => {
      const unknown = await record(bursar, { admission_number: 'STU-9999' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
      const future = await record(bursar, { paid_on: lagosDay(2) });
      expect(future.statusCode).toBe(400);
      expect(future.json()).toEqual({ paid_on: [BURSARY_MESSAGES.paidOnFuture] });
      const bare = await record(bursar, { method: 'bank_transfer', bank: '', bank_reference: '' });
      expect(bare.statusCode).toBe(400);
      expect(bare.json()).toEqual({ bank: [BURSARY_MESSAGES.bankRequired], bank_reference: [BURSARY_MESSAGES.referenceRequired] });
    });

    it('checks the scan by its bytes: a PNG labelled PDF, HTML labelled PNG, and a file over 2 MB are refused', async () => {
      await expectScansRefused((over) => record(bursar, over));
      const pdf = await record(bursar, { scan: `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF').toString('base64')}` });
      expect(pdf.statusCode, pdf.body).toBe(201);
    });

    it('refuses the same bank reference twice (case, spaces and dashes aside), also when two bursars race', async () => {
      const first = await record(bursar, { bank: 'GTBank', bank_reference: 'ab-12 34' });
      expect(first.statusCode, first.body).toBe(201);
      const again = await record(admin, { bank: 'gtbank', bank_reference: 'AB1234' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(first.json<LedgerEntry>().receipt_number) });

      const racing = await Promise.all([
        record(bursar, { bank: 'Zenith', bank_reference: 'RACE-1' }),
        record(admin, { bank: 'Zenith', bank_reference: 'race 1' }),
        record(bursar, { bank: 'ZENITH', bank_reference: 'RACE1' }),
      ]);
      expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      const winner = racing.find((r) => r.statusCode === 201)!.json<LedgerEntry>();
      for (const r of racing.filter((x) => x.statusCode === 409))
        expect(r.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(winner.receipt_number) });
    });

    it('numbers online and offline payments from one sequence', async () => {
      const a = (await record(bursar)).json<LedgerEntry>();
      const online = await payOnline(pupil, 5000);
      const b = (await record(bursar)).json<LedgerEntry>();
      const receipt = (await get(pupil, `/api/payments/receipt/${online}/`)).json<Receipt>();
      const n = (r: string) => Number(r.slice(2));
      expect(n(receipt.receipt_number!)).toBe(n(a.receipt_number) + 1);
      expect(n(b.receipt_number)).toBe(n(a.receipt_number) + 2);
      expect(receipt.method).toBe('online');
      // Verifying again (or the webhook) gives no new number.
      expect((await post(pupil, '/api/payments/verify/', { reference: online })).json().status).toBe('success');
      expect((await get(pupil, `/api/payments/receipt/${online}/`)).json<Receipt>().receipt_number).toBe(receipt.receipt_number);
    });
  });

  /** A successful payment through the simulator, as the student makes it. */
  async function payOnline(s: Student, amount: number): Promise<string> {
    const res = await post(s, '/api/payments/initiate/', {
      admission_number: s.admissionNumber,
      full_name: 'Pupil Payer',
      current_class: 'JSS 2A',
      current_session: '2025/2026',
      email: 'payer@example.com',
      amount,
      confirm: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { authorization_url, reference } = res.json().data as { authorization_url: string; reference: string };
    const code = new URL(authorization_url).pathname.split('/').pop();
    expect((await post(s, `/api/payments/simulator/${code}/`, { outcome: 'pay' })).statusCode).toBe(200);
    expect((await post(s, '/api/payments/verify/', { reference })).json().status).toBe('success');
    return reference;
  }

  describe('reversals', () => {
    it('reverses a payment once with its own receipt number; a reversal and a pending payment are not reversible', async () => {
      const kid = await signInStudent(ctx, { arm: 'JSS 2A' });
      const paid = (await record(bursar, { admission_number: kid.admissionNumber, amount: 30000 })).json<LedgerEntry>();
      const noReason = await post(bursar, `/api/bursary/payments/${paid.reference}/reverse/`, { reason: ' ' });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json()).toEqual({ reason: [BURSARY_MESSAGES.reasonRequired] });
      const rev = await post(bursar, `/api/bursary/payments/${paid.reference}/reverse/`, { reason: 'Teller bounced' });
      expect(rev.statusCode, rev.body).toBe(201);
      const reversal = rev.json<LedgerEntry>();
      expect(reversal).toMatchObject({
        kind: 'reversal',
        amount: -30000,
        method: 'bank_teller',
        reverses: { reference: paid.reference, receipt_number: paid.receipt_number },
        reason: 'Teller bounced',
      });
      expect(Number(reversal.receipt_number.slice(2))).toBeGreaterThan(Number(paid.receipt_number.slice(2)));
      expect(JSON.parse((await auditRow(ctx, 'payment', paid.reference, 'payment.reverse')).after!)).toMatchObject({
        receipt_number: reversal.receipt_number,
        reason: 'Teller bounced',
      });

      const twice = await post(admin, `/api/bursary/payments/${paid.reference}/reverse/`, { reason: 'Again' });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toEqual({ detail: BURSARY_MESSAGES.alreadyReversed(reversal.receipt_number) });
      const ofReversal = await post(admin, `/api/bursary/payments/${reversal.reference}/reverse/`, { reason: 'Oops' });
      expect(ofReversal.statusCode).toBe(409);
      expect(ofReversal.json()).toEqual({ detail: BURSARY_MESSAGES.reversalNotReversible });

      const pending = await post(kid, '/api/payments/initiate/', {
        admission_number: kid.admissionNumber,
        full_name: 'Ada Eze',
        current_class: 'JSS 2A',
        current_session: '2025/2026',
        email: kid.email,
        amount: 1000,
      });
      const notYet = await post(bursar, `/api/bursary/payments/${pending.json().data.reference}/reverse/`, { reason: 'x' });
      expect(notYet.statusCode).toBe(409);
      expect(notYet.json()).toEqual({ detail: BURSARY_MESSAGES.notReversible });

      // The ledger shows the payment reversed.
      const ledger = (await get(bursar, `/api/bursary/payments/?admission_number=${kid.admissionNumber}`)).json<LedgerPage>();
      expect(ledger.entries.find((e) => e.reference === paid.reference)!.reversed_by).toBe(reversal.receipt_number);
      expect(ledger.total_amount).toBe(0);
    });

    it('two reversals racing: one wins, the other hears it was already reversed', async () => {
      const paid = (await record(bursar, { amount: 4000 })).json<LedgerEntry>();
      const both = await Promise.all([
        post(bursar, `/api/bursary/payments/${paid.reference}/reverse/`, { reason: 'one' }),
        post(admin, `/api/bursary/payments/${paid.reference}/reverse/`, { reason: 'two' }),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const won = both.find((r) => r.statusCode === 201)!.json<LedgerEntry>();
      expect(both.find((r) => r.statusCode === 409)!.json()).toEqual({ detail: BURSARY_MESSAGES.alreadyReversed(won.receipt_number) });
    });

    it("nets out of the student's fee balance and the class report", async () => {
      const kid = await signInStudent(ctx, { arm: 'JSS 2A' });
      const paid = (await record(bursar, { admission_number: kid.admissionNumber, amount: 60000 })).json<LedgerEntry>();
      const outstanding = async () => (await get(kid, '/api/payments/context/')).json<PaymentContext>().student!.outstanding;
      const reportRow = async () =>
        (await get(admin, '/api/payments/report/?class=JSS%202A&session=2025/2026'))
          .json<{ admission_number: string; amount_paid: number }[]>()
          .find((r) => r.admission_number === kid.admissionNumber)!;
      expect(await outstanding()).toBe(90000);
      expect((await reportRow()).amount_paid).toBe(60000);
      expect((await post(bursar, `/api/bursary/payments/${paid.reference}/reverse/`, { reason: 'Wrong student' })).statusCode).toBe(201);
      expect(await outstanding()).toBe(150000);
      expect((await reportRow()).amount_paid).toBe(0);
    });
  });

  describe('the ledger', () => {
    it('pages newest first, filters by student, method and dates, and sums the filtered entries', async () => {
      const kid = await signInStudent(ctx, { arm: 'JSS 2A' });
      for (let i = 0; i < LEDGER_PAGE_SIZE + 2; i++)
        await record(bursar, {
          admission_number: kid.admissionNumber,
          amount: 100,
          method: 'cash',
          bank: '',
          bank_reference: '',
          paid_on: lagosDay(-(i % 3)),
          // The same cash amount again that day: the bursar confirms it is another payment.
          confirm: true,
        });
      await record(bursar, { admission_number: kid.admissionNumber, amount: 1000 });
      const first = (await get(bursar, `/api/bursary/payments/?admission_number=${kid.admissionNumber}`)).json<LedgerPage>();
      expect(first).toMatchObject({ page: 1, pages: 2, total: LEDGER_PAGE_SIZE + 3, total_amount: (LEDGER_PAGE_SIZE + 2) * 100 + 1000 });
      expect(first.entries).toHaveLength(LEDGER_PAGE_SIZE);
      const days = first.entries.map((e) => e.paid_on);
      expect(days).toEqual([...days].sort().reverse());
      const cash = (
        await get(bursar, `/api/bursary/payments/?admission_number=${kid.admissionNumber}&method=cash&page=2`)
      ).json<LedgerPage>();
      expect(cash).toMatchObject({ page: 2, total: LEDGER_PAGE_SIZE + 2 });
      expect(cash.entries).toHaveLength(2);
      const today = (
        await get(bursar, `/api/bursary/payments/?admission_number=${kid.admissionNumber}&from=${lagosDay()}&to=${lagosDay()}`)
      ).json<LedgerPage>();
      expect(today.entries.every((e) => e.paid_on === lagosDay())).toBe(true);
      expect(today.total).toBe(Math.ceil((LEDGER_PAGE_SIZE + 2) / 3) + 1);
      expect((await get(staff, '/api/bursary/payments/')).statusCode).toBe(403);
    });

    it('exports every entry as a formula-safe CSV attachment', async () => {
      await record(bursar, { note: '=HYPERLINK("http://evil")', amount: 1234.5 });
      const res = await get(bursar, `/api/bursary/ledger.csv?from=${lagosDay()}&to=${lagosDay()}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="ledger-/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain(`'=HYPERLINK`);
      expect(res.body).toContain('1234.50');
      expect(res.body.split('\n')[0]).toContain('receipt_number,paid_on,kind');
    });
  });

  describe('the statement of account', () => {
    it('lists charges at the term start, then payments and reversals, with the fee rule balance', async () => {
      const term = await put(admin, '/api/attendance/terms/', {
        session_id: sessionId,
        term: '1st',
        starts_on: '2025-09-15',
        ends_on: '2025-12-19',
      });
      expect(term.statusCode, term.body).toBe(200);
      const kid = await signInStudent(ctx, { arm: 'JSS 2A' });
      const paid = (await record(bursar, { admission_number: kid.admissionNumber, amount: 40000 })).json<LedgerEntry>();
      await post(bursar, `/api/bursary/payments/${paid.reference}/reverse/`, { reason: 'Bounced' });
      await record(bursar, { admission_number: kid.admissionNumber, amount: 45000, method: 'cash', bank: '', bank_reference: '' });

      const own = await get(kid, `/api/bursary/statement/?admission_number=${pupil.admissionNumber}`);
      expect(own.statusCode, own.body).toBe(200);
      const st = own.json<Statement>();
      expect(st).toMatchObject({
        admission_number: kid.admissionNumber,
        session: '2025/2026',
        charged: 150000,
        paid: 45000,
        balance: 105000,
      });
      // Same day: by receipt number (the payment, its reversal, the cash payment).
      expect(st.lines.map((l) => [l.kind, l.debit, l.credit, l.balance])).toEqual([
        ['charge', 100000, 0, 100000],
        ['charge', 50000, 0, 150000],
        ['payment', 0, 40000, 110000],
        ['reversal', 40000, 0, 150000],
        ['payment', 0, 45000, 105000],
      ]);
      expect(st.lines[0]).toMatchObject({ date: '2025-09-15', term: '1st' });
      expect(st.lines.at(-1)!.balance).toBe(105000);

      const byBursar = await get(bursar, `/api/bursary/statement/?admission_number=${kid.admissionNumber}&session_id=${sessionId}`);
      expect(byBursar.json<Statement>()).toEqual(st);
      const byStaff = await get(staff, `/api/bursary/statement/?admission_number=${kid.admissionNumber}`);
      expect(byStaff.statusCode).toBe(403);
      expect(byStaff.json()).toEqual({ detail: BURSARY_MESSAGES.bursarOnly });
      const context = (await get(kid, '/api/payments/context/')).json<PaymentContext>().student!;
      expect(context.outstanding).toBe(st.balance);
    });

    it('property: closing balance = schedule − discounts − payments + reversals = the fee balance rule, for random entries', async () => {
      const discount = fc.record({
        basis: fc.constantFrom('percent', 'fixed'),
        // Hundredths of a percent, and naira off each term covered.
        bp: fc.integer({ min: 1, max: 10_000 }),
        naira: fc.integer({ min: 100, max: 200_000 }),
        term: fc.constantFrom(null, '1st', '2nd', '3rd'),
        tuitionOnly: fc.boolean(),
        revoke: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ kobo: fc.integer({ min: 10_000, max: 9_000_000 }), reverse: fc.boolean(), online: fc.boolean() }), {
            maxLength: 5,
          }),
          fc.array(discount, { maxLength: 3 }),
          async (entries, discounts) => {
            const kid = await signInStudent(ctx, { arm: 'JSS 2A' });
            let inForce = 0;
            for (const d of discounts) {
              const given = await post(bursar, '/api/bursary/discounts/', {
                admission_number: kid.admissionNumber,
                session_id: sessionId,
                term: d.term,
                kind: 'other',
                basis: d.basis,
                percent: d.basis === 'percent' ? d.bp / 100 : null,
                amount: d.basis === 'fixed' ? d.naira : null,
                items: d.tuitionOnly ? ['Tuition'] : [],
                reason: 'property',
              });
              // The 3rd term has no compulsory items: that discount is refused, with its message.
              if (d.term === '3rd') {
                expect(given.json()).toEqual({ items: [DISCOUNT_MESSAGES.noItems] });
                continue;
              }
              expect(given.statusCode, given.body).toBe(201);
              if (d.revoke) {
                const id = given.json<Discount>().id;
                expect((await post(bursar, `/api/bursary/discounts/${id}/revoke/`, { reason: 'property' })).statusCode).toBe(200);
              } else inForce++;
            }
            let paidKobo = 0;
            for (const e of entries) {
              const reference = e.online
                ? await payOnline(kid, e.kobo / 100)
                : (
                    await record(bursar, {
                      admission_number: kid.admissionNumber,
                      amount: e.kobo / 100,
                      method: 'cash',
                      bank: '',
                      bank_reference: '',
                    })
                  ).json<LedgerEntry>().reference;
              paidKobo += e.kobo;
              if (e.reverse) {
                expect((await post(bursar, `/api/bursary/payments/${reference}/reverse/`, { reason: 'property' })).statusCode).toBe(201);
                paidKobo -= e.kobo;
              }
            }
            const st = (await get(bursar, `/api/bursary/statement/?admission_number=${kid.admissionNumber}`)).json<Statement>();
            const chargesKobo = 15_000_000;
            const kobo = (n: number) => Math.round(n * 100);
            // What the discounts in force take, as the discounts list values them.
            const listed = (await get(bursar, `/api/bursary/discounts/?admission_number=${kid.admissionNumber}`)).json<Discount[]>();
            expect(listed).toHaveLength(inForce);
            const discountKobo = listed.reduce((s, d) => s + kobo(d.value), 0);
            expect(kobo(st.discounts)).toBe(discountKobo);
            expect(discountKobo).toBeLessThanOrEqual(chargesKobo);
            const rule = feeBalance(chargesKobo - discountKobo, paidKobo);
            expect(kobo(st.balance)).toBe(chargesKobo - discountKobo - paidKobo);
            expect(kobo(st.balance)).toBe(rule.balance - rule.credit);
            const sumOf = (kind: string, f: (l: Statement['lines'][number]) => number) =>
              st.lines.filter((l) => l.kind === kind).reduce((s, l) => s + kobo(f(l)), 0);
            expect(sumOf('charge', (l) => l.debit)).toBe(chargesKobo);
            expect(sumOf('discount', (l) => l.credit)).toBe(discountKobo);
            expect(st.lines.at(-1)!.balance).toBe(st.balance);
            expect(kobo(st.balance)).toBe(
              chargesKobo - discountKobo - sumOf('payment', (l) => l.credit) + sumOf('reversal', (l) => l.debit),
            );
            const context = (await get(kid, '/api/payments/context/')).json<PaymentContext>().student!;
            expect(kobo(context.outstanding)).toBe(rule.balance);
            expect(kobo(context.amount_due)).toBe(chargesKobo - discountKobo);
            const row = (await get(admin, '/api/payments/report/?class=JSS%202A&session=2025/2026'))
              .json<{ admission_number: string; outstanding: number }[]>()
              .find((r) => r.admission_number === kid.admissionNumber)!;
            expect(kobo(row.outstanding)).toBe(rule.balance);
          },
        ),
        { numRuns: 6 },
      );
    });
  });
});
