import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, GENERAL_MESSAGES } from '@portal/domain';
import { buildApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../src/db/index';
import { createStaff, login, signInRefusal, TEST_PASSWORD } from '../helpers';

/** A local port with nothing listening: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const METRICS_TOKEN = 'limiter-store-metrics-token-0123456789abcdef';
const EMAIL = 'store@limits.test';

/**
 * The per-address sign-in limit lives in Redis when several instances share it (REDIS_URL). When
 * Redis cannot be reached, nobody signs in unchecked: sign-in answers 503 at once with a message that
 * says so, readiness reports the limiter's store as down, and a metric counts the refusals.
 */
describe('the rate-limit store (Redis) down', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = createDatabase('sqlite::memory:');
    await migrateToLatest(handle);
    await createStaff(handle.db, { email: EMAIL, password: TEST_PASSWORD, firstName: 'S', lastName: 'D' });
  });
  afterAll(() => handle.destroy());

  const signIn = (app: Awaited<ReturnType<typeof buildApp>>) => login(app, 'staff', EMAIL);

  it('answers sign-in 503 with a clear message, reports the store down in readiness, and counts it', async () => {
    const port = await closedPort();
    const app = await buildApp({
      config: testConfig({ redisUrl: `redis://127.0.0.1:${port}`, metricsToken: METRICS_TOKEN }),
      handle,
      logger: false,
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await signIn(app);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ ...signInRefusal(AUTH_MESSAGES.signInUnavailable), detail: AUTH_MESSAGES.signInUnavailable });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      // Other limited routes say the service is unavailable.
      const refresh = await app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: 'x'.repeat(20) } });
      expect([refresh.statusCode, refresh.json()]).toEqual([503, { detail: GENERAL_MESSAGES.serviceUnavailable }]);

      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.json()).toEqual({ status: 'degraded', database: 'ok', limiter_store: 'down' });
      // Not taken out of rotation for it: every instance shares the store, and signed-in users still work.
      expect(ready.statusCode).toBe(200);

      const metrics = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.body).toMatch(/^rate_limit_store_up 0$/m);
      expect(metrics.body).toMatch(/^rate_limit_store_unavailable_total 4$/m);
    } finally {
      await app.close();
    }
  });

  it('with Redis up (127.0.0.1:6379) sign-in works and readiness reports the store ok', async () => {
    const app = await buildApp({
      config: testConfig({ redisUrl: 'redis://127.0.0.1:6379/14', metricsToken: METRICS_TOKEN }),
      handle,
      logger: false,
    });
    try {
      expect((await signIn(app)).statusCode).toBe(200);
      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ok', database: 'ok', limiter_store: 'ok' }]);
      const metrics = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.body).toMatch(/^rate_limit_store_up 1$/m);
      expect(metrics.body).toMatch(/^rate_limit_store_unavailable_total 0$/m);
    } finally {
      await app.close();
    }
  });
});
