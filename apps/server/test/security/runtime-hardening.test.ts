import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config';
import { createDatabase, migrateToLatest } from '../../src/db/index';
import { seedDemoSchool } from '../../src/db/seed/index';
import { secureDataDir } from '../../src/lib/data-dir';
import { backupSqlite } from '../../src/scripts/backup';
import { createTestContext, describeEachDatabase, login, productionEnv, signInAdmin, signInStaff, type TestContext } from '../helpers';

/** How the portal runs out of the box and in production. */

const mode = (p: string) => statSync(p).mode & 0o777;
const quietLog = { info: () => undefined, warn: () => undefined };

describe('demo school and listening address', () => {
  it('outside production listens on 127.0.0.1 unless HOST is set; production listens on every interface', () => {
    const dev = { JWT_SECRET: productionEnv().JWT_SECRET, DATA_DIR: '/nonexistent/x' };
    expect(loadConfig({ ...dev }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...dev, NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...dev, HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig(productionEnv()).host).toBe('0.0.0.0');
    expect(loadConfig(productionEnv({ HOST: '10.0.0.5' })).host).toBe('10.0.0.5');
  });

  it('refuses DEMO_DATA and fixed demo passwords in production with a clear start-up error', () => {
    expect(() => loadConfig(productionEnv({ DEMO_DATA: '1' }))).toThrow(/DEMO_DATA is refused in production/);
    expect(() => loadConfig(productionEnv({ DEMO_PASSWORD: 'Known-Pass-1' }))).toThrow(/DEMO_PASSWORD is refused in production/);
    expect(() => loadConfig(productionEnv({ DEMO_STUDENT_PASSWORD: 'Known-Pass-1' }))).toThrow(/refused in production/);
    expect(loadConfig(productionEnv()).demoData).toBe(false);
    expect(loadConfig(productionEnv({ DEMO_DATA: '0' })).demoData).toBe(false);
  });

  describe('seeded demo accounts', () => {
    let ctx: TestContext;
    const printed: string[] = [];
    beforeAll(async () => {
      ctx = await createTestContext('sqlite');
    });
    afterAll(() => ctx.close());
    afterEach(() => vi.restoreAllMocks());

    it('get random passwords, printed once, that sign in; the old well-known ones do not', async () => {
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        printed.push(String(chunk));
        return true;
      });
      await seedDemoSchool(ctx.handle.db, quietLog, 1);
      vi.restoreAllMocks();
      const out = printed.join('');
      const staff = /staff:\s+(\S+) \/ (\S+)/.exec(out);
      const student = /student:\s+(\S+) \/ (\S+)/.exec(out);
      expect(staff?.[1]).toBe('staff1@demo.school');
      expect(student?.[1]).toBe('student1@demo.school');
      const [staffPw, studentPw] = [staff![2]!, student![2]!];
      for (const known of ['Teach-Demo-2026', 'Learn-Demo-2026']) expect([staffPw, studentPw]).not.toContain(known);
      expect(staffPw.length).toBeGreaterThanOrEqual(12);
      expect(staffPw).not.toBe(studentPw);
      expect((await login(ctx.app, 'staff', 'staff1@demo.school', staffPw)).statusCode).toBe(200);
      expect((await login(ctx.app, 'student', 'student1@demo.school', studentPw)).statusCode).toBe(200);
      expect((await login(ctx.app, 'staff', 'staff2@demo.school', 'Teach-Demo-2026')).statusCode).toBe(401);
      expect((await login(ctx.app, 'student', 'student1@demo.school', 'Learn-Demo-2026')).statusCode).toBe(401);
    });
  });

  it('tests can fix the demo passwords outside production (DEMO_STAFF_PASSWORD / DEMO_STUDENT_PASSWORD / DEMO_PASSWORD)', async () => {
    const base = { JWT_SECRET: productionEnv().JWT_SECRET, DATA_DIR: '/nonexistent/x', NODE_ENV: 'test' };
    expect(loadConfig({ ...base, DEMO_PASSWORD: 'Same-For-All-1' }).demoPasswords).toEqual({
      staff: 'Same-For-All-1',
      student: 'Same-For-All-1',
    });
    const fixed = loadConfig({ ...base, DEMO_STAFF_PASSWORD: 'Teach-Demo-2026', DEMO_STUDENT_PASSWORD: 'Learn-Demo-2026' }).demoPasswords;
    expect(fixed).toEqual({ staff: 'Teach-Demo-2026', student: 'Learn-Demo-2026' });
    expect(loadConfig(base).demoPasswords).toBeUndefined();
    const ctx = await createTestContext('sqlite');
    try {
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      await seedDemoSchool(ctx.handle.db, quietLog, 1, fixed);
      vi.restoreAllMocks();
      expect((await login(ctx.app, 'staff', 'staff1@demo.school', 'Teach-Demo-2026')).statusCode).toBe(200);
      expect((await login(ctx.app, 'student', 'student1@demo.school', 'Learn-Demo-2026')).statusCode).toBe(200);
    } finally {
      vi.restoreAllMocks();
      await ctx.close();
    }
  });
});

describe('file modes of the data folder', () => {
  let dir: string;
  let oldUmask: number;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-modes-'));
    // The permissive umask of a typical shell, so only the portal's own care makes files private.
    oldUmask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(oldUmask);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a new DATA_DIR is 0700; the generated jwt-secret, the database and its WAL/SHM are 0600', async () => {
    const dataDir = path.join(dir, 'fresh', 'data');
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'jwt-secret'))).toBe(0o600);
    const handle = createDatabase(config.databaseUrl);
    try {
      await migrateToLatest(handle);
      const file = path.join(dataDir, 'portal.db');
      expect(existsSync(`${file}-wal`)).toBe(true);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, mode(f)]).toEqual([f, 0o600]);
    } finally {
      await handle.destroy();
    }
  });

  it('a database in a folder of its own: the folder is created 0700, the files 0600', async () => {
    const file = path.join(dir, 'elsewhere', 'db', 'school.db');
    const handle = createDatabase(`sqlite:${file}`);
    try {
      await migrateToLatest(handle);
      expect(mode(path.dirname(file))).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, mode(f)]).toEqual([f, 0o600]);
    } finally {
      await handle.destroy();
    }
  });

  it('start-up tightens a folder and files left 0755/0644 by an earlier release, backups included', async () => {
    const dataDir = path.join(dir, 'old');
    mkdirSync(path.join(dataDir, 'backups'), { recursive: true, mode: 0o755 });
    chmodSync(dataDir, 0o755);
    for (const f of ['jwt-secret', 'portal.db-wal', 'backups/portal-2026.db']) writeFileSync(path.join(dataDir, f), 'x', { mode: 0o644 });
    const db = new (await import('better-sqlite3')).default(path.join(dataDir, 'portal.db'));
    db.close();
    chmodSync(path.join(dataDir, 'portal.db'), 0o644);
    secureDataDir(dataDir);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'backups'))).toBe(0o700);
    for (const f of ['jwt-secret', 'portal.db', 'portal.db-wal', 'backups/portal-2026.db']) {
      expect([f, mode(path.join(dataDir, f))]).toEqual([f, 0o600]);
    }
  });

  it('a backup is written 0600 in a 0700 folder', async () => {
    const file = path.join(dir, 'src', 'portal.db');
    const handle = createDatabase(`sqlite:${file}`);
    await migrateToLatest(handle);
    await handle.destroy();
    const out = path.join(dir, 'src', 'backups', 'b.db');
    backupSqlite(file, out);
    expect(mode(out)).toBe(0o600);
    expect(mode(path.dirname(out))).toBe(0o700);
  });
});

describeEachDatabase('/api/docs in production', (dialect) => {
  const contexts: TestContext[] = [];
  const ctxWith = async (env: NodeJS.ProcessEnv) => {
    const ctx = await createTestContext(dialect, loadConfig(env));
    contexts.push(ctx);
    return ctx;
  };
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  it('is not served in production by default: neither Swagger UI nor the JSON', async () => {
    const ctx = await ctxWith(productionEnv());
    expect(ctx.config.apiDocs).toBe('off');
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/index.html']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.body).not.toContain('openapi');
    }
  });

  it('API_DOCS=admin: only a signed-in admin gets it (401 signed out, 403 for staff)', async () => {
    const ctx = await ctxWith(productionEnv({ API_DOCS: 'admin' }));
    const admin = await signInAdmin(ctx);
    const staff = await signInStaff(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/docs/static/index.html' })).statusCode).toBe(401);
    for (const url of ['/api/docs/json', '/api/docs/yaml']) {
      expect([url, (await ctx.app.inject({ method: 'GET', url })).statusCode]).toEqual([url, 401]);
      expect([url, (await ctx.app.inject({ method: 'GET', url, headers: staff.auth })).statusCode]).toEqual([url, 403]);
      expect([url, (await ctx.app.inject({ method: 'GET', url, headers: admin.auth })).statusCode]).toEqual([url, 200]);
    }
    const doc = await ctx.app.inject({ method: 'GET', url: '/api/docs/json', headers: admin.auth });
    expect(doc.json().paths['/api/admin/login/']).toBeDefined();
  });

  it('outside production (and with API_DOCS=public) it stays public', async () => {
    const dev = await ctxWith({ NODE_ENV: 'development', JWT_SECRET: productionEnv().JWT_SECRET, DATA_DIR: '/nonexistent/x' });
    expect((await dev.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    const pub = await ctxWith(productionEnv({ API_DOCS: 'public' }));
    expect((await pub.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
  });
});
