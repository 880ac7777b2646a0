/**
 * Results day: the day a school releases its report cards and every family opens
 * the portal at once.
 *
 *   npm run bench -- --scenario results-day [--minutes 10] [--db postgres://…/rday_bench] [--instances 2]
 *   npm run bench:results-day -- …            (the same)
 *
 * The bench's 1,500-student school (bench/data.ts: every term of every class released, every
 * student a full report card; 1,100 families, bench/data.ts). Each student visits once, and one
 * parent per family (issue 33): the parent signs in at /api/parent/login/ by phone, opens the parent
 * home, each child's card and one PDF. Visitors arrive over the window (default 10 minutes) along a
 * peaked curve (below); each one signs in (the real argon2id check), opens the report card page,
 * reads it for a few seconds and downloads the PDF; a few of them then pay fees online
 * through the payment simulator. Meanwhile 20 teachers each autosave a score-grid row every few
 * seconds and a bursar records offline payments. A third kind of visitor has no account: a family
 * with a result-checker PIN (issue 34, decision 043) opens /check-result, checks the card with the
 * admission number and the PIN, reads it and downloads its PDF by the check's link (`--pin-visitors`,
 * default 300; the admin's batch of PINs is made before the window opens). Budget of the PIN check:
 * p99 < 200 ms.
 *
 * The card page is opened by its address (`--card-page address`, the default): one document
 * request, the card rendered by the server for the page-view cookie the sign-in set
 * (docs/decisions/013), as a link or a reload opens it; or from the app's home page
 * (`--card-page in-app`): the page's three API calls (the school's name, the session picker, the card).
 *
 * SQLite: one instance of the compiled server. PostgreSQL: `--instances` (default 2) behind nginx,
 * sharing Redis and the JWT secret. Reports per step count, p50, p99, max and errors, each
 * instance's peak RSS and CPU, and writes bench/results/latest.json (`results-day-sqlite`,
 * `results-day-postgres-2`; a compressed run adds `-Nmin`). Budget: p99 < 1 s per step, 0 errors.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { LogEvent } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { formatAdmissionNumber } from '@portal/domain';
import { VIEW_COOKIE } from '@portal/domain/auth-constants';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import {
  BENCH_ACCOUNTS,
  benchFamilies,
  benchParentPhone,
  childrenOfFamily,
  RESULTS_FILE,
  ROOT,
  datasetLocation,
  fmtMs,
  intArg,
  mergeResults,
  parseArgs,
  startChild,
  type Args,
} from './common';
import { datasetIsCurrent, generate, rng, type DatasetMeta } from './data';
import { loggedDatabase } from './logged-database';

const STUDENT_PASSWORD = 'Bench-Student-Pass-2026';
const STAFF_PASSWORD = 'Bench-Staff-Pass-2026';
/** The term whose cards are opened: the end of the session, the results day that matters most. */
const TERM = '3rd';
const BUDGET_MS = 1000;
/** The result-checker PIN check's own budget (issue 34). */
const PIN_CHECK_BUDGET_MS = 200;
/** The port range of this bench (the machine is shared): nginx on the first, instances after it. */
const PORT_BASE = 4240;
const JWT_SECRET = 'results-day-secret-results-day-secret-0123456789';
/** Teachers sign in from the school's one address; families each from their own. */
const SCHOOL_ADDRESS = '10.200.0.1';

// ---------------------------------------------------------------------------------------------
// Arrivals

/**
 * Arrival times (ms from the start) of `n` visitors in a window of `windowMs`: a Poisson process
 * whose rate follows t·e^(−t/τ) with τ = window/6 (the release message goes out, arrivals climb to
 * a peak 1/6 into the window, then tail off), truncated to the window. The peak rate is about 2.2
 * times the window's mean rate: a uniform spread would flatter the server.
 */
export function arrivalTimes(n: number, windowMs: number, random: () => number): number[] {
  const tau = windowMs / 6;
  const out: number[] = [];
  while (out.length < n) {
    // Gamma(2, τ): the sum of two exponentials.
    const t = -tau * (Math.log(1 - random()) + Math.log(1 - random()));
    if (t < windowMs) out.push(t);
  }
  return out.sort((a, b) => a - b);
}

/** A distinct client address per visitor (10.0.0.0/8): the per-address limits see families, not the bench. */
function visitorAddress(k: number): string {
  return `10.${1 + ((k >> 16) & 127)}.${(k >> 8) & 255}.${k & 255}`;
}

// ---------------------------------------------------------------------------------------------
// Measuring

export interface StepStats {
  count: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

class Recorder {
  private readonly times = new Map<string, number[]>();
  private readonly errorCounts = new Map<string, number>();
  readonly samples: string[] = [];
  record(step: string, ms: number, error?: string): void {
    let list = this.times.get(step);
    if (!list) this.times.set(step, (list = []));
    list.push(ms);
    if (error) {
      this.errorCounts.set(step, (this.errorCounts.get(step) ?? 0) + 1);
      if (this.samples.length < 20) this.samples.push(`${step}: ${error}`);
    }
  }
  stats(step: string): StepStats {
    const xs = [...(this.times.get(step) ?? [])].sort((a, b) => a - b);
    const pct = (q: number) => (xs.length ? round1(xs[Math.max(0, Math.ceil(q * xs.length) - 1)]!) : 0);
    return { count: xs.length, p50: pct(0.5), p99: pct(0.99), max: round1(xs.at(-1) ?? 0), errors: this.errorCounts.get(step) ?? 0 };
  }
  steps(): string[] {
    return [...this.times.keys()];
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

interface Answer {
  status: number;
  body: Buffer;
  type: string;
  ms: number;
  setCookie: string[];
}

/** One request over the visitor's own connections (a browser keeps a few per site). */
function send(
  agent: http.Agent,
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<Answer> {
  const t = performance.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      `${base}${url}`,
      {
        method,
        agent,
        timeout: timeoutMs,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            type: String(res.headers['content-type'] ?? ''),
            ms: performance.now() - t,
            setCookie: res.headers['set-cookie'] ?? [],
          }),
        );
        res.on('error', (e) => resolve({ status: 0, body: Buffer.from(String(e)), type: '', ms: performance.now() - t, setCookie: [] }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs / 1000} s`)));
    req.on('error', (e) => resolve({ status: 0, body: Buffer.from(String(e)), type: '', ms: performance.now() - t, setCookie: [] }));
    req.end(payload);
  });
}

const problem = (a: Answer) => `HTTP ${a.status} ${a.body.toString('utf8', 0, 160)}`;
const jsonOf = <T>(a: Answer): T | undefined => {
  try {
    return JSON.parse(a.body.toString()) as T;
  } catch {
    return undefined;
  }
};

/** CPU time (ms) a process has used so far, all threads (utime + stime; 100 ticks a second). */
function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}
function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
/** Resets the peak RSS (VmHWM) so the figure is this run's, not the start-up's. */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not permitted: the peak is then since start
  }
}
/** The whole machine's busy and total CPU time (ms), from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0) * 10;
  const idle = (f[3]! + (f[4] ?? 0)) * 10;
  return { busy: total - idle, total };
}
function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // gone
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Processes: the compiled server, nginx

const children: ChildProcess[] = [];
function stopChildren(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null && c.pid) c.kill('SIGTERM');
}
process.on('exit', stopChildren);

const start = (name: string, cmd: string, args: string[], env: Record<string, string>) => startChild(children, name, cmd, args, env);

async function waitHealthy(url: string, child: ChildProcess, log: () => string, timeoutMs = 60_000): Promise<number> {
  const t = performance.now();
  while (performance.now() - t < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before it was ready:\n${log()}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return performance.now() - t;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`not ready after ${timeoutMs} ms: ${url}\n${log()}`);
}

const SERVER_DIST = path.join(ROOT, 'apps/server/dist/main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** The compiled server, as production runs it: built when missing or older than its sources. */
function ensureCompiledServer(): void {
  const built = existsSync(SERVER_DIST) ? statSync(SERVER_DIST).mtimeMs : 0;
  const sources = Math.max(newestSource(path.join(ROOT, 'apps/server/src')), newestSource(path.join(ROOT, 'packages/domain/src')));
  if (built > sources) return;
  process.stdout.write('Building the server (npm run build -w @portal/server)…\n');
  const r = spawnSync('npm', ['run', 'build', '-w', '@portal/server'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('the server build failed');
}

/**
 * The proxy in front of the instances: round robin over them, keepalive connections upstream.
 * Kept in this one function until deploy/nginx/portal.conf lands; then the bench
 * should render that file instead. The client address: nginx takes it from X-Forwarded-For only
 * when the connection comes from a trusted hop (`set_real_ip_from`, here the bench on loopback, in
 * production the load balancer or CDN), then overwrites X-Forwarded-For with it, so an instance
 * (TRUST_PROXY=1) sees the family's address and a client cannot forge one.
 */
export function nginxConfig(o: { prefix: string; listen: number; upstreams: number[] }): string {
  return `# Generated by bench/results-day.ts
worker_processes 1;
pid ${o.prefix}/nginx.pid;
error_log ${o.prefix}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${o.prefix}/client_body;
  proxy_temp_path ${o.prefix}/proxy;
  fastcgi_temp_path ${o.prefix}/fastcgi;
  uwsgi_temp_path ${o.prefix}/uwsgi;
  scgi_temp_path ${o.prefix}/scgi;
  client_max_body_size 2m;
  upstream portal {
${o.upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${o.listen};
    set_real_ip_from 127.0.0.1;
    real_ip_header X-Forwarded-For;
    location / {
      proxy_pass http://portal;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_read_timeout 60s;
    }
  }
}
`;
}

// ---------------------------------------------------------------------------------------------
// SQL per step: the real app in this process with a query log (before the servers start).

interface QueryCounts {
  [step: string]: number;
}

async function countQueries(url: string, meta: DatasetMeta, sheet: { cls: string; subject: string }, payer: number): Promise<QueryCounts> {
  let log: string[] | null = null;
  const onLog = (e: LogEvent) => {
    if (log && e.level === 'query') log.push(e.query.sql);
  };
  const handle = loggedDatabase(url, onLog);
  const app = await buildApp({ config: testConfig({ databaseUrl: url }), handle, logger: false });
  await app.ready();
  const counts: QueryCounts = {};
  try {
    const inject = async (step: string | null, method: 'GET' | 'POST' | 'PUT', u: string, token?: string, payload?: object) => {
      log = [];
      const r = await app.inject({
        method,
        url: u,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(payload ? { payload } : {}),
      });
      if (r.statusCode >= 300) throw new Error(`query count, ${method} ${u}: ${r.statusCode} ${r.body.slice(0, 160)}`);
      if (step) counts[step] = (counts[step] ?? 0) + log.length;
      log = null;
      return r;
    };
    const i = payer;
    const adm = formatAdmissionNumber(i);
    const login = await inject('sign-in', 'POST', '/api/student/login/', undefined, {
      email: `student${i}@bench.school`,
      password: STUDENT_PASSWORD,
    });
    const token = login.json<{ data: { access: string } }>().data.access;
    const q = `admission_number=${adm}&session_id=${meta.currentSessionId}&term=${TERM}`;
    await inject('card', 'GET', '/api/settings/');
    await inject('card', 'GET', '/api/sessions/', token);
    await inject('card', 'GET', `/api/report-card/?${q}`, token);
    await inject('pdf', 'GET', `/api/report-card/pdf/?${q}`, token);
    const staff = await inject(null, 'POST', '/api/staff/login/', undefined, BENCH_ACCOUNTS.staff);
    const staffToken = staff.json<{ data: { access: string } }>().data.access;
    const sq = { session_id: meta.currentSessionId, term: TERM, student_class: sheet.cls, subject: sheet.subject };
    const loaded = await inject(
      null,
      'GET',
      `/api/score-sheet/?${new URLSearchParams({ ...sq, session_id: String(sq.session_id) }).toString()}`,
      staffToken,
    );
    const s = loaded.json<SheetAnswer>();
    const row = s.rows.find((r) => r.takes)!;
    await inject('score save', 'PUT', '/api/score-sheet/', staffToken, {
      ...sq,
      rows: [{ admission_number: row.admission_number, components: componentsFor(s.components, 1, 0), version: row.result?.version ?? 0 }],
      reason: 'Bench: query count',
    });
    await inject('payment (offline)', 'POST', '/api/bursary/payments/', staffToken, offlineBody(0, meta, [1]));
    const init = await inject('payment (online initiate)', 'POST', '/api/payments/initiate/', token, onlineBody(i, meta));
    const data = init.json<{ data: { authorization_url: string; reference: string } }>().data;
    await inject(
      'payment (simulator)',
      'POST',
      `/api/payments/simulator/${new URL(data.authorization_url).pathname.split('/').pop()}/`,
      token,
      {
        outcome: 'pay',
      },
    );
    await inject('payment (online verify)', 'POST', '/api/payments/verify/', token, { reference: data.reference });
  } finally {
    await app.close();
    await handle.destroy();
  }
  return counts;
}

/**
 * Students with nothing paid yet for the term (no successful payment): the families who pay online
 * on results day. Others would be asked to confirm an overpayment, which few do.
 */
async function owingStudents(url: string, meta: DatasetMeta): Promise<number[]> {
  const sqlText = `select s.id from students s where not exists (select 1 from payments p where p.student_id = s.id
    and p.current_session = $1 and p.term = $2 and p.status = 'successful') order by s.id`;
  if (url.startsWith('sqlite:')) {
    const db = new SQLite(url.slice('sqlite:'.length), { readonly: true });
    try {
      return (db.prepare(sqlText.replace('$1', '?').replace('$2', '?')).all(meta.currentSession, TERM) as { id: number }[]).map(
        (r) => r.id,
      );
    } finally {
      db.close();
    }
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ id: number }>(sqlText, [meta.currentSession, TERM])).rows.map((r) => r.id);
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The people

interface SheetAnswer {
  components: { label: string; max: number }[];
  rows: { admission_number: string; takes: boolean; result: { version: number } | null }[];
  may_write: boolean;
  refusal: string | null;
}

/** Component scores within each component's maximum, different on every pass. */
function componentsFor(components: { label: string; max: number }[], pass: number, k: number): Record<string, number> {
  return Object.fromEntries(components.map((c, j) => [c.label, (pass * (j + 3) + k) % (c.max + 1)]));
}

let bankReferences = 0;
/** A bank teller the bursar types in, for one of `students` (families who do not pay online today). */
function offlineBody(i: number, meta: DatasetMeta, students: number[]) {
  return {
    admission_number: formatAdmissionNumber(students[(i * 37) % students.length]!),
    session_id: meta.currentSessionId,
    term: TERM,
    amount: 5000 + (i % 50) * 100,
    method: 'bank_transfer',
    bank: 'GTBank',
    bank_reference: `RDAY-${process.pid}-${Date.now().toString(36)}-${(bankReferences++).toString(36)}`,
    paid_on: `${meta.currentSession.slice(5, 9)}-07-20`,
    note: '',
  };
}

function onlineBody(student: number, meta: DatasetMeta) {
  return {
    admission_number: formatAdmissionNumber(student),
    full_name: 'Bench Parent',
    current_class: 'JSS 1A',
    current_session: meta.currentSession,
    email: `parent${student}@bench.school`,
    amount: 15000,
    term: TERM,
  };
}

interface RunPlan {
  base: string;
  meta: DatasetMeta;
  windowMs: number;
  visitors: number;
  onlinePayments: number;
  offlinePerMinute: number;
  /** Whom the bursar's tellers are for: students who do not pay online in this run. */
  offlineStudents: number[];
  teachers: number;
  seed: number;
  /**
   * How the card page is opened: `address`, by its address (a link, a reload): one document request,
   * the card rendered by the server with the page-view cookie (docs/decisions/013); `in-app`, from
   * the app's home page: the page's three API calls.
   */
  cardPage: 'address' | 'in-app';
  /** The PIN visitors' cards: the k-th checks student `student` with `pin`. */
  pins: { student: number; pin: string }[];
}

/** What one visitor's steps share: their connections, the run, the recorder, their address and token. */
interface Visit {
  agent: http.Agent;
  plan: RunPlan;
  rec: Recorder;
  random: () => number;
  addr: Record<string, string>;
  auth: Record<string, string>;
}

/** A family member: signs in, opens the card page, reads it, downloads the PDF, maybe pays. */
async function visitor(k: number, student: number, pays: boolean, plan: RunPlan, rec: Recorder, random: () => number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const addr = { 'x-forwarded-for': visitorAddress(k) };
  try {
    const login = await send(agent, plan.base, 'POST', '/api/student/login/', addr, {
      email: `student${student}@bench.school`,
      password: STUDENT_PASSWORD,
    });
    const token = jsonOf<{ data?: { access?: string } }>(login)?.data?.access;
    rec.record('sign-in', login.ms, login.status === 200 && token ? undefined : problem(login));
    if (!token) return;
    const auth = { ...addr, authorization: `Bearer ${token}` };
    const adm = formatAdmissionNumber(student);
    const q = `admission_number=${adm}&session_id=${plan.meta.currentSessionId}&term=${TERM}`;
    const visit: Visit = { agent, plan, rec, random, addr, auth };
    if (plan.cardPage === 'address') {
      // The card page opened by its address: the document, rendered by the server for the cookie's
      // user; the app then starts on the data inside it and asks the API for none of it.
      const cookie = login.setCookie.map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${VIEW_COOKIE}=`));
      const doc = await send(agent, plan.base, 'GET', `/report-card?session_id=${plan.meta.currentSessionId}&term=${TERM}`, {
        ...addr,
        cookie: cookie ?? '',
      });
      const html = doc.body.toString();
      const docOk = doc.status === 200 && html.includes('data-testid="card-summary"') && html.includes(adm);
      rec.record('card', doc.ms, docOk ? undefined : doc.status === 200 ? 'the card was not in the document' : problem(doc));
      if (!docOk) return;
      await readThenDownload(visit, q);
    } else if (!(await cardPageInApp(visit, adm, q))) return;
    else await readThenDownload(visit, q);
    if (!pays) return;
    await payOnline(visit, student);
  } finally {
    agent.destroy();
  }
}

/** A family's parent: signs in by phone, opens the home (every child at a glance), each child's card, then one PDF. */
async function parentVisitor(k: number, family: number, plan: RunPlan, rec: Recorder, random: () => number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const addr = { 'x-forwarded-for': visitorAddress(k) };
  try {
    const login = await send(agent, plan.base, 'POST', '/api/parent/login/', addr, {
      email: benchParentPhone(family),
      password: BENCH_ACCOUNTS.parent.password,
    });
    const token = jsonOf<{ data?: { access?: string } }>(login)?.data?.access;
    rec.record('sign-in (parent)', login.ms, login.status === 200 && token ? undefined : problem(login));
    if (!token) return;
    const auth = { ...addr, authorization: `Bearer ${token}` };
    const home = await send(agent, plan.base, 'GET', '/api/parent/children/', auth);
    const kids = childrenOfFamily(family, plan.meta.students).map(formatAdmissionNumber);
    const homeOk = home.status === 200 && kids.every((a) => home.body.includes(a));
    rec.record('parent home', home.ms, homeOk ? undefined : problem(home));
    if (!homeOk) return;
    const visit: Visit = { agent, plan, rec, random, addr, auth };
    const q = (adm: string) => `admission_number=${adm}&session_id=${plan.meta.currentSessionId}&term=${TERM}`;
    for (const adm of kids) {
      await sleep(1000 + random() * 3000);
      const card = await send(agent, plan.base, 'GET', `/api/report-card/?${q(adm)}`, auth);
      rec.record('card (parent)', card.ms, card.status === 200 && card.body.includes(adm) ? undefined : problem(card));
    }
    await readThenDownload(visit, q(kids[0]!));
  } finally {
    agent.destroy();
  }
}

/**
 * A family without an account, with a result-checker PIN (issue 34): the check page's options, the
 * check (admission number and PIN, typed as printed: in groups of four), a read, then the PDF by the
 * check's link (no further use of the PIN).
 */
async function pinVisitor(k: number, plan: RunPlan, rec: Recorder, random: () => number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  // Addresses of their own, after the account holders'.
  const addr = { 'x-forwarded-for': visitorAddress(plan.visitors + k) };
  const card = plan.pins[k]!;
  try {
    const options = await send(agent, plan.base, 'GET', '/api/check-result/options/', addr);
    rec.record('GET /api/check-result/options/', options.ms, options.status === 200 ? undefined : problem(options));
    await sleep(3000 + random() * 5000);
    const adm = formatAdmissionNumber(card.student);
    const check = await send(agent, plan.base, 'POST', '/api/check-result/', addr, {
      admission_number: adm,
      pin: card.pin.replace(/(\d{4})(?=\d)/g, '$1 '),
      session_id: plan.meta.currentSessionId,
      term: TERM,
    });
    const body = jsonOf<{ pdf_token?: string }>(check);
    const ok = check.status === 200 && check.body.includes(adm) && Boolean(body?.pdf_token);
    rec.record('pin check', check.ms, ok ? undefined : problem(check));
    if (!ok) return;
    await sleep(2000 + random() * 6000);
    const pdf = await send(agent, plan.base, 'GET', `/api/check-result/pdf/?token=${encodeURIComponent(body!.pdf_token!)}`, addr);
    const pdfOk = pdf.status === 200 && pdf.type.includes('pdf') && pdf.body.subarray(0, 5).toString() === '%PDF-';
    rec.record('pin pdf', pdf.ms, pdfOk ? undefined : problem(pdf));
  } finally {
    agent.destroy();
  }
}

/** The admin signed in on `agent`: the headers of their later requests (the setup steps before the window). */
async function adminHeaders(agent: http.Agent, base: string, addr: Record<string, string>): Promise<Record<string, string>> {
  const login = await send(agent, base, 'POST', '/api/admin/login/', addr, BENCH_ACCOUNTS.admin);
  const token = jsonOf<{ data?: { access?: string } }>(login)?.data?.access;
  if (!token) throw new Error(`admin sign-in: ${problem(login)}`);
  return { ...addr, authorization: `Bearer ${token}` };
}

/**
 * Before the window: the admin turns the PIN check on and makes a batch of `count` PINs for the
 * term, and reads them from the printer's CSV; PIN k is for student k (spread over the school).
 */
async function setUpPins(base: string, meta: DatasetMeta, count: number): Promise<{ student: number; pin: string }[]> {
  if (!count) return [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const addr = { 'x-forwarded-for': SCHOOL_ADDRESS };
  try {
    const auth = await adminHeaders(agent, base, addr);
    const settings = jsonOf<Record<string, unknown>>(await send(agent, base, 'GET', '/api/settings/', addr))!;
    const put = await send(agent, base, 'PUT', '/api/settings/', auth, { ...settings, result_pins_enabled: true });
    if (put.status !== 200) throw new Error(`settings: ${problem(put)}`);
    const made = await send(agent, base, 'POST', '/api/result-pins/batches/', auth, {
      session_id: meta.currentSessionId,
      term: TERM,
      count,
      uses: 5,
    });
    const batch = jsonOf<{ id?: number }>(made);
    if (made.status !== 201 || !batch?.id) throw new Error(`PIN batch: ${problem(made)}`);
    process.stdout.write(`  a batch of ${count} PINs in ${fmtMs(made.ms)}\n`);
    const csv = await send(agent, base, 'GET', `/api/result-pins/batches/${batch.id}/cards.csv`, auth);
    if (csv.status !== 200) throw new Error(`PIN CSV: ${problem(csv)}`);
    const pins = csv.body
      .toString()
      .replace(/^\ufeff/, '')
      .split(/\r?\n/)
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split(',')[1]!);
    const step = Math.max(1, Math.floor(meta.students / count));
    return pins.map((pin, k) => ({ student: 1 + ((k * step) % meta.students), pin }));
  } finally {
    agent.destroy();
  }
}

/**
 * The release (decision 050): an arm's report-card PDFs are drawn once when it is released, in the
 * background. The bench school was released by the data generator, so before the window the admin
 * asks for each released arm's class PDF of the term, one at a time, which draws and stores every
 * card of the arm (what the background renderer does at release). With `PDF_STORE=0` (the "before"
 * of the A/B) nothing is stored and this step is skipped. Returns the arms, cards' time and the
 * instances' CPU spent.
 */
async function releasePdfs(base: string, meta: DatasetMeta, pids: number[]): Promise<{ arms: number; ms: number; cpuMs: number } | null> {
  if (process.env.PDF_STORE === '0' || process.env.RESULTS_DAY_RELEASE === '0') return null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const addr = { 'x-forwarded-for': SCHOOL_ADDRESS };
  try {
    const auth = await adminHeaders(agent, base, addr);
    const pubs = jsonOf<{ student_class: string }[]>(
      await send(agent, base, 'GET', `/api/results/publications/?session_id=${meta.currentSessionId}&term=${TERM}`, auth),
    )!;
    const cpu0 = pids.reduce((a, p) => a + cpuMs(p), 0);
    const t = performance.now();
    for (const { student_class } of pubs) {
      const q = `session_id=${meta.currentSessionId}&term=${TERM}&student_class=${encodeURIComponent(student_class)}`;
      // A class's 60 cards drawn at once: minutes on a machine other work keeps busy.
      const res = await send(agent, base, 'GET', `/api/report-cards/pdf/?${q}`, auth, undefined, 600_000);
      if (res.status !== 200) throw new Error(`class PDF ${student_class}: ${problem(res)}`);
    }
    const out = { arms: pubs.length, ms: Math.round(performance.now() - t), cpuMs: pids.reduce((a, p) => a + cpuMs(p), 0) - cpu0 };
    const sizes = jsonOf<{ cards: { files: number; bytes: number }; total_bytes: number }>(
      await send(agent, base, 'GET', '/api/report-card-pdfs/storage/', auth),
    );
    process.stdout.write(
      `  ${out.arms} arms released: their cards drawn and stored in ${fmtMs(out.ms)}, ${fmtMs(out.cpuMs)} of the instances' CPU; ` +
        `stored: ${sizes?.cards.files ?? '?'} cards, ${Math.round((sizes?.total_bytes ?? 0) / 1024 / 1024)} MB with the class PDFs\n`,
    );
    return out;
  } finally {
    agent.destroy();
  }
}

/** The card page opened from the app's home page: the school's name, the session picker and the card, all at once. */
async function cardPageInApp({ agent, plan, rec, addr, auth }: Visit, adm: string, q: string): Promise<boolean> {
  // The report card page (apps/web report-card.tsx): the school's name for the header, the
  // session picker and the card, all at once; the page is shown when the last one arrives.
  const t = performance.now();
  const [settings, sessions, card] = await Promise.all([
    send(agent, plan.base, 'GET', '/api/settings/', addr),
    send(agent, plan.base, 'GET', '/api/sessions/', auth),
    send(agent, plan.base, 'GET', `/api/report-card/?${q}`, auth),
  ]);
  const pageMs = performance.now() - t;
  rec.record('GET /api/settings/', settings.ms, settings.status === 200 ? undefined : problem(settings));
  rec.record('GET /api/sessions/', sessions.ms, sessions.status === 200 ? undefined : problem(sessions));
  const cardOk = card.status === 200 && card.body.includes(adm);
  rec.record('GET /api/report-card/', card.ms, cardOk ? undefined : problem(card));
  const pageOk = cardOk && settings.status === 200 && sessions.status === 200;
  rec.record('card', pageMs, pageOk ? undefined : problem([card, settings, sessions].find((a) => a.status !== 200) ?? card));
  return pageOk;
}

/** Reading the card before downloading its PDF. */
async function readThenDownload({ agent, plan, rec, random, auth }: Visit, q: string): Promise<void> {
  await sleep(2000 + random() * 6000);
  const pdf = await send(agent, plan.base, 'GET', `/api/report-card/pdf/?${q}`, auth);
  const pdfOk = pdf.status === 200 && pdf.type.includes('pdf') && pdf.body.subarray(0, 5).toString() === '%PDF-';
  rec.record('pdf', pdf.ms, pdfOk ? undefined : problem(pdf));
}

/** Then the fees: the simulator's checkout stands in for Paystack's. */
async function payOnline({ agent, plan, rec, random, auth }: Visit, student: number): Promise<void> {
  await sleep(5000 + random() * 10_000);
  const init = await send(agent, plan.base, 'POST', '/api/payments/initiate/', auth, onlineBody(student, plan.meta));
  const started = jsonOf<{ data?: { authorization_url?: string; reference?: string } }>(init)?.data;
  rec.record('payment (online initiate)', init.ms, init.status === 200 && started?.reference ? undefined : problem(init));
  if (!started?.authorization_url || !started.reference) return;
  await sleep(3000 + random() * 5000);
  const code = new URL(started.authorization_url).pathname.split('/').pop();
  const paid = await send(agent, plan.base, 'POST', `/api/payments/simulator/${code}/`, auth, { outcome: 'pay' });
  rec.record('payment (simulator)', paid.ms, paid.status === 200 ? undefined : problem(paid));
  if (paid.status !== 200) return;
  const verify = await send(agent, plan.base, 'POST', '/api/payments/verify/', auth, { reference: started.reference });
  const verified = verify.status === 200 && jsonOf<{ status?: string }>(verify)?.status === 'success';
  rec.record('payment (online verify)', verify.ms, verified ? undefined : problem(verify));
}

interface Teacher {
  token: string;
  agent: http.Agent;
  cls: string;
  subject: string;
  sheet: SheetAnswer;
  versions: Map<string, number>;
}

async function staffSignIn(agent: http.Agent, base: string, n: number): Promise<string> {
  const r = await send(
    agent,
    base,
    'POST',
    '/api/staff/login/',
    { 'x-forwarded-for': SCHOOL_ADDRESS },
    {
      email: n === 1 ? BENCH_ACCOUNTS.staff.email : `staff${n}@bench.school`,
      password: STAFF_PASSWORD,
    },
  );
  const token = jsonOf<{ data?: { access?: string } }>(r)?.data?.access;
  if (!token) throw new Error(`staff${n} cannot sign in: ${problem(r)}`);
  return token;
}

/** 20 teachers, each on a score grid of their own (an arm–subject pair they teach this session). */
async function setUpTeachers(base: string, meta: DatasetMeta, count: number): Promise<Teacher[]> {
  const taken = new Set<string>();
  const teachers: Teacher[] = [];
  for (let n = 1; teachers.length < count && n <= meta.staff; n++) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const token = await staffSignIn(agent, base, n);
    const h = { 'x-forwarded-for': SCHOOL_ADDRESS, authorization: `Bearer ${token}` };
    const mine = await send(agent, base, 'GET', `/api/teaching/my-classes/?session_id=${meta.currentSessionId}`, h);
    const body = jsonOf<{ subjects?: { class_name: string; subject: string }[] }>(mine);
    const pairs = (body?.subjects ?? []).filter((p) => !taken.has(`${p.class_name}|${p.subject}`));
    let chosen: Teacher | undefined;
    for (const p of pairs) {
      const sq = new URLSearchParams({
        session_id: String(meta.currentSessionId),
        term: TERM,
        student_class: p.class_name,
        subject: p.subject,
      });
      const r = await send(agent, base, 'GET', `/api/score-sheet/?${sq.toString()}`, h);
      const sheet = jsonOf<SheetAnswer>(r);
      // Only the rows of students who take the subject can be typed in.
      if (sheet) sheet.rows = sheet.rows.filter((row) => row.takes);
      if (r.status !== 200 || !sheet?.may_write || !sheet.rows.length) continue;
      taken.add(`${p.class_name}|${p.subject}`);
      const versions = new Map(sheet.rows.map((row) => [row.admission_number, row.result?.version ?? 0]));
      chosen = { token, agent, cls: p.class_name, subject: p.subject, sheet, versions };
      break;
    }
    if (chosen) teachers.push(chosen);
    else agent.destroy();
  }
  if (teachers.length < count) throw new Error(`only ${teachers.length} teachers with a score grid they may write (wanted ${count})`);
  return teachers;
}

/** A teacher typing: one row autosaved every 3 to 7 s, the rows in turn, each with the version last seen. */
async function teacherLoop(t: Teacher, plan: RunPlan, until: number, rec: Recorder, random: () => number): Promise<void> {
  let pass = 0;
  await sleep(random() * 5000);
  while (performance.now() < until) {
    const row = t.sheet.rows[pass % t.sheet.rows.length]!;
    pass++;
    const body = {
      session_id: plan.meta.currentSessionId,
      term: TERM,
      student_class: t.cls,
      subject: t.subject,
      rows: [
        {
          admission_number: row.admission_number,
          components: componentsFor(t.sheet.components, pass, 0),
          version: t.versions.get(row.admission_number) ?? 0,
        },
      ],
      // Released results: a change needs a reason.
      reason: 'Results day: a score corrected',
    };
    const r = await send(
      t.agent,
      plan.base,
      'PUT',
      '/api/score-sheet/',
      { 'x-forwarded-for': SCHOOL_ADDRESS, authorization: `Bearer ${t.token}` },
      body,
    );
    const out = jsonOf<{ rows?: { admission_number: string; result: { version: number } | null }[] }>(r);
    for (const s of out?.rows ?? []) t.versions.set(s.admission_number, s.result?.version ?? 0);
    rec.record('score save', r.ms, r.status === 200 ? undefined : problem(r));
    await sleep(3000 + random() * 4000);
  }
}

/** The bursar: offline payments (bank tellers typed in) at random, `perMinute` on average. */
async function bursarLoop(token: string, plan: RunPlan, until: number, rec: Recorder, random: () => number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let i = 0;
  try {
    for (;;) {
      await sleep(-Math.log(1 - random()) * (60_000 / plan.offlinePerMinute));
      if (performance.now() >= until) break;
      const r = await send(
        agent,
        plan.base,
        'POST',
        '/api/bursary/payments/',
        { 'x-forwarded-for': SCHOOL_ADDRESS, authorization: `Bearer ${token}` },
        offlineBody(i++, plan.meta, plan.offlineStudents),
      );
      rec.record('payment (offline)', r.ms, r.status === 200 || r.status === 201 ? undefined : problem(r));
    }
  } finally {
    agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Unloaded cost of each step: CPU per request, measured on one instance, one request at a time.

interface StepCost {
  requests: number;
  /** Median wall time with nothing else running. */
  p50: number;
  /** CPU of the instance (all threads) per request. */
  serverCpuMs: number;
  /** CPU of the PostgreSQL backends serving the bench database per request (PostgreSQL only). */
  dbCpuMs: number | null;
}

async function pgBackendPids(pgAdmin: pg.Pool | null, dbName: string): Promise<number[]> {
  if (!pgAdmin) return [];
  const r = await pgAdmin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName]);
  return r.rows.map((x) => x.pid);
}

async function calibrate(
  base: string,
  serverPid: number,
  meta: DatasetMeta,
  pgAdmin: pg.Pool | null,
  dbName: string,
  teacher: Teacher,
): Promise<Record<string, StepCost>> {
  const out: Record<string, StepCost> = {};
  const measure = async (step: string, n: number, one: (j: number) => Promise<Answer>) => {
    // A few untimed first: a process just started runs its first requests cold (JIT, caches).
    for (let j = n; j < n + Math.ceil(n / 4); j++) await one(j);
    // The backends of the instance's pool, which is warm by now: their CPU before and after.
    const pids = await pgBackendPids(pgAdmin, dbName);
    const dbBefore = new Map(pids.map((p) => [p, cpuMs(p)]));
    const before = cpuMs(serverPid);
    const times: number[] = [];
    for (let j = 0; j < n; j++) {
      const a = await one(j);
      if (a.status >= 300) throw new Error(`calibration ${step}: ${problem(a)}`);
      times.push(a.ms);
    }
    const serverCpu = cpuMs(serverPid) - before;
    // A backend gone meanwhile (cpuMs 0) counts nothing rather than minus its whole life.
    const dbCpu = pids.reduce((a, p) => a + Math.max(0, cpuMs(p) - dbBefore.get(p)!), 0);
    times.sort((a, b) => a - b);
    out[step] = {
      requests: n,
      p50: round1(times[Math.floor(n / 2)]!),
      serverCpuMs: round1(serverCpu / n),
      dbCpuMs: pgAdmin ? round1(dbCpu / n) : null,
    };
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  // Students from the top of the school, signing in from addresses of their own (192.168.x.y).
  const student = (j: number) => meta.students - j;
  const addr = (j: number) => ({ 'x-forwarded-for': `192.168.${j >> 8}.${j & 255}` });
  const tokens: string[] = [];
  await measure('sign-in', 24, async (j) => {
    const a = await send(agent, base, 'POST', '/api/student/login/', addr(j), {
      email: `student${student(j)}@bench.school`,
      password: STUDENT_PASSWORD,
    });
    tokens[j] = jsonOf<{ data: { access: string } }>(a)?.data.access ?? '';
    return a;
  });
  const cardQ = (j: number) =>
    `admission_number=${formatAdmissionNumber(student(j % 24))}&session_id=${meta.currentSessionId}&term=${TERM}`;
  const auth = (j: number) => ({ ...addr(j % 24), authorization: `Bearer ${tokens[j % 24]}` });
  await measure('GET /api/report-card/', 60, (j) => send(agent, base, 'GET', `/api/report-card/?${cardQ(j)}`, auth(j)));
  await measure('GET /api/sessions/', 60, (j) => send(agent, base, 'GET', '/api/sessions/', auth(j)));
  await measure('GET /api/settings/', 60, (j) => send(agent, base, 'GET', '/api/settings/', addr(j % 24)));
  await measure('pdf', 24, (j) => send(agent, base, 'GET', `/api/report-card/pdf/?${cardQ(j)}`, auth(j)));
  // The same 24 cards again: each one's second download (stored since the first, decision 050; drawn again with PDF_STORE=0).
  await measure('pdf (again)', 24, (j) => send(agent, base, 'GET', `/api/report-card/pdf/?${cardQ(j)}`, auth(j)));
  let pass = 1000;
  await measure('score save', 60, async () => {
    const row = teacher.sheet.rows[pass % teacher.sheet.rows.length]!;
    pass++;
    const a = await send(
      agent,
      base,
      'PUT',
      '/api/score-sheet/',
      { 'x-forwarded-for': SCHOOL_ADDRESS, authorization: `Bearer ${teacher.token}` },
      {
        session_id: meta.currentSessionId,
        term: TERM,
        student_class: teacher.cls,
        subject: teacher.subject,
        rows: [
          {
            admission_number: row.admission_number,
            components: componentsFor(teacher.sheet.components, pass, 1),
            version: teacher.versions.get(row.admission_number) ?? 0,
          },
        ],
        reason: 'Results day: a score corrected',
      },
    );
    for (const s of jsonOf<{ rows?: { admission_number: string; result: { version: number } | null }[] }>(a)?.rows ?? [])
      teacher.versions.set(s.admission_number, s.result?.version ?? 0);
    return a;
  });
  agent.destroy();
  return out;
}

// ---------------------------------------------------------------------------------------------

export interface ResultsDayReport {
  generatedAt: string;
  command: string;
  database: string;
  instances: number;
  proxy: string | null;
  server: string;
  minutes: number;
  dataset: DatasetMeta;
  visitors: { count: number; students: number; peakPerMinute: number; meanPerMinute: number; note: string };
  teachers: number;
  offlinePaymentsPerMinute: number;
  onlinePayments: number;
  clientAddresses: string;
  steps: Record<string, StepStats & { budgetMet: boolean | null }>;
  requests: Record<string, StepStats>;
  processes: Record<string, { peakRssMb: number | null; cpuPercentMean: number; cpuPercentPeak10s: number }>;
  /**
   * The server's CPU (every instance, and the PostgreSQL backends) over the window, divided by the
   * visitors (accounts and PIN families): what one visitor costs, teachers' saves and payments included.
   */
  cpuPerVisitorMs: number;
  /** Before the window: the released arms' card PDFs drawn once (decision 050), or null with PDF_STORE=0. */
  release: { arms: number; ms: number; cpuMs: number } | null;
  pdfStore: boolean;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    loadavgBefore: number[];
    loadavgAfter: number[];
    machineCpuPercentMean: number;
    otherProcessesCpuPercentMean: number;
  };
  unloaded: Record<string, StepCost>;
  queriesPerStep: QueryCounts;
  errorSamples: string[];
  budgetsMissed: string[];
  seconds: number;
}

/** The steps of the budget table, in the order a visitor meets them. */
const STEPS = [
  'sign-in',
  'sign-in (parent)',
  'parent home',
  'card (parent)',
  'card',
  'pdf',
  'pin check',
  'pin pdf',
  'score save',
  'payment (offline)',
  'payment (online initiate)',
  'payment (simulator)',
  'payment (online verify)',
];

export function printReport(r: ResultsDayReport): string {
  const pad = (s: string | number, n: number, right = false) => (right ? String(s).padStart(n) : String(s).padEnd(n));
  const lines = [
    `Results day: ${r.database}, ${r.instances} instance(s)${r.proxy ? ` behind ${r.proxy}` : ''}, ${r.minutes} min window`,
    `  ${r.visitors.count.toLocaleString()} visitors (${r.visitors.note}); peak ${r.visitors.peakPerMinute}/min, mean ${r.visitors.meanPerMinute}/min;` +
      ` ${r.teachers} teachers autosaving; offline payments ${r.offlinePaymentsPerMinute}/min; ${r.onlinePayments} online payments`,
    '',
    [
      pad('step', 26),
      pad('count', 6, true),
      pad('p50 ms', 8, true),
      pad('p99 ms', 8, true),
      pad('max ms', 8, true),
      pad('errors', 6, true),
      '  budget p99 < 1 s, 0 errors',
    ].join(' '),
  ];
  const row = (name: string, s: StepStats, verdict: string) =>
    [
      pad(name, 26),
      pad(s.count, 6, true),
      pad(s.p50, 8, true),
      pad(s.p99, 8, true),
      pad(s.max, 8, true),
      pad(s.errors, 6, true),
      `  ${verdict}`,
    ].join(' ');
  for (const [name, s] of Object.entries(r.steps)) lines.push(row(name, s, s.budgetMet === null ? '-' : s.budgetMet ? 'MET' : 'MISSED'));
  lines.push('', 'The card page’s requests (each one, same run):');
  for (const [name, s] of Object.entries(r.requests)) lines.push(row(`  ${name}`, s, ''));
  lines.push(
    '',
    `Server CPU per visitor (instances${r.database.startsWith('postgres') ? ' and PostgreSQL' : ''}, over the window, ÷ ${r.visitors.count.toLocaleString()} visitors and the PIN families): ${r.cpuPerVisitorMs} ms; ` +
      `PDFs stored: ${r.pdfStore ? 'yes' : 'no (PDF_STORE=0)'}` +
      (r.release
        ? `; the release drew ${r.release.arms} arms' cards in ${fmtMs(r.release.ms)} (${fmtMs(r.release.cpuMs)} CPU), before the window`
        : ''),
  );
  lines.push('', [pad('process', 26), pad('peak RSS', 9, true), pad('CPU mean', 9, true), pad('CPU peak 10 s', 14, true)].join(' '));
  for (const [name, p] of Object.entries(r.processes))
    lines.push(
      [
        pad(name, 26),
        pad(p.peakRssMb === null ? '-' : `${p.peakRssMb} MB`, 9, true),
        pad(`${p.cpuPercentMean} %`, 9, true),
        pad(`${p.cpuPercentPeak10s} %`, 14, true),
      ].join(' '),
    );
  lines.push(
    `  (100 % = one core.) Machine: ${r.machine.cpus} cores, all processes ${r.machine.machineCpuPercentMean} % of the machine on average, of which ` +
      `${r.machine.otherProcessesCpuPercentMean} % (of one core) not this bench's; load ${r.machine.loadavgBefore.join(' ')} before, ${r.machine.loadavgAfter.join(' ')} after`,
    '',
    'Unloaded (no other load from this bench; after a few warm-up requests), one request at a time on instance 1: p50, CPU per request',
  );
  for (const [name, c] of Object.entries(r.unloaded))
    lines.push(
      `  ${pad(name, 24)} p50 ${pad(c.p50, 6, true)} ms   server CPU ${pad(c.serverCpuMs, 6, true)} ms${c.dbCpuMs === null ? '' : `   PostgreSQL CPU ${c.dbCpuMs} ms`}`,
    );
  lines.push(
    `SQL statements per step: ${Object.entries(r.queriesPerStep)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  if (r.errorSamples.length) lines.push('', 'Errors:', ...r.errorSamples.map((e) => `  ! ${e}`));
  lines.push('', r.budgetsMissed.length ? `Budgets missed:\n  ${r.budgetsMissed.join('\n  ')}` : 'Every step met p99 < 1 s with 0 errors.');
  return lines.join('\n');
}

export async function runResultsDay(args: Args): Promise<number> {
  const started = performance.now();
  const loadavgBefore = os.loadavg().map(round1);
  const minutes = typeof args.minutes === 'string' ? Number(args.minutes) : 10;
  if (!(minutes > 0 && minutes <= 60)) throw new Error('--minutes must be between 0 and 60');
  const students = intArg(args, 'students', 1500);
  const loc = datasetLocation(students, typeof args.db === 'string' ? args.db : undefined);
  const isPg = loc.kind === 'postgres';
  const instances = isPg ? intArg(args, 'instances', 2) : 1;
  if (!isPg && typeof args.instances === 'string' && args.instances !== '1')
    throw new Error('SQLite runs one instance: --instances needs --db postgres://…');
  const teacherCount = intArg(args, 'teachers', 20);
  const offlinePerMinute = intArg(args, 'offline-per-minute', 3);
  const onlinePerMinute = intArg(args, 'online-per-minute', 3);
  const seed = intArg(args, 'seed', 18);
  const pinVisitors = intArg(args, 'pin-visitors', 300);
  const cardPage = args['card-page'] === 'in-app' ? 'in-app' : 'address';
  if (typeof args['card-page'] === 'string' && !['address', 'in-app'].includes(args['card-page']))
    throw new Error('--card-page is address (the document, rendered by the server) or in-app (the page’s API calls)');

  let meta = datasetIsCurrent(loc.url, students);
  if (!meta) {
    process.stdout.write(`Dataset ${loc.label} missing or stale: generating…\n`);
    meta = await generate({ students, sessions: 2, url: loc.url });
  }
  ensureCompiledServer();

  // The SQL each step runs, counted in this process before any server starts (SQLite: one writer).
  process.stdout.write('Counting the SQL of each step (in-process)…\n');
  const owing = await owingStudents(loc.url, meta);
  if (owing.length < 2) throw new Error('no student owes the term: regenerate the dataset (npm run bench:data)');
  const queriesPerStep = await countQueries(loc.url, meta, { cls: 'SSS 1A', subject: 'Mathematics' }, owing.pop()!);

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'rday-'));
  // The web app, served by every instance: the card page opened by its address is rendered by the server.
  const webDist = path.join(tmp, 'web');
  process.stdout.write('Building the web app…\n');
  const web = spawnSync('npx', ['vite', 'build', '--outDir', webDist, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: path.join(ROOT, 'apps/web'),
    stdio: 'inherit',
  });
  if (web.status !== 0) throw new Error('the web build failed');
  const ports = Array.from({ length: instances }, (_, k) => PORT_BASE + 1 + k);
  const front = instances > 1 ? PORT_BASE : ports[0]!;
  const base = `http://127.0.0.1:${front}`;
  const redisUrl = isPg ? (process.env.RESULTS_DAY_REDIS_URL ?? 'redis://127.0.0.1:6379/2') : '';
  const servers: { name: string; child: ChildProcess; log: () => string }[] = [];
  let pgAdmin: pg.Pool | null = null;
  const dbName = isPg ? new URL(loc.url).pathname.slice(1) : '';
  try {
    for (const [k, port] of ports.entries()) {
      // Production settings, except: TRUST_PROXY (the bench, or nginx, stands for the proxy that
      // tells each family's address) and the payment simulator (no Paystack on a bench).
      const s = start(`instance ${k + 1}`, process.execPath, ['--enable-source-maps', SERVER_DIST], {
        NODE_ENV: 'production',
        PUBLIC_URL: base,
        DATABASE_URL: loc.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DEMO_DATA: '0',
        DATA_DIR: path.join(tmp, `data-${k + 1}`),
        JWT_SECRET,
        TRUST_PROXY: '1',
        PAYMENT_SIMULATOR: '1',
        REDIS_URL: redisUrl,
        WEB_DIST: webDist,
      });
      servers.push({ name: `instance ${k + 1} (:${port})`, ...s });
      // One after the other: the second finds the migrations done.
      const ms = await waitHealthy(`http://127.0.0.1:${port}/api/health/ready`, s.child, s.log);
      process.stdout.write(`  instance ${k + 1} on :${port} ready in ${fmtMs(ms)}\n`);
    }
    let nginx: { child: ChildProcess; log: () => string } | null = null;
    if (instances > 1) {
      const prefix = path.join(tmp, 'nginx');
      mkdirSync(prefix);
      // nginx run as root hands its workers to `nobody`: they must reach the temp folders.
      chmodSync(tmp, 0o755);
      chmodSync(prefix, 0o755);
      writeFileSync(path.join(prefix, 'nginx.conf'), nginxConfig({ prefix, listen: PORT_BASE, upstreams: ports }));
      nginx = start(
        'nginx',
        'nginx',
        ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log'), '-g', 'daemon off;'],
        {},
      );
      await waitHealthy(`${base}/api/health/ready`, nginx.child, nginx.log, 10_000);
      process.stdout.write(`  nginx on :${PORT_BASE} → ${ports.map((p) => `:${p}`).join(', ')}\n`);
    }
    if (isPg) {
      const admin = new URL(loc.url);
      pgAdmin = new pg.Pool({ connectionString: admin.toString(), max: 1 });
    }

    const rec = new Recorder();
    const random = rng(seed);
    const windowMs = minutes * 60_000;
    // Each student once, and one parent per family (issue 33: 1,100 families for 1,500 students).
    const families = benchFamilies(meta.students);
    const visitorsN = meta.students + families;
    const onlinePayments = Math.min(visitorsN, Math.round(onlinePerMinute * minutes));
    const owingSet = new Set(owing);
    const offlineStudents = Array.from({ length: meta.students }, (_, k) => k + 1).filter((i) => !owingSet.has(i));
    const plan: RunPlan = {
      base,
      meta,
      windowMs,
      visitors: visitorsN,
      onlinePayments,
      offlinePerMinute,
      offlineStudents,
      teachers: teacherCount,
      seed,
      cardPage,
      pins: [],
    };

    process.stdout.write(`Signing in ${teacherCount} teachers and the bursar…\n`);
    const teachers = await setUpTeachers(base, meta, teacherCount + 1);
    // The extra teacher's grid is for the calibration, so the run's teachers keep their own pace.
    const calibrationTeacher = teachers.pop()!;
    const bursarAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const bursarToken = await staffSignIn(bursarAgent, base, 1);
    bursarAgent.destroy();
    process.stdout.write(`Result-checker PINs for ${pinVisitors} families without accounts…\n`);
    plan.pins = await setUpPins(base, meta, pinVisitors);

    process.stdout.write("The release: every released arm's card PDFs drawn once (decision 050; skipped with PDF_STORE=0)…\n");
    const release = await releasePdfs(
      base,
      meta,
      servers.map((x) => x.child.pid!),
    );
    process.stdout.write('Unloaded cost of each step (one request at a time, instance 1)…\n');
    const unloaded = await calibrate(`http://127.0.0.1:${ports[0]}`, servers[0]!.child.pid!, meta, pgAdmin, dbName, calibrationTeacher);
    calibrationTeacher.agent.destroy();

    // Who comes when: each student twice (the student and a parent), in a random order.
    // A positive entry is a student, a negative one a family's parent.
    const who = Array.from({ length: visitorsN }, (_, k) => (k < meta.students ? k + 1 : -(k - meta.students + 1)));
    for (let k = who.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [who[k], who[j]] = [who[j]!, who[k]!];
    }
    const arrivals = arrivalTimes(visitorsN, windowMs, random);
    // The payers: visitors whose student owes the whole term.
    const candidates = who.flatMap((student, k) => (student > 0 && owingSet.has(student) ? [k] : []));
    const payers = new Set<number>();
    while (payers.size < Math.min(onlinePayments, candidates.length)) payers.add(candidates[Math.floor(random() * candidates.length)]!);
    const perMinute = new Array<number>(Math.ceil(minutes)).fill(0);
    for (const a of arrivals) perMinute[Math.floor(a / 60_000)]!++;

    // Sampling: CPU and RSS of every process of the portal, the machine's CPU.
    const procs: { name: string; pids: () => number[] }[] = servers.map((s) => ({ name: s.name, pids: () => [s.child.pid!] }));
    if (nginx) {
      const master = nginx.child.pid!;
      procs.push({ name: 'nginx (master + worker)', pids: () => [master, ...childPids(master)] });
    }
    let dbPids: number[] = [];
    if (isPg) procs.push({ name: `PostgreSQL backends (${dbName})`, pids: () => dbPids });
    procs.push({ name: 'bench (load generator)', pids: () => [process.pid] });
    for (const s of servers) resetPeak(s.child.pid!);
    const cpuSeries = new Map<string, number[]>(procs.map((p) => [p.name, []]));
    const rssPeak = new Map<string, number>();
    const lastCpu = new Map<string, number>();
    const sumCpu = (p: { pids: () => number[] }) => p.pids().reduce((a, pid) => a + cpuMs(pid), 0);
    let ownCpuTotal = 0;
    const sampleMs = 10_000;
    const sample = async () => {
      if (isPg) dbPids = await pgBackendPids(pgAdmin, dbName).catch(() => dbPids);
      for (const p of procs) {
        const now = sumCpu(p);
        const used = Math.max(0, now - (lastCpu.get(p.name) ?? now));
        lastCpu.set(p.name, now);
        cpuSeries.get(p.name)!.push(used);
        ownCpuTotal += used;
        const rss = p.pids().reduce((a, pid) => a + statusKb(pid, 'VmRSS'), 0);
        rssPeak.set(p.name, Math.max(rssPeak.get(p.name) ?? 0, rss));
      }
    };
    if (isPg) dbPids = await pgBackendPids(pgAdmin, dbName);
    for (const p of procs) lastCpu.set(p.name, sumCpu(p));
    const machineStart = machineCpu();
    const sampler = setInterval(() => void sample(), sampleMs);

    process.stdout.write(
      `Results day: ${visitorsN.toLocaleString()} visitors over ${minutes} min (peak minute ${Math.max(...perMinute)}, ` +
        `${teacherCount} teachers, offline payments ${offlinePerMinute}/min, ${onlinePayments} online payments)…\n`,
    );
    const t0 = performance.now();
    const until = t0 + windowMs;
    const flows: Promise<void>[] = [];
    const progress = setInterval(() => {
      const s = rec.stats('sign-in');
      const p = rec.stats('pdf');
      process.stdout.write(
        `  ${Math.round((performance.now() - t0) / 1000)} s: ${s.count} signed in (p99 ${s.p99} ms), ${p.count} PDFs (p99 ${p.p99} ms), errors ${STEPS.reduce((a, k) => a + rec.stats(k).errors, 0)}\n`,
      );
    }, 60_000);
    const staffFlows = [
      ...teachers.map((t) => teacherLoop(t, plan, until, rec, rng(seed + 100 + teachers.indexOf(t)))),
      bursarLoop(bursarToken, plan, until, rec, rng(seed + 99)),
    ];
    // The PIN visitors arrive along the same curve, on a random sequence of their own (the others' stay as before).
    const pinRandom = rng(seed + 4243);
    const pinFlows = (async () => {
      const flows: Promise<void>[] = [];
      for (const [k, at] of arrivalTimes(plan.pins.length, windowMs, pinRandom).entries()) {
        await sleep(t0 + at - performance.now());
        flows.push(pinVisitor(k, plan, rec, rng(seed * 104_729 + k)));
      }
      await Promise.all(flows);
    })();
    staffFlows.push(pinFlows);
    for (const [k, at] of arrivals.entries()) {
      await sleep(t0 + at - performance.now());
      const w = who[k]!;
      flows.push(
        w > 0 ? visitor(k, w, payers.has(k), plan, rec, rng(seed * 7919 + k)) : parentVisitor(k, -w, plan, rec, rng(seed * 7919 + k)),
      );
    }
    await Promise.all([...flows, ...staffFlows]);
    clearInterval(progress);
    clearInterval(sampler);
    await sample();
    const seconds = (performance.now() - t0) / 1000;
    for (const t of teachers) t.agent.destroy();
    const machineEnd = machineCpu();
    const peakRss = new Map(servers.map((s) => [s.name, statusKb(s.child.pid!, 'VmHWM')]));

    const steps: ResultsDayReport['steps'] = {};
    const budgetsMissed: string[] = [];
    for (const name of STEPS) {
      const s = rec.stats(name);
      if (!s.count) continue;
      const budget = name === 'pin check' ? PIN_CHECK_BUDGET_MS : BUDGET_MS;
      const met = s.errors === 0 && s.p99 < budget;
      steps[name] = { ...s, budgetMet: met };
      if (!met) budgetsMissed.push(`${name}: p99 ${s.p99} ms, ${s.errors} errors (budget p99 < ${fmtMs(budget)}, 0 errors)`);
    }
    const requests: Record<string, StepStats> = {};
    for (const name of rec.steps()) if (!STEPS.includes(name)) requests[name] = rec.stats(name);
    const processes: ResultsDayReport['processes'] = {};
    for (const p of procs) {
      const series = cpuSeries.get(p.name)!;
      const total = series.reduce((a, b) => a + b, 0);
      processes[p.name] = {
        // PostgreSQL backends share their buffers: a sum of their RSS would count them many times.
        peakRssMb: p.name.startsWith('PostgreSQL') ? null : Math.round((peakRss.get(p.name) ?? rssPeak.get(p.name) ?? 0) / 1024),
        cpuPercentMean: Math.round((total / (seconds * 1000 || 1)) * 100),
        cpuPercentPeak10s: Math.round((Math.max(0, ...series) / sampleMs) * 100),
      };
    }
    // CPU time, ms: the machine's over the run (every core), and how much of it was this bench's.
    const machineBusy = machineEnd.busy - machineStart.busy;
    const wallMs = (machineEnd.total - machineStart.total) / os.cpus().length;
    const report: ResultsDayReport = {
      generatedAt: new Date().toISOString(),
      command: `npm run bench -- --scenario results-day ${process.argv
        .slice(2)
        .filter((a) => a !== '--scenario' && a !== 'results-day')
        .join(' ')}`.trim(),
      database: loc.label,
      instances,
      proxy: instances > 1 ? `nginx ${nginxVersion()} (generated config, bench/results-day.ts nginxConfig)` : null,
      server: 'compiled (node --enable-source-maps apps/server/dist/main.js), NODE_ENV=production',
      minutes,
      dataset: meta,
      visitors: {
        count: visitorsN,
        students: meta.students,
        peakPerMinute: Math.max(...perMinute),
        meanPerMinute: Math.round(visitorsN / minutes),
        note: `each student, and one parent per family (${families.toLocaleString()} families; the parent signs in by phone, opens the home and each child's card, downloads one PDF); besides them ${plan.pins.length} families check a card with a result-checker PIN (no account) and download its PDF`,
      },
      teachers: teachers.length,
      offlinePaymentsPerMinute: offlinePerMinute,
      onlinePayments,
      clientAddresses:
        'each visitor sends its own X-Forwarded-For address (10.x.y.z), teachers and the bursar share the school’s; instances run with TRUST_PROXY=1' +
        (instances > 1 ? ' behind nginx, which takes the address from the bench (set_real_ip_from 127.0.0.1) and passes only that on' : ''),
      steps,
      requests,
      processes,
      cpuPerVisitorMs: Math.round(
        procs
          .filter((p) => p.name.startsWith('instance') || p.name.startsWith('PostgreSQL'))
          .reduce((a, p) => a + cpuSeries.get(p.name)!.reduce((x, y) => x + y, 0), 0) /
          (visitorsN + plan.pins.length),
      ),
      release,
      pdfStore: process.env.PDF_STORE !== '0',
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? '',
        node: process.version,
        loadavgBefore,
        loadavgAfter: os.loadavg().map(round1),
        machineCpuPercentMean: Math.round((machineBusy / (wallMs * os.cpus().length || 1)) * 100),
        otherProcessesCpuPercentMean: Math.max(0, Math.round(((machineBusy - ownCpuTotal) / (wallMs || 1)) * 100)),
      },
      unloaded,
      queriesPerStep,
      errorSamples: rec.samples,
      budgetsMissed,
      seconds: Math.round(seconds),
    };
    process.stdout.write(`\n${printReport(report)}\n`);
    const key = `results-day-${loc.kind}${instances > 1 ? `-${instances}` : ''}${minutes === 10 ? '' : `-${minutes}min`}${students === 1500 ? '' : `-${students}`}${cardPage === 'in-app' ? '-in-app' : ''}`;
    mergeResults({ [key]: report });
    process.stdout.write(`Written to ${path.relative(ROOT, RESULTS_FILE)} (key "${key}") in ${fmtMs(performance.now() - started)}\n`);
    return budgetsMissed.length ? 1 : 0;
  } finally {
    for (const s of servers) if (s.child.exitCode !== null) process.stderr.write(`${s.log()}\n`);
    stopChildren();
    await pgAdmin?.end();
    await sleep(500);
    rmSync(tmp, { recursive: true, force: true });
  }
}

function nginxVersion(): string {
  const r = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  return /nginx\/(\S+)/.exec(r.stderr)?.[1] ?? '?';
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runResultsDay(parseArgs())
    .then((code) => process.exit(code))
    .catch((err: unknown) => {
      console.error(err);
      stopChildren();
      process.exit(1);
    });
}
