import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERAL_MESSAGES } from '@portal/domain';
import { buildApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../src/db/index';
import { createAdmin, createTestContext, login, TEST_PASSWORD, type TestContext } from '../helpers';

/** A TCP proxy to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
class PausableProxy {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;
  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}
  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.host);
      this.sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('PostgreSQL briefly unavailable [postgres]', () => {
  let proxy: PausableProxy;
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  const schema = `t_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    const target = new URL(pgUrl!);
    proxy = new PausableProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const viaProxy = new URL(pgUrl!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    handle = createDatabase(viaProxy.toString(), { pgSchema: schema, pgPoolSize: 3 });
    await migrateToLatest(handle);
    await createAdmin(handle.db, { email: 'outage@test.school', password: TEST_PASSWORD });
    app = await buildApp({ config: testConfig(), handle, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await handle?.destroy();
    await proxy?.stop();
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
  });

  it('answers 503 with a clear message while the database is down, and recovers by itself', async () => {
    const signIn = await login(app, 'admin', 'outage@test.school');
    expect(signIn.statusCode).toBe(200);
    const auth = { authorization: `Bearer ${signIn.json().data.access}` };
    expect((await app.inject({ method: 'GET', url: '/api/me/', headers: auth })).statusCode).toBe(200);

    await proxy.stop();
    const unavailable = { detail: GENERAL_MESSAGES.serviceUnavailable };
    for (let i = 0; i < 3; i++) {
      const me = await app.inject({ method: 'GET', url: '/api/me/', headers: auth });
      expect(me.statusCode).toBe(503);
      expect(me.json()).toEqual(unavailable);
    }
    const loginDown = await login(app, 'admin', 'outage@test.school');
    expect(loginDown.statusCode).toBe(503);
    expect(loginDown.json()).toEqual(unavailable);
    const settings = await app.inject({ method: 'GET', url: '/api/settings/' });
    expect(settings.statusCode).toBe(503);
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' });

    // Back up on the same address: the pool reconnects without a restart.
    await proxy.start();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await app.inject({ method: 'GET', url: '/api/me/', headers: auth })).statusCode;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect((await login(app, 'admin', 'outage@test.school')).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 30_000);
});

describe('SQLite database locked by another process [sqlite]', () => {
  let dir: string;
  let ctx: TestContext;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-locked-'));
    ctx = await createTestContext('sqlite', {}, { sqliteFile: path.join(dir, 'portal.db') });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write that cannot get the lock within busy_timeout answers 503, and the next one succeeds', async () => {
    await createAdmin(ctx.handle.db, { email: 'locked@test.school', password: TEST_PASSWORD });
    const auth = { authorization: `Bearer ${(await login(ctx.app, 'admin', 'locked@test.school')).json().data.access}` };
    const settings = (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json();
    // Another process (here, another connection: a backup tool, a sqlite3 shell) holds the write lock.
    const intruder = new SQLite(path.join(dir, 'portal.db'));
    intruder.exec('BEGIN IMMEDIATE');
    try {
      const res = await ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: auth, payload: settings });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: GENERAL_MESSAGES.serviceUnavailable });
    } finally {
      intruder.exec('ROLLBACK');
      intruder.close();
    }
    const ok = await ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: auth, payload: settings });
    expect(ok.statusCode).toBe(200);
  }, 20_000);
});
