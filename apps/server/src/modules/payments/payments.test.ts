import { beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, AUTH_MESSAGES, FEE_MESSAGES, ONLINE_PAYMENT_MESSAGES, checkAmount } from '@portal/domain';
import {
  withSchool,
  csvLines,
  createSession,
  createTestContext,
  describeEachDatabase,
  signInStudent,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import './payments.tables';
import { initiateAt } from '../../../test/payments-fixtures';
import type { Receipt } from '@portal/domain';
import { pdfText } from '../../../test/pdf-text';
import { receiptPdf } from './payments.documents';

type Student = SignedIn & { admissionNumber: string; id: number };

describeEachDatabase('payments with the built-in simulator', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, ada: Student, bayo: Student, sessionId: number;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, async (s) => {
    ({ ctx, admin, staff, sessionId } = s);
    ada = await signInStudent(ctx, { firstName: 'Ada', lastName: 'Eze', arm: 'JSS 1A' });
    bayo = await signInStudent(ctx, { firstName: 'Bayo', lastName: 'Ola', arm: 'JSS 1A' });
  });

  const payload = (s: Student, extra: Record<string, unknown> = {}) => ({
    admission_number: s.admissionNumber,
    full_name: 'Ada Eze',
    current_class: 'JSS 1A',
    current_session: '2025/2026',
    email: 'Parent.Eze@Example.COM',
    phone_number: '+234 (803) 123-4567',
    amount: 45000,
    ...extra,
  });

  async function initiate(who: SignedIn, body: Record<string, unknown>) {
    return initiateAt(ctx, who, body);
  }
  async function startPayment(who: Student, extra: Record<string, unknown> = {}) {
    const res = await initiate(who, payload(who, extra));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { authorization_url: string; reference: string } }>().data;
  }
  /** Plays the payer on the simulator's checkout (signed in): returns where the browser is sent back. */
  async function checkout(authorizationUrl: string, outcome: 'pay' | 'decline' | 'abandon', who: SignedIn = ada) {
    const code = new URL(authorizationUrl).pathname.split('/').pop();
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/simulator/${code}/`,
      headers: who.auth,
      payload: { outcome },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ return_url: string }>().return_url;
  }
  const verify = (who: SignedIn, reference: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/payments/verify/', headers: who.auth, payload: { reference } });
  const paymentRow = (reference: string) =>
    ctx.handle.db.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirstOrThrow();
  const auditOf = (reference: string) =>
    ctx.handle.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after', 'actor_user_id'])
      .where('entity', '=', 'payment')
      .where('entity_id', '=', reference)
      .orderBy('id')
      .execute();

  describe('POST /api/payments/initiate/', () => {
    it('creates the pending payment first, in kobo, and answers the checkout address and reference', async () => {
      const res = await initiate(ada, payload(ada, { amount: '45000.50' }));
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.status).toBe('success');
      expect(body.data.reference).toMatch(/^FEES-[A-Z0-9]+-[A-F0-9]{12}$/);
      expect(body.data.authorization_url).toMatch(/^http:\/\/localhost(:\d+)?\/pay\/simulator\/[a-f0-9]{32}$/);
      const row = await paymentRow(body.data.reference);
      expect(row).toMatchObject({
        status: 'pending',
        amount_kobo: 4_500_050,
        currency: 'NGN',
        admission_number: ada.admissionNumber,
        student_id: ada.id,
        email: 'parent.eze@example.com',
        phone_number: '+234 (803) 123-4567',
        current_session: '2025/2026',
        provider: 'simulator',
        paid_at: null,
      });
      expect(Number.isInteger(row.amount_kobo)).toBe(true);
      const audit = await auditOf(body.data.reference);
      expect(audit.map((a) => a.action)).toEqual(['payment.create']);
      expect(audit[0]!.actor_user_id).toBe(ada.userId);
    });

    it('applies every field rule with its message', async () => {
      const empty = await initiate(admin, {});
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual({
        admission_number: [PAYMENT_MESSAGES.admissionNumberRequired],
        full_name: [PAYMENT_MESSAGES.fullNameRequired],
        current_class: [PAYMENT_MESSAGES.classRequired],
        current_session: [PAYMENT_MESSAGES.sessionRequired],
        email: [PAYMENT_MESSAGES.emailRequired],
        amount: [PAYMENT_MESSAGES.amountRequired],
      });
      const short = await initiate(admin, {
        ...payload(ada),
        admission_number: 'ST',
        full_name: 'A',
        current_class: 'JSS 9Z',
        email: 'not-an-email',
        phone_number: '0803-12',
      });
      expect(short.json()).toEqual({
        admission_number: [PAYMENT_MESSAGES.admissionNumberTooShort],
        full_name: [PAYMENT_MESSAGES.fullNameTooShort],
        current_class: [PAYMENT_MESSAGES.classInvalid],
        email: [PAYMENT_MESSAGES.emailInvalid],
        phone_number: [PAYMENT_MESSAGES.phoneInvalid],
      });
      const letters = await initiate(admin, { ...payload(ada), phone_number: '0803abc45678' });
      expect(letters.json()).toEqual({ phone_number: [PAYMENT_MESSAGES.phoneInvalid] });
      const unknownSession = await initiate(admin, { ...payload(ada), current_session: '1999/2000' });
      expect(unknownSession.json()).toEqual({ current_session: [PAYMENT_MESSAGES.sessionInvalid] });
      const unknownStudent = await initiate(staff, { ...payload(ada), admission_number: 'STU-9999' });
      expect(unknownStudent.json()).toEqual({ admission_number: [PAYMENT_MESSAGES.studentNotFound] });
    });

    it.each([
      [0, PAYMENT_MESSAGES.amountPositive],
      ['0.00', PAYMENT_MESSAGES.amountPositive],
      [-500, PAYMENT_MESSAGES.amountPositive],
      [99.99, PAYMENT_MESSAGES.amountMinimum],
      ['50', PAYMENT_MESSAGES.amountMinimum],
      [5_000_000.01, PAYMENT_MESSAGES.amountMaximum],
      ['12000000', PAYMENT_MESSAGES.amountMaximum],
      [100.123, PAYMENT_MESSAGES.amountDecimals],
      ['150.5.5', PAYMENT_MESSAGES.amountInvalid],
      ['1e5', PAYMENT_MESSAGES.amountInvalid],
      [true, PAYMENT_MESSAGES.amountInvalid],
      ['', PAYMENT_MESSAGES.amountRequired],
      [null, PAYMENT_MESSAGES.amountRequired],
    ])('refuses the amount %j with %s', async (amount, message) => {
      const res = await initiate(admin, payload(ada, { amount }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ amount: [message] });
    });

    it.each([
      [100, 10_000],
      ['100.5', 10_050],
      [5_000_000, 500_000_000],
      [1234.56, 123_456],
      ['0250.10', 25_010],
    ])('accepts %j naira and stores %i kobo', async (amount, kobo) => {
      const { reference } = await startPayment(ada, { amount });
      expect((await paymentRow(reference)).amount_kobo).toBe(kobo);
    });

    it('treats a blank or missing phone number as none, and sends the email in lower case', async () => {
      const { reference } = await startPayment(ada, { phone_number: '  ', email: 'ADA@X.SCHOOL' });
      expect(await paymentRow(reference)).toMatchObject({ phone_number: null, email: 'ada@x.school' });
      const omitted = payload(ada);
      delete (omitted as Partial<typeof omitted>).phone_number;
      const res = await initiate(ada, omitted);
      expect(res.statusCode).toBe(200);
    });

    it('lets a student pay only for themselves; staff and admin for any student; nobody anonymous', async () => {
      const other = await initiate(ada, payload(bayo));
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual({ detail: PAYMENT_MESSAGES.notYourRecord });
      expect((await initiate(staff, payload(bayo))).statusCode).toBe(200);
      expect((await initiate(admin, payload(bayo))).statusCode).toBe(200);
      const anon = await ctx.app.inject({ method: 'POST', url: '/api/payments/initiate/', payload: payload(ada) });
      expect(anon.statusCode).toBe(401);
      expect(anon.json()).toEqual({ detail: AUTH_MESSAGES.notAuthenticated });
    });

    it('records the term when given (beyond the spec) and refuses an unknown one', async () => {
      const { reference } = await startPayment(ada, { term: '2nd' });
      expect((await paymentRow(reference)).term).toBe('2nd');
      const bad = await initiate(ada, payload(ada, { term: '4th' }));
      expect(bad.json()).toEqual({ term: [PAYMENT_MESSAGES.termInvalid] });
    });

    it('uses PUBLIC_URL for the return address when configured', async () => {
      const other = await createTestContext(dialect, { publicUrl: 'https://portal.school.ng' });
      try {
        await createSession(other.handle.db, '2025/2026', true);
        const s = await signInStudent(other);
        const res = await initiateAt(other, s, payload(s));
        const { authorization_url, reference } = res.json().data;
        expect(authorization_url).toMatch(/^https:\/\/portal\.school\.ng\/pay\/simulator\//);
        const tx = await other.handle.db
          .selectFrom('payment_simulator_transactions')
          .selectAll()
          .where('reference', '=', reference)
          .executeTakeFirstOrThrow();
        expect(tx.callback_url).toBe('https://portal.school.ng/PaymentForm');
        // With PUBLIC_URL, the Host header plays no part.
        const evil = await initiateAt(other, s, payload(s), { host: 'evil.example' });
        expect(evil.statusCode).toBe(200);
        expect(evil.body).not.toContain('evil.example');
      } finally {
        await other.close();
      }
    });

    it('without PUBLIC_URL, builds addresses only on hosts the server answers for: Host evil.example is refused', async () => {
      const count = async () =>
        (await ctx.handle.db.selectFrom('payments').select(ctx.handle.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
      const before = Number(await count());
      for (const host of ['evil.example', 'evil.example:80', 'localhost.evil.example', 'localhost@evil.example', 'a b']) {
        const res = await initiateAt(ctx, ada, payload(ada), { host });
        expect(res.statusCode, host).toBe(400);
        expect(res.json()).toEqual({ detail: ONLINE_PAYMENT_MESSAGES.hostNotAllowed });
        expect(res.body).not.toContain('evil.example');
      }
      // Forwarded hosts count only behind a trusted proxy, and are checked the same way there.
      const forwarded = await initiateAt(ctx, ada, payload(ada), { 'x-forwarded-host': 'evil.example' });
      expect(forwarded.body).not.toContain('evil.example');
      expect(Number(await count())).toBe(before + 1);
      // Loopback names (any port: dev proxies) are this machine.
      for (const host of ['localhost:5173', '127.0.0.1:3000', '[::1]:3000']) {
        const res = await initiateAt(ctx, ada, payload(ada), { host });
        expect(res.statusCode, host).toBe(200);
        expect(res.json().data.authorization_url).toMatch(new RegExp(`^http://${host.replace(/[[\].]/g, '\\$&')}/pay/simulator/`));
      }
      const lan = await createTestContext(dialect, { allowedHosts: ['portal.lan'], host: '10.0.0.5', port: 3000, trustProxy: true });
      try {
        await createSession(lan.handle.db, '2025/2026', true);
        const s = await signInStudent(lan);
        const at = async (headers: Record<string, string>) => initiateAt(lan, s, payload(s), headers);
        expect((await at({ host: 'portal.lan' })).json().data.authorization_url).toMatch(/^http:\/\/portal\.lan\/pay\/simulator\//);
        expect((await at({ host: '10.0.0.5:3000' })).statusCode).toBe(200);
        expect((await at({ host: '10.0.0.5:4000' })).statusCode).toBe(400);
        const viaProxy = await at({ host: 'portal.lan', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
        expect(viaProxy.statusCode).toBe(400);
        expect(viaProxy.body).not.toContain('evil.example');
      } finally {
        await lan.close();
      }
    });
  });

  describe('checkout rate limit', () => {
    it('limits how many checkouts one signed-in user starts per minute, without touching others', async () => {
      const limited = await createTestContext(dialect, { paymentInitiatePerMinute: 2 });
      try {
        await createSession(limited.handle.db, '2025/2026', true);
        const one = await signInStudent(limited, { firstName: 'Ada', lastName: 'Eze', arm: 'JSS 1A' });
        const two = await signInStudent(limited, { firstName: 'Bayo', lastName: 'Ola', arm: 'JSS 1A' });
        const start = (who: Student) => initiateAt(limited, who, payload(who));
        expect((await start(one)).statusCode).toBe(200);
        expect((await start(one)).statusCode).toBe(200);
        const third = await start(one);
        expect(third.statusCode).toBe(429);
        expect(third.json()).toMatchObject({ detail: AUTH_MESSAGES.tooManyRequests });
        const pending = await limited.handle.db.selectFrom('payments').select('reference').where('student_id', '=', one.id).execute();
        expect(pending).toHaveLength(2);
        // Another pupil behind the same school address still gets through.
        expect((await start(two)).statusCode).toBe(200);
        // An anonymous caller is refused by the guard before the limiter counts anything.
        const anonymous = await limited.app.inject({ method: 'POST', url: '/api/payments/initiate/', payload: payload(one) });
        expect(anonymous.statusCode).toBe(401);
      } finally {
        await limited.close();
      }
    });
  });

  describe('the simulator checkout and POST /api/payments/verify/', () => {
    it('shows the payer the checkout: amount in naira, merchant, reference; unknown codes are 404', async () => {
      const { authorization_url, reference } = await startPayment(ada, { amount: 1234567.5 });
      expect(new URL(authorization_url).pathname).toMatch(/^\/pay\/simulator\/[a-f0-9]{32}$/);
      const code = new URL(authorization_url).pathname.split('/').pop();
      const page = await ctx.app.inject({ method: 'GET', url: `/api/payments/simulator/${code}/`, headers: ada.auth });
      expect(page.statusCode).toBe(200);
      expect(page.json()).toEqual({
        merchant: expect.any(String),
        amount: 1234567.5,
        email: 'parent.eze@example.com',
        reference,
        status: 'pending',
        return_url: `http://localhost:80/PaymentForm?trxref=${reference}&reference=${reference}`,
      });
      const bogus = await ctx.app.inject({ method: 'GET', url: '/api/payments/simulator/deadbeef/', headers: ada.auth });
      expect(bogus.statusCode).toBe(404);
      expect(bogus.json()).toEqual({ detail: ONLINE_PAYMENT_MESSAGES.checkoutNotFound });
      const bad = await ctx.app.inject({
        method: 'POST',
        url: `/api/payments/simulator/${code}/`,
        headers: ada.auth,
        payload: { outcome: 'refund' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ outcome: [ONLINE_PAYMENT_MESSAGES.outcomeInvalid] });
    });

    it('only the payer or an admin completes a checkout; signed out, another student or other staff credit nothing', async () => {
      const { authorization_url, reference } = await startPayment(ada);
      const code = new URL(authorization_url).pathname.split('/').pop();
      // The old unguarded page: a signed-out form post to /pay/simulator/<code> no longer exists.
      const page = await ctx.app.inject({
        method: 'POST',
        url: `/pay/simulator/${code}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'outcome=pay',
      });
      expect(page.statusCode).toBe(404);
      const complete = (headers: Record<string, string>) =>
        ctx.app.inject({ method: 'POST', url: `/api/payments/simulator/${code}/`, headers, payload: { outcome: 'pay' } });
      expect((await complete({})).statusCode).toBe(401);
      expect((await complete(bayo.auth)).statusCode).toBe(403);
      expect((await complete(staff.auth)).statusCode).toBe(403);
      expect((await ctx.app.inject({ method: 'GET', url: `/api/payments/simulator/${code}/`, headers: bayo.auth })).statusCode).toBe(403);
      expect((await verify(ada, reference)).json().status).toBe('pending');
      expect((await paymentRow(reference)).status).toBe('pending');
      // Staff who start a checkout at the bursary complete it; an admin completes anyone's.
      const atBursary = await initiate(staff, payload(bayo));
      expect(atBursary.statusCode).toBe(200);
      const started = atBursary.json<{ data: { authorization_url: string; reference: string } }>().data;
      await checkout(started.authorization_url, 'pay', staff);
      expect((await verify(bayo, started.reference)).json().status).toBe('success');
      expect((await complete(admin.auth)).statusCode).toBe(200);
      expect((await verify(ada, reference)).json().status).toBe('success');
    });

    it('pays: returns to /PaymentForm as Paystack would, and verify credits the payment once', async () => {
      const { authorization_url, reference } = await startPayment(ada);
      const before = await verify(ada, reference);
      expect(before.json()).toEqual({ status: 'pending', message: PAYMENT_MESSAGES.pending, reference });
      expect((await paymentRow(reference)).status).toBe('pending');

      const back = await checkout(authorization_url, 'pay');
      expect(back).toBe(`http://localhost:80/PaymentForm?trxref=${reference}&reference=${reference}`);
      const res = await verify(ada, reference);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'success', message: PAYMENT_MESSAGES.verified, reference });
      const row = await paymentRow(reference);
      expect(row.status).toBe('successful');
      expect(row.paid_at).not.toBeNull();
      expect(row.provider_transaction_id).toMatch(/^SIM-/);
      // Again: same answer, nothing changes.
      expect((await verify(ada, reference)).json().status).toBe('success');
      const audit = await auditOf(reference);
      expect(audit.map((a) => a.action)).toEqual(['payment.create', 'payment.successful']);
      expect(JSON.parse(audit[1]!.before!)).toEqual({ status: 'pending' });
      expect(JSON.parse(audit[1]!.after!)).toMatchObject({ status: 'successful', source: 'verify', amount_kobo: 4_500_000 });
    });

    it('credits exactly once under 10 concurrent verifies', async () => {
      const { authorization_url, reference } = await startPayment(ada);
      await checkout(authorization_url, 'pay');
      const all = await Promise.all(Array.from({ length: 10 }, () => verify(ada, reference)));
      for (const r of all) expect(r.json()).toMatchObject({ status: 'success' });
      const credits = (await auditOf(reference)).filter((a) => a.action === 'payment.successful');
      expect(credits).toHaveLength(1);
    });

    it('declined: verify reports it, the payment is failed and never credited', async () => {
      const { authorization_url, reference } = await startPayment(ada);
      await checkout(authorization_url, 'decline');
      const res = await verify(ada, reference);
      expect(res.json()).toEqual({ status: 'failed', message: PAYMENT_MESSAGES.declined, reference });
      expect((await paymentRow(reference)).status).toBe('failed');
      // The page cannot be used to pay afterwards.
      await checkout(authorization_url, 'pay');
      expect((await verify(ada, reference)).json().status).toBe('failed');
      expect((await auditOf(reference)).map((a) => a.action)).toEqual(['payment.create', 'payment.failed']);
    });

    it('abandoned: not credited', async () => {
      const { authorization_url, reference } = await startPayment(ada);
      await checkout(authorization_url, 'abandon');
      expect((await verify(ada, reference)).json()).toEqual({ status: 'abandoned', message: PAYMENT_MESSAGES.abandoned, reference });
      expect((await paymentRow(reference)).status).toBe('abandoned');
    });

    it('the first choice on the checkout page stands (a second POST changes nothing)', async () => {
      const { authorization_url, reference } = await startPayment(ada);
      await checkout(authorization_url, 'pay');
      expect(await checkout(authorization_url, 'decline')).toContain(`reference=${reference}`);
      expect((await verify(ada, reference)).json().status).toBe('success');
      const code = new URL(authorization_url).pathname.split('/').pop();
      const page = await ctx.app.inject({ method: 'GET', url: `/api/payments/simulator/${code}/`, headers: ada.auth });
      expect(page.json().status).toBe('success');
    });

    it('guards verify: own payments only for a student, 404 for an unknown reference, reference required', async () => {
      const { reference } = await startPayment(ada);
      const other = await verify(bayo, reference);
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual({ detail: PAYMENT_MESSAGES.notYourRecord });
      expect((await verify(staff, reference)).statusCode).toBe(200);
      const missing = await verify(admin, 'FEES-NOPE');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: PAYMENT_MESSAGES.paymentNotFound });
      const blank = await ctx.app.inject({ method: 'POST', url: '/api/payments/verify/', headers: admin.auth, payload: {} });
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual({ reference: [PAYMENT_MESSAGES.referenceRequired] });
    });

    it('refuses webhooks when no Paystack key is configured', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/webhook/',
        headers: { 'content-type': 'application/json', 'x-paystack-signature': 'ab'.repeat(64) },
        payload: JSON.stringify({ event: 'charge.success', data: { reference: 'x' } }),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: PAYMENT_MESSAGES.invalidSignature });
    });
  });

  describe('history, reports, context, receipts', () => {
    let carl: Student;
    let paidRef: string;
    beforeAll(async () => {
      carl = await signInStudent(ctx, { firstName: 'Carl', lastName: 'Umeh', arm: 'SSS 2B' });
      await signInStudent(ctx, { firstName: 'Dayo', lastName: 'Ife', arm: 'SSS 2B' });
      const a = await startPayment(carl, { amount: 30000, current_class: 'SSS 2B', full_name: 'Carl Umeh', term: '1st' });
      await checkout(a.authorization_url, 'pay', carl);
      await verify(carl, a.reference);
      paidRef = a.reference;
      await startPayment(carl, { amount: 500, current_class: 'SSS 2B', full_name: 'Carl Umeh' }); // left pending
    });

    it('history: the spec Payment shape, newest first, amounts in naira', async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/payments/history/?admission_number=${carl.admissionNumber}`,
        headers: carl.auth,
      });
      expect(res.statusCode).toBe(200);
      const list = res.json<Record<string, unknown>[]>();
      expect(list).toHaveLength(2);
      expect(list[0]).toMatchObject({ amount: 500, status: 'pending' });
      expect(list[1]).toMatchObject({
        admission_number: carl.admissionNumber,
        full_name: 'Carl Umeh',
        current_class: 'SSS 2B',
        current_session: '2025/2026',
        email: 'parent.eze@example.com',
        phone_number: '+234 (803) 123-4567',
        amount: 30000,
        reference: paidRef,
        status: 'successful',
        term: '1st',
        currency: 'NGN',
      });
      for (const k of ['id', 'created_at', 'paid_at']) expect(list[1]).toHaveProperty(k);
      expect(list[1]).not.toHaveProperty('amount_kobo');
    });

    it('history: a student sees only their own; staff and admin anyone; admission number required', async () => {
      const mine = `/api/payments/history/?admission_number=${carl.admissionNumber.toLowerCase()}`;
      expect((await ctx.app.inject({ method: 'GET', url: mine, headers: carl.auth })).statusCode).toBe(200);
      const theirs = await ctx.app.inject({ method: 'GET', url: mine, headers: ada.auth });
      expect(theirs.statusCode).toBe(403);
      expect(theirs.json()).toEqual({ detail: PAYMENT_MESSAGES.notYourRecord });
      expect((await ctx.app.inject({ method: 'GET', url: mine, headers: staff.auth })).json()).toHaveLength(2);
      expect((await ctx.app.inject({ method: 'GET', url: mine, headers: admin.auth })).json()).toHaveLength(2);
      const none = await ctx.app.inject({ method: 'GET', url: '/api/payments/history/', headers: staff.auth });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual({ admission_number: [PAYMENT_MESSAGES.admissionNumberRequired] });
      const unknown = await ctx.app.inject({ method: 'GET', url: '/api/payments/history/?admission_number=STU-8888', headers: staff.auth });
      expect(unknown.json()).toEqual([]);
    });

    it('report: every student of the class, unpaid when none, with due / paid / outstanding from the fee schedule', async () => {
      const fee = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/fee-schedules/',
        headers: admin.auth,
        payload: { student_class: 'SSS 2B', session_id: sessionId, term: '1st', amount: 75000, description: 'Tuition' },
      });
      expect(fee.statusCode).toBe(201);
      const res = await ctx.app.inject({ method: 'GET', url: '/api/payments/report/?class=SSS%202B', headers: staff.auth });
      expect(res.statusCode).toBe(200);
      const rows = res.json<Record<string, unknown>[]>();
      expect(rows).toHaveLength(2);
      // ₦30,000 of ₦75,000 is part paid, not paid: the spec's field says pending (one is pending).
      expect(rows[0]).toMatchObject({
        admission_number: carl.admissionNumber,
        full_name: 'Carl Umeh',
        current_class: 'SSS 2B',
        payment_status: 'pending',
        last_payment_amount: 30000,
        amount_due: 75000,
        amount_paid: 30000,
        outstanding: 45000,
        status: 'part_paid',
        balance: 45000,
        terms: [{ term: '1st', amount_due: 75000, amount_paid: 30000, balance: 45000, status: 'part_paid' }],
      });
      expect(typeof rows[0]!.last_payment_date).toBe('string');
      expect(rows[1]).toMatchObject({
        full_name: 'Dayo Ife',
        payment_status: 'unpaid',
        last_payment_amount: null,
        last_payment_date: null,
        amount_due: 75000,
        amount_paid: 0,
        outstanding: 75000,
        status: 'unpaid',
      });
      const summary = await ctx.app.inject({ method: 'GET', url: '/api/payments/report/summary/?class=SSS%202B', headers: admin.auth });
      expect(summary.json()).toEqual({
        class: 'SSS 2B',
        session: '2025/2026',
        term: null,
        students: 2,
        paid: 0,
        part_paid: 1,
        pending: 1,
        unpaid: 1,
        amount_due: 150000,
        amount_paid: 30000,
        outstanding: 120000,
      });
      const older = await ctx.app.inject({
        method: 'GET',
        url: '/api/payments/report/?class=SSS%202B&session=2024/2025',
        headers: staff.auth,
      });
      expect(older.json<{ payment_status: string }[]>().map((r) => r.payment_status)).toEqual(['unpaid', 'unpaid']);
    });

    it('report: pending when the only payment is pending; staff and admin only; class required and valid', async () => {
      const eve = await signInStudent(ctx, { firstName: 'Eve', lastName: 'Obi', arm: 'SSS 3A' });
      await startPayment(eve, { current_class: 'SSS 3A' });
      const rows = (await ctx.app.inject({ method: 'GET', url: '/api/payments/report/?class=SSS%203A', headers: admin.auth })).json();
      expect(rows).toEqual([
        expect.objectContaining({ admission_number: eve.admissionNumber, payment_status: 'pending', last_payment_amount: 45000 }),
      ]);
      const student = await ctx.app.inject({ method: 'GET', url: '/api/payments/report/?class=SSS%203A', headers: eve.auth });
      expect(student.statusCode).toBe(403);
      const missing = await ctx.app.inject({ method: 'GET', url: '/api/payments/report/', headers: staff.auth });
      expect(missing.json()).toEqual({ class: [PAYMENT_MESSAGES.classRequired] });
      const bad = await ctx.app.inject({ method: 'GET', url: '/api/payments/report/?class=Primary%201', headers: staff.auth });
      expect(bad.json()).toEqual({ class: [PAYMENT_MESSAGES.classInvalid] });
      const badSession = await ctx.app.inject({
        method: 'GET',
        url: '/api/payments/report/?class=SSS%203A&session=1990',
        headers: staff.auth,
      });
      expect(badSession.json()).toEqual({ session: [PAYMENT_MESSAGES.sessionInvalid] });
      expect((await ctx.app.inject({ method: 'GET', url: '/api/payments/report/?class=SSS%201B', headers: staff.auth })).json()).toEqual(
        [],
      );
    });

    it('report CSV: one line per student and a totals line', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/payments/report/csv/?class=SSS%202B', headers: staff.auth });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toContain('payments-SSS-2B-2025-2026.csv');
      const lines = csvLines(res);
      expect(lines[0]).toBe(
        'admission_number,full_name,current_class,payment_status,last_payment_amount,last_payment_date,amount_due,amount_paid,outstanding,status',
      );
      expect(lines[1]).toMatch(
        new RegExp(`^${carl.admissionNumber},Carl Umeh,SSS 2B,pending,30000.00,.+,75000.00,30000.00,45000.00,part_paid$`),
      );
      expect(lines[3]).toBe('Totals,2 students,,,,,150000.00,30000.00,120000.00,"0 paid, 1 part paid, 1 unpaid"');
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/payments/report/csv/?class=SSS%202B', headers: carl.auth })).statusCode,
      ).toBe(403);
    });

    it('context: sessions for the form, and for a student their details and what they owe next', async () => {
      await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/fee-schedules/',
        headers: admin.auth,
        payload: { student_class: 'SSS 2B', session_id: sessionId, term: '2nd', amount: 60000 },
      });
      const res = await ctx.app.inject({ method: 'GET', url: '/api/payments/context/', headers: carl.auth });
      expect(res.statusCode).toBe(200);
      const c = res.json();
      expect(c.current_session).toBe('2025/2026');
      expect(c.sessions.map((s: { name: string }) => s.name)).toEqual(['2025/2026', '2024/2025']);
      expect(c.student).toEqual({
        admission_number: carl.admissionNumber,
        full_name: 'Carl Umeh',
        current_class: 'SSS 2B',
        email: carl.email,
        phone_number: '08031234567',
        term: '1st',
        amount_due: 135000,
        amount_paid: 30000,
        outstanding: 105000,
        suggested_amount: 45000,
        brought_forward: 0,
        brought_forward_from: null,
        status: 'part_paid',
        terms: [
          { term: '1st', amount_due: 75000, amount_paid: 30000, balance: 45000, status: 'part_paid' },
          { term: '2nd', amount_due: 60000, amount_paid: 0, balance: 60000, status: 'unpaid' },
        ],
        items: [
          expect.objectContaining({ name: 'Tuition', term: '1st', amount: 75000, compulsory: true }),
          expect.objectContaining({ name: 'School fees', term: '2nd', amount: 60000, compulsory: true }),
        ],
        discounts: [],
      });
      const staffCtx = (await ctx.app.inject({ method: 'GET', url: '/api/payments/context/', headers: staff.auth })).json();
      expect(staffCtx.student).toBeNull();
    });

    it('receipt: names the student from their record, never from what the payer typed on the form', async () => {
      const typed = { full_name: 'Chief Somebody Else', current_class: 'SSS 3B', email: 'payer@example.com' };
      const a = await startPayment(carl, { ...typed, amount: 1000 });
      await checkout(a.authorization_url, 'pay', carl);
      await verify(carl, a.reference);
      const res = await ctx.app.inject({ method: 'GET', url: `/api/payments/receipt/${a.reference}/`, headers: staff.auth });
      expect(res.statusCode).toBe(200);
      const receipt = res.json<Receipt>();
      expect(receipt).toMatchObject({ admission_number: carl.admissionNumber, full_name: 'Carl Umeh', current_class: 'SSS 2B' });
      expect(res.body).not.toContain('Somebody');
      expect(res.body).not.toContain('SSS 3B');
      const text = pdfText(await receiptPdf(receipt, { compress: false }));
      expect(text).toContain('Carl Umeh');
      expect(text).toContain(carl.admissionNumber);
      expect(text).not.toContain('Somebody');
      const pdf = await ctx.app.inject({ method: 'GET', url: `/api/payments/receipt/${a.reference}/pdf/`, headers: carl.auth });
      expect(pdf.statusCode).toBe(200);
    });

    it('receipt: JSON and a PDF with ₦ for a successful payment, own only for a student', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/payments/receipt/${paidRef}/`, headers: carl.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        reference: paidRef,
        amount: 30000,
        status: 'successful',
        term: '1st',
        provider: 'Payment simulator',
        school: { name: 'School portal' },
      });
      const pdf = await ctx.app.inject({ method: 'GET', url: `/api/payments/receipt/${paidRef}/pdf/`, headers: staff.auth });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.rawPayload.toString('latin1')).toContain('DejaVuSans');
      expect((await ctx.app.inject({ method: 'GET', url: `/api/payments/receipt/${paidRef}/`, headers: ada.auth })).statusCode).toBe(403);
      const pending = (await startPayment(ada)).reference;
      const none = await ctx.app.inject({ method: 'GET', url: `/api/payments/receipt/${pending}/`, headers: ada.auth });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ detail: PAYMENT_MESSAGES.receiptNotAvailable });
    });
  });

  describe('fee schedules', () => {
    it('admin creates, lists, updates and deletes, each audited; duplicates are a 409', async () => {
      const body = { student_class: 'JSS 2A', session_id: sessionId, term: '3rd', amount: '52500.25', description: 'Third term tuition' };
      const created = await ctx.app.inject({ method: 'POST', url: '/api/payments/fee-schedules/', headers: admin.auth, payload: body });
      expect(created.statusCode).toBe(201);
      const f = created.json();
      expect(f).toMatchObject({
        student_class: 'JSS 2A',
        session: '2025/2026',
        term: '3rd',
        amount: 52500.25,
        description: 'Third term tuition',
      });
      const dup = await ctx.app.inject({ method: 'POST', url: '/api/payments/fee-schedules/', headers: admin.auth, payload: body });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toEqual({ detail: FEE_MESSAGES.itemExists('Third term tuition', 'JSS 2A', 'Third Term') });

      const list = await ctx.app.inject({
        method: 'GET',
        url: `/api/payments/fee-schedules/?session_id=${sessionId}&class=JSS%202A`,
        headers: ada.auth,
      });
      expect(list.json()).toEqual([f]);

      const upd = await ctx.app.inject({
        method: 'PUT',
        url: `/api/payments/fee-schedules/${f.id}/`,
        headers: admin.auth,
        payload: { amount: 60000, description: 'Revised' },
      });
      expect(upd.json()).toMatchObject({ amount: 60000, description: 'Revised' });
      const del = await ctx.app.inject({ method: 'DELETE', url: `/api/payments/fee-schedules/${f.id}/`, headers: admin.auth });
      expect(del.statusCode).toBe(204);
      expect(
        (await ctx.app.inject({ method: 'DELETE', url: `/api/payments/fee-schedules/${f.id}/`, headers: admin.auth })).statusCode,
      ).toBe(404);
      const audit = await ctx.handle.db
        .selectFrom('audit_log')
        .select('action')
        .where('entity', '=', 'fee_schedule')
        .where('entity_id', '=', String(f.id))
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.action)).toEqual(['fee_schedule.create', 'fee_schedule.update', 'fee_schedule.delete']);
    });

    it('only the admin changes them, with the amount rules and a real session', async () => {
      const body = { student_class: 'JSS 2B', session_id: sessionId, term: '1st', amount: 40000 };
      for (const who of [staff, ada]) {
        const res = await ctx.app.inject({ method: 'POST', url: '/api/payments/fee-schedules/', headers: who.auth, payload: body });
        expect(res.statusCode).toBe(403);
      }
      const bad = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/fee-schedules/',
        headers: admin.auth,
        payload: { ...body, amount: 10.5, term: '5th', student_class: '' },
      });
      expect(bad.json()).toEqual({
        student_class: [PAYMENT_MESSAGES.classRequired],
        term: [PAYMENT_MESSAGES.termInvalid],
        amount: [PAYMENT_MESSAGES.amountMinimum],
      });
      const noSession = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/fee-schedules/',
        headers: admin.auth,
        payload: { ...body, session_id: 9999 },
      });
      expect(noSession.json()).toEqual({ session_id: [PAYMENT_MESSAGES.sessionInvalid] });
    });
  });
});

describe('amount rules (pure)', () => {
  it('agree with the server on edge values', () => {
    expect(checkAmount('100')).toEqual({ ok: true, kobo: 10000 });
    expect(checkAmount('5000000.00')).toEqual({ ok: true, kobo: 500_000_000 });
    expect(checkAmount('5000000.001')).toEqual({ ok: false, message: PAYMENT_MESSAGES.amountDecimals });
    expect(checkAmount('99.999')).toEqual({ ok: false, message: PAYMENT_MESSAGES.amountDecimals });
    expect(checkAmount('100.')).toEqual({ ok: true, kobo: 10000 });
  });
});
