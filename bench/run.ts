/**
 * Load scenarios against the real server, each compared with a baseline in the same run.
 *
 *   npm run bench [-- --quick] [--students N] [--db postgres://…] [--only id,id] [--duration S] [--web]
 *   npm run bench -- --scenario results-day [--minutes N] [--db postgres://…/rday_bench]   (bench/results-day.ts)
 *
 * 1. builds the dataset if missing (bench/data.ts), 2. captures the SQL each scenario's endpoint
 * runs (in-process, through the real app), 3. starts the real server (apps/server/src/main.ts) and
 * the baseline (bench/baseline.ts, the same SQL on bare Fastify) as child processes on 127.0.0.1,
 * 4. runs autocannon on both, 5. prints the table and writes bench/results/latest.json.
 * Benchmarks only; no test asserts a timing.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { LogEvent } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import type { BaselinePlan, CapturedQuery } from './baseline';
import {
  BENCH_ACCOUNTS,
  BENCH_BIG_CLASS,
  RESULTS_FILE,
  ROOT,
  datasetLocation,
  fmtMs,
  freePort,
  intArg,
  mergeResults,
  parseArgs,
  startChild,
} from './common';
import { datasetIsCurrent, generate, type DatasetMeta } from './data';
import { loggedDatabase } from './logged-database';
import {
  SCENARIOS,
  bigClassSubjects,
  type BenchContext,
  type Budget,
  type Caller,
  type ConnectionState,
  type Role,
  type Scenario,
} from './scenarios';
import { CSV_IMPORT_BUDGET_MS, runCsvImport, runImportHealth, type HealthDuringImport, type OneShotResult } from './import';

interface Side {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

export interface ScenarioResult {
  id: string;
  title: string;
  database: string;
  students: number;
  connections: number;
  app: Side;
  baseline: Side | null;
  /** baseline req/s ÷ portal req/s: how many times slower the portal is than the bare stack. */
  ratio: number | null;
  peakRssMb: number | null;
  /** SQL statements one request runs, the auth guard's account lookup left out (counted in-process). */
  queries: number | null;
  /** `applies` false: the budget is stated for another school size; the figure is informative. */
  budgets: { text: string; met: boolean; figure: string; applies: boolean }[];
  failed: boolean;
  note?: string;
}

const children: ChildProcess[] = [];
function killChildren(): void {
  for (const c of children) if (c.exitCode === null && c.pid) c.kill('SIGTERM');
}
process.on('exit', killChildren);

async function waitFor(url: string, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) before it was ready:\n${log()}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (r.status < 500 || r.status === 503) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`not ready after ${timeoutMs} ms: ${url}\n${log()}`);
}

const startProcess = (name: string, args: string[], env: Record<string, string>) =>
  startChild(children, name, process.execPath, args, env, 4000);

/** Resets the process's peak RSS (VmHWM) so each scenario reports its own peak; Linux, same user. */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not permitted: the figure is then the peak since start
  }
}
function peakRssMb(pid: number): number | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? /VmRSS:\s+(\d+)/.exec(s)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

interface Prepared {
  method: string;
  paths: string[];
  headers: Record<string, string>;
  body?: (i: number, conn?: ConnectionState) => string;
  onResponse?: (status: number, body: string) => void;
}

async function load(base: string, p: Prepared, connections: number, duration: number): Promise<Side> {
  let i = 0;
  let k = 0;
  const result = await autocannon({
    url: base,
    connections,
    duration,
    timeout: 30,
    requests: [
      {
        method: p.method,
        headers: p.headers,
        setupRequest: (req, context) => {
          const path = p.paths[k++ % p.paths.length]!;
          return p.body ? { ...req, path, body: p.body(i++, context) } : { ...req, path };
        },
        ...(p.onResponse ? { onResponse: (status: number, body: string) => p.onResponse!(status, body) } : {}),
      },
    ],
  });
  const seconds = result.duration || duration;
  return {
    rps: Math.round((result['2xx'] / seconds) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result['2xx'] + result.non2xx,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Paced clients: `connections` clients, each sending one request every 1/rate seconds at its own
 * random phase (autocannon's rate limit fires every connection at the same instant, a synchronized
 * burst no real staff room produces). Latency is measured per request, from send to last byte.
 */
async function paced(base: string, p: Prepared, connections: number, seconds: number, rate: number): Promise<Side> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const one = (path: string, body: string | undefined) =>
    new Promise<void>((resolve) => {
      const t = performance.now();
      const req = http.request(`${base}${path}`, { method: p.method, headers: p.headers, agent, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (p.onResponse) chunks.push(c);
        });
        res.on('end', () => {
          latencies.push(performance.now() - t);
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) errors++;
          p.onResponse?.(res.statusCode ?? 0, Buffer.concat(chunks).toString());
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const period = 1000 / rate;
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    const conn: ConnectionState = {};
    let next = performance.now() + Math.random() * period;
    while (next < end) {
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      const n = i++;
      await one(p.paths[n % p.paths.length]!, p.body?.(n, conn));
      next += period;
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (q: number) =>
    latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10 : 0;
  return { rps: Math.round((latencies.length / seconds) * 10) / 10, p50: pct(0.5), p99: pct(0.99), requests: i, errors };
}

/**
 * One request at a time for `seconds`, `reset` (untimed) before each: for a request that changes what
 * the next one finds. Throughput is over the timed requests only.
 */
async function sequential(base: string, p: Prepared, seconds: number, reset: () => Promise<void>): Promise<Side> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  for (let n = 0; n === 0 || performance.now() < end; n++) {
    await reset();
    const t = performance.now();
    const r = await fetch(base + p.paths[n % p.paths.length], { method: p.method, headers: p.headers, body: p.body?.(n) });
    const body = await r.text();
    latencies.push(performance.now() - t);
    if (r.status < 200 || r.status >= 300) errors++;
    p.onResponse?.(r.status, body);
  }
  const busy = latencies.reduce((a, b) => a + b, 0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  return { rps: Math.round((latencies.length / busy) * 10) / 10, p50: pct(0.5), p99: pct(0.99), requests: latencies.length, errors };
}

/** Rounds of the same scenario: throughput over all of them, mean p50, worst p99. */
function combine(sides: Side[]): Side {
  const n = sides.length;
  return {
    rps: Math.round((sides.reduce((a, s) => a + s.rps, 0) / n) * 10) / 10,
    p50: Math.round((sides.reduce((a, s) => a + s.p50, 0) / n) * 10) / 10,
    p99: Math.max(...sides.map((s) => s.p99)),
    requests: sides.reduce((a, s) => a + s.requests, 0),
    errors: sides.reduce((a, s) => a + s.errors, 0),
  };
}

/** One request, checked for status and content: a scenario never silently measures a 404. */
async function probe(base: string, p: Prepared): Promise<string | null> {
  const r = await fetch(base + p.paths[0], {
    method: p.method,
    headers: p.headers,
    body: p.body ? p.body(0) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const body = await r.text();
  p.onResponse?.(r.status, body);
  if (r.status < 200 || r.status >= 300) return `HTTP ${r.status} ${body.slice(0, 160)}`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// SQL capture: the real app, in this process, with a query log; the baseline replays the same SQL.

/** The auth guard's account lookup is auth, which the baseline leaves out by definition. */
function isAuthQuery(sql: string): boolean {
  return /from "users"/.test(sql) && /token_version/.test(sql) && /refresh_tokens/.test(sql);
}

async function captureSql(
  url: string,
  scenarios: Scenario[],
  ctx: BenchContext,
): Promise<{ plan: BaselinePlan; problems: Map<string, string>; queryCounts: Map<string, number> }> {
  let capturing = false;
  let captured: CapturedQuery[] = [];
  const log = (e: LogEvent) => {
    if (capturing && e.level === 'query') captured.push({ sql: e.query.sql, parameters: [...e.query.parameters] });
  };
  const handle = loggedDatabase(url, log);
  const config = testConfig({
    databaseUrl: url,
    loginLimits: { perAccountFailures: 5, perAccountBlockSeconds: 60, perAddressPerMinute: 1_000_000 },
    // The SQL a card costs when it is computed (decision 053's memo off): what the baseline replays and the queries column counts.
    cardMemo: false,
  });
  const app = await buildApp({ config, handle, logger: false });
  await app.ready();
  const problems = new Map<string, string>();
  const queryCounts = new Map<string, number>();
  const plan: BaselinePlan = { routes: {}, transactional: [] };
  try {
    const tokens: Partial<Record<Role, string>> = {};
    for (const role of ['admin', 'staff', 'student', 'parent'] as const) {
      const r = await app.inject({ method: 'POST', url: `/api/${role}/login/`, payload: BENCH_ACCOUNTS[role] });
      const access = r.json<{ data?: { access?: string } }>().data?.access;
      if (access) tokens[role] = access;
    }
    for (const s of scenarios) {
      if (s.id === 'sign-in') {
        plan.signIn = { url: s.paths(ctx)[0]!, email: BENCH_ACCOUNTS.staff.email };
        continue;
      }
      const headers: Record<string, string> = s.role && tokens[s.role] ? { authorization: `Bearer ${tokens[s.role]}` } : {};
      const call: Caller = async (method, url, payload) => {
        const r = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
        return { status: r.statusCode, body: r.body };
      };
      await s.before?.(call, ctx);
      // One request first, uncaptured: the counts and the replayed SQL are those of a warm server.
      const first = s.paths(ctx)[0]!;
      await s.reset?.(call, ctx);
      const warm = await app.inject({ method: s.method, url: first, headers, ...(s.body ? { payload: s.body(0, ctx) as object } : {}) });
      s.onResponse?.(warm.statusCode, warm.body);
      for (const [n, p] of s.paths(ctx).entries()) {
        await s.reset?.(call, ctx);
        captured = [];
        capturing = true;
        const r = await app.inject({ method: s.method, url: p, headers, ...(s.body ? { payload: s.body(n, ctx) as object } : {}) });
        capturing = false;
        s.onResponse?.(r.statusCode, r.body);
        if (r.statusCode < 200 || r.statusCode >= 300) {
          problems.set(s.id, `HTTP ${r.statusCode} ${r.body.slice(0, 160)}`);
          break;
        }
        const bad = s.expect?.(r.body, String(r.headers['content-type'] ?? ''), ctx);
        if (bad) problems.set(s.id, bad);
        let queries = captured.filter((q) => !isAuthQuery(q.sql));
        if (!queryCounts.has(s.id)) queryCounts.set(s.id, queries.length);
        const key = `${s.method} ${p}`;
        if (s.id.startsWith('results-bulk-save')) {
          // The bare equivalent of a bulk save: the same reads, then one upsert per subject, in one transaction.
          queries = [...queries.filter((q) => /^\s*select/i.test(q.sql)), ...bulkUpserts(handle.dialect, ctx)];
          plan.transactional.push(key);
          // STU-0001…STU-0060 are students 1…60 of a generated school: the class the saves rotate over.
          (plan.rotateStudent ??= {})[key] = Array.from({ length: Math.min(60, ctx.meta.students) }, (_, k) => k + 1);
        } else if (s.method === 'PUT' || queries.some((q) => /^\s*begin\b/i.test(q.sql))) {
          // A grid save (or any write in a transaction, e.g. a recorded payment) is one transaction in
          // the portal: replayed as one in the baseline too (which opens it itself: the captured begin
          // and commit are left out), so a failing replay rolls back instead of holding the write lock.
          queries = queries.filter((q) => !/^\s*(begin|commit|rollback)\b/i.test(q.sql));
          plan.transactional.push(key);
        }
        plan.routes[key] = queries;
      }
    }
  } finally {
    await app.close();
    await handle.destroy();
  }
  return { plan, problems, queryCounts };
}

/** One upsert per subject of a student of the class; the student (first parameter) is set per request by the baseline. */
function bulkUpserts(dialect: 'sqlite' | 'postgres', ctx: BenchContext): CapturedQuery[] {
  const ph = (n: number) => (dialect === 'postgres' ? `$${n}` : '?');
  const now = new Date().toISOString();
  return bigClassSubjects(0).map((subject, k) => ({
    sql:
      `insert into results (student_id, session_id, term, student_class, subject, score, remarks, grade, version, created_at, updated_at) ` +
      `values (${[1, 2, 3, 4, 5, 6, 7, 8].map(ph).join(', ')}, 1, ${ph(9)}, ${ph(10)}) ` +
      `on conflict (student_id, session_id, term, subject) do update set score = excluded.score, remarks = excluded.remarks, ` +
      `grade = excluded.grade, version = results.version + 1, updated_at = excluded.updated_at`,
    parameters: [1, ctx.sessionId, '3rd', BENCH_BIG_CLASS, subject, 40 + (k % 60), '', 'C', now, now],
  }));
}

// ---------------------------------------------------------------------------------------------

function judge(
  b: Budget,
  app: Side,
  ratio: number | null,
  students: number,
): { text: string; met: boolean; figure: string; applies: boolean } {
  if (b.kind === 'ratio') {
    return {
      text: b.text,
      met: ratio !== null && ratio <= b.max,
      figure: ratio === null ? 'n/a' : `${ratio.toFixed(2)}x (max ${b.max}x)`,
      applies: true,
    };
  }
  const v = b.kind === 'p50' ? app.p50 : app.p99;
  const applies = b.students === undefined || b.students === students;
  return {
    text: b.text,
    met: app.errors === 0 && v < b.ms,
    figure: `${b.kind} ${v} ms (budget < ${b.ms} ms${applies ? '' : ` at ${b.students!.toLocaleString()} students: informative here`})`,
    applies,
  };
}

/**
 * Waits until the server has finished whatever it was still doing (a slow request the load
 * generator gave up on keeps running), so it does not steal CPU from the next scenario.
 */
async function settle(pid: number, maxMs = 120_000): Promise<void> {
  const ticks = () => {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(f[11]) + Number(f[12]);
    } catch {
      return 0;
    }
  };
  const until = Date.now() + maxMs;
  let last = ticks();
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 150));
    const now = ticks();
    // At most one 10 ms clock tick of CPU in 150 ms: idle.
    if (now - last <= 1) return;
    last = now;
  }
}

/** A request too slow for the load window: timed on its own, to completion. */
async function single(base: string, p: Prepared): Promise<Side> {
  const t = performance.now();
  const r = await fetch(base + p.paths[0], {
    method: p.method,
    headers: p.headers,
    body: p.body?.(0),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await r.text();
  p.onResponse?.(r.status, text);
  const ms = Math.round(performance.now() - t);
  const ok = r.status >= 200 && r.status < 300;
  return { rps: Math.round((1000 / ms) * 100) / 100, p50: ms, p99: ms, requests: 1, errors: ok ? 0 : 1 };
}

function pad(s: string | number, n: number, right = false): string {
  const t = String(s);
  return right ? t.padStart(n) : t.padEnd(n);
}

export function printTable(rows: ScenarioResult[]): string {
  const head = [
    'scenario',
    'database',
    'size',
    'conns',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'base req/s',
    'ratio',
    'peak RSS',
    'queries',
    'budgets',
  ];
  const widths = [34, 8, 7, 5, 8, 7, 7, 6, 10, 6, 8, 7, 0];
  const lines = [head.map((h, i) => pad(h, widths[i]!, i >= 4 && i <= 11)).join(' ')];
  for (const r of rows) {
    const budgets = r.budgets.length
      ? r.budgets.map((b) => `${b.applies ? (b.met ? 'MET' : 'MISSED') : 'INFO'} ${b.figure}`).join('; ')
      : '-';
    lines.push(
      [
        pad(r.title.slice(0, 34), 34),
        pad(r.database, 8),
        pad(r.students, 7),
        pad(r.connections, 5, true),
        pad(r.app.rps, 8, true),
        pad(r.app.p50, 7, true),
        pad(r.app.p99, 7, true),
        pad(r.app.errors, 6, true),
        pad(r.baseline?.rps ?? '-', 10, true),
        pad(r.ratio === null ? '-' : r.ratio.toFixed(2), 6, true),
        pad(r.peakRssMb === null ? '-' : `${r.peakRssMb} MB`, 8, true),
        pad(r.queries ?? '-', 7, true),
        (r.failed ? `FAILED ${r.note ?? ''} ` : '') + budgets,
      ].join(' '),
    );
  }
  return lines.join('\n');
}

function machine() {
  const load = os.loadavg().map((l) => Math.round(l * 100) / 100);
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? '',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadavg: load,
  };
}

async function main(): Promise<void> {
  const args = parseArgs();
  // Scenarios of their own shape (several steps per visitor, timed arrivals) have their own runner.
  if (args.scenario === 'results-day') {
    const { runResultsDay } = await import('./results-day');
    process.exit(await runResultsDay(args));
  }
  if (args.scenario !== undefined) throw new Error(`unknown --scenario ${String(args.scenario)} (known: results-day)`);
  const quick = args.quick === true;
  const students = intArg(args, 'students', 1500);
  const loc = datasetLocation(students, typeof args.db === 'string' ? args.db : undefined);
  const sessions = typeof args.sessions === 'string' ? intArg(args, 'sessions', 2) : undefined;
  const duration = typeof args.duration === 'string' ? Number(args.duration) : quick ? 1 : 10;
  const warmup = quick ? 0 : 2;
  const only = typeof args.only === 'string' ? new Set(args.only.split(',')) : undefined;
  const deadline = setTimeout(
    () => {
      console.error('bench: time limit reached, stopping');
      killChildren();
      process.exit(2);
    },
    (quick ? 5 : 40) * 60_000,
  );
  deadline.unref();
  const started = performance.now();
  const loadBefore = machine().loadavg;

  let meta: DatasetMeta | undefined = datasetIsCurrent(loc.url, students, sessions);
  if (!meta) {
    process.stdout.write(`Dataset ${loc.label} missing or stale: generating…\n`);
    meta = await generate({ students, sessions: sessions ?? (students > 10_000 ? 3 : 2), url: loc.url });
  }
  const ctx: BenchContext = { meta, sessionId: meta.currentSessionId, otherClass: 'JSS 1B' };
  const scenarios = SCENARIOS.filter((s) => !only || only.has(s.id));
  const database = loc.kind;

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const [appPort, basePort] = [await freePort(), await freePort()];
  const server = startProcess('server', ['--import', 'tsx', 'apps/server/src/main.ts'], {
    NODE_ENV: 'production',
    // Production needs its public address; the bench serves on loopback.
    PUBLIC_URL: `http://127.0.0.1:${appPort}`,
    DATABASE_URL: loc.url,
    PORT: String(appPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DEMO_DATA: '0',
    DATA_DIR: tmp,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
    REDIS_URL: '',
  });
  // While the server boots: the SQL each scenario's endpoint runs, for the baseline to replay.
  process.stdout.write(`Capturing the SQL of each endpoint for the baseline…\n`);
  const { plan, problems, queryCounts } = await captureSql(loc.url, scenarios, ctx);
  const planFile = path.join(tmp, 'baseline-sql.json');
  writeFileSync(planFile, JSON.stringify(plan));
  const baseline = startProcess('baseline', ['--import', 'tsx', 'bench/baseline.ts'], {
    DATABASE_URL: loc.url,
    PORT: String(basePort),
    BASELINE_SQL: planFile,
  });
  const appBase = `http://127.0.0.1:${appPort}`;
  const baseBase = `http://127.0.0.1:${basePort}`;
  await waitFor(`${appBase}/api/health`, server.child, 60_000, server.log);
  await waitFor(`${baseBase}/ready`, baseline.child, 30_000, baseline.log);

  const tokens: Partial<Record<Role, string>> = {};
  for (const role of ['admin', 'staff', 'student', 'parent'] as const) {
    const r = await fetch(`${appBase}/api/${role}/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_ACCOUNTS[role]),
    });
    const body = (await r.json()) as { data?: { access?: string } };
    if (!body.data?.access) throw new Error(`cannot sign in as ${role}: HTTP ${r.status} ${JSON.stringify(body).slice(0, 200)}`);
    tokens[role] = body.data.access;
  }

  const rows: ScenarioResult[] = [];
  for (const s of scenarios) {
    const connections = s.connections[quick ? 1 : 0];
    const headers: Record<string, string> = s.method !== 'GET' ? { 'content-type': 'application/json' } : {};
    if (s.role) headers.authorization = `Bearer ${tokens[s.role]}`;
    const prepared: Prepared = {
      method: s.method,
      paths: s.paths(ctx),
      headers,
      ...(s.body ? { body: (i: number, conn?: ConnectionState) => JSON.stringify(s.body!(i, ctx, conn)) } : {}),
      ...(s.onResponse ? { onResponse: s.onResponse } : {}),
    };
    process.stdout.write(`  ${s.id.padEnd(24)} `);
    // A scenario's set-up against the portal, e.g. reading the versions stored now: a request the
    // load generator gave up on at the end of a window may still have saved.
    const callApp: Caller = async (method, url, payload) => {
      const auth: Record<string, string> = s.role ? { authorization: `Bearer ${tokens[s.role]}` } : {};
      const r = await fetch(appBase + url, {
        method,
        headers: payload === undefined ? auth : { ...auth, 'content-type': 'application/json' },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
      return { status: r.status, body: await r.text() };
    };
    const setUp = async () => {
      // A failed set-up says what the server logged (a 503's cause is in its log, not its answer).
      if (s.before)
        await s.before(callApp, ctx).catch((err: unknown) => Promise.reject(new Error(`${String(err)}\n${server.log().slice(-1500)}`)));
    };
    const reset = s.reset ? () => s.reset!(callApp, ctx) : undefined;
    await setUp();
    await reset?.();
    let note = problems.get(s.id) ?? (await probe(appBase, prepared)) ?? undefined;
    const appPid = server.child.pid!;
    resetPeak(appPid);
    // A scenario that resets before each request has no baseline (the bare stack cannot reset).
    const baseProblem = reset ? 'none (state reset before each request)' : await probe(baseBase, prepared);
    if (baseProblem) note = note ?? `baseline: ${baseProblem}`;
    // Paced clients need enough requests for a p99; saturating runs use the normal duration.
    const seconds = s.connectionRate ? Math.max(duration, quick ? 3 : 20) : duration;
    // Portal and baseline alternate (A B A B in a full run), so a burst of load from elsewhere on
    // the machine falls on both sides rather than on one.
    const rounds = quick ? 1 : 2;
    const appSides: Side[] = [];
    const baseSides: Side[] = [];
    for (let round = 0; round < rounds; round++) {
      const run = async (url: string, secs: number) => {
        if (url === appBase) await setUp();
        const side = reset
          ? await sequential(url, prepared, secs, reset)
          : s.connectionRate
            ? await paced(url, prepared, connections, secs, s.connectionRate)
            : await load(url, prepared, connections, secs);
        await settle(url === appBase ? appPid : baseline.child.pid!);
        // Not one answer within the window: time one request on its own instead.
        return side.requests === 0 ? single(url, prepared) : side;
      };
      if (warmup > 0 && round === 0) await run(appBase, warmup);
      appSides.push(await run(appBase, seconds / rounds));
      if (!baseProblem) {
        if (warmup > 0 && round === 0) await run(baseBase, warmup);
        baseSides.push(await run(baseBase, seconds / rounds));
      }
    }
    const app = combine(appSides);
    const rss = peakRssMb(appPid);
    const base: Side | null = baseSides.length ? combine(baseSides) : null;
    const ratio = base && app.rps > 0 ? Math.round((base.rps / app.rps) * 100) / 100 : null;
    const failed = Boolean(problems.get(s.id)) || app.errors > 0 || app.requests === 0;
    if (app.errors > 0 && !note) note = `${app.errors} errors (non-2xx, socket errors or timeouts)`;
    if (app.requests === 0 && !note) note = 'no answer';
    const row: ScenarioResult = {
      id: s.id,
      title: s.title,
      database,
      students,
      connections,
      app,
      baseline: base,
      ratio,
      peakRssMb: rss,
      queries: queryCounts.get(s.id) ?? null,
      budgets: s.budgets.map((b) => judge(b, app, ratio, students)).map((b) => (failed ? { ...b, met: false } : b)),
      failed,
      ...(note ? { note } : {}),
    };
    rows.push(row);
    process.stdout.write(
      `${app.rps} req/s, p50 ${app.p50} ms, p99 ${app.p99} ms${base ? `, baseline ${base.rps} req/s` : ''}${failed ? `  FAILED: ${note}` : ''}\n`,
    );
  }

  // One-shot: a 10,000-student CSV import through the real endpoint (its own scratch database).
  let oneShots: OneShotResult[] = [];
  if (!only || only.has('csv-import')) {
    process.stdout.write(`  ${'csv-import'.padEnd(24)} `);
    oneShots = [await runCsvImport({ quick, tmp, kind: loc.kind, pgUrl: loc.kind === 'postgres' ? loc.url : undefined })];
    const o = oneShots[0]!;
    process.stdout.write(
      `${o.failed ? `FAILED: ${o.note}` : `${o.rows.toLocaleString()} rows in ${fmtMs(o.ms)}`} (budget ${fmtMs(CSV_IMPORT_BUDGET_MS)} for 10,000)\n`,
    );
  }

  // One-shot: /api/health latency during a maximum-size import and preview.
  let healthDuringImport: HealthDuringImport | undefined;
  if (!only || only.has('csv-import-health')) {
    process.stdout.write(`  ${'csv-import-health'.padEnd(24)} `);
    healthDuringImport = await runImportHealth({ tmp, kind: loc.kind, pgUrl: loc.kind === 'postgres' ? loc.url : undefined });
    process.stdout.write(`${healthDuringImport.failed ? `FAILED: ${healthDuringImport.note}` : healthDuringImport.budget.figure}\n`);
  }

  killChildren();
  rmSync(tmp, { recursive: true, force: true });
  const table = printTable(rows);
  process.stdout.write(`\n${table}\n`);
  for (const o of oneShots)
    process.stdout.write(
      `${o.title}: ${o.failed ? `FAILED ${o.note}` : `${fmtMs(o.ms)} for ${o.rows} rows`} — ${o.budget.met ? 'MET' : 'MISSED'} ${o.budget.figure}\n`,
    );
  const missed = [
    ...rows.flatMap((r) => r.budgets.filter((b) => !b.met && b.applies).map((b) => `${r.id}: ${b.text} (${b.figure})`)),
    ...oneShots.filter((o) => !o.budget.met).map((o) => `${o.id}: ${o.budget.text} (${o.budget.figure})`),
    ...(healthDuringImport && !healthDuringImport.budget.met
      ? [`${healthDuringImport.id}: ${healthDuringImport.budget.text} (${healthDuringImport.budget.figure})`]
      : []),
  ];
  const failed = [...rows.filter((r) => r.failed).map((r) => r.id), ...oneShots.filter((o) => o.failed).map((o) => o.id)];
  process.stdout.write(`\n${missed.length ? `Budgets missed:\n  ${missed.join('\n  ')}` : 'Every measured budget met.'}\n`);
  if (failed.length) process.stdout.write(`Scenarios FAILED (errors, not measured honestly): ${failed.join(', ')}\n`);

  // A run of some scenarios only (--only) keeps its own key, so it never replaces a full run's figures.
  const key = `api-${database}-${students}${quick ? '-quick' : ''}${only ? '-partial' : ''}`;
  mergeResults({
    [key]: {
      generatedAt: new Date().toISOString(),
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
      mode: quick ? 'quick' : 'full',
      durationSeconds: duration,
      database: loc.label,
      dataset: meta,
      machine: { ...machine(), loadavgBefore: loadBefore },
      seconds: Math.round((performance.now() - started) / 1000),
      scenarios: rows,
      oneShots,
      healthDuringImport,
      budgetsMissed: missed,
      failed,
    },
  });
  process.stdout.write(`Written to ${path.relative(ROOT, RESULTS_FILE)} (key "${key}") in ${fmtMs(performance.now() - started)}\n`);
  if (args.web === true) {
    const { runWeb } = await import('./web');
    await runWeb({ quick });
  }
  process.exit(failed.length ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err: unknown) => {
    console.error(err);
    killChildren();
    process.exit(1);
  });
}
