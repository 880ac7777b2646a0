import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONLINE_PAYMENT_MESSAGES, ONLINE_PAYMENT_OFF_CODE } from '@portal/domain';
import { loadConfig } from '../../src/config';
import { registerAuth } from '../../src/http/auth';
import { redactUrl } from '../../src/http/log-redaction';
import { TokenService } from '../../src/lib/tokens';
import '../../src/modules/payments/payments.tables';
import { createSession, createTestContext, describeEachDatabase, signInStudent, type TestContext } from '../helpers';
import { initiateAt } from '../payments-fixtures';

/**
 * Money hardening: payments are off in production without a provider key
 * unless the operator opts in to the simulator, loudly; the simulator checkout is guarded like every
 * route and its codes stay out of the logs; production needs PUBLIC_URL. Production configurations
 * come from loadConfig() with a production environment, as main.ts builds them.
 */

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-money-'));
const productionEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://portal.school.ng',
  JWT_SECRET: 'production-secret-production-secret-0123456789',
  DATA_DIR: dataDir,
  WEB_DIST: path.join(dataDir, 'no-web-build'),
  LOG_LEVEL: 'info',
  ...extra,
});

class LogLines {
  lines: string[] = [];
  write(line: string) {
    this.lines.push(line);
  }
  get text() {
    return this.lines.join('');
  }
}

const paymentBody = (s: { admissionNumber: string; email: string }) => ({
  admission_number: s.admissionNumber,
  full_name: 'Ada Eze',
  current_class: 'JSS 1A',
  current_session: '2025/2026',
  email: s.email,
  amount: 45000,
});

describe('configuration (loadConfig)', () => {
  it('refuses to start in production without PUBLIC_URL, with a clear error', () => {
    expect(() => loadConfig(productionEnv({ PUBLIC_URL: '' }))).toThrow(/PUBLIC_URL is required in production/);
    expect(() => loadConfig(productionEnv({ PUBLIC_URL: 'javascript:alert(1)' }))).toThrow(/PUBLIC_URL must be an http\(s\) origin/);
    expect(() => loadConfig(productionEnv({ PUBLIC_URL: 'https://portal.school.ng/app?x=1' }))).toThrow(/PUBLIC_URL/);
    expect(loadConfig(productionEnv({ PUBLIC_URL: 'https://portal.school.ng/' })).publicUrl).toBe('https://portal.school.ng');
  });

  it('the simulator: default outside production, off in production unless PAYMENT_SIMULATOR opts in', () => {
    const dev = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: dataDir };
    expect(loadConfig(dev).paymentSimulator).toBe(true);
    expect(loadConfig({ ...dev, NODE_ENV: 'test' }).paymentSimulator).toBe(true);
    expect(loadConfig({ ...dev, PAYMENT_SIMULATOR: '0' }).paymentSimulator).toBe(false);
    expect(loadConfig(productionEnv()).paymentSimulator).toBe(false);
    expect(loadConfig(productionEnv({ PAYMENT_SIMULATOR: '1' })).paymentSimulator).toBe(true);
    expect(loadConfig({ ...dev, ALLOWED_HOSTS: ' Portal.LAN, school.local:8080 ,' }).allowedHosts).toEqual([
      'portal.lan',
      'school.local:8080',
    ]);
  });
});

describeEachDatabase('production without a payment provider key', (dialect) => {
  let ctx: TestContext;
  const log = new LogLines();
  beforeAll(async () => {
    ctx = await createTestContext(dialect, loadConfig(productionEnv()), { loggerStream: log });
    await createSession(ctx.handle.db, '2025/2026', true);
  });
  afterAll(() => ctx.close());

  it('initiate answers 503 saying online payment is not set up, and stores nothing', async () => {
    expect(ctx.config.production).toBe(true);
    const s = await signInStudent(ctx);
    const res = await initiateAt(ctx, s, paymentBody(s));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: ONLINE_PAYMENT_MESSAGES.off, code: ONLINE_PAYMENT_OFF_CODE });
    expect(await ctx.handle.db.selectFrom('payments').selectAll().execute()).toEqual([]);
    expect(await ctx.handle.db.selectFrom('payment_simulator_transactions').selectAll().execute()).toEqual([]);
  });

  it('the screens can ask: GET /api/payments/provider/ says payments are off and why', async () => {
    const s = await signInStudent(ctx);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/payments/provider/', headers: s.auth });
    expect(res.json()).toEqual({ online_payment: false, provider: null, message: ONLINE_PAYMENT_MESSAGES.off });
    expect(log.text).toContain('online payment is off');
  });

  it('no simulator checkout exists', async () => {
    const s = await signInStudent(ctx);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/payments/simulator/abc/', headers: s.auth, payload: { outcome: 'pay' } });
    expect(res.statusCode).toBe(404);
  });
});

describeEachDatabase('production with the operator opt-in PAYMENT_SIMULATOR=1 (demos)', (dialect) => {
  let ctx: TestContext;
  const log = new LogLines();
  beforeAll(async () => {
    ctx = await createTestContext(dialect, loadConfig(productionEnv({ PAYMENT_SIMULATOR: '1' })), { loggerStream: log });
    await createSession(ctx.handle.db, '2025/2026', true);
  });
  afterAll(() => ctx.close());

  it('warns loudly at start, and payments go through the simulator on PUBLIC_URL whatever the Host', async () => {
    const warning = log.lines
      .map((l) => JSON.parse(l) as { level: number; event?: string; msg: string })
      .find((l) => l.event === 'payment_simulator_in_production');
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toMatch(/PAYMENT_SIMULATOR is on in production.*no money/);
    const s = await signInStudent(ctx);
    const res = await initiateAt(ctx, s, paymentBody(s), { host: 'evil.example' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.authorization_url).toMatch(/^https:\/\/portal\.school\.ng\/pay\/simulator\/[a-f0-9]{32}$/);
    expect(res.body).not.toContain('evil.example');
  });
});

describeEachDatabase('the simulator checkout is guarded and kept out of the logs', (dialect) => {
  let ctx: TestContext;
  const log = new LogLines();
  beforeAll(async () => {
    ctx = await createTestContext(dialect, { logLevel: 'info' }, { loggerStream: log });
    await createSession(ctx.handle.db, '2025/2026', true);
  });
  afterAll(() => ctx.close());

  it('a signed-out POST to the checkout page cannot credit a payment', async () => {
    const s = await signInStudent(ctx);
    const started = await initiateAt(ctx, s, paymentBody(s));
    const { authorization_url, reference } = started.json().data;
    const page = new URL(authorization_url).pathname;
    const res = await ctx.app.inject({
      method: 'POST',
      url: page,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=pay',
    });
    expect(res.statusCode).not.toBe(303);
    const verify = await ctx.app.inject({ method: 'POST', url: '/api/payments/verify/', headers: s.auth, payload: { reference } });
    expect(verify.json().status).toBe('pending');
    const row = await ctx.handle.db.selectFrom('payments').select('status').where('reference', '=', reference).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('checkout codes and references never reach the request logs', async () => {
    const s = await signInStudent(ctx);
    const started = await initiateAt(ctx, s, paymentBody(s));
    const { access_code: code, reference } = started.json().data as { access_code: string; reference: string };
    log.lines = [];
    await ctx.app.inject({ method: 'GET', url: `/pay/simulator/${code}` });
    await ctx.app.inject({ method: 'GET', url: `/api/payments/simulator/${code}/`, headers: s.auth });
    await ctx.app.inject({ method: 'POST', url: `/api/payments/simulator/${code}/`, headers: s.auth, payload: { outcome: 'pay' } });
    await ctx.app.inject({ method: 'GET', url: `/PaymentForm?trxref=${reference}&reference=${reference}` });
    const requestLogs = log.lines.filter((l) => l.includes('"req"'));
    expect(requestLogs.length).toBeGreaterThanOrEqual(4);
    expect(log.text).not.toContain(code);
    expect(requestLogs.join('')).not.toContain(reference);
    expect(log.text).toContain('/pay/simulator/[redacted]');
    expect(redactUrl(`/PaymentForm?trxref=${reference}&reference=${reference}`)).toBe(
      '/PaymentForm?trxref=[redacted]&reference=[redacted]',
    );
  });
});

describe('state-changing routes outside /api are guarded too', () => {
  it('a POST route outside /api without config.auth refuses to start', async () => {
    const app = Fastify();
    registerAuth(app, undefined as never, new TokenService('x'.repeat(40), 900));
    expect(() => app.post('/pay/simulator/:code', () => 'credited')).toThrow(/has no config\.auth/);
    app.get('/a-page', () => 'fine');
    await app.close();
  });
});
