import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../free-port';
import { buildServer } from '../../build';

/**
 * The server as `npm start` runs it: compiled by apps/server/build.ts into
 * apps/server/dist/main.js and started with `node --enable-source-maps`, no tsx. Whatever it loads
 * by path at run time (native modules, the PDF fonts, the web build) must still be found, production
 * mode must start, SIGTERM must turn readiness off before the process closes, and a stack trace
 * must name the TypeScript line.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const ADMIN = { email: 'compiled-admin@test.school', password: 'Compiled-Admin-Pass-1' };
const METRICS_TOKEN = 'compiled-operator-token-0123456789abcdef';
const WEB_MARKER = '<!doctype html><title>compiled portal</title>';

let entry: string;
let dir: string;
const children: ChildProcess[] = [];

interface Running {
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the compiled server and waits until it is ready; the environment is only what is given. */
async function startCompiled(env: NodeJS.ProcessEnv): Promise<Running> {
  const port = await freePort();
  const inherited = Object.fromEntries(['PATH', 'HOME', 'TMPDIR', 'LANG'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]));
  const child = spawn(process.execPath, ['--enable-source-maps', entry], {
    cwd: dir,
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 50_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`compiled server exited: ${out}`);
    try {
      if ((await fetch(`${base}/api/health/ready`)).ok) return { child, base, output: () => out, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`compiled server did not become ready: ${out}`);
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/admin/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { access: string } }).data.access;
}

describe('the compiled server (npm start) [sqlite]', () => {
  beforeAll(async () => {
    entry = await buildServer();
    dir = mkdtempSync(path.join(tmpdir(), 'portal-compiled-'));
    mkdirSync(path.join(dir, 'web'));
    writeFileSync(path.join(dir, 'web', 'index.html'), WEB_MARKER);
  }, 60_000);
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it("is one bundle of the portal's own code: packages load from node_modules, nothing through tsx, a source map beside it", () => {
    expect(entry).toBe(path.join(ROOT, 'apps/server/dist/main.js'));
    const code = readFileSync(entry, 'utf8');
    const imported = new Set([...code.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]!));
    expect([...imported].filter((s) => s.startsWith('.') || s.startsWith('/') || s.startsWith('@portal/') || s.includes('tsx'))).toEqual(
      [],
    );
    for (const native of ['better-sqlite3', '@node-rs/argon2', 'pg', 'pdfkit']) expect(imported).toContain(native);
    expect(code).toMatch(/\/\/# sourceMappingURL=main\.js\.map\s*$/);
    const map = JSON.parse(readFileSync(`${entry}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources).toContain('../src/main.ts');
    expect(map.sources).toContain('../../../packages/domain/src/money.ts');
  });

  it('starts in production mode (PUBLIC_URL, JWT_SECRET, DATA_DIR), serves the web app, and drains on SIGTERM: readiness first', async () => {
    const server = await startCompiled({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://portal.example.school',
      JWT_SECRET: 'compiled-production-secret-0123456789-abcdef',
      DATA_DIR: path.join(dir, 'production-data'),
      WEB_DIST: path.join(dir, 'web'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      METRICS_TOKEN,
      // Long enough that the test, not the clock, ends the drain (a second SIGTERM).
      SHUTDOWN_DELAY_MS: '120000',
    });
    const { base } = server;
    expect(await (await fetch(`${base}/`)).text()).toBe(WEB_MARKER);
    expect(await (await fetch(`${base}/api/health/live`)).json()).toEqual({ status: 'ok' });
    // argon2 (native) verifies the first admin's password.
    const token = await signIn(base);
    expect((await fetch(`${base}/api/students/list/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/api\/students\/list\/",status_code="200"\} 1$/m,
    );

    server.child.kill('SIGTERM');
    let ready = 200;
    for (let i = 0; i < 200 && ready === 200; i++) {
      ready = (await fetch(`${base}/api/health/ready`)).status;
      if (ready === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(ready).toBe(503);
    expect(await (await fetch(`${base}/api/health/ready`)).json()).toEqual({ status: 'shutting_down' });
    // Still serving while the proxy drains it.
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect((await fetch(`${base}/api/students/list/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // A second signal ends the wait: the server closes and exits cleanly.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);

  it('backs up and restores with the compiled scripts (dist/backup.js, dist/restore.js), no tsx', async () => {
    const data = path.join(dir, 'production-data');
    const out = path.join(dir, 'portal-backup.db');
    const script = (name: string, args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [path.join(path.dirname(entry), `${name}.js`), ...args], {
          cwd: dir,
          env: { PATH: process.env.PATH, DATA_DIR: data },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let text = '';
        child.stdout.on('data', (d: Buffer) => (text += d.toString()));
        child.stderr.on('data', (d: Buffer) => (text += d.toString()));
        child.once('exit', (code) => resolve({ code, out: text }));
      });
    const backup = await script('backup', ['--out', out]);
    expect(backup.out).toMatch(/^Backup written: .*portal-backup\.db \(\d+ KiB; integrity ok; .*users=1/);
    expect(backup.code).toBe(0);
    // restore.js holds backup's code too: only restore's own main runs (no file given: its usage, exit 2).
    const restore = await script('restore', []);
    expect(restore.out).toMatch(/^Usage: npm run restore -- BACKUP_FILE/);
    expect(restore.out).not.toContain('Backup written');
    expect(restore.code).toBe(2);
    // A real restore of that backup into a database of its own.
    const target = path.join(dir, 'restored.db');
    const restored = await script('restore', [out, '--database', `sqlite:${target}`]);
    expect(restored.code).toBe(0);
    expect(readFileSync(target).subarray(0, 15).toString()).toBe('SQLite format 3');
  }, 60_000);

  it('starts readably in development: pretty log lines, then the address and the sign-ins last, between two rules', async () => {
    // No NODE_ENV: development, as `npm start` on a fresh clone (pretty logs, the demo school).
    const server = await startCompiled({
      DATA_DIR: path.join(dir, 'development-data'),
      WEB_DIST: path.join(dir, 'web'),
      LOG_LEVEL: 'info',
    });
    // Ready once it answers; the banner follows the listen at once.
    let out = server.output();
    for (let i = 0; i < 100 && !out.includes('not shown again'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      out = server.output();
    }
    const lines = out.trimEnd().split('\n');
    const rules = lines.flatMap((l, i) => (/^ {2}─{20,}$/.test(l) ? [i] : []));
    expect(rules).toHaveLength(2);
    // Nothing after the closing rule: the sign-ins are the last thing printed.
    expect(rules[1]).toBe(lines.length - 1);
    const banner = lines.slice(rules[0]! + 1, rules[1]).join('\n');
    expect(banner).toMatch(/^ {2}School portal listening on http:\/\/127\.0\.0\.1:\d+ {2}\(database: sqlite\)/);
    expect(banner).toMatch(/First admin created\.\n {4}email: {4}admin@school\.local\n {4}password: \S+/);
    expect(banner).toMatch(/staff: {3}staff1@demo\.school \/ \S+/);
    expect(banner).toMatch(/student: student1@demo\.school \/ \S+/);
    // Before it: a few pretty lines (time, level, message), no JSON.
    const before = lines.slice(0, rules[0]).filter((l) => l.trim());
    expect(before.length).toBeLessThanOrEqual(10);
    for (const l of before) expect(l).toMatch(/^\[\d\d:\d\d:\d\d\] (INFO|WARN): /);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);

  it('renders PDFs: the fonts, found by path from the bundle, are embedded', async () => {
    const server = await startCompiled({
      NODE_ENV: 'test',
      DATA_DIR: path.join(dir, 'demo-data'),
      WEB_DIST: path.join(dir, 'web'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_DATA: '1',
      DEMO_PASSWORD: 'Compiled-Demo-Pass-1',
    });
    const token = await signIn(server.base);
    const auth = { authorization: `Bearer ${token}` };
    const sessions = (await (await fetch(`${server.base}/api/sessions/`, { headers: auth })).json()) as {
      id: number;
      is_current: boolean;
    }[];
    const current = sessions.find((s) => s.is_current)!;
    const res = await fetch(`${server.base}/api/report-cards/pdf/?session_id=${current.id}&term=1st&student_class=JSS%201A`, {
      headers: auth,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);

  it('a start-up failure prints a stack trace that names the TypeScript file and line', async () => {
    // DATA_DIR is a file: creating the generated JWT secret under it fails inside config.ts.
    const notADir = path.join(dir, 'not-a-directory');
    writeFileSync(notADir, '');
    const child = spawn(process.execPath, ['--enable-source-maps', entry], {
      cwd: dir,
      env: { PATH: process.env.PATH, DATA_DIR: notADir, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/at loadOrCreateSecret \(.*apps\/server\/src\/config\.ts:\d+:\d+\)/);
    expect(err).not.toContain('dist/main.js');
  });
});
