import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, GENERAL_MESSAGES } from '@portal/domain';
import { buildApp } from '../../app';
import { loadConfig, testConfig } from '../../config';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../db/index';
import { LATEST_MIGRATION } from '../../db/migrations/index';
import {
  createTestContext,
  describeEachDatabase,
  newPgSchema,
  productionEnv,
  signInAdmin,
  signInStudent,
  type TestContext,
  type TestDialect,
} from '../../../test/helpers';

/**
 * The operator's endpoints: liveness, readiness (database, migrations, shutdown) and
 * /metrics (Prometheus text, METRICS_TOKEN only).
 */

const TOKEN = 'operator-metrics-token-0123456789abcdef-XYZ';

/** A database of the dialect that no migration has run on (PostgreSQL: a schema of its own). */
async function unmigratedHandle(dialect: TestDialect): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') return { handle: createDatabase('sqlite::memory:'), drop: () => Promise.resolve() };
  const url = process.env.TEST_DATABASE_URL!;
  const schema = await newPgSchema(url, 'ready');
  return { handle: createDatabase(url, { pgSchema: schema.name, pgPoolSize: 2 }), drop: schema.drop };
}

describeEachDatabase('liveness and readiness', (dialect) => {
  const contexts: TestContext[] = [];
  const fresh = async () => {
    const ctx = await createTestContext(dialect);
    contexts.push(ctx);
    return ctx;
  };
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  it('answers live and ready while serving, never cached; /api/health keeps its spec shape', async () => {
    const ctx = await fresh();
    const live = await ctx.app.inject({ method: 'GET', url: '/api/health/live' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ok', database: 'ok' }]);
    expect(ready.headers['cache-control']).toBe('no-store');
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({ status: 'ok', database: 'ok', dialect });
  });

  it('turns readiness to 503 once shutdown begins, while liveness and every other route still answer', async () => {
    const ctx = await fresh();
    expect(ctx.app.lifecycle.draining).toBe(false);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health/live' })).headers.connection).not.toBe('close');
    ctx.app.lifecycle.beginShutdown();
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect([ready.statusCode, ready.json()]).toEqual([503, { status: 'shutting_down' }]);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    // Requests already on their way (a proxy draining this instance) are still served in full.
    const admin = await signInAdmin(ctx);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/students/list/', headers: admin.auth });
    expect(list.statusCode).toBe(200);
    // ...each on a connection closed after its answer, so the proxy keeps none of them for later.
    expect(list.headers.connection).toBe('close');
  });

  it("is not ready while the database lacks this build's newest migration, or has no migrations at all", async () => {
    const ctx = await fresh();
    await sql`delete from kysely_migration where name = ${LATEST_MIGRATION}`.execute(ctx.handle.db);
    const pending = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect([pending.statusCode, pending.json()]).toEqual([503, { status: 'unavailable', database: 'migrations_pending' }]);
    // Liveness does not look at the database.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);

    const { handle, drop } = await unmigratedHandle(dialect);
    const app = await buildApp({ config: testConfig(), handle, logger: false });
    try {
      const empty = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect([empty.statusCode, empty.json()]).toEqual([503, { status: 'unavailable', database: 'migrations_pending' }]);
    } finally {
      await app.close();
      await handle.destroy();
      await drop();
    }
  });

  it('is not ready when the database does not answer; liveness still is', async () => {
    const { handle, drop } = await unmigratedHandle(dialect);
    await migrateToLatest(handle);
    const app = await buildApp({ config: testConfig(), handle, logger: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
      // The connection (SQLite) or the pool (PostgreSQL) is gone.
      await handle.destroy();
      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect([ready.statusCode, ready.json()]).toEqual([503, { status: 'unavailable', database: 'unreachable' }]);
      expect((await app.inject({ method: 'GET', url: '/api/health/live' })).json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
      await drop();
    }
  });
});

describeEachDatabase('/metrics for the operator', (dialect) => {
  const contexts: TestContext[] = [];
  const withToken = async (metricsToken?: string, extra: Parameters<typeof createTestContext>[1] = {}) => {
    const ctx = await createTestContext(dialect, { ...(metricsToken ? { metricsToken } : {}), ...extra });
    contexts.push(ctx);
    return ctx;
  };
  let webDist: string;
  beforeAll(() => {
    webDist = mkdtempSync(path.join(tmpdir(), 'portal-metrics-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>portal</title>');
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('does not exist without METRICS_TOKEN: a JSON 404 for everyone, the admin included, and never the web app', async () => {
    const ctx = await withToken(undefined, { webDist });
    const admin = await signInAdmin(ctx);
    for (const headers of [{}, admin.auth, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: GENERAL_MESSAGES.notFound });
    }
    // The SPA still answers the paths around it.
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics-dashboard' })).body).toContain('<title>portal</title>');
  });

  it("refuses every caller but the operator's bearer token: no token, a wrong one, near misses, other schemes, users' tokens", async () => {
    const ctx = await withToken(TOKEN);
    const admin = await signInAdmin(ctx);
    const student = await signInStudent(ctx);
    const none = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect([none.statusCode, none.json()]).toEqual([401, { detail: AUTH_MESSAGES.notAuthenticated }]);
    for (const authorization of [
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.toUpperCase()}`,
      `Bearer  ${TOKEN}`,
      `bearer${TOKEN}`,
      `Basic ${Buffer.from(`operator:${TOKEN}`).toString('base64')}`,
      TOKEN,
      `Bearer ${'x'.repeat(5000)}`,
      admin.auth.authorization,
      student.auth.authorization,
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect([authorization.slice(0, 40), res.statusCode]).toEqual([authorization.slice(0, 40), 401]);
      expect(res.json()).toEqual({ detail: AUTH_MESSAGES.invalidToken });
      expect(res.body).not.toContain('process_cpu');
    }
    // The operator's token is no account's: it opens no /api route.
    const asUser = await ctx.app.inject({ method: 'GET', url: '/api/students/list/', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(asUser.statusCode).toBe(401);
    const ok = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
  });

  it('logs a refused operator token as authentication_refused, without the token', async () => {
    const lines: string[] = [];
    const ctx = await createTestContext(
      dialect,
      { metricsToken: TOKEN, logLevel: 'info' },
      { loggerStream: { write: (l) => lines.push(l) } },
    );
    contexts.push(ctx);
    const guess = 'guessed-operator-token-0123456789-abcdefgh';
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${guess}` } })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
    const refused = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'authentication_refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ route: '/metrics', operator: true });
    const log = lines.join('\n');
    expect(log).not.toContain(guess);
    expect(log).not.toContain(TOKEN);
  });

  it("serves Node's process metrics and request durations by route pattern and status, never by raw URL", async () => {
    const ctx = await withToken(TOKEN);
    const admin = await signInAdmin(ctx);
    const student = await signInStudent(ctx);
    await ctx.app.inject({ method: 'GET', url: `/api/students/${student.admissionNumber}/`, headers: admin.auth });
    await ctx.app.inject({ method: 'GET', url: `/api/students/${student.admissionNumber}/` });
    await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing/STU-secret-9/' });
    const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.body;
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(body, name).toContain(`# TYPE ${name} `);
    }
    expect(body).toContain('# TYPE http_request_duration_seconds histogram');
    const count = (route: string, status: number) =>
      new RegExp(`^http_request_duration_seconds_count\\{method="GET",route="${route}",status_code="${status}"\\} (\\d+)$`, 'm').exec(
        body,
      )?.[1];
    expect(count('/api/students/:admission_number/', 200)).toBe('1');
    expect(count('/api/students/:admission_number/', 401)).toBe('1');
    expect(count('unmatched', 404)).toBe('1');
    expect(count('/api/admin/login/', 200)).toBeUndefined(); // a POST
    expect(body).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/api\/admin\/login\/",status_code="200"\} 1$/m);
    // Neither an admission number nor a path nobody routes ever becomes a label.
    expect(body).not.toContain(student.admissionNumber);
    expect(body).not.toContain('STU-secret-9');
  });
});

describe('METRICS_TOKEN in production and in the configuration', () => {
  const contexts: TestContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  it('production refuses /metrics without the token, serves it with the token, and has no /metrics when none is set', async () => {
    const withMetrics = await createTestContext('sqlite', loadConfig(productionEnv({ METRICS_TOKEN: TOKEN })));
    const without = await createTestContext('sqlite', loadConfig(productionEnv()));
    contexts.push(withMetrics, without);
    expect(withMetrics.config.production).toBe(true);
    expect((await withMetrics.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const ok = await withMetrics.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('process_cpu_user_seconds_total');
    expect(without.config.metricsToken).toBeUndefined();
    expect((await without.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(
      404,
    );
  });

  it('refuses a short or unusable METRICS_TOKEN at start-up; an empty one means unset', () => {
    for (const bad of ['short-token', 'x'.repeat(31), `${'a'.repeat(32)} b`, `${'a'.repeat(32)}\u0000`, 'é'.repeat(40), 'a'.repeat(513)]) {
      expect(() => loadConfig(productionEnv({ METRICS_TOKEN: bad })), JSON.stringify(bad.slice(0, 40))).toThrow(
        /Invalid configuration: METRICS_TOKEN must be 32 to 512 characters/,
      );
    }
    expect(loadConfig(productionEnv({ METRICS_TOKEN: '' })).metricsToken).toBeUndefined();
    expect(loadConfig(productionEnv({ METRICS_TOKEN: ` ${TOKEN} ` })).metricsToken).toBe(TOKEN);
  });

  it('reads SHUTDOWN_DELAY_MS (0 by default, at most two minutes)', () => {
    expect(loadConfig(productionEnv()).shutdownDelayMs).toBe(0);
    expect(loadConfig(productionEnv({ SHUTDOWN_DELAY_MS: '5000' })).shutdownDelayMs).toBe(5000);
    for (const bad of ['-1', '120001', 'soon']) {
      expect(() => loadConfig(productionEnv({ SHUTDOWN_DELAY_MS: bad }))).toThrow(/Invalid configuration: SHUTDOWN_DELAY_MS/);
    }
  });
});
