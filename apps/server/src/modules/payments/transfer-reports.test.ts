import { describe, expect, it } from 'vitest';
import {
  AUTH_MESSAGES,
  BURSARY_MESSAGES,
  PAYMENT_MESSAGES,
  TRANSFER_REPORT_MAX_WAITING,
  TRANSFER_REPORT_MESSAGES,
  TRANSFER_REPORT_PAGE_SIZE,
  formatDate,
  type LedgerEntry,
  type PaymentContext,
  type TransferConfirmation,
  type TransferReport,
  type TransferReportPage,
} from '@portal/domain';
import { auditRow, describeEachDatabase, requestsOn, signInStudent, type SignedIn, type TestContext } from '../../../test/helpers';
import { expectScansRefused, lagosDay, pngDataUrl, withBursary, type BursarySchool, type Student } from '../../../test/payments-fixtures';
import { greyPng } from '../../../test/grey-png';
import './payments.tables';

describeEachDatabase('transfers students report', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, sessionId: number, bursar: BursarySchool['bursar'], pupil: Student;
  let other: Student;
  withBursary(dialect, { sessions: ['2024/2025', '2025/2026'], arm: 'SSS 1B' }, async (s) => {
    ({ ctx, admin, staff, sessionId, bursar, pupil } = s);
    other = await signInStudent(ctx, { arm: 'SSS 1B' });
    const fee = await post(admin, '/api/payments/fee-schedules/', {
      session_id: sessionId,
      student_class: 'SSS 1B',
      term: '1st',
      name: 'Tuition',
      amount: 100000,
    });
    expect(fee.statusCode, fee.body).toBe(201);
  });

  const { get, post } = requestsOn(() => ctx);

  let refSeq = 0;
  const nextRef = () => `TRF-${dialect}-${++refSeq}`;
  const body = (over: Record<string, unknown> = {}) => ({
    session_id: sessionId,
    term: '1st',
    amount: 20000,
    method: 'bank_transfer',
    bank: 'GTBank',
    bank_reference: nextRef(),
    paid_on: lagosDay(),
    note: '',
    scan: pngDataUrl(),
    ...over,
  });
  const report = (who: SignedIn, over: Record<string, unknown> = {}) => post(who, '/api/bursary/transfer-reports/', body(over));
  const reported = async (who: SignedIn, over: Record<string, unknown> = {}) => {
    const res = await report(who, over);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<TransferReport>();
  };
  const confirm = (who: SignedIn, id: number) => post(who, `/api/bursary/transfer-reports/${id}/confirm/`, {});
  const reject = (who: SignedIn, id: number, reason: unknown) => post(who, `/api/bursary/transfer-reports/${id}/reject/`, { reason });
  const paymentsWithReference = async (reference: string) =>
    (await ctx.handle.db.selectFrom('payments').select('id').where('bank_reference', '=', reference).execute()).length;
  const reportRow = (id: number) => ctx.handle.db.selectFrom('transfer_reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('a student reports a transfer', () => {
    it('stores it as "to confirm" with the slip, audited without the slip bytes; the student lists it, newest first', async () => {
      const slip = greyPng(6, 6);
      const first = await reported(pupil, { note: 'Paid by my father' });
      const res = await report(pupil, {
        amount: 12500.5,
        term: null,
        method: 'bank_teller',
        bank: 'First Bank of Nigeria',
        scan: pngDataUrl(slip),
      });
      expect(res.statusCode, res.body).toBe(201);
      const r = res.json<TransferReport>();
      expect(r).toMatchObject({
        status: 'to_confirm',
        admission_number: pupil.admissionNumber,
        full_name: 'Ada Eze',
        student_class: 'SSS 1B',
        session_id: sessionId,
        session: '2025/2026',
        term: null,
        amount: 12500.5,
        method: 'bank_teller',
        bank: 'First Bank of Nigeria',
        paid_on: lagosDay(),
        decided_at: null,
        decided_by: null,
        reason: '',
        payment_reference: null,
        receipt_number: null,
      });
      const row = await reportRow(r.id);
      expect(row).toMatchObject({ amount_kobo: 1_250_050, scan_mime: 'image/png', scan_bytes: slip.length, reported_by: pupil.userId });
      expect(row.waiting_key).toBe(row.bank_reference_key);
      const audit = await auditRow(ctx, 'transfer_report', String(r.id), 'transfer_report.create');
      expect(audit.actor_user_id).toBe(pupil.userId);
      expect(audit.after).not.toContain(slip.toString('base64'));
      expect(JSON.parse(audit.after!)).toMatchObject({ amount_kobo: 1_250_050, scan: { mime: 'image/png', bytes: slip.length } });

      const mine = await get(pupil, '/api/bursary/transfer-reports/mine/');
      expect(mine.statusCode).toBe(200);
      const list = mine.json<TransferReport[]>();
      expect(list.slice(0, 2).map((x) => x.id)).toEqual([r.id, first.id]);
      expect(list[1]!.note).toBe('Paid by my father');
      // Another student sees none of them.
      expect((await get(other, '/api/bursary/transfer-reports/mine/')).json<TransferReport[]>().map((x) => x.id)).not.toContain(r.id);
    });

    it('is for students only: staff, the bursar and the admin are refused with its message, before their body is read', async () => {
      for (const who of [staff, bursar, admin]) {
        const res = await post(who, '/api/bursary/transfer-reports/', { nonsense: true });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.studentsOnly });
        const mine = await get(who, '/api/bursary/transfer-reports/mine/');
        expect(mine.statusCode).toBe(403);
        expect(mine.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.studentsOnly });
      }
      expect((await ctx.app.inject({ method: 'POST', url: '/api/bursary/transfer-reports/', payload: body() })).statusCode).toBe(401);
    });

    it('cannot be made for another student: an admission number or student id in the body is ignored', async () => {
      const r = await reported(pupil, { admission_number: other.admissionNumber, student_id: other.id, status: 'confirmed' });
      expect(r).toMatchObject({ admission_number: pupil.admissionNumber, status: 'to_confirm' });
    });

    it('refuses each missing or wrong field with its message', async () => {
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ scan: undefined }, { scan: [TRANSFER_REPORT_MESSAGES.scanRequired] }],
        [{ scan: '' }, { scan: [TRANSFER_REPORT_MESSAGES.scanRequired] }],
        [{ bank: ' ' }, { bank: [BURSARY_MESSAGES.bankRequired] }],
        [{ bank_reference: '' }, { bank_reference: [BURSARY_MESSAGES.referenceRequired] }],
        [{ method: 'cash' }, { method: [BURSARY_MESSAGES.methodRequired] }],
        [{ scan: 'data:text/html;base64,PGh0bWw+' }, { scan: [BURSARY_MESSAGES.scanInvalid] }],
      ];
      for (const [over, errors] of cases) {
        const res = await report(pupil, over);
        expect(res.statusCode, JSON.stringify(over)).toBe(400);
        expect(res.json()).toEqual(errors);
      }
      const session = await report(pupil, { session_id: 999_999 });
      expect(session.statusCode).toBe(400);
      expect(session.json()).toEqual({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
      const future = await report(pupil, { paid_on: lagosDay(2) });
      expect(future.statusCode).toBe(400);
      expect(future.json()).toEqual({ paid_on: [BURSARY_MESSAGES.paidOnFuture] });
      // Today is not the future.
      expect((await report(pupil, { paid_on: lagosDay() })).statusCode).toBe(201);
    });

    it('checks the slip by its bytes and size: a PNG labelled PDF, HTML labelled PNG, over 2 MB, over the body limit', async () => {
      const before = await ctx.handle.db.selectFrom('transfer_reports').select('id').execute();
      await expectScansRefused((over) => report(pupil, over));
      // 3 MB of slip: refused before it is parsed.
      const huge = await report(pupil, { scan: pngDataUrl(Buffer.concat([greyPng(4, 4), Buffer.alloc(3 * 1024 * 1024)])) });
      expect(huge.statusCode).toBe(413);
      expect((await ctx.handle.db.selectFrom('transfer_reports').select('id').execute()).length).toBe(before.length);
      const pdf = await report(pupil, { scan: `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF').toString('base64')}` });
      expect(pdf.statusCode, pdf.body).toBe(201);
    });

    it('refuses control characters, bidi overrides and invisible-only text in its fields', async () => {
      for (const [field, value] of [
        ['bank', 'GT\u0000Bank'],
        ['bank_reference', 'REF\u202E1'],
        ['note', 'Paid\u0007'],
        ['bank', '\u200B\u200C'],
      ] as const) {
        const res = await report(pupil, { [field]: value });
        expect(res.statusCode, `${field} ${JSON.stringify(value)}`).toBe(400);
        expect(Object.keys(res.json())).toEqual([field]);
      }
    });

    it('refuses a reference already recorded as a payment (naming its receipt) or already waiting (case, spaces and dashes aside)', async () => {
      const recorded = await post(bursar, '/api/bursary/payments/', {
        admission_number: pupil.admissionNumber,
        session_id: sessionId,
        term: '1st',
        amount: 5000,
        method: 'bank_teller',
        bank: 'Zenith',
        bank_reference: 'ZEN-555',
        paid_on: lagosDay(),
      });
      expect(recorded.statusCode, recorded.body).toBe(201);
      const taken = await report(pupil, { bank: 'zenith', bank_reference: 'zen 555' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(recorded.json<LedgerEntry>().receipt_number) });

      await reported(pupil, { bank: 'Access', bank_reference: 'ACC-777' });
      // The same reference from another student too: one report of a reference waits at a time.
      const waiting = await report(other, { bank: 'ACCESS', bank_reference: 'acc 777' });
      expect(waiting.statusCode).toBe(409);
      expect(waiting.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.referenceWaiting });

      const racing = await Promise.all([
        report(pupil, { bank: 'UBA', bank_reference: 'RACE-9' }),
        report(other, { bank: 'uba', bank_reference: 'race9' }),
        report(pupil, { bank: 'UBA', bank_reference: 'Race 9' }),
      ]);
      expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      for (const r of racing.filter((x) => x.statusCode === 409))
        expect(r.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.referenceWaiting });
    });

    it(`keeps at most ${TRANSFER_REPORT_MAX_WAITING} reports of a student waiting at once`, async () => {
      const kid = await signInStudent(ctx, { arm: 'SSS 1B' });
      const made: TransferReport[] = [];
      for (let i = 0; i < TRANSFER_REPORT_MAX_WAITING; i++) made.push(await reported(kid));
      const over = await report(kid);
      expect(over.statusCode).toBe(409);
      expect(over.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.tooManyWaiting(TRANSFER_REPORT_MAX_WAITING) });
      // A decision frees a place.
      expect((await reject(bursar, made[0]!.id, 'Unreadable slip')).statusCode).toBe(200);
      expect((await report(kid)).statusCode).toBe(201);
    });
  });

  describe("the bursar's queue", () => {
    it('lists waiting reports oldest first, filters by status and pages; plain staff and students are refused', async () => {
      const a = await reported(pupil);
      const b = await reported(other);
      const c = await reported(pupil);
      expect((await reject(bursar, c.id, 'Wrong amount')).statusCode).toBe(200);
      const waiting = (await get(bursar, '/api/bursary/transfer-reports/?status=to_confirm')).json<TransferReportPage>();
      const ids = waiting.reports.map((r) => r.id);
      expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
      expect(ids).not.toContain(c.id);
      expect(waiting.reports.every((r) => r.status === 'to_confirm')).toBe(true);
      const times = waiting.reports.map((r) => r.reported_at);
      expect(times).toEqual([...times].sort());
      expect(waiting).toMatchObject({ page: 1, pages: Math.max(1, Math.ceil(waiting.total / TRANSFER_REPORT_PAGE_SIZE)) });
      const rejected = (await get(admin, '/api/bursary/transfer-reports/?status=rejected')).json<TransferReportPage>();
      expect(rejected.reports[0]).toMatchObject({ id: c.id, status: 'rejected', reason: 'Wrong amount', decided_by: 'Bola Bursar' });
      // Without a status: every report, the waiting ones first.
      const all = (await get(bursar, '/api/bursary/transfer-reports/')).json<TransferReportPage>();
      expect(all.total).toBe(waiting.total + rejected.total);
      const statuses = all.reports.map((r) => r.status);
      expect(statuses.lastIndexOf('to_confirm')).toBeLessThan(Math.max(statuses.indexOf('rejected'), statuses.length));

      expect((await get(staff, '/api/bursary/transfer-reports/')).json()).toEqual({ detail: BURSARY_MESSAGES.bursarOnly });
      expect((await get(pupil, '/api/bursary/transfer-reports/')).statusCode).toBe(403);
      expect((await get(bursar, '/api/bursary/transfer-reports/?status=lost')).statusCode).toBe(400);
    });

    it('pages by fifty', async () => {
      const total = (await get(bursar, '/api/bursary/transfer-reports/')).json<TransferReportPage>().total;
      const students = await Promise.all(Array.from({ length: 6 }, () => signInStudent(ctx, { arm: 'SSS 1B' })));
      const needed = Math.max(0, TRANSFER_REPORT_PAGE_SIZE + 1 - total);
      for (let i = 0; i < needed; i++) await reported(students[i % students.length]!);
      const first = (await get(bursar, '/api/bursary/transfer-reports/')).json<TransferReportPage>();
      expect(first.reports).toHaveLength(TRANSFER_REPORT_PAGE_SIZE);
      expect(first.pages).toBe(Math.ceil(first.total / TRANSFER_REPORT_PAGE_SIZE));
      const second = (await get(bursar, '/api/bursary/transfer-reports/?page=2')).json<TransferReportPage>();
      expect(second.page).toBe(2);
      expect(second.reports).toHaveLength(first.total - TRANSFER_REPORT_PAGE_SIZE);
      expect(second.reports.map((r) => r.id).filter((id) => first.reports.some((r) => r.id === id))).toEqual([]);
    });
  });

  describe('confirming', () => {
    it('records the payment in one step: its receipt, the slip as its scan, the bursar as recorder; the balance drops', async () => {
      const kid = await signInStudent(ctx, { arm: 'SSS 1B' });
      const slip = greyPng(5, 5);
      const r = await reported(kid, {
        amount: 30000,
        method: 'bank_teller',
        bank: 'First Bank of Nigeria',
        scan: pngDataUrl(slip),
        paid_on: lagosDay(-1),
      });
      const outstanding = async () => (await get(kid, '/api/payments/context/')).json<PaymentContext>().student!.outstanding;
      expect(await outstanding()).toBe(100000);

      const res = await confirm(bursar, r.id);
      expect(res.statusCode, res.body).toBe(200);
      const { report: after, payment } = res.json<TransferConfirmation>();
      expect(payment).toMatchObject({
        kind: 'payment',
        admission_number: kid.admissionNumber,
        amount: 30000,
        method: 'bank_teller',
        bank: 'First Bank of Nigeria',
        bank_reference: r.bank_reference,
        paid_on: lagosDay(-1),
        term: '1st',
        session: '2025/2026',
        has_scan: true,
        recorded_by: 'Bola Bursar',
        note: TRANSFER_REPORT_MESSAGES.reportedNote(formatDate(r.reported_at)),
      });
      expect(payment.receipt_number).toMatch(/^R-\d{6}$/);
      expect(after).toMatchObject({
        id: r.id,
        status: 'confirmed',
        receipt_number: payment.receipt_number,
        payment_reference: payment.reference,
        decided_by: 'Bola Bursar',
        reason: '',
      });
      expect(after.decided_at).not.toBeNull();
      // The answer (built from the rows read and written) is what the queue reads back.
      const listed = (await get(bursar, '/api/bursary/transfer-reports/?status=confirmed')).json<TransferReportPage>();
      expect(listed.reports.find((x) => x.id === r.id)).toEqual(after);
      expect(await outstanding()).toBe(70000);

      // The ledger reads the same entry back; the slip is the payment's scan.
      const ledger = (await get(bursar, `/api/bursary/payments/?admission_number=${kid.admissionNumber}`)).json<{
        entries: LedgerEntry[];
      }>();
      expect(ledger.entries).toEqual([payment]);
      const scan = await get(bursar, `/api/bursary/payments/${payment.reference}/scan/`);
      expect(scan.rawPayload.equals(slip)).toBe(true);
      // The student's receipt.
      const receipt = await get(kid, `/api/payments/receipt/${payment.reference}/`);
      expect(receipt.statusCode, receipt.body).toBe(200);
      expect(receipt.json()).toMatchObject({ receipt_number: payment.receipt_number, method: 'bank_teller' });
      // The student sees it confirmed with its receipt.
      const mine = (await get(kid, '/api/bursary/transfer-reports/mine/')).json<TransferReport[]>();
      expect(mine[0]).toMatchObject({ id: r.id, status: 'confirmed', receipt_number: payment.receipt_number });

      const row = await reportRow(r.id);
      expect(row).toMatchObject({ status: 'confirmed', waiting_key: null, decided_by: bursar.userId });
      const paymentRow = await ctx.handle.db
        .selectFrom('payments')
        .selectAll()
        .where('reference', '=', payment.reference)
        .executeTakeFirstOrThrow();
      expect(row.payment_id).toBe(paymentRow.id);
      expect(paymentRow).toMatchObject({ recorded_by: bursar.userId, provider: 'offline', status: 'successful', amount_kobo: 3_000_000 });
      const audit = await auditRow(ctx, 'transfer_report', String(r.id), 'transfer_report.confirm');
      expect(audit.actor_user_id).toBe(bursar.userId);
      expect(JSON.parse(audit.after!)).toEqual({ status: 'confirmed', payment: payment.reference, receipt_number: payment.receipt_number });
      expect((await auditRow(ctx, 'payment', payment.reference, 'payment.record')).actor_user_id).toBe(bursar.userId);

      // Decided once: confirming or rejecting again is refused, and the reference cannot be reported again.
      const again = await confirm(admin, r.id);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.notWaiting('Confirmed') });
      const late = await reject(admin, r.id, 'Too late');
      expect(late.statusCode).toBe(409);
      expect(late.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.notWaiting('Confirmed') });
      const twice = await report(kid, { bank: 'first bank', bank_reference: r.bank_reference });
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(payment.receipt_number) });
    });

    it('a reference recorded meanwhile: 409 naming its receipt, no payment, and the report still waits', async () => {
      const r = await reported(pupil, { bank: 'Wema', bank_reference: 'WEMA-42' });
      const byHand = await post(bursar, '/api/bursary/payments/', {
        admission_number: pupil.admissionNumber,
        session_id: sessionId,
        term: '1st',
        amount: 20000,
        method: 'bank_transfer',
        bank: 'WEMA',
        bank_reference: 'wema 42',
        paid_on: lagosDay(),
      });
      expect(byHand.statusCode, byHand.body).toBe(201);
      const counter = async () =>
        (await ctx.handle.db.selectFrom('counters').select('value').where('name', '=', 'receipt').executeTakeFirstOrThrow()).value;
      const before = await counter();
      const res = await confirm(bursar, r.id);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ detail: BURSARY_MESSAGES.referenceTaken(byHand.json<LedgerEntry>().receipt_number) });
      expect(await paymentsWithReference('WEMA-42')).toBe(0);
      expect(await reportRow(r.id)).toMatchObject({
        status: 'to_confirm',
        decided_by: null,
        payment_id: null,
        waiting_key: expect.any(String),
      });
      // The receipt number was not used up.
      expect(await counter()).toBe(before);
      // The bursar rejects it instead.
      expect((await reject(bursar, r.id, 'Already recorded from the teller')).statusCode).toBe(200);
    });

    it('two bursars confirming at once: one 200, one 409, exactly one payment', async () => {
      for (let round = 0; round < 3; round++) {
        const r = await reported(pupil);
        const both = await Promise.all([confirm(bursar, r.id), confirm(admin, r.id), confirm(bursar, r.id)]);
        expect(both.map((x) => x.statusCode).sort()).toEqual([200, 409, 409]);
        for (const lost of both.filter((x) => x.statusCode === 409))
          expect(lost.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.notWaiting('Confirmed') });
        expect(await paymentsWithReference(r.bank_reference)).toBe(1);
        const winner = both.find((x) => x.statusCode === 200)!.json<TransferConfirmation>();
        expect((await reportRow(r.id)).payment_id).not.toBeNull();
        expect(winner.report.receipt_number).toBe(winner.payment.receipt_number);
      }
    });

    it('a confirmation racing a rejection: one wins, the other hears what became of it', async () => {
      const r = await reported(other);
      const [c, j] = await Promise.all([confirm(bursar, r.id), reject(admin, r.id, 'No such transfer')]);
      expect([c.statusCode, j.statusCode].sort()).toEqual([200, 409]);
      const final = await reportRow(r.id);
      expect(await paymentsWithReference(r.bank_reference)).toBe(final.status === 'confirmed' ? 1 : 0);
      const lost = c.statusCode === 409 ? c : j;
      expect(lost.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.notWaiting(final.status === 'confirmed' ? 'Confirmed' : 'Rejected') });
    });

    it('is for the bursar and the admin only; an unknown report is 404', async () => {
      const r = await reported(pupil);
      const byStaff = await confirm(staff, r.id);
      expect(byStaff.statusCode).toBe(403);
      expect(byStaff.json()).toEqual({ detail: BURSARY_MESSAGES.bursarOnly });
      // A student cannot confirm their own report, nor anyone else's.
      for (const who of [pupil, other]) {
        const res = await confirm(who, r.id);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ detail: AUTH_MESSAGES.forbidden });
      }
      expect((await reportRow(r.id)).status).toBe('to_confirm');
      const unknown = await confirm(bursar, 987_654);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.reportNotFound });
      expect((await confirm(bursar, 0)).statusCode).toBe(400);
      expect((await post(bursar, '/api/bursary/transfer-reports/1x/confirm/', {})).statusCode).toBe(400);
      const byAdmin = await confirm(admin, r.id);
      expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    });
  });

  describe('rejecting', () => {
    it('needs a reason, which the student reads; a rejected report cannot be confirmed; its reference may be reported again', async () => {
      const r = await reported(pupil, { bank: 'Fidelity', bank_reference: 'FID-1' });
      for (const reason of ['', '   ', undefined]) {
        const res = await reject(bursar, r.id, reason);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ reason: [TRANSFER_REPORT_MESSAGES.rejectReasonRequired] });
      }
      const ctl = await reject(bursar, r.id, 'Bad\u0000slip');
      expect(ctl.statusCode).toBe(400);
      const res = await reject(bursar, r.id, '  The slip is unreadable; send a clearer photo.  ');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<TransferReport>()).toMatchObject({
        id: r.id,
        status: 'rejected',
        reason: 'The slip is unreadable; send a clearer photo.',
        decided_by: 'Bola Bursar',
        receipt_number: null,
      });
      const audit = await auditRow(ctx, 'transfer_report', String(r.id), 'transfer_report.reject');
      expect(JSON.parse(audit.after!)).toEqual({ status: 'rejected', reason: 'The slip is unreadable; send a clearer photo.' });
      const mine = (await get(pupil, '/api/bursary/transfer-reports/mine/')).json<TransferReport[]>();
      expect(mine.find((x) => x.id === r.id)).toMatchObject({
        status: 'rejected',
        reason: 'The slip is unreadable; send a clearer photo.',
      });

      const late = await confirm(bursar, r.id);
      expect(late.statusCode).toBe(409);
      expect(late.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.notWaiting('Rejected') });
      expect(await paymentsWithReference('FID-1')).toBe(0);
      const twice = await reject(admin, r.id, 'Again');
      expect(twice.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.notWaiting('Rejected') });
      // The student sends it again with a better photo.
      expect((await report(pupil, { bank: 'Fidelity', bank_reference: 'FID-1' })).statusCode).toBe(201);
      expect((await reject(staff, r.id, 'x')).statusCode).toBe(403);
      expect((await reject(bursar, 987_654, 'x')).json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.reportNotFound });
    });
  });

  describe('the slip', () => {
    it('opens for the bursar, the admin and the student who reported it; another student hears it does not exist', async () => {
      const slip = greyPng(7, 3);
      const r = await reported(pupil, { scan: pngDataUrl(slip) });
      for (const who of [bursar, admin, pupil]) {
        const res = await get(who, `/api/bursary/transfer-reports/${r.id}/scan/`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/png');
        expect(res.headers['content-disposition']).toBe(`inline; filename="slip-${r.id}"`);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.rawPayload.equals(slip)).toBe(true);
      }
      const theirs = await get(other, `/api/bursary/transfer-reports/${r.id}/scan/`);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual({ detail: TRANSFER_REPORT_MESSAGES.reportNotFound });
      const missing = await get(other, '/api/bursary/transfer-reports/987654/scan/');
      expect(missing.json()).toEqual(theirs.json());
      const byStaff = await get(staff, `/api/bursary/transfer-reports/${r.id}/scan/`);
      expect(byStaff.statusCode).toBe(403);
      expect(byStaff.json()).toEqual({ detail: BURSARY_MESSAGES.bursarOnly });
      expect((await ctx.app.inject({ method: 'GET', url: `/api/bursary/transfer-reports/${r.id}/scan/` })).statusCode).toBe(401);
    });
  });
});
