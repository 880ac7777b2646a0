import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@portal/domain';
import {
  createSession,
  createTestContext,
  describeEachDatabase,
  signInAdmin,
  requestsOn,
  signInStudent,
  servicesOver,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { HttpError } from '../../http/errors';
import { PaystackProvider } from './payments.providers';
import './payments.tables';

const SECRET = 'sk_test_4f0c2a9b8e7d6c5b4a39281706f5e4d3c2b1a0f9';

interface FakeTx {
  status: string;
  amount: number;
  currency: string;
}
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
}

/**
 * A local stand-in for api.paystack.co speaking its documented shapes:
 * POST /transaction/initialize -> {status:true, message, data:{authorization_url, access_code, reference}}
 * GET /transaction/verify/:reference -> {status:true, message, data:{id, status, reference, amount, currency, paid_at, ...}}
 */
class FakePaystack {
  server!: Server;
  url = '';
  seen: Seen[] = [];
  transactions = new Map<string, FakeTx>();
  /** Answer nothing until the client gives up and closes the connection (timeouts). */
  hang = false;
  /** Answer every call with this HTTP status and a Paystack error body. */
  failWith: number | null = null;

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
  private async body(req: IncomingMessage): Promise<Record<string, unknown> | null> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? (JSON.parse(text) as Record<string, unknown>) : null;
  }
  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await this.body(req);
    this.seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
    if (this.hang) await new Promise((r) => res.once('close', r));
    if (res.destroyed) return;
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (req.headers.authorization !== `Bearer ${SECRET}`) return send(401, { status: false, message: 'Invalid key' });
    if (this.failWith) return send(this.failWith, { status: false, message: 'Something went wrong' });
    if (req.method === 'POST' && req.url === '/transaction/initialize') {
      const ref = String(body?.reference);
      this.transactions.set(ref, { status: 'ongoing', amount: Number(body?.amount), currency: String(body?.currency) });
      return send(200, {
        status: true,
        message: 'Authorization URL created',
        data: { authorization_url: `https://checkout.paystack.com/ac_${ref}`, access_code: `ac_${ref}`, reference: ref },
      });
    }
    const m = /^\/transaction\/verify\/(.+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && m) {
      const ref = decodeURIComponent(m[1]!);
      const tx = this.transactions.get(ref);
      if (!tx) return send(400, { status: false, message: 'Transaction reference not found' });
      return send(200, {
        status: true,
        message: 'Verification successful',
        data: {
          id: 4099260516,
          domain: 'test',
          status: tx.status,
          reference: ref,
          amount: tx.amount,
          gateway_response: tx.status === 'success' ? 'Successful' : 'The transaction was not completed',
          paid_at: tx.status === 'success' ? '2026-01-15T10:20:30.000Z' : null,
          channel: 'card',
          currency: tx.currency,
          customer: { email: 'parent@example.com' },
        },
      });
    }
    send(404, { status: false, message: 'Not found' });
  }
}

const sign = (raw: string, key = SECRET) => createHmac('sha512', key).update(raw).digest('hex');

describeEachDatabase('payments through Paystack (local fake)', (dialect) => {
  let ctx: TestContext;
  let fake: FakePaystack;
  let student: SignedIn & { admissionNumber: string; id: number };
  let admin: SignedIn;

  beforeAll(async () => {
    fake = new FakePaystack();
    await fake.start();
    ctx = await createTestContext(dialect, { paystackSecretKey: SECRET, paystackBaseUrl: fake.url, publicUrl: 'https://portal.school.ng' });
    await createSession(ctx.handle.db, '2025/2026', true);
    student = await signInStudent(ctx, { firstName: 'Ngozi', lastName: 'Bello', arm: 'SSS 1A' });
    admin = await signInAdmin(ctx);
  });
  afterAll(async () => {
    await ctx.close();
    await fake.stop();
  });
  beforeEach(() => {
    fake.hang = false;
    fake.failWith = null;
    fake.seen = [];
  });

  /** Ngozi's initiate request with `fields` (email, amount...) added. */
  const initiateRequest = (fields: Record<string, unknown>) => {
    const payload = {
      admission_number: student.admissionNumber,
      full_name: 'Ngozi Bello',
      current_class: 'SSS 1A',
      current_session: '2025/2026',
    };
    return ctx.app.inject({ method: 'POST', url: '/api/payments/initiate/', headers: student.auth, payload: { ...payload, ...fields } });
  };
  async function initiate(amount: number | string = '25000.50') {
    const res = await initiateRequest({ email: 'Parent@Example.com', phone_number: null, amount });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ status: string; data: { authorization_url: string; reference: string; access_code: string } }>();
  }
  const { get, post } = requestsOn(() => ctx);
  const verify = (reference: string) => post(student, '/api/payments/verify/', { reference });
  const webhook = (raw: string, signature: string | undefined) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/payments/webhook/',
      headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-paystack-signature': signature }) },
      payload: raw,
    });
  const chargeSuccess = (reference: string, amount: number, currency = 'NGN', extra = '') =>
    // Paystack's body as sent (spacing kept: the signature covers the exact bytes).
    `{"event":"charge.success","data":{"id":302961,"domain":"live","status":"success","reference":"${reference}","amount":${amount},"currency":"${currency}","paid_at":"2026-01-15T10:20:30.000Z","channel":"card"${extra}}}`;
  /** Delivers a webhook body signed with the school's key. */
  const deliver = (raw: string) => webhook(raw, sign(raw));
  /** A payment of `naira` started, the provider's own record of it now `status`, and its charge.success body. */
  const chargedAt = async (naira: number, status: string) => {
    const { data } = await initiate(naira);
    fake.transactions.get(data.reference)!.status = status;
    return { data, raw: chargeSuccess(data.reference, naira * 100) };
  };
  const row = (reference: string) =>
    ctx.handle.db.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirstOrThrow();
  const credits = async (reference: string) =>
    (
      await ctx.handle.db
        .selectFrom('audit_log')
        .select('after')
        .where('entity', '=', 'payment')
        .where('entity_id', '=', reference)
        .where('action', '=', 'payment.successful')
        .execute()
    ).length;

  it('initializes with the Bearer key, amount in kobo, NGN, the reference and the callback to /PaymentForm', async () => {
    const body = await initiate('25000.50');
    const ref = body.data.reference;
    expect(body).toEqual({
      status: 'success',
      message: PAYMENT_MESSAGES.authorizationCreated,
      data: { authorization_url: `https://checkout.paystack.com/ac_${ref}`, access_code: `ac_${ref}`, reference: ref },
    });
    expect(fake.seen).toHaveLength(1);
    const call = fake.seen[0]!;
    expect(call).toMatchObject({ method: 'POST', url: '/transaction/initialize', authorization: `Bearer ${SECRET}` });
    expect(call.body).toMatchObject({
      amount: 2_500_050,
      email: 'parent@example.com',
      reference: ref,
      currency: 'NGN',
      callback_url: 'https://portal.school.ng/PaymentForm',
    });
    expect(Number.isInteger(call.body!.amount)).toBe(true);
    expect(await row(ref)).toMatchObject({ status: 'pending', provider: 'paystack', provider_access_code: `ac_${ref}` });
  });

  it('verify: credits only on success with matching amount and currency, once', async () => {
    const { data } = await initiate();
    expect((await verify(data.reference)).json().status).toBe('pending');
    fake.transactions.get(data.reference)!.status = 'success';
    const res = await verify(data.reference);
    expect(res.json()).toEqual({ status: 'success', message: PAYMENT_MESSAGES.verified, reference: data.reference });
    expect(fake.seen.at(-1)).toMatchObject({
      method: 'GET',
      url: `/transaction/verify/${data.reference}`,
      authorization: `Bearer ${SECRET}`,
    });
    expect(await row(data.reference)).toMatchObject({
      status: 'successful',
      paid_at: '2026-01-15T10:20:30.000Z',
      provider_transaction_id: '4099260516',
      provider_status: 'success',
    });
    const calls = fake.seen.length;
    expect((await verify(data.reference)).json().status).toBe('success');
    expect(fake.seen.length).toBe(calls); // already settled: the provider is not asked again
    expect(await credits(data.reference)).toBe(1);
  });

  it('amount mismatch: never credited, marked failed for a person to look at', async () => {
    const { data } = await initiate(30000);
    Object.assign(fake.transactions.get(data.reference)!, { status: 'success', amount: 3_000_000 - 100 });
    const res = await verify(data.reference);
    expect(res.json()).toEqual({ status: 'failed', message: PAYMENT_MESSAGES.verificationFailed, reference: data.reference });
    expect(await row(data.reference)).toMatchObject({ status: 'failed', provider_status: 'amount_mismatch', paid_at: null });
    expect((await verify(data.reference)).json().status).toBe('failed');
    expect(await credits(data.reference)).toBe(0);
  });

  it('currency mismatch: never credited', async () => {
    const { data } = await initiate(30000);
    Object.assign(fake.transactions.get(data.reference)!, { status: 'success', currency: 'USD' });
    expect((await verify(data.reference)).json().status).toBe('failed');
    expect(await row(data.reference)).toMatchObject({ status: 'failed', provider_status: 'currency_mismatch' });
    expect(await credits(data.reference)).toBe(0);
  });

  it('maps failed and abandoned, and keeps ongoing as pending', async () => {
    const a = await initiate();
    fake.transactions.get(a.data.reference)!.status = 'abandoned';
    expect((await verify(a.data.reference)).json().status).toBe('abandoned');
    const f = await initiate();
    fake.transactions.get(f.data.reference)!.status = 'failed';
    expect((await verify(f.data.reference)).json()).toMatchObject({ status: 'failed', message: PAYMENT_MESSAGES.declined });
    const o = await initiate();
    expect((await verify(o.data.reference)).json().status).toBe('pending');
    expect((await row(o.data.reference)).status).toBe('pending');
  });

  it('a provider error during verify leaves the payment pending (503), and a later verify credits it once', async () => {
    const { data } = await initiate();
    fake.transactions.get(data.reference)!.status = 'success';
    fake.failWith = 500;
    const res = await verify(data.reference);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: PAYMENT_MESSAGES.providerUnavailable });
    expect((await row(data.reference)).status).toBe('pending');
    fake.failWith = null;
    expect((await verify(data.reference)).json().status).toBe('success');
    expect(await credits(data.reference)).toBe(1);
  });

  it('a provider timeout leaves the payment pending; a later verify credits it once', async () => {
    const { data } = await initiate();
    fake.transactions.get(data.reference)!.status = 'success';
    fake.hang = true;
    const slow = servicesOver(ctx, ctx.handle.db, { paymentProvider: new PaystackProvider(SECRET, fake.url, 200) }).payments;
    const started = Date.now();
    const err = await slow.checkout.verify({ id: admin.userId, role: 'admin' }, data.reference).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).statusCode).toBe(503);
    expect((await row(data.reference)).status).toBe('pending');
    fake.hang = false;
    const all = await Promise.all([verify(data.reference), verify(data.reference)]);
    for (const r of all) expect(r.json().status).toBe('success');
    expect(await credits(data.reference)).toBe(1);
  });

  it('a provider failure at initialize answers 503, and that payment is marked failed', async () => {
    fake.failWith = 503;
    const res = await initiateRequest({ email: 'p@example.com', amount: 1000 });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: PAYMENT_MESSAGES.providerUnavailable });
    const last = await ctx.handle.db.selectFrom('payments').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(last).toMatchObject({ status: 'failed', provider_status: 'initialize_http', amount_kobo: 100_000 });
  });

  it('webhook: a signed charge.success credits once; replays change nothing; verify afterwards agrees', async () => {
    const { data, raw } = await chargedAt(12000, 'success');
    const first = await deliver(raw);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'ok', outcome: 'success' });
    expect(await row(data.reference)).toMatchObject({ status: 'successful', provider_transaction_id: '4099260516' });
    for (let i = 0; i < 3; i++) {
      const again = await deliver(raw);
      expect(again.statusCode).toBe(200);
      expect(again.json().outcome).toBe('replay');
    }
    // A different delivery of the same event (Paystack may resend with other fields) is still one credit.
    const resent = chargeSuccess(data.reference, 1_200_000, 'NGN', ',"retry":1');
    expect((await deliver(resent)).json().outcome).toBe('success');
    expect((await verify(data.reference)).json().status).toBe('success');
    expect(await credits(data.reference)).toBe(1);
    const events = await ctx.handle.db.selectFrom('payment_webhook_events').selectAll().where('reference', '=', data.reference).execute();
    expect(events).toHaveLength(2);
  });

  it('webhook before verify, and webhook racing 5 verifies: one credit', async () => {
    const { data, raw } = await chargedAt(8000, 'success');
    const results = await Promise.all([deliver(raw), ...Array.from({ length: 5 }, () => verify(data.reference)), deliver(raw)]);
    for (const r of results) expect(r.statusCode).toBe(200);
    expect(await credits(data.reference)).toBe(1);
    expect((await row(data.reference)).status).toBe('successful');
  });

  it('webhook instead of verify: the payment is credited without the payer returning', async () => {
    const { data, raw } = await chargedAt(9000, 'success');
    expect((await deliver(raw)).json().outcome).toBe('success');
    const history = await get(student, `/api/payments/history/?admission_number=${student.admissionNumber}`);
    expect(history.json<{ reference: string; status: string }[]>().find((p) => p.reference === data.reference)?.status).toBe('successful');
  });

  it("webhook: a signed charge.success is not proof: the provider's verify call decides", async () => {
    // The provider's own record says abandoned; a correctly signed webhook says success.
    const { data, raw } = await chargedAt(5000, 'abandoned');
    const res = await deliver(raw);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', outcome: 'abandoned' });
    expect(await credits(data.reference)).toBe(0);
    expect(await row(data.reference)).toMatchObject({ status: 'abandoned', receipt_number: null });
    // The webhook asked the provider, with the key, about this reference.
    expect(fake.seen.at(-1)).toMatchObject({
      method: 'GET',
      url: `/transaction/verify/${data.reference}`,
      authorization: `Bearer ${SECRET}`,
    });

    // Still ongoing at the provider: nothing is credited, the payment stays pending, and a 503 asks for redelivery.
    const ongoing = await initiate(5100);
    const raw2 = chargeSuccess(ongoing.data.reference, 510_000);
    expect((await deliver(raw2)).statusCode).toBe(503);
    expect(await row(ongoing.data.reference)).toMatchObject({ status: 'pending' });

    // The provider cannot be asked: 503 and the event is not marked seen, so the provider's redelivery is processed.
    fake.transactions.get(ongoing.data.reference)!.status = 'success';
    fake.failWith = 500;
    const unreachable = await deliver(raw2);
    expect(unreachable.statusCode).toBe(503);
    expect(await credits(ongoing.data.reference)).toBe(0);
    fake.failWith = null;
    expect((await deliver(raw2)).json().outcome).toBe('success');
    expect(await credits(ongoing.data.reference)).toBe(1);
  });

  it('webhook: the amount credited is what verify reports, not what the webhook body says', async () => {
    const { data } = await initiate(4000);
    // Verify reports less than asked: refused even though the signed body carries the right amount.
    Object.assign(fake.transactions.get(data.reference)!, { status: 'success', amount: 100 });
    const raw = chargeSuccess(data.reference, 400_000);
    expect((await deliver(raw)).json().outcome).toBe('failed');
    expect(await row(data.reference)).toMatchObject({ status: 'failed', provider_status: 'amount_mismatch' });
    expect(await credits(data.reference)).toBe(0);
  });

  it('webhook: forged, missing or wrong-key signatures are refused (401) and credit nothing', async () => {
    const { data } = await initiate(7000);
    const raw = chargeSuccess(data.reference, 700_000);
    const forged = [
      sign(raw, 'sk_test_someone_else'),
      sign(raw.replace('700000', '700001')),
      sign(raw).slice(0, 64),
      'not-hex',
      '',
      undefined,
    ];
    for (const sig of forged) {
      const res = await webhook(raw, sig);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: PAYMENT_MESSAGES.invalidSignature });
    }
    // Tampering with the body after signing is caught too.
    const tampered = await webhook(raw.replace('"amount":700000', '"amount":700000 '), sign(raw));
    expect(tampered.statusCode).toBe(401);
    expect((await row(data.reference)).status).toBe('pending');
    expect(await credits(data.reference)).toBe(0);
    expect(await ctx.handle.db.selectFrom('payment_webhook_events').selectAll().where('reference', '=', data.reference).execute()).toEqual(
      [],
    );
  });

  it('webhook: an amount or currency mismatch reported by verify is not credited; unknown references and other events are acknowledged', async () => {
    const { data } = await initiate(6000);
    Object.assign(fake.transactions.get(data.reference)!, { status: 'success', currency: 'GHS' });
    const wrongCurrency = chargeSuccess(data.reference, 600_000, 'GHS');
    expect((await deliver(wrongCurrency)).json().outcome).toBe('failed');
    expect(await credits(data.reference)).toBe(0);
    expect(await row(data.reference)).toMatchObject({ status: 'failed', provider_status: 'currency_mismatch' });

    const unknown = chargeSuccess('FEES-UNKNOWN', 100_000);
    expect((await deliver(unknown)).json()).toEqual({ status: 'ok', outcome: 'unknown_reference' });
    const transfer = '{"event":"transfer.success","data":{"reference":"x"}}';
    expect((await deliver(transfer)).json()).toEqual({ status: 'ok', outcome: 'ignored' });
    const notJson = 'hello';
    expect((await deliver(notJson)).statusCode).toBe(400);
  });

  it('the simulator checkout is not served when Paystack is the provider', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/pay/simulator/abc' })).statusCode).toBe(404);
    const complete = await post(admin, '/api/payments/simulator/abc/', { outcome: 'pay' });
    expect(complete.statusCode).toBe(404);
    const info = await get(student, '/api/payments/provider/');
    expect(info.json()).toEqual({ online_payment: true, provider: 'paystack', message: null });
  });

  it('other JSON routes still parse bodies normally next to the raw-body webhook', async () => {
    const res = await verify('FEES-NOPE');
    expect(res.statusCode).toBe(404);
  });
});
