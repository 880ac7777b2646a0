import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SUBJECTS } from '@portal/domain';
import '../../src/modules/payments/payments.tables';
import {
  initiatePayment,
  injectAtOnce,
  createSession,
  createTestContext,
  describeEachDatabase,
  signInAdmin,
  signInStaff,
  signInStudent,
  type TestContext,
} from '../helpers';

/** Many simultaneous requests never duplicate an id, lose an update or credit twice. */
describeEachDatabase('concurrency', (dialect) => {
  let ctx: TestContext;
  let session: { id: number; name: string };
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    session = await createSession(ctx.handle.db, '2025/2026', true);
  });
  afterAll(() => ctx.close());

  it('30 simultaneous registrations get 30 distinct admission numbers', async () => {
    const admin = await signInAdmin(ctx);
    const stamp = Date.now().toString(36);
    const responses = await injectAtOnce(ctx, 30, (i) => ({
      method: 'POST',
      url: '/api/students/',
      headers: admin.auth,
      payload: {
        first_name: 'Con',
        last_name: `Current${i}`,
        email: `conc-${stamp}-${i}@test.school`,
        phone_number: '08031234567',
        gender: 'F',
        date_of_birth: '2012-03-04',
        student_class: 'JSS 3B',
        fathers_name: 'Mr Current',
        home_address: '1 School Road, Lagos',
      },
    }));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
    const numbers = responses.map((r) => JSON.stringify(r.json()).match(/STU-\d{4,}/)?.[0]);
    expect(numbers.every(Boolean)).toBe(true);
    expect(new Set(numbers).size).toBe(30);
    const rows = await ctx.handle.db.selectFrom('students').select('admission_number').where('last_name', 'like', 'Current%').execute();
    expect(new Set(rows.map((r) => r.admission_number)).size).toBe(30);
  });

  it('two staff saving the same student\u2019s score at once: one wins, the other is told (no silent lost update)', async () => {
    const [t1, t2] = [await signInStaff(ctx), await signInStaff(ctx)];
    const student = await signInStudent(ctx, { arm: 'JSS 2B' });
    /** A results POST for this student's 1st term in JSS 2B, with `fields` added. */
    const post = (auth: Record<string, string>, fields: Record<string, unknown>) => {
      const payload = {
        admission_number: student.admissionNumber,
        session_id: session.id,
        term: '1st',
        student_class: 'JSS 2B',
        ...fields,
      };
      return ctx.app.inject({ method: 'POST', url: '/api/results/', headers: auth, payload });
    };
    // Both read "no result yet" (version 0) and both save all 14 subjects.
    const save = (auth: Record<string, string>, score: number) =>
      post(auth, { subjects: SUBJECTS.map((name) => ({ name, score, version: 0 })) });
    const [a, b] = await Promise.all([save(t1.auth, 41), save(t2.auth, 87)]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes[0]).toBeLessThan(300);
    expect(codes[1]).toBe(409);
    const winner = a.statusCode < 300 ? 41 : 87;
    const rows = await ctx.handle.db.selectFrom('results').select(['score', 'version']).where('student_id', '=', student.id).execute();
    expect(rows).toHaveLength(SUBJECTS.length);
    expect(rows.every((r) => r.score === winner)).toBe(true);

    // Two updates from the same version: one applies, the other is refused rather than overwriting it.
    const v = rows[0]!.version;
    const update = (auth: Record<string, string>, score: number) => post(auth, { subject: SUBJECTS[0], score, version: v });
    const [c, d] = await Promise.all([update(t1.auth, 55), update(t2.auth, 66)]);
    expect([c.statusCode, d.statusCode].sort()).toEqual([200, 409]);
    const first = await ctx.handle.db
      .selectFrom('results')
      .select('score')
      .where('student_id', '=', student.id)
      .where('subject', '=', SUBJECTS[0])
      .executeTakeFirstOrThrow();
    expect(first.score).toBe(c.statusCode === 200 ? 55 : 66);
  });
});

/** A local stand-in for Paystack speaking its documented shapes: every transaction succeeds. */
function fakePaystack() {
  const amounts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/transaction/initialize') {
        const b = JSON.parse(body) as { reference: string; amount: number };
        amounts.set(b.reference, b.amount);
        res.end(
          JSON.stringify({
            status: true,
            message: 'ok',
            data: { authorization_url: `https://checkout.example/${b.reference}`, access_code: 'ac', reference: b.reference },
          }),
        );
        return;
      }
      const m = /^\/transaction\/verify\/(.+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && m) {
        const reference = decodeURIComponent(m[1]!);
        // A slow provider widens the race window between verify and the webhook.
        setTimeout(() => {
          res.end(
            JSON.stringify({
              status: true,
              message: 'ok',
              data: {
                id: 42,
                status: 'success',
                reference,
                amount: amounts.get(reference),
                currency: 'NGN',
                paid_at: new Date().toISOString(),
              },
            }),
          );
        }, 30);
        return;
      }
      res.statusCode = 404;
      res.end('{"status":false}');
    });
  });
  return { server, amounts };
}

describeEachDatabase('verify and webhook of one payment, all at once', (dialect) => {
  const SECRET = 'sk_test_concurrency_secret';
  let ctx: TestContext;
  let fake: ReturnType<typeof fakePaystack>;
  beforeAll(async () => {
    fake = fakePaystack();
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    const port = (fake.server.address() as AddressInfo).port;
    ctx = await createTestContext(dialect, { paystackSecretKey: SECRET, paystackBaseUrl: `http://127.0.0.1:${port}` });
    await createSession(ctx.handle.db, '2025/2026', true);
  });
  afterAll(async () => {
    await ctx.close();
    await new Promise((r) => fake.server.close(r));
  });

  it('8 verifies and 4 webhook deliveries (2 replays) credit the payment exactly once', async () => {
    const student = await signInStudent(ctx, { arm: 'JSS 1B' });
    const init = await initiatePayment(ctx, student, {
      current_class: 'JSS 1B',
      current_session: '2025/2026',
      amount: '25000',
      term: '1st',
    });
    expect(init.statusCode).toBe(200);
    const reference = init.json().data.reference as string;
    const event = (n: number) =>
      JSON.stringify({
        event: 'charge.success',
        data: { id: 42, reference, status: 'success', amount: 2_500_000, currency: 'NGN', paid_at: new Date().toISOString(), n },
      });
    const webhook = (raw: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/payments/webhook/',
        headers: { 'content-type': 'application/json', 'x-paystack-signature': createHmac('sha512', SECRET).update(raw).digest('hex') },
        payload: raw,
      });
    const a = event(1);
    const b = event(2);
    const responses = await Promise.all([
      ...Array.from({ length: 8 }, () =>
        ctx.app.inject({ method: 'POST', url: '/api/payments/verify/', headers: student.auth, payload: { reference } }),
      ),
      webhook(a),
      webhook(a),
      webhook(b),
      webhook(b),
    ]);
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    const payment = await ctx.handle.db
      .selectFrom('payments')
      .select(['id', 'status', 'amount_kobo'])
      .where('reference', '=', reference)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ status: 'successful', amount_kobo: 2_500_000 });
    // Credited once: exactly one audited change to success.
    const credits = await ctx.handle.db
      .selectFrom('audit_log')
      .select(['after'])
      .where('entity', 'like', 'payment%')
      .where('entity_id', 'in', [String(payment.id), reference])
      .execute();
    const toSuccess = credits.filter((r) => (r.after ?? '').includes('"successful"'));
    expect(toSuccess).toHaveLength(1);
    // Numbered once: one receipt number, the counter moved by one.
    const numbered = await ctx.handle.db
      .selectFrom('payments')
      .select(['receipt_number'])
      .where('reference', '=', reference)
      .executeTakeFirstOrThrow();
    expect(numbered.receipt_number).toBe('R-000001');
    const counter = await ctx.handle.db.selectFrom('counters').select('value').where('name', '=', 'receipt').executeTakeFirstOrThrow();
    expect(counter.value).toBe(1);
  }, 30_000);
});
