import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../free-port';

/**
 * The real server process is SIGKILLed in the middle of bulk result saves and a CSV
 * import, restarted, and every write is either fully there or fully absent, with integrity_check ok.
 * The kill provably lands inside the import's open transaction: the server's fault point
 * (PORTAL_FAULT_DIR, lib/fault-points.ts) leaves a marker once the rows are written but not
 * committed, and holds there; the test kills the server only after seeing it.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const ADMIN = { email: 'crash-admin@test.school', password: 'Crash-Admin-Pass-1' };

async function startServer(dataDir: string, port: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL; // the SQLite file under DATA_DIR
  delete env.JWT_SECRET;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web'),
      PAYSTACK_SECRET_KEY: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${out}`);
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await done;
}

describe('SIGKILL in the middle of bulk writes [sqlite]', () => {
  let dir: string;
  let port: number;
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-crash-'));
    port = await freePort();
  });
  afterAll(async () => {
    if (server) await stop(server, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('each bulk result save and the CSV import is all there or not at all after a crash and restart', async () => {
    const faultDir = path.join(dir, 'faults');
    mkdirSync(faultDir);
    const marker = path.join(faultDir, 'import-in-transaction.reached');
    server = await startServer(dir, port, { PORTAL_FAULT_DIR: faultDir, PORTAL_FAULT_HOLD_MS: '60000' });
    const base = `http://127.0.0.1:${port}`;
    const post = (url: string, body: unknown, token?: string) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const signIn = (await (await post('/api/admin/login/', ADMIN)).json()) as { data: { access: string } };
    const token = signIn.data.access;
    const get = async (url: string) => (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } })).json();
    const sessions = (await get('/api/sessions/')) as { id: number; is_current: boolean }[];
    const current = sessions.find((s) => s.is_current)!;
    const students = (await get('/api/students/list/')) as { admission_number: string; student_class: string }[];
    expect(students.length).toBeGreaterThanOrEqual(48);
    // Each demo student's own subjects: a save may hold only those.
    const subjectsOf = new Map<string, string[]>();
    for (const s of students) {
      const own = (await get(`/api/teaching/students/${s.admission_number}/subjects/`)) as { subjects: string[] };
      subjectsOf.set(s.admission_number, own.subjects);
    }

    // A CSV import of 300 students, in flight while the bulk saves run.
    const template = await (await fetch(`${base}/api/students/import/template/`, { headers: { authorization: `Bearer ${token}` } })).text();
    const header = template.split(/\r?\n/)[0]!;
    const cols = header.split(',').map((h) => h.trim());
    const row = (i: number) => {
      const v: Record<string, string> = {
        first_name: 'Crash',
        last_name: `Import${i}`,
        email: `crash-import-${i}@test.school`,
        phone_number: '08031234567',
        gender: 'F',
        date_of_birth: '2012-03-04',
        student_class: 'SSS 3B',
        fathers_name: 'Mr Import',
        home_address: '1 Crash Road',
      };
      return cols.map((c) => v[c] ?? '').join(',');
    };
    const csv = [header, ...Array.from({ length: 300 }, (_, i) => row(i))].join('\n');
    const settled: string[] = [];

    // Bulk saves of all their subjects for every demo student, 3rd term (no rows yet), in two waves.
    let firstAnswer: () => void = () => undefined;
    const answered = new Promise<void>((r) => (firstAnswer = r));
    const save = (s: (typeof students)[number], i: number) =>
      post(
        '/api/results/',
        {
          admission_number: s.admission_number,
          session_id: current.id,
          term: '3rd',
          student_class: s.student_class,
          subjects: subjectsOf.get(s.admission_number)!.map((name, k) => ({ name, score: (i + k) % 101 })),
        },
        token,
      ).then(
        (r) => {
          settled.push(`save ${r.status}`);
          firstAnswer();
        },
        () => settled.push('save cut'),
      );
    const half = Math.ceil(students.length / 2);
    const saves = students.slice(0, half).map((s, i) => save(s, i));
    await answered;
    // The import starts while the saves are in flight; the kill waits for its transaction to be open.
    const importing = post('/api/students/import/', { csv }, token).then(
      (r) => settled.push(`import ${r.status}`),
      () => settled.push('import cut'),
    );
    const deadline = Date.now() + 45_000;
    while (!existsSync(marker) && Date.now() < deadline && !settled.some((x) => x.startsWith('import'))) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(existsSync(marker), `the import never reached its transaction: ${settled.join(', ')}`).toBe(true);
    // The second wave goes out while the import holds SQLite's one connection inside its transaction:
    // these saves queue behind it, so the kill lands with saves in flight however fast the first
    // wave was answered (on Node 24 all of it had been, now and then, before the import's marker).
    saves.push(...students.slice(half).map((s, i) => save(s, half + i)));
    await new Promise((r) => setTimeout(r, 500));
    await stop(server, 'SIGKILL');
    await Promise.all([importing, ...saves]);
    // The import was cut inside its transaction: it never answered.
    expect(settled).toContain('import cut');
    const completedSaves = settled.filter((s) => s === 'save 201' || s === 'save 200').length;
    // The kill really landed mid-load: some saves answered, others were cut off.
    expect(completedSaves).toBeGreaterThan(0);
    expect(settled.filter((s) => s === 'save cut').length).toBeGreaterThan(0);

    // Restart on the same data: WAL recovery, migrations, then a clean stop.
    server = await startServer(dir, port);
    const after = (await (await post('/api/admin/login/', ADMIN)).json()) as { status: string };
    expect(after.status).toBe('success');
    await stop(server, 'SIGTERM');
    server = undefined;

    const db = new SQLite(path.join(dir, 'portal.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      const perStudent = db
        .prepare(
          `select s.admission_number, count(*) n from results r join students s on s.id = r.student_id
            where r.term = '3rd' and r.session_id = ? group by s.admission_number`,
        )
        .all(current.id) as { admission_number: string; n: number }[];
      // All of a student's subjects or nothing, for every student.
      expect(perStudent.filter((r) => r.n !== subjectsOf.get(r.admission_number)?.length)).toEqual([]);
      expect(perStudent.length).toBeGreaterThanOrEqual(completedSaves);
      // Killed inside the transaction (users and students written, not committed): nothing of it is left.
      const n = (q: string) => (db.prepare(q).get() as { n: number }).n;
      expect(n("select count(*) n from students where last_name like 'Import%'")).toBe(0);
      expect(n("select count(*) n from users where email like 'crash-import-%'")).toBe(0);
      expect(n("select count(*) n from audit_log where action = 'import'")).toBe(0);
    } finally {
      db.close();
    }
  }, 90_000);
});
