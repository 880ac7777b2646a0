import {
  DEFAULT_ATTENDANCE_SETTINGS,
  formatAdmissionNumber,
  schoolDaysOfTerm,
  type AttendanceStatus,
  type SchoolCalendar,
} from '@portal/domain';
import { BENCH_BIG_CLASS, BENCH_BIG_CLASS_SIZE, BENCH_SHEET_CLASS, BENCH_SHEET_SUBJECT } from './common';
import { schoolYearCalendar } from '../apps/server/src/db/seed/calendar';
import { benchStudentPlan, type DatasetMeta } from './data';

/**
 * The load scenarios of `npm run bench`. Each one hits a real endpoint of the portal and the same
 * URL of the baseline (bench/baseline.ts: bare Fastify + the same SQL, no validation or auth).
 */

export type Role = 'admin' | 'staff' | 'student' | 'parent';

/** A budget (docs/performance.md), judged on this scenario's figures. */
export type Budget =
  /** `students`: the budget is stated for a school of this size; elsewhere the figure is informative. */
  | { kind: 'p99' | 'p50'; ms: number; text: string; students?: number }
  /** baseline req/s ÷ portal req/s must stay at or under `max` ("within 2× of baseline"). */
  | { kind: 'ratio'; max: number; text: string };

/** What a scenario keeps per connection: autocannon's context, or a paced client's own object. */
export type ConnectionState = Record<string, unknown>;
/** One request to the portal outside the measured load (a scenario's set-up). */
export type Caller = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => Promise<{ status: number; body: string }>;

export interface Scenario {
  id: string;
  title: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Who signs in for it; null for public calls. */
  role: Role | null;
  /** URLs, used in turn by every connection. */
  paths: (d: BenchContext) => string[];
  /** A fresh body for the i-th request (POST, PUT); `conn` is the connection's state (absent for one-off requests). */
  body?: (i: number, d: BenchContext, conn?: ConnectionState) => unknown;
  /** Sees every answer (the versions a later save must send come from them). */
  onResponse?: (status: number, body: string) => void;
  /** Runs once before the scenario's first request (e.g. reads the versions stored now). */
  before?: (call: Caller, d: BenchContext) => Promise<void>;
  /**
   * Runs before every request, untimed, for a request that changes what the next one finds (a
   * release): the scenario then runs one request at a time, with no baseline.
   */
  reset?: (call: Caller, d: BenchContext) => Promise<void>;
  /** Concurrent connections: [full run, --quick]. */
  connections: [number, number];
  /**
   * Requests per second per connection: paced clients (each waits for its turn) instead of
   * connections that fire again the moment an answer arrives. Unset: as fast as possible.
   */
  connectionRate?: number;
  budgets: Budget[];
  /** A response must contain this to count as right (guards against measuring an empty answer). */
  expect?: (body: string, contentType: string, d: BenchContext) => string | null;
}

export interface BenchContext {
  meta: DatasetMeta;
  sessionId: number;
  /** A class other than the 60-student one: ~N/12 students. */
  otherClass: string;
}

/** Admission numbers spread over the whole school, so no one row stays hot in a cache. */
function spreadStudents(total: number, count: number): string[] {
  const step = Math.max(1, Math.floor(total / count));
  return Array.from({ length: Math.min(count, total) }, (_, k) => formatAdmissionNumber(1 + ((k * step) % total)));
}

/** Students of the 60-student class (STU-0001…STU-0060). */
function bigClassStudents(total: number): string[] {
  return Array.from({ length: Math.min(60, total) }, (_, k) => formatAdmissionNumber(k + 1));
}

/** The subjects of the k-th student of the 60-student class (student k + 1 of a generated school). */
export function bigClassSubjects(k: number): string[] {
  return benchStudentPlan(k + 1, BENCH_BIG_CLASS).subjects;
}

/** Result rows of the whole 60-student class sheet: one per student and subject they take. */
function bigClassRows(total: number): number {
  return Array.from({ length: Math.min(60, total) }, (_, k) => bigClassSubjects(k).length).reduce((a, b) => a + b, 0);
}

/**
 * A bulk save of every subject of one 60-student-class student per request (upsert), the students
 * in turn. By staff1, who teaches every JSS 1A subject in the enforcing current session, the
 * permission check runs; by the admin it does not, so the pair shows what the check costs.
 */
const savesOf = new Map<number, number>();
function bulkSave(id: string, title: string, role: Role): Scenario {
  return {
    id,
    title,
    method: 'POST',
    role,
    paths: () => ['/api/results/'],
    body: (i, d) => {
      const students = bigClassStudents(d.meta.students);
      const k = i % students.length;
      // Each save of a student changes every score from their previous save (whichever scenario
      // made it), so every request really writes: `40 + (i + j) % 60` gave a student the same
      // scores on every pass once i went round the class.
      const pass = (savesOf.get(k) ?? 0) + 1;
      savesOf.set(k, pass);
      return {
        admission_number: students[k],
        session_id: d.sessionId,
        term: '3rd',
        student_class: BENCH_BIG_CLASS,
        subjects: bigClassSubjects(k).map((name, j) => ({ name, score: 40 + ((pass + j) % 60), remarks: '' })),
        // The bench school's terms are released: a change to released results needs a reason.
        reason: 'Bench: scores corrected',
      };
    },
    connections: [10, 4],
    budgets: [],
    expect: json,
  };
}

const classSheetRows = (b: string, t: string, d: BenchContext) =>
  json(b, t) ??
  ((b.match(/"subject"/g)?.length ?? 0) >= bigClassRows(d.meta.students) ? null : `expected ${bigClassRows(d.meta.students)} results`);

const q = (params: Record<string, string | number>) =>
  '?' +
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** A `before` that asks for each of the scenario's files once (untimed): drawn and stored, as at release. */
const drawEveryPath =
  (route: string, queries: (d: BenchContext) => string[]) =>
  async (call: Caller, d: BenchContext): Promise<void> => {
    for (const query of queries(d)) {
      const res = await call('GET', `${route}${query}`);
      if (res.status !== 200) throw new Error(`drawing ${route}${query}: ${res.status} ${res.body.slice(0, 200)}`);
    }
  };

/** Within 2x of the baseline's time: the budget of the reads compared with the last release. */
const READ_WITHIN_BASELINE: Budget = { kind: 'ratio', max: 2, text: 'read endpoint within 2x of baseline' };

/** A teacher's read at 10 connections (4 with --quick), judged against the baseline. */
const staffRead: Pick<Scenario, 'method' | 'role' | 'connections' | 'budgets'> = {
  method: 'GET',
  role: 'staff',
  connections: [10, 4],
  budgets: [READ_WITHIN_BASELINE],
};

/** One connection (also with --quick) reading as `role`, judged on `budgets`. */
const oneReader = (role: Role | null, ...budgets: Budget[]): Pick<Scenario, 'method' | 'role' | 'connections' | 'budgets'> => ({
  method: 'GET',
  role,
  connections: [1, 1],
  budgets,
});

/** The big class's result sheet read by its teacher, 50 connections: run flat out and paced. */
const classResultSheet: Pick<Scenario, 'method' | 'role' | 'paths' | 'connections' | 'expect'> = {
  method: 'GET',
  role: 'staff',
  paths: (d) => [`/api/results/${q({ session_id: d.sessionId, term: '1st', student_class: BENCH_BIG_CLASS })}`],
  connections: [50, 50],
  expect: classSheetRows,
};

const json = (body: string, type: string) => (type.includes('json') ? null : `expected JSON, got ${type}`);
const pdf = (body: string, type: string) => (type.includes('pdf') ? null : `expected a PDF, got ${type}`);
const nonEmptyArray = (body: string, type: string) =>
  json(body, type) ?? (body.startsWith('[') && body.length > 2 ? null : 'expected a non-empty list');

/** The 60 students of the score-grid class (STU-0061…STU-0120 of a generated school). */
function sheetStudents(total: number): string[] {
  return total >= 2 * BENCH_BIG_CLASS_SIZE
    ? Array.from({ length: BENCH_BIG_CLASS_SIZE }, (_, k) => formatAdmissionNumber(BENCH_BIG_CLASS_SIZE + k + 1))
    : [];
}

const sheetQuery = (d: BenchContext) => ({
  session_id: d.sessionId,
  term: '1st',
  student_class: BENCH_SHEET_CLASS,
  subject: BENCH_SHEET_SUBJECT,
});

/**
 * The grid's optimistic versions, as a client keeps them: read from the sheet once, then from every
 * answer (a save's rows, or a conflict's `current`), so each save sends the version stored now.
 */
const sheetVersions = new Map<string, number>();
const sheetPasses = new Map<string, number>();
function rememberVersions(status: number, body: string): void {
  try {
    if (status === 200) {
      const out = JSON.parse(body) as { rows?: { admission_number: string; result: { version: number } | null }[] };
      for (const r of out.rows ?? []) sheetVersions.set(r.admission_number, r.result?.version ?? 0);
    } else if (status === 409) {
      const c = JSON.parse(body) as { admission_number?: string; current?: { version: number } | null };
      if (c.admission_number) sheetVersions.set(c.admission_number, c.current?.version ?? 0);
    }
  } catch {
    // not JSON: the runner counts the failure
  }
}
async function readVersions(call: Caller, d: BenchContext): Promise<void> {
  const res = await call('GET', `/api/score-sheet/${q(sheetQuery(d))}`);
  rememberVersions(res.status, res.body);
}
/** A grid save sends the versions read before the run and kept from every answer. */
const sheetVersionsKept: Pick<Scenario, 'before' | 'onResponse'> = { before: readVersions, onResponse: rememberVersions };

/** Scores that differ from the student's previous save (every request really writes). */
function sheetRow(admission: string, k: number) {
  const pass = (sheetPasses.get(admission) ?? 0) + 1;
  sheetPasses.set(admission, pass);
  return {
    admission_number: admission,
    components: { CA1: (pass + k) % 21, CA2: (3 * pass + k) % 21, Exam: (7 * pass + k) % 61 },
    version: sheetVersions.get(admission) ?? 0,
  };
}

const sheetSave = (d: BenchContext, rows: ReturnType<typeof sheetRow>[]) => ({
  ...sheetQuery(d),
  rows,
  // The bench school's terms are released: a change needs a reason.
  reason: 'Bench: scores corrected',
});
/** One teacher's autosave: the row of the k-th student of the grid. */
const sheetRowSlots = (d: BenchContext) => sheetStudents(d.meta.students).length;
const saveSheetRow = (d: BenchContext, k: number) => sheetSave(d, [sheetRow(sheetStudents(d.meta.students)[k]!, k)]);

/** Unpublishes the current session's first term, arm by arm (each goes back to approved). */
async function unreleaseTerm(call: Caller, d: BenchContext): Promise<void> {
  const r = await call('GET', `/api/results/publications/${q({ session_id: d.sessionId, term: '1st' })}`);
  for (const p of JSON.parse(r.body) as { id: number }[]) {
    const del = await call('DELETE', `/api/results/publications/${p.id}/`);
    if (del.status !== 204) throw new Error(`unpublishing failed: HTTP ${del.status} ${del.body.slice(0, 160)}`);
  }
}

/**
 * 20 teachers saving at once, `rate` saves a second each, judged on p99 < 30 ms. Each connection
 * keeps a slot of its own (a student, a day: `slots` of them), given out in turn; a one-off request
 * (no connection) saves slot `oneOff(i, slots)`.
 */
function teachersSaving(
  rate: number,
  what: string,
  slots: (d: BenchContext) => number,
  save: (d: BenchContext, k: number) => unknown,
  oneOff: (i: number, slots: number) => number,
): Pick<Scenario, 'method' | 'role' | 'body' | 'connections' | 'connectionRate' | 'budgets'> {
  let given = 0;
  return {
    method: 'PUT',
    role: 'staff',
    body: (i, d, conn) => {
      const n = slots(d);
      if (conn && conn.k === undefined) conn.k = given++ % n;
      return save(d, conn ? (conn.k as number) : oneOff(i, n));
    },
    connections: [20, 20],
    connectionRate: rate,
    budgets: [{ kind: 'p99', ms: 30, text: `${what} p99 < 30 ms at 20 concurrent teachers` }],
  };
}

// ---------- the attendance register ----------

/** The start year of the bench school's current session (named y/y+1). */
const currentStartYear = (d: BenchContext) => Number(d.meta.currentSession.slice(0, 4));

/**
 * School days the form teacher may still save a register on (none saved yet, or saved today):
 * the unmarked terms of every session (bench:data marks only the current first term), oldest
 * session last. Read once before the scenario, so a re-run on another day picks other days.
 */
const registerDays: string[] = [];
const registerVersions = new Map<string, number>();
const registerPasses = new Map<string, number>();
async function openRegisterDays(call: Caller, d: BenchContext): Promise<void> {
  if (registerDays.length) return;
  const years = Array.from({ length: d.meta.sessions }, (_, j) => currentStartYear(d) - j);
  const candidates: string[] = [];
  for (const [j, y] of years.entries()) {
    const sid = d.meta.currentSessionId - j;
    const year = schoolYearCalendar(sid, y);
    const cal: SchoolCalendar = {
      settings: DEFAULT_ATTENDANCE_SETTINGS,
      terms: year.terms,
      events: year.events.map((e, k) => ({ id: k + 1, ...e })),
    };
    for (const t of cal.terms) if (!(j === 0 && t.term === '1st')) candidates.push(...schoolDaysOfTerm(cal, t));
  }
  for (const date of candidates) {
    if (registerDays.length >= 20) break;
    const r = await call('GET', `/api/attendance/register/${q({ student_class: BENCH_BIG_CLASS, date })}`);
    if (r.status !== 200) throw new Error(`register of ${date}: HTTP ${r.status} ${r.body.slice(0, 160)}`);
    const reg = JSON.parse(r.body) as { may_edit: boolean; saved: { version: number } | null };
    if (!reg.may_edit) continue;
    registerDays.push(date);
    registerVersions.set(date, reg.saved?.version ?? 0);
  }
  if (registerDays.length < 20) throw new Error('fewer than 20 register days left open to the form teacher: run npm run bench:data again');
}
function rememberRegister(status: number, body: string): void {
  if (status !== 200) return;
  try {
    const r = JSON.parse(body) as { date?: string; saved?: { version: number } | null };
    if (r.date && r.saved) registerVersions.set(r.date, r.saved.version);
  } catch {
    // not JSON: the runner counts the failure
  }
}
const REGISTER_STATUSES: AttendanceStatus[] = ['present', 'present', 'present', 'present', 'present', 'late', 'absent', 'excused'];
/** Every student of the 60-student class marked, a few marks different from the previous save. */
function registerSave(d: BenchContext, date: string) {
  const pass = (registerPasses.get(date) ?? 0) + 1;
  registerPasses.set(date, pass);
  return {
    student_class: BENCH_BIG_CLASS,
    date,
    period: 'morning',
    marks: bigClassStudents(d.meta.students).map((a, k) => ({
      admission_number: a,
      status: REGISTER_STATUSES[(k * 7 + pass) % REGISTER_STATUSES.length]!,
    })),
    version: registerVersions.get(date) ?? 0,
  };
}
/** One form teacher's save: the register of the k-th open day. */
const saveRegisterDay = (d: BenchContext, k: number) => registerSave(d, registerDays[k]!);

// ---------- the bursar's office ----------

let bankReferences = 0;
/** An offline payment with a bank reference never used before (a repeat is a 409 by design). */
function offlinePayment(i: number, d: BenchContext) {
  const students = spreadStudents(d.meta.students, 200);
  return {
    admission_number: students[i % students.length],
    session_id: d.sessionId,
    term: '1st',
    amount: 5000 + (i % 50) * 100,
    method: 'bank_transfer',
    bank: 'GTBank',
    bank_reference: `BENCH-${process.pid}-${Date.now().toString(36)}-${(bankReferences++).toString(36)}`,
    paid_on: `${currentStartYear(d)}-10-15`,
    note: '',
  };
}

/**
 * Reported transfers waiting for the bursar (seeded by the generator): each request confirms another
 * one. The runner picks `paths[n % length]` with n from 0 on every run, so the list is read from the
 * queue before each run (`before`), and a confirmed report's slot takes a waiting one from a reserve
 * (`onResponse`): a slot is never confirmed twice (150 slots cover a run: 10 bursars x 1/s x 10 s).
 */
const CONFIRM_SLOTS = 150;
const confirmPath = (id: number) => `/api/bursary/transfer-reports/${id}/confirm/`;
const waitingReports: string[] = [];
const reserveReports: string[] = [];
async function readWaitingReports(call: Caller): Promise<void> {
  const found: string[] = [];
  for (let page = 1; found.length < 2 * CONFIRM_SLOTS; page++) {
    const res = await call('GET', `/api/bursary/transfer-reports/${q({ status: 'to_confirm', page })}`);
    const body = JSON.parse(res.body) as { reports?: { id: number }[]; pages?: number };
    found.push(...(body.reports ?? []).map((r) => confirmPath(r.id)));
    if (!body.pages || page >= body.pages) break;
  }
  if (!found.length) throw new Error('bursary-transfer-confirm: no waiting transfer reports left: regenerate the dataset');
  waitingReports.splice(0, waitingReports.length, ...found.slice(0, CONFIRM_SLOTS));
  reserveReports.splice(0, reserveReports.length, ...found.slice(CONFIRM_SLOTS));
}
function refillConfirmed(status: number, body: string): void {
  if (status !== 200) return;
  try {
    const id = (JSON.parse(body) as { report?: { id?: number } }).report?.id;
    const slot = id === undefined ? -1 : waitingReports.indexOf(confirmPath(id));
    if (slot >= 0 && reserveReports.length) waitingReports[slot] = reserveReports.shift()!;
  } catch {
    // not JSON: the runner counts the failure
  }
}

/**
 * Result-checker PINs (issue 34, decision 043): the admin turns the check on and makes a batch of
 * 2,000 PINs of 50 uses for the term, read back from the printer's CSV; PIN k always checks student
 * 1 + k mod N (its first check binds it), so every request is a right one.
 */
const benchPins: { admission: string; pin: string }[] = [];
async function makePins(call: Caller, d: BenchContext): Promise<void> {
  const settings = JSON.parse((await call('GET', '/api/settings/')).body) as Record<string, unknown>;
  const put = await call('PUT', '/api/settings/', { ...settings, result_pins_enabled: true });
  if (put.status !== 200) throw new Error(`pin-check: settings ${put.status} ${put.body.slice(0, 160)}`);
  const made = await call('POST', '/api/result-pins/batches/', { session_id: d.sessionId, term: '3rd', count: 2000, uses: 50 });
  if (made.status !== 201) throw new Error(`pin-check: batch ${made.status} ${made.body.slice(0, 160)}`);
  const { id } = JSON.parse(made.body) as { id: number };
  const csv = await call('GET', `/api/result-pins/batches/${id}/cards.csv`);
  const pins = csv.body
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .slice(1)
    .filter(Boolean)
    .map((line) => line.split(',')[1]!);
  benchPins.length = 0;
  pins.forEach((pin, k) => benchPins.push({ admission: formatAdmissionNumber(1 + (k % d.meta.students)), pin }));
}

export const SCENARIOS: Scenario[] = [
  {
    id: 'sign-in',
    title: 'Sign-in (staff, argon2id)',
    method: 'POST',
    role: null,
    paths: () => ['/api/staff/login/'],
    // Five staff accounts in turn: sign-in reserves an attempt per account and address before the
    // password check, so one account signing in on 8 connections at once from one
    // address would meet the limit of 5 attempts in flight. The bench data has at least 5 staff.
    body: (i) => ({ email: i % 5 === 0 ? 'staff1@bench.school' : `staff${(i % 5) + 1}@bench.school`, password: 'Bench-Staff-Pass-2026' }),
    connections: [8, 4],
    budgets: [],
    expect: (b, t) => json(b, t) ?? (b.includes('"access"') ? null : 'no access token'),
  },
  {
    // Issue 34: a family without an account checks a card with a result-checker PIN (public route;
    // `role` is the admin's only for the set-up, which makes the PINs: the check ignores the header).
    id: 'pin-check',
    title: 'Result check with a PIN (public: admission number + PIN → released card)',
    method: 'POST',
    role: 'admin',
    paths: () => ['/api/check-result/'],
    body: (i, d) => {
      const c = benchPins[i % Math.max(1, benchPins.length)] ?? { admission: formatAdmissionNumber(1), pin: '000000000000' };
      return { admission_number: c.admission, pin: c.pin, session_id: d.sessionId, term: '3rd' };
    },
    before: makePins,
    // Paced: 8 families checking at 2 a second each (960 checks a minute, several times a results
    // day's peak): the p99 is a check's own time, not a queue the load generator builds.
    connections: [8, 4],
    connectionRate: 2,
    budgets: [{ kind: 'p99', ms: 200, text: 'PIN check p99 < 200 ms (1,500 students)', students: 1500 }],
    expect: (b, t) => json(b, t) ?? (b.includes('"pdf_token"') ? null : 'expected the card and its PDF link'),
  },
  {
    // Issue 33: the home a parent opens first (family 1: three children), a fixed set of statements whatever the children.
    id: 'parent-home',
    title: "A parent's home: each child with the term at a glance",
    ...oneReader('parent', { kind: 'p99', ms: 150, text: 'parent home p99 < 150 ms (1,500 students, 1,100 families)', students: 1500 }),
    connections: [8, 4],
    paths: () => ['/api/parent/children/'],
    expect: (b, t) => json(b, t) ?? (b.includes('"children":[{') ? null : 'no children'),
  },
  {
    id: 'students-class',
    title: "A class's student list",
    ...staffRead,
    paths: (d) => [`/api/students/list/${q({ student_class: d.otherClass })}`],
    expect: nonEmptyArray,
  },
  {
    id: 'students-all',
    title: 'All students, uncapped',
    ...oneReader('admin', { kind: 'p50', ms: 50, text: 'full list of 1,500 students < 50 ms', students: 1500 }, READ_WITHIN_BASELINE),
    paths: () => ['/api/students/list/'],
    expect: nonEmptyArray,
  },
  {
    id: 'student-term-results',
    title: "One student's term results",
    ...staffRead,
    paths: (d) =>
      spreadStudents(d.meta.students, 50).map((a) => `/api/results/${q({ admission_number: a, session_id: d.sessionId, term: '1st' })}`),
    expect: nonEmptyArray,
  },
  bulkSave('results-bulk-save', "Bulk save of a student's subjects (staff, assignments enforced)", 'staff'),
  bulkSave('results-bulk-save-admin', 'The same bulk save by the admin (no assignment check)', 'admin'),
  {
    ...classResultSheet,
    id: 'class-result-sheet',
    title: 'Class result sheet (60 students)',
    // Saturation: 50 connections firing back to back. Its p99 is bound by queueing (Little's law:
    // latency ≈ 50 / throughput), so the p99 budget is judged on the paced run below.
    budgets: [READ_WITHIN_BASELINE],
  },
  {
    ...classResultSheet,
    id: 'class-result-sheet-50-clients',
    title: 'Class result sheet, 50 clients x 1/s',
    connectionRate: 1,
    budgets: [{ kind: 'p99', ms: 50, text: 'class result sheet p99 < 50 ms at 50 concurrent clients (each 1 request/s)' }],
  },
  {
    // The class score grid: 60 SSS students, CA1/CA2/Exam, positions and statistics.
    id: 'score-sheet-load',
    title: 'Score sheet (60 students x 3 components)',
    ...oneReader('staff', { kind: 'p50', ms: 10, text: 'score sheet of 60 students x 3 components with statistics p50 < 10 ms' }),
    paths: (d) => [`/api/score-sheet/${q(sheetQuery(d))}`],
    expect: (b, t, d) =>
      json(b, t) ??
      ((b.match(/"CA1":/g)?.length ?? 0) >= sheetStudents(d.meta.students).length && b.includes('"stats":{')
        ? null
        : 'expected 60 rows with component scores and statistics'),
  },
  {
    // Autosave of one changed row by 20 teachers at once (staff1: assignments enforced), each on
    // a student of their own, each sending the version it last saw.
    id: 'score-sheet-row-save',
    title: 'Score grid: one row saved, 20 teachers x 1/s x 2/s',
    ...teachersSaving(2, 'one grid row saved', sheetRowSlots, saveSheetRow, () => 0),
    // (A query string of its own: the baseline keeps the captured SQL per method and URL.)
    paths: () => ['/api/score-sheet/?bench=row'],
    ...sheetVersionsKept,
    expect: json,
  },
  {
    id: 'score-sheet-save-60',
    title: 'Score grid: 60 rows x 3 components saved',
    method: 'PUT',
    role: 'staff',
    paths: () => ['/api/score-sheet/?bench=sheet'],
    ...sheetVersionsKept,
    body: (i, d) =>
      sheetSave(
        d,
        sheetStudents(d.meta.students).map((a, k) => sheetRow(a, k)),
      ),
    connections: [1, 1],
    budgets: [{ kind: 'p99', ms: 100, text: 'a whole grid of 60 rows x 3 components saved p99 < 100 ms' }],
    expect: json,
  },
  {
    id: 'report-card-json',
    title: 'Report card (JSON)',
    ...oneReader('staff', { kind: 'p50', ms: 5, text: 'report card JSON p50 < 5 ms' }),
    paths: (d) =>
      bigClassStudents(d.meta.students).map((a) => `/api/report-card/${q({ admission_number: a, session_id: d.sessionId, term: '3rd' })}`),
    expect: json,
  },
  {
    // Decision 058: a card of the session before reads the settings that session ended with.
    id: 'report-card-json-past-session',
    title: 'Report card of the session before (JSON)',
    ...oneReader('staff', { kind: 'p50', ms: 5, text: "last session's report card JSON p50 < 5 ms" }),
    paths: (d) =>
      bigClassStudents(d.meta.students).map(
        (a) => `/api/report-card/${q({ admission_number: a, session_id: d.sessionId - 1, term: '3rd' })}`,
      ),
    expect: json,
  },
  {
    // A teacher's arm-subject pairs and form classes for the current session.
    id: 'my-classes',
    title: "A teacher's classes",
    ...oneReader('staff', { kind: 'p50', ms: 5, text: 'my classes p50 < 5 ms' }),
    paths: () => ['/api/teaching/my-classes/'],
    expect: (b, t) => json(b, t) ?? (b.includes('"class_name":"JSS 1A"') ? null : 'expected JSS 1A among the classes'),
  },
  {
    id: 'report-card-pdf',
    title: 'Report card (PDF)',
    ...oneReader('staff', { kind: 'p50', ms: 150, text: 'report card PDF p50 < 150 ms' }),
    paths: (d) =>
      bigClassStudents(d.meta.students).map(
        (a) => `/api/report-card/pdf/${q({ admission_number: a, session_id: d.sessionId, term: '3rd' })}`,
      ),
    expect: pdf,
  },
  {
    id: 'class-report-cards-pdf',
    title: 'Report cards of a 60-student class (one PDF)',
    ...oneReader('staff', { kind: 'p50', ms: 1000, text: '60-student class PDF < 1 s' }),
    paths: (d) => [`/api/report-cards/pdf/${q({ session_id: d.sessionId, term: '3rd', student_class: BENCH_BIG_CLASS })}`],
    expect: pdf,
  },
  // PDFs made once (issue 37 item 3, decision 050): the same downloads after release, every file
  // stored (the `before` draws each once, as the background does at release). A request computes the
  // card (access, release, fee gate), its fingerprint, and serves the stored bytes.
  {
    id: 'report-card-pdf-stored',
    title: 'Report card (PDF), stored after release',
    ...oneReader('staff', { kind: 'p50', ms: 5, text: 'stored report card PDF p50 < 5 ms' }),
    paths: (d) =>
      bigClassStudents(d.meta.students).map(
        (a) => `/api/report-card/pdf/${q({ admission_number: a, session_id: d.sessionId, term: '3rd' })}`,
      ),
    before: drawEveryPath('/api/report-card/pdf/', (d) =>
      bigClassStudents(d.meta.students).map((a) => q({ admission_number: a, session_id: d.sessionId, term: '3rd' })),
    ),
    expect: pdf,
  },
  {
    id: 'class-report-cards-pdf-stored',
    title: 'Report cards of a 60-student class (one PDF), stored after release',
    ...oneReader('staff', { kind: 'p50', ms: 50, text: 'stored 60-student class PDF p50 < 50 ms' }),
    paths: (d) => [`/api/report-cards/pdf/${q({ session_id: d.sessionId, term: '3rd', student_class: BENCH_BIG_CLASS })}`],
    before: drawEveryPath('/api/report-cards/pdf/', (d) => [q({ session_id: d.sessionId, term: '3rd', student_class: BENCH_BIG_CLASS })]),
    expect: pdf,
  },
  {
    // What the stored files take in the school's database (printed before the run), and the cost of asking.
    id: 'report-card-pdf-storage',
    title: "Stored PDFs' size (admin)",
    ...oneReader('admin'),
    paths: () => ['/api/report-card-pdfs/storage/'],
    before: async (call) => {
      const res = await call('GET', '/api/report-card-pdfs/storage/');
      const s = JSON.parse(res.body) as {
        cards: { files: number; bytes: number };
        classes: { files: number; bytes: number };
        total_bytes: number;
      };
      const kb = (n: number) => `${Math.round(n / 1024)} KB`;
      console.log(
        `  stored PDFs of the school: ${s.cards.files} cards ${kb(s.cards.bytes)} (${s.cards.files ? kb(s.cards.bytes / s.cards.files) : '-'} each), ` +
          `${s.classes.files} class PDFs ${kb(s.classes.bytes)}; total ${kb(s.total_bytes)}`,
      );
    },
    expect: json,
  },
  {
    // The principal releases every arm of a term at once (1,500 students): each request first has
    // the term's arms unpublished (back to approved, untimed), then releases them all.
    id: 'release-school',
    title: 'Release every arm of a term (whole school)',
    method: 'POST',
    role: 'admin',
    paths: () => ['/api/report-approvals/release/'],
    body: (_i, d) => ({ session_id: d.sessionId, term: '1st' }),
    reset: unreleaseTerm,
    connections: [1, 1],
    budgets: [{ kind: 'p50', ms: 2000, text: 'whole-school release (1,500 students) < 2 s', students: 1500 }],
    expect: (b, t, d) =>
      json(b, t) ??
      (b.includes('"released":[') && b.includes(`"students":${d.meta.students}`) ? null : 'expected every arm and student released'),
  },
  {
    id: 'broadsheet-class',
    title: 'Class broadsheet (60 students)',
    method: 'GET',
    role: 'staff',
    paths: (d) => [`/api/broadsheet/${q({ session_id: d.sessionId, term: '1st', student_class: BENCH_BIG_CLASS })}`],
    connections: [4, 2],
    budgets: [{ kind: 'p99', ms: 1000, text: 'class broadsheet well under 1 s' }],
    expect: json,
  },
  {
    id: 'broadsheet-school',
    title: 'Whole-school broadsheet',
    ...oneReader('admin', { kind: 'p50', ms: 1000, text: 'whole-school broadsheet (1,500) < 1 s', students: 1500 }),
    paths: (d) => [`/api/broadsheet/${q({ session_id: d.sessionId, term: '1st' })}`],
    expect: json,
  },
  {
    id: 'payment-history',
    title: "A student's payment history",
    ...staffRead,
    paths: (d) => spreadStudents(d.meta.students, 50).map((a) => `/api/payments/history/${q({ admission_number: a })}`),
    expect: json,
  },
  {
    id: 'payment-class-report',
    title: 'Class payment report',
    ...staffRead,
    paths: (d) => [`/api/payments/report/${q({ class: d.otherClass })}`],
    expect: nonEmptyArray,
  },
  {
    // The class's paid / part paid / unpaid for one term, from its fee items (migration 0008).
    id: 'payment-class-summary-term',
    title: 'Class payment summary for a term',
    ...staffRead,
    paths: (d) => [`/api/payments/report/summary/${q({ class: d.otherClass, term: '1st' })}`],
    expect: json,
  },
  {
    // 20 form teachers saving a whole 60-student register at once, 1 save a second each (each on a
    // day of their own: the register of one arm and day is one row with one version).
    id: 'attendance-register-save-60',
    title: 'Attendance register of 60 students saved, 20 teachers x 1/s',
    ...teachersSaving(
      1,
      'a 60-student register saved in one request',
      () => registerDays.length,
      saveRegisterDay,
      (i, n) => i % n,
    ),
    paths: () => ['/api/attendance/register/?bench=save'],
    before: openRegisterDays,
    onResponse: rememberRegister,
    expect: (b, t) => json(b, t) ?? ((b.match(/"status":"/g)?.length ?? 0) >= 60 ? null : 'expected 60 marked rows'),
  },
  {
    id: 'attendance-register-load',
    title: 'Attendance register of 60 students (a marked day)',
    ...oneReader('staff'),
    paths: (d) => [`/api/attendance/register/${q({ student_class: BENCH_BIG_CLASS, date: `${currentStartYear(d)}-10-15` })}`],
    expect: (b, t) => json(b, t) ?? ((b.match(/"status":"/g)?.length ?? 0) >= 60 ? null : 'expected 60 marked rows'),
  },
  {
    id: 'attendance-month-grid',
    title: "An arm's month grid (60 students)",
    ...oneReader('staff', { kind: 'p50', ms: 10, text: "the arm's month grid p50 < 10 ms" }),
    paths: (d) => [`/api/attendance/month/${q({ student_class: BENCH_BIG_CLASS, month: `${currentStartYear(d)}-10` })}`],
    expect: (b, t) => json(b, t) ?? (b.includes('"counts":{') ? null : 'expected rows with counts'),
  },
  {
    id: 'attendance-term-totals',
    title: 'Term attendance totals of the whole school',
    ...oneReader('admin', {
      kind: 'p50',
      ms: 200,
      text: 'term totals of a whole school (1,500 students x 65 days) < 200 ms',
      students: 1500,
    }),
    paths: (d) => [`/api/attendance/totals/${q({ session_id: d.sessionId, term: '1st' })}`],
    expect: (b, t, d) =>
      json(b, t) ?? ((b.match(/"admission_number"/g)?.length ?? 0) >= d.meta.students ? null : `expected ${d.meta.students} rows`),
  },
  {
    id: 'attendance-absent-today',
    title: 'Who is absent on a day (whole school)',
    ...oneReader('admin'),
    paths: (d) => [`/api/attendance/absent/${q({ date: `${currentStartYear(d)}-10-15` })}`],
    expect: json,
  },
  {
    // 10 bursars recording bank transfers at once, 1 a second each (as the register's teachers are
    // paced: a bursar types a teller in, no one records 80 a second); the receipt counter row
    // serializes them. Saturating (no pacing) it measured p99 33 ms at ~800 req/s on SQLite.
    id: 'bursary-record-payment',
    title: 'An offline payment recorded, 10 bursars at once',
    method: 'POST',
    role: 'staff',
    paths: () => ['/api/bursary/payments/'],
    body: (i, d) => offlinePayment(i, d),
    connections: [10, 10],
    connectionRate: 1,
    budgets: [{ kind: 'p99', ms: 30, text: 'recording a payment p99 < 30 ms at 10 concurrent bursars' }],
    expect: (b, t) => json(b, t) ?? (b.includes('"receipt_number":"R-') ? null : 'expected a receipt number'),
  },
  {
    // 10 bursars confirming reported transfers at once, paced as recording is: each confirmation
    // records the payment (receipt, slip as its scan, audit) in the report's own transaction.
    id: 'bursary-transfer-confirm',
    title: 'A reported transfer confirmed, 10 bursars at once',
    method: 'POST',
    role: 'staff',
    paths: () => waitingReports,
    before: readWaitingReports,
    onResponse: refillConfirmed,
    body: () => ({}),
    connections: [10, 10],
    connectionRate: 1,
    budgets: [{ kind: 'p99', ms: 30, text: 'confirming a reported transfer p99 < 30 ms at 10 concurrent bursars' }],
    expect: (b, t) =>
      json(b, t) ?? (b.includes('"status":"confirmed"') && b.includes('"receipt_number":"R-') ? null : 'expected a confirmed report'),
  },
  {
    id: 'bursary-statement',
    title: "A student's statement of account",
    ...oneReader('staff', { kind: 'p50', ms: 5, text: "a student's statement p50 < 5 ms" }),
    paths: (d) => spreadStudents(d.meta.students, 50).map((a) => `/api/bursary/statement/${q({ admission_number: a })}`),
    expect: (b, t) => json(b, t) ?? (b.includes('"lines":[') ? null : 'expected statement lines'),
  },
  // The bursar's reports: the whole school's debtors (every active student's dues, with
  // their discounts, against the session's payments), page 1; its PDF of every row; the summary.
  {
    id: 'bursary-debtors',
    title: "The whole school's debtors list, page 1",
    ...oneReader('staff', { kind: 'p50', ms: 50, text: 'the debtors list for 1,500 students p50 < 50 ms', students: 1500 }),
    paths: (d) => [`/api/bursary/debtors/${q({ session_id: d.sessionId })}`],
    expect: (b, t) => json(b, t) ?? (b.includes('"debtors":[{') ? null : 'expected debtors'),
  },
  {
    id: 'bursary-debtors-pdf',
    title: "The whole school's debtors list as a PDF (every row)",
    ...oneReader('staff'),
    paths: (d) => [`/api/bursary/debtors.pdf${q({ session_id: d.sessionId })}`],
    expect: pdf,
  },
  {
    id: 'bursary-collections',
    title: 'The collection summary of the session (whole school)',
    ...oneReader('staff'),
    paths: (d) => [`/api/bursary/collections/${q({ session_id: d.sessionId })}`],
    expect: (b, t) => json(b, t) ?? (b.includes('"by_class":[{') ? null : 'expected figures by class'),
  },
  {
    // Issue 35: the installable app's manifest (decision 045), read at every start of the app: the
    // school's name from settings, public (the browser sends no cookie or token for it).
    id: 'web-app-manifest',
    title: "The installable app's manifest (/manifest.webmanifest, from the school's settings)",
    method: 'GET',
    role: null,
    paths: () => ['/manifest.webmanifest'],
    connections: [8, 4],
    budgets: [{ kind: 'p99', ms: 50, text: 'the app manifest p99 < 50 ms' }],
    expect: (b, t) =>
      t.includes('manifest+json') ? (b.includes('"short_name"') ? null : 'expected a short name') : `expected a manifest, got ${t}`,
  },
  // Dashboards (issue 36): the bursar's term at a glance (every active student's dues, read once for the
  // collection summary and the debtors' ageing) and a teacher's arms with their entry progress and register.
  {
    id: 'dashboard-bursar',
    title: "The bursar's dashboard (whole school)",
    ...oneReader('staff', { kind: 'p99', ms: 100, text: "the bursar's dashboard p99 < 100 ms (1,500 students)", students: 1500 }),
    paths: () => ['/api/dashboards/bursar/'],
    expect: (b, t) =>
      json(b, t) ?? (b.includes('"debtors_ageing":[{') && b.includes('"by_level":[{') ? null : 'expected ageing and levels'),
  },
  {
    id: 'dashboard-staff',
    title: "A teacher's dashboard (arm-subjects' entry progress, the form arm's register and cards)",
    ...oneReader('staff', { kind: 'p99', ms: 100, text: "a teacher's dashboard p99 < 100 ms (1,500 students)", students: 1500 }),
    paths: () => ['/api/dashboards/staff/'],
    expect: (b, t) => json(b, t) ?? (b.includes('"subjects":[{') ? null : "expected the teacher's arm-subjects"),
  },
  // Dashboards (issue 36, decision 046): each home's figures in one read.
  {
    id: 'dashboard-admin',
    title: "The admin's dashboard: attendance, score entry, report cards, fees, grades, accounts",
    ...oneReader('admin', { kind: 'p99', ms: 100, text: "the admin's dashboard p99 < 100 ms (1,500 students)", students: 1500 }),
    paths: (d) => [`/api/dashboards/admin/${q({ session_id: d.sessionId, term: '1st' })}`],
    expect: (b, t) =>
      json(b, t) ?? (b.includes('"score_entry":{"subjects":[') && b.includes('"by_level":[{') ? null : 'expected the panels'),
  },
  {
    // Issue 36 item 4: a student's home (every released card of both sessions ranked in its arm,
    // this term's subjects, register and statement), a fixed set of statements whatever the school.
    id: 'dashboard-student',
    title: "A student's dashboard: the term at a glance",
    ...oneReader('student', { kind: 'p99', ms: 100, text: 'student dashboard p99 < 100 ms (1,500 students)', students: 1500 }),
    connections: [8, 4],
    paths: () => ['/api/dashboards/student/'],
    expect: (b, t) => json(b, t) ?? (b.includes('"history":[{') ? null : 'expected released terms'),
  },
];
