import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/** What the benchmark scripts share: argument parsing, where datasets live and the known sign-ins. */

export const ROOT = path.resolve(import.meta.dirname, '..');
export const BENCH_DIR = path.join(ROOT, 'bench');

/** The accounts every generated school has, for the load scenarios. */
export const BENCH_ACCOUNTS = {
  admin: { email: 'bench-admin@bench.school', password: 'Bench-Admin-Pass-2026' },
  staff: { email: 'staff1@bench.school', password: 'Bench-Staff-Pass-2026' },
  student: { email: 'student1@bench.school', password: 'Bench-Student-Pass-2026' },
  // The parent of family 1 (three children in a school of 1,500): signs in by phone.
  parent: { email: '+2348000000001', password: 'Bench-Parent-Pass-2026' },
} as const;

/**
 * Families (issue 33): 1,100 for 1,500 students (11 in 15). Students 1…F are the first child of
 * families 1…F; the rest are younger siblings, two more for each of the first families, so a
 * school of 1,500 has 200 families of three and 900 of one.
 */
export function benchFamilies(students: number): number {
  return Math.max(1, Math.round((students * 11) / 15));
}
export function familyOfStudent(i: number, students: number): number {
  const F = benchFamilies(students);
  return i <= F ? i : 1 + (Math.floor((i - F - 1) / 2) % F);
}
/** The students of family `f`, in admission-number order. */
export function childrenOfFamily(f: number, students: number): number[] {
  const F = benchFamilies(students);
  const out = f <= students ? [f] : [];
  for (let i = F + 1; i <= students; i++) if (familyOfStudent(i, students) === f) out.push(i);
  return out;
}
/** Family `f`'s parent's phone (E.164). */
export function benchParentPhone(f: number): string {
  return `+23480${String(f).padStart(8, '0')}`;
}

/** The class that holds exactly 60 students (or all of them in a smaller school): the result-sheet scenario. */
export const BENCH_BIG_CLASS = 'JSS 1A';
export const BENCH_BIG_CLASS_SIZE = 60;
/**
 * The score-grid class: 60 SSS students (students 61…120 of a school of at least 136) whose
 * current-session results hold component scores of the SSS scheme CA1 20 + CA2 20 + Exam 60.
 */
export const BENCH_SHEET_CLASS = 'SSS 1A';
export const BENCH_SHEET_SUBJECT = 'Mathematics';
export const BENCH_SHEET_SCHEME = [
  { name: 'First Continuous Assessment', label: 'CA1', max: 20 },
  { name: 'Second Continuous Assessment', label: 'CA2', max: 20 },
  { name: 'Examination', label: 'Exam', max: 60 },
] as const;

export type Args = Record<string, string | boolean>;

/** `--students 1500 --quick --db x` → { students: '1500', quick: true, db: 'x' } (also `--k=v`). */
export function parseArgs(argv: string[] = process.argv.slice(2)): Args {
  const out: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) {
      out[a.slice(2, eq)] = a.slice(eq + 1);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      out[a.slice(2)] = next;
      i++;
    } else out[a.slice(2)] = true;
  }
  return out;
}

export function intArg(args: Args, name: string, fallback: number): number {
  const v = args[name];
  if (v === undefined || v === true) return fallback;
  const n = Number(String(v).replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got ${String(v)}`);
  return n;
}

export function isPostgres(url: string | undefined): url is string {
  return Boolean(url && /^postgres(ql)?:\/\//.test(url));
}

/**
 * A database only benchmarks use, which a dataset build may drop and create: `bench_…`, or
 * `…_bench` (a helper's own, e.g. rday_bench).
 */
export function isBenchDatabaseName(name: string): boolean {
  return /^bench_[a-z0-9_]+$/.test(name) || /^[a-z0-9]+_bench$/.test(name);
}

/**
 * Where the dataset of a given size lives. SQLite: a file (default bench/data/school-N.db).
 * PostgreSQL: a dedicated database `bench_sN` on the server of the given URL, or the given database
 * itself when its name says it is a bench database (isBenchDatabaseName), never any other, so a
 * benchmark can never wipe real or test data.
 */
export function datasetLocation(students: number, db: string | undefined): { kind: 'sqlite' | 'postgres'; url: string; label: string } {
  const pgUrl = isPostgres(db) ? db : isPostgres(process.env.DATABASE_URL) && !db ? process.env.DATABASE_URL : undefined;
  if (pgUrl) {
    const u = new URL(pgUrl);
    if (!isBenchDatabaseName(u.pathname.slice(1))) u.pathname = `/bench_s${students}`;
    return { kind: 'postgres', url: u.toString(), label: `postgres ${u.host}${u.pathname}` };
  }
  const file =
    typeof db === 'string' && db ? path.resolve(db.replace(/^sqlite:/, '')) : path.join(BENCH_DIR, 'data', `school-${students}.db`);
  return { kind: 'sqlite', url: `sqlite:${file}`, label: `sqlite ${path.relative(ROOT, file)}` };
}

export function fileExists(url: string): boolean {
  return existsSync(url.replace(/^sqlite:/, ''));
}

export function fmtMs(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export const RESULTS_FILE = path.join(BENCH_DIR, 'results', 'latest.json');

/** Replaces some top-level keys of bench/results/latest.json, keeping the others (API and web runs share it). */
export function mergeResults(patch: Record<string, unknown>): void {
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    // first run
  }
  writeFileSync(RESULTS_FILE, `${JSON.stringify({ ...current, ...patch }, null, 2)}\n`);
}

/** A loopback port nobody listens on right now, for a server a script starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a process a script needs (a server, a proxy) from the repository root, adds it to
 * `children` (killed when the script ends) and keeps the last `keepChars` of its output for an
 * error message.
 */
export function startChild(
  children: ChildProcess[],
  name: string,
  cmd: string,
  args: string[],
  env: Record<string, string>,
  keepChars = 6000,
): { child: ChildProcess; log: () => string } {
  let out = '';
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-keepChars);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, log: () => `[${name}] ${out}` };
}

/**
 * The portal's own server (apps/server/src/main.ts under tsx) on 127.0.0.1:`port` for a scenario,
 * with `env` over this process's environment (an undefined value leaves a variable out). It keeps
 * the last of the server's error output (and standard output with `withStdout`) for `log`, which
 * `untilHealthy` puts in its error.
 */
export function spawnPortalServer(
  port: number,
  env: NodeJS.ProcessEnv,
  opts: { withStdout?: boolean } = {},
): { server: ChildProcess; base: string; log: () => string } {
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', opts.withStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-2000));
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);
  return { server, base: `http://127.0.0.1:${port}`, log: () => out };
}

/** Resolves once `base` answers /api/health; throws if the server exits first or is not ready within `withinMs`. */
export async function untilHealthy(
  started: { server: ChildProcess; base: string; log: () => string },
  withinMs: number,
  pollMs = 200,
): Promise<void> {
  const until = Date.now() + withinMs;
  for (;;) {
    if (started.server.exitCode !== null) throw new Error(`server exited: ${started.log()}`);
    try {
      if ((await fetch(`${started.base}/api/health`)).ok) return;
    } catch {
      // starting
    }
    if (Date.now() > until) throw new Error(`server not ready in ${withinMs / 1000} s`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** A JSON call to a started portal's API (`/api` + `p`), with a bearer token; throws on a non-2xx answer. */
export function apiCaller(base: string) {
  return async <T>(method: string, p: string, token: string | null, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}/api${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** `make(key)` made once per key and given again after (prepared statements, a table's columns). */
export function memoize<K, V>(make: (key: K) => V): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    if (!made.has(key)) made.set(key, make(key));
    return made.get(key)!;
  };
}
