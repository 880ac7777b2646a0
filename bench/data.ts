/**
 * Builds a realistic school in a FRESH database, fast, for the load scenarios of bench/run.ts.
 *
 *   npm run bench:data -- --students 1500 [--sessions 2] [--db FILE|postgres://…] [--out FILE]
 *
 * SQLite (default): bench/data/school-N.db. PostgreSQL (--db postgres://… or DATABASE_URL): a
 * dedicated database `bench_sN` on that server, dropped and created anew (never the given one).
 *
 * Same rows as the factories of apps/server/src/db/factories.ts (same columns, grades from the
 * domain's default scales, public ids from the same counters, set to their final value), but
 * written in big chunks inside transactions, with each password hashed once.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import jpeg from 'jpeg-js';
import pg from 'pg';
import { PNG } from 'pngjs';
import {
  DEFAULT_ATTENDANCE_SETTINGS,
  DEFAULT_REPORT_SETTINGS,
  DEFAULT_SCALES,
  TERM_VALUES,
  bankReferenceKey,
  schoolDaysOfTerm,
  type CalendarEvent,
  type SchoolCalendar,
  classLevelOf,
  formatAdmissionNumber,
  formatStaffId,
  gradeFor,
  levelOfClass,
} from '@portal/domain';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../apps/server/src/db/index';
import { DEMO_STAFF_DETAILS } from '../apps/server/src/db/factories';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { FIRST_NAMES, LAST_NAMES } from '../apps/server/src/db/seed/index';
import {
  SCHOOL_ARMS,
  SCHOOL_CATALOGUE,
  SCHOOL_STREAMS,
  levelOfferings,
  studentChoice,
  studentSubjectNames,
  teacherOfCell,
  teachingCells,
} from '../apps/server/src/db/seed/teaching';
import { schoolYearCalendar } from '../apps/server/src/db/seed/calendar';
import {
  BENCH_ACCOUNTS,
  BENCH_BIG_CLASS,
  BENCH_BIG_CLASS_SIZE,
  BENCH_DIR,
  BENCH_SHEET_CLASS,
  BENCH_SHEET_SCHEME,
  ROOT,
  datasetLocation,
  fmtMs,
  isBenchDatabaseName,
  memoize,
  intArg,
  benchFamilies,
  benchParentPhone,
  familyOfStudent,
  parseArgs,
} from './common';

export interface GenerateOptions {
  students: number;
  sessions: number;
  /** `sqlite:<file>` or the postgres URL of the dedicated bench database. */
  url: string;
  log?: (line: string) => void;
}

export interface DatasetMeta {
  students: number;
  sessions: number;
  staff: number;
  results: number;
  payments: number;
  fingerprint: string;
  generatedAt: string;
  seconds: number;
  currentSession: string;
  currentSessionId: number;
}

const MIGRATIONS_DIR = path.join(ROOT, 'apps/server/src/db/migrations');

/** Reported transfers the generator leaves waiting (bursary-transfer-confirm confirms them). */
export const BENCH_TRANSFER_REPORTS = 20_000;
/** The smallest PNG (one pixel), the "photo" of each seeded slip. */
const BENCH_SLIP = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Waiting reports of the current session spread over the students, oldest first, one bank reference each. */
function benchTransferReports(students: number, currentSessionId: number, now: string): Record<string, unknown>[] {
  const start = Date.parse(now) - BENCH_TRANSFER_REPORTS * 1000;
  return Array.from({ length: BENCH_TRANSFER_REPORTS }, (_, k) => {
    const reference = `BTR-${k + 1}`;
    const key = bankReferenceKey('044', reference);
    return {
      student_id: 1 + ((k * 7) % students),
      session_id: currentSessionId,
      term: '1st',
      amount_kobo: 1_000_000 + (k % 50) * 10_000,
      method: k % 2 ? 'bank_teller' : 'bank_transfer',
      bank: 'Access Bank',
      bank_reference: reference,
      bank_reference_key: key,
      paid_on: now.slice(0, 10),
      note: '',
      scan_mime: 'image/png',
      scan_data: BENCH_SLIP,
      scan_bytes: Buffer.from(BENCH_SLIP, 'base64').length,
      status: 'to_confirm',
      reported_by: null,
      reported_at: new Date(start + k * 1000).toISOString(),
      waiting_key: key,
    };
  });
}

/**
 * A hash of the migration sources and of this generator: a dataset built before a migration or the
 * generator changed (new rows, e.g. the report card's entries) is rebuilt.
 */
export function migrationsFingerprint(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS_DIR).sort()) h.update(f).update(readFileSync(path.join(MIGRATIONS_DIR, f)));
  h.update(readFileSync(path.join(ROOT, 'bench/data.ts')));
  return h.digest('hex').slice(0, 16);
}

export function metaFile(url: string): string {
  if (url.startsWith('sqlite:')) return `${url.slice('sqlite:'.length)}.meta.json`;
  const u = new URL(url);
  return path.join(BENCH_DIR, 'data', `pg-${u.hostname}-${u.port || 5432}${u.pathname.replace('/', '-')}.meta.json`);
}

export function readMeta(url: string): DatasetMeta | undefined {
  try {
    return JSON.parse(readFileSync(metaFile(url), 'utf8')) as DatasetMeta;
  } catch {
    return undefined;
  }
}

/** The dataset exists, has this size and was built with the current migrations. */
export function datasetIsCurrent(url: string, students: number, sessions?: number): DatasetMeta | undefined {
  const meta = readMeta(url);
  if (!meta || meta.students !== students || meta.fingerprint !== migrationsFingerprint()) return undefined;
  if (sessions !== undefined && meta.sessions !== sessions) return undefined;
  if (url.startsWith('sqlite:') && !existsSync(url.slice('sqlite:'.length))) return undefined;
  return meta;
}

// ---------------------------------------------------------------------------------------------
// Bulk writers: one per dialect, same interface.

type Row = Record<string, unknown>;

interface ColumnInfo {
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

interface Bulk {
  columns(table: string): Promise<Map<string, ColumnInfo>>;
  hasTable(table: string): Promise<boolean>;
  /** Inserts rows (objects) inside one transaction; keys not in the table are refused loudly. */
  insert(table: string, rows: Row[]): Promise<void>;
  exec(sql: string): Promise<void>;
  finish(): Promise<void>;
}

function checkColumns(table: string, cols: Map<string, ColumnInfo>, keys: string[]): void {
  const unknown = keys.filter((k) => !cols.has(k));
  if (unknown.length) throw new Error(`bench data: table ${table} has no column(s) ${unknown.join(', ')}: update bench/data.ts`);
  const missing = [...cols.entries()]
    .filter(([name, c]) => c.notNull && !c.hasDefault && name !== 'id' && !keys.includes(name))
    .map(([n]) => n);
  if (missing.length) throw new Error(`bench data: table ${table} needs column(s) ${missing.join(', ')}: update bench/data.ts`);
}

/**
 * A bulk writer from one dialect's parts: `read` gives a table's columns (asked once per table) and
 * `write` inserts rows whose keys were checked against them (any rows: none is a no-op).
 */
function bulkWriter(dialect: {
  read: (table: string) => Promise<Map<string, ColumnInfo>>;
  write: (table: string, keys: string[], rows: Row[], cols: Map<string, ColumnInfo>) => Promise<void>;
  exec: (sql: string) => Promise<void>;
  finish: () => Promise<void>;
}): Bulk {
  const columns = memoize(dialect.read);
  return {
    columns,
    hasTable: async (t) => (await columns(t)).size > 0,
    async insert(table, rows) {
      if (!rows.length) return;
      const keys = Object.keys(rows[0]!);
      const cols = await columns(table);
      checkColumns(table, cols, keys);
      await dialect.write(table, keys, rows, cols);
    },
    exec: dialect.exec,
    finish: dialect.finish,
  };
}

function sqliteBulk(handle: DatabaseHandle): Bulk {
  const db = handle.sqlite!;
  const prepare = memoize((sql: string) => db.prepare(sql));
  return bulkWriter({
    read: (table) => {
      const info = db.prepare(`select name, type, "notnull" as nn, dflt_value as d, pk from pragma_table_info(?)`).all(table) as {
        name: string;
        type: string;
        nn: number;
        d: unknown;
        pk: number;
      }[];
      return Promise.resolve(
        new Map(info.map((c) => [c.name, { type: c.type, notNull: c.nn === 1 || c.pk === 1, hasDefault: c.d !== null }])),
      );
    },
    write: (table, keys, rows) => {
      const s = prepare(`insert into "${table}" (${keys.map((k) => `"${k}"`).join(',')}) values (${keys.map(() => '?').join(',')})`);
      db.transaction(() => {
        for (const r of rows) s.run(keys.map((k) => r[k] as never));
      })();
      return Promise.resolve();
    },
    exec: (sql) => Promise.resolve(void db.exec(sql)),
    finish: () => handle.destroy(),
  });
}

function pgBulk(url: string): Bulk {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return bulkWriter({
    read: async (table) => {
      const r = await pool.query<{ column_name: string; udt_name: string; is_nullable: string; column_default: string | null }>(
        `select column_name, udt_name, is_nullable, column_default from information_schema.columns
          where table_schema = current_schema() and table_name = $1`,
        [table],
      );
      return new Map(
        r.rows.map((c) => [c.column_name, { type: c.udt_name, notNull: c.is_nullable === 'NO', hasDefault: c.column_default !== null }]),
      );
    },
    write: async (table, keys, rows, cols) => {
      // One array parameter per column: any number of rows in one statement, no parameter limit.
      const arrays = keys.map((k) => rows.map((r) => r[k] ?? null));
      const casts = keys.map((k, i) => `$${i + 1}::${cols.get(k)!.type}[]`);
      await pool.query(`insert into "${table}" (${keys.map((k) => `"${k}"`).join(',')}) select * from unnest(${casts.join(',')})`, arrays);
    },
    exec: async (sql) => void (await pool.query(sql)),
    finish: () => pool.end(),
  });
}

// ---------------------------------------------------------------------------------------------

const FIRST = [...FIRST_NAMES, 'Tobi', 'Uchenna', 'Fatima', 'Kunle', 'Nneka', 'Sade', 'Bola', 'Efe', 'Ese', 'Hauwa'];
const LAST = [...LAST_NAMES, 'Ibekwe', 'Oyelaran', 'Suleiman', 'Afolabi', 'Nnamdi', 'Olawale', 'Yakubu', 'Chukwu'];

/** Deterministic pseudo-random numbers (mulberry32): the same school on every machine, the same visitors every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The school's classes: three arms per level, as in the demo school. */
const CLASSES = SCHOOL_ARMS.map((a) => a.name);

/** Whether a school of `total` students has the 60-student score-grid class (SSS 1A) besides JSS 1A. */
export function hasSheetClass(total: number): boolean {
  return total >= 2 * BENCH_BIG_CLASS_SIZE + CLASSES.length - 2;
}

/**
 * 60 students in JSS 1A (the result-sheet class), then (in a school big enough) 60 in SSS 1A (the
 * score-grid class), the rest spread evenly over the other arms.
 */
export function classOfStudent(i: number, total: number): string {
  const big = Math.min(BENCH_BIG_CLASS_SIZE, total);
  if (i <= big) return BENCH_BIG_CLASS;
  const sheet = hasSheetClass(total) ? BENCH_BIG_CLASS_SIZE : 0;
  if (i <= big + sheet) return BENCH_SHEET_CLASS;
  const others = CLASSES.filter((c) => c !== BENCH_BIG_CLASS && (!sheet || c !== BENCH_SHEET_CLASS));
  return others[(i - big - sheet - 1) % others.length]!;
}

/** CA1, CA2 and Exam of a whole total under the SSS scheme (a fifth each for the CAs, Exam at most 60): they add up to it. */
export function componentsOf(score: number): string {
  const ca = Math.min(20, Math.round(score / 5));
  return JSON.stringify({ CA1: ca, CA2: ca, Exam: score - 2 * ca });
}

/** The i-th student's stream and electives (the demo school's rule) and the subjects that gives them. */
const subjectMemo = new Map<string, string[]>();
export function benchStudentPlan(i: number, cls: string): { stream: string | null; add: string[]; subjects: string[] } {
  const level = classLevelOf(cls)!;
  const choice = studentChoice(i, level);
  const key = `${level}|${choice.stream}|${choice.add.join(',')}`;
  let subjects = subjectMemo.get(key);
  if (!subjects) subjectMemo.set(key, (subjects = studentSubjectNames(level, choice)));
  return { ...choice, subjects };
}

/**
 * The teaching structure with explicit ids (subjects 1.., arms 1.., streams 1..), replacing the rows
 * the migration made from the earlier release's fixed lists. Every session gets a teacher per
 * arm-subject pair and a form teacher per arm; staff1 (the scenarios' staff account) is JSS 1A's
 * form teacher and also holds every JSS 1A and SSS 1A pair, so the bulk-save and score-grid scenarios
 * stay allowed when the current session enforces assignments, which it does.
 */
async function writeTeachingStructure(bulk: Bulk, sessionIds: number[], staffCount: number, now: string): Promise<number> {
  for (const t of ['teaching_assignments', 'form_teachers', 'stream_subjects', 'streams', 'level_subjects', 'class_arms', 'subjects'])
    await bulk.exec(`delete from ${t}`);
  const subjectId = new Map(SCHOOL_CATALOGUE.map((s, k) => [s.name, k + 1]));
  const armId = new Map(SCHOOL_ARMS.map((a, k) => [a.name, k + 1]));
  await bulk.insert(
    'subjects',
    SCHOOL_CATALOGUE.map((s, k) => ({ id: k + 1, ...s, sort_order: k + 1, retired: 0, created_at: now })),
  );
  await bulk.insert(
    'class_arms',
    SCHOOL_ARMS.map((a, k) => ({ id: k + 1, ...a, retired: 0, created_at: now })),
  );
  const levels = [...new Set(SCHOOL_ARMS.map((a) => a.level))];
  await bulk.insert(
    'level_subjects',
    levels.flatMap((level) =>
      levelOfferings(level).map((o) => ({ class_level: level, subject_id: subjectId.get(o.name)!, compulsory: o.compulsory ? 1 : 0 })),
    ),
  );
  await bulk.insert(
    'streams',
    SCHOOL_STREAMS.map((s, k) => ({ id: k + 1, name: s.name, created_at: now })),
  );
  await bulk.insert(
    'stream_subjects',
    SCHOOL_STREAMS.flatMap((s, k) => s.subjects.map((name) => ({ stream_id: k + 1, subject_id: subjectId.get(name)! }))),
  );
  const cells = teachingCells();
  const pairs = new Set<string>();
  const rows: Row[] = [];
  const add = (sid: number, arm: string, subject: string, staff: number) => {
    const key = `${sid}|${arm}|${subject}|${staff}`;
    if (pairs.has(key)) return;
    pairs.add(key);
    rows.push({
      id: rows.length + 1,
      session_id: sid,
      arm_id: armId.get(arm)!,
      subject_id: subjectId.get(subject)!,
      staff_id: staff,
      created_at: now,
    });
  };
  for (const sid of sessionIds) {
    cells.forEach((c, k) => add(sid, c.arm, c.subject, 1 + teacherOfCell(k, cells.length, staffCount)));
    for (const c of cells) if (c.arm === BENCH_BIG_CLASS || c.arm === BENCH_SHEET_CLASS) add(sid, c.arm, c.subject, 1);
  }
  await bulk.insert('teaching_assignments', rows);
  await bulk.insert(
    'form_teachers',
    sessionIds.flatMap((sid) => SCHOOL_ARMS.map((a, k) => ({ session_id: sid, arm_id: k + 1, staff_id: 1 + (k % staffCount) }))),
  );
  await bulk.insert('session_teaching', [
    { session_id: sessionIds[sessionIds.length - 1], enforce_assignments: 1, updated_by: 1, updated_at: now },
  ]);
  return rows.length;
}

/**
 * The school calendar of every session, and a term of registers: every arm marked on every school
 * day of the current session's first term (~64 days), most students present, some late, a few
 * absent (now and then several days in a row). The second term stays unmarked for the save scenario.
 */
async function writeAttendance(bulk: Bulk, sessionIds: number[], startYears: number[], N: number, now: string): Promise<number> {
  const years = sessionIds.map((sid, j) => schoolYearCalendar(sid, startYears[j]!));
  const terms = years.flatMap((c) => c.terms);
  const events: CalendarEvent[] = years.flatMap((c) => c.events).map((e, k) => ({ id: k + 1, ...e }));
  await bulk.insert(
    'school_terms',
    terms.map((t) => ({ ...t, updated_by: 1, updated_at: now })),
  );
  await bulk.insert(
    'calendar_events',
    events.map((e) => ({ ...e, created_by: 1, created_at: now })),
  );
  const cal: SchoolCalendar = { settings: DEFAULT_ATTENDANCE_SETTINGS, terms, events };
  const current = sessionIds[sessionIds.length - 1]!;
  const days = schoolDaysOfTerm(
    cal,
    terms.find((t) => t.session_id === current && t.term === '1st')!,
  );
  const registerOf = new Map<string, number>();
  const registers: Row[] = [];
  for (const cls of CLASSES)
    for (const date of days) {
      const id = registers.length + 1;
      registerOf.set(`${cls}|${date}`, id);
      registers.push({
        id,
        student_class: cls,
        date,
        period: 'morning',
        session_id: current,
        term: '1st',
        version: 1,
        marked_by: 1,
        marked_at: `${date}T07:45:00.000Z`,
        updated_by: 1,
        updated_at: `${date}T07:45:00.000Z`,
      });
    }
  for (let k = 0; k < registers.length; k += 5_000) await bulk.insert('attendance_registers', registers.slice(k, k + 5_000));
  const rand = rng(16);
  let marks: Row[] = [];
  let count = 0;
  for (let i = 1; i <= N; i++) {
    const cls = classOfStudent(i, N);
    let sick = 0;
    for (const date of days) {
      const r = rand();
      // One student in 40 falls ill for 3 to 5 days once in the term.
      if (sick === 0 && i % 40 === 0 && r < 0.02) sick = 3 + Math.floor(rand() * 3);
      const status = sick > 0 ? 'absent' : r < 0.03 ? 'absent' : r < 0.04 ? 'excused' : r < 0.08 ? 'late' : 'present';
      if (sick > 0) sick--;
      marks.push({ register_id: registerOf.get(`${cls}|${date}`)!, student_id: i, status });
    }
    if (marks.length >= 20_000 || i === N) {
      await bulk.insert('attendance_marks', marks);
      count += marks.length;
      marks = [];
    }
  }
  return count;
}

function sessionNames(k: number): string[] {
  const last = 2025;
  return Array.from({ length: k }, (_, j) => {
    const start = last - (k - 1 - j);
    return `${start}/${start + 1}`;
  });
}

/** Drops and creates the dedicated PostgreSQL database (never anything but a bench database). */
export async function freshPostgresDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  if (!isBenchDatabaseName(name)) throw new Error(`refusing to recreate database ${name}: only bench_* and *_bench databases`);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const c = new pg.Client({ connectionString: adminUrl.toString() });
  await c.connect();
  try {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name}`);
  } finally {
    await c.end();
  }
}

/** A small image drawn by `ink(x, y)` (true: dark), as a PNG or JPEG data URL: the card's sign-off and photos. */
function benchImage(width: number, height: number, type: 'png' | 'jpeg', ink: (x: number, y: number) => boolean): string {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      const v = ink(x, y) ? 40 : 235;
      data[p] = v;
      data[p + 1] = v;
      data[p + 2] = type === 'png' && v < 100 ? 140 : v;
      data[p + 3] = 255;
    }
  if (type === 'jpeg') return `data:image/jpeg;base64,${Buffer.from(jpeg.encode({ width, height, data }, 80).data).toString('base64')}`;
  const png = PNG.sync.write(Object.assign(new PNG({ width, height }), { data }), { colorType: 2 });
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** Every trait of the default lists rated 1..5 for student i and term t, as stored (trait id → rating). */
function benchRatings(i: number, t: number): string {
  const traits = [...DEFAULT_REPORT_SETTINGS.traits.affective, ...DEFAULT_REPORT_SETTINGS.traits.psychomotor];
  return JSON.stringify(Object.fromEntries(traits.map((tr, k) => [tr.id, 1 + ((i + k + t) % 5)])));
}

export async function generate(opts: GenerateOptions): Promise<DatasetMeta> {
  const log = opts.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const t0 = performance.now();
  const N = opts.students;
  const K = opts.sessions;
  const isPg = !opts.url.startsWith('sqlite:');

  if (isPg) await freshPostgresDatabase(opts.url);
  else {
    const file = opts.url.slice('sqlite:'.length);
    mkdirSync(path.dirname(file), { recursive: true });
    for (const suffix of ['', '-wal', '-shm', '.meta.json']) rmSync(file + suffix, { force: true });
  }
  const handle = createDatabase(opts.url, { pgPoolSize: 2 });
  await migrateToLatest(handle);
  let bulk: Bulk;
  if (isPg) {
    await handle.destroy();
    bulk = pgBulk(opts.url);
  } else {
    // Bulk load: the journal can be lighter while nobody else uses the file.
    handle.sqlite!.pragma('synchronous = OFF');
    bulk = sqliteBulk(handle);
  }
  const phase = (name: string, start: number) => log(`  ${name.padEnd(28)} ${fmtMs(performance.now() - start)}`);

  // Passwords: argon2id is slow on purpose, so each distinct password is hashed once.
  let t = performance.now();
  const [adminHash, staffHash, studentHash, parentHash] = await Promise.all([
    hashPassword(BENCH_ACCOUNTS.admin.password),
    hashPassword(BENCH_ACCOUNTS.staff.password),
    hashPassword(BENCH_ACCOUNTS.student.password),
    hashPassword(BENCH_ACCOUNTS.parent.password),
  ]);
  phase('password hashes', t);
  const now = new Date().toISOString();
  /** A user row as the bench writes every account: signed in already, enabled, never renumbered. */
  const userRow = (id: number, role: 'admin' | 'staff' | 'student' | 'parent', email: string | null, password_hash: string): Row => ({
    id,
    role,
    email,
    password_hash,
    must_change_password: 0,
    disabled: 0,
    token_version: 0,
    created_at: now,
    updated_at: now,
  });

  // Sessions: the last one is current.
  t = performance.now();
  const names = sessionNames(K);
  await bulk.insert(
    'academic_sessions',
    // Each later session made after the students were (a second apart): every student was in every
    // earlier session, so the current one brings each student's balance forward (decision 041).
    names.map((name, j) => ({
      id: j + 1,
      name,
      is_current: j === K - 1 ? 1 : 0,
      created_at: new Date(Date.parse(now) + j * 1000).toISOString(),
    })),
  );
  const sessionIds = names.map((_, j) => j + 1);

  // The admin (user 1).
  await bulk.insert('users', [userRow(1, 'admin', BENCH_ACCOUNTS.admin.email, adminHash)]);
  await bulk.insert('admins', [{ id: 1, user_id: 1, username: 'bench-admin', first_name: 'Bench', last_name: 'Admin' }]);

  // Staff: one per 25 students (at least 5): users 2..S+1.
  const S = Math.max(5, Math.ceil(N / 25));
  const staffUsers: Row[] = [];
  const staffRows: Row[] = [];
  const designations = ['Teacher', 'Mathematics Teacher', 'English Teacher', 'Form Teacher', 'Bursar', 'Vice Principal'];
  const departments = ['Sciences', 'Languages', 'Arts', 'Administration', 'Commercial'];
  for (let k = 1; k <= S; k++) {
    const userId = 1 + k;
    const email = k === 1 ? BENCH_ACCOUNTS.staff.email : `staff${k}@bench.school`;
    staffUsers.push(userRow(userId, 'staff', email, staffHash));
    staffRows.push({
      id: k,
      user_id: userId,
      staff_id: formatStaffId(k),
      username: email.split('@')[0],
      first_name: FIRST[(k * 3) % FIRST.length],
      last_name: LAST[(k * 5) % LAST.length],
      gender: k % 2 ? 'F' : 'M',
      designation: designations[k % designations.length],
      department: departments[k % departments.length],
      ...DEMO_STAFF_DETAILS,
      created_at: now,
      updated_at: now,
    });
  }
  await bulk.insert('users', staffUsers);
  await bulk.insert('staff', staffRows);
  // staff1 (the scenarios' staff account) is also the bursar, for the bursary scenarios.
  if (await bulk.hasTable('staff_capabilities'))
    await bulk.insert('staff_capabilities', [{ user_id: 2, capability: 'bursar', granted_by: 1, granted_at: now }]);
  phase(`sessions, admin, ${S} staff`, t);
  t = performance.now();
  const assignments = await writeTeachingStructure(bulk, sessionIds, S, now);
  phase(`teaching structure, ${assignments} assignments`, t);
  // The SSS scheme of the current session (migration 0015): SSS results of that session hold components.
  const sheetSession = sessionIds[sessionIds.length - 1]!;
  const hasSchemes = await bulk.hasTable('assessment_schemes');
  if (hasSchemes) {
    await bulk.insert('assessment_schemes', [
      {
        session_id: sheetSession,
        level: 'SSS',
        components: JSON.stringify(BENCH_SHEET_SCHEME),
        precision: 'one_decimal',
        updated_by: 1,
        updated_at: now,
      },
    ]);
  }
  const streamId = new Map(SCHOOL_STREAMS.map((s, k) => [s.name, k + 1]));
  const subjectId = new Map(SCHOOL_CATALOGUE.map((s, k) => [s.name, k + 1]));

  // Publications (results module): every class's terms are released, so students see their cards.
  if (await bulk.hasTable('result_publications')) {
    const pubs: Row[] = [];
    let id = 1;
    for (const sid of sessionIds)
      for (const term of TERM_VALUES)
        for (const cls of CLASSES) pubs.push({ id: id++, session_id: sid, term, student_class: cls, published_by: 1, published_at: now });
    await bulk.insert('result_publications', pubs);
  }
  const hasPayments = await bulk.hasTable('payments');
  // Since 0030 a payment keys by its session's id.
  const paymentSessionIds = hasPayments && (await bulk.columns('payments')).has('session_id');
  const FEE_KOBO = 45_000 * 100; // ₦45,000.00 a term, in kobo
  // Fee items (migration 0008): the term's tuition and a PTA levy, plus an optional bus item that
  // the class report leaves out of what is owed.
  const feeTable = (await bulk.hasTable('fee_items')) ? 'fee_items' : (await bulk.hasTable('fee_schedules')) ? 'fee_schedules' : null;
  if (hasPayments && feeTable) {
    const fees: Row[] = [];
    let id = 1;
    const ITEMS =
      feeTable === 'fee_items'
        ? [
            { name: 'Tuition', amount_kobo: FEE_KOBO - 5_000 * 100, compulsory: 1 },
            { name: 'PTA levy', amount_kobo: 5_000 * 100, compulsory: 1 },
            { name: 'School bus', amount_kobo: 15_000 * 100, compulsory: 0 },
          ]
        : [{ name: '', amount_kobo: FEE_KOBO, compulsory: 1 }];
    for (const sid of sessionIds)
      for (const term of TERM_VALUES)
        for (const cls of CLASSES)
          for (const item of ITEMS)
            fees.push({
              id: id++,
              student_class: cls,
              session_id: sid,
              term,
              amount_kobo: item.amount_kobo,
              description: 'School fees',
              ...(feeTable === 'fee_items' ? { name: item.name, name_key: item.name.toLowerCase(), compulsory: item.compulsory } : {}),
              created_at: now,
              updated_at: now,
            });
    await bulk.insert(feeTable, fees);
  }

  // The full report card (migration 0016): term dates, the settings with a signature and a stamp.
  const hasCards = await bulk.hasTable('report_card_entries');
  let cardTerms: { session_id: number; term: string; next_term_begins: string; times_opened: number }[] = [];
  if (hasCards) {
    cardTerms = sessionIds.flatMap((sid, j) =>
      TERM_VALUES.map((term, k) => ({
        session_id: sid,
        term,
        next_term_begins: `${2024 + j + (k === 2 ? 1 : 0)}-${['01-08', '04-27', '09-14'][k]}`,
        times_opened: 110 + k * 5,
        updated_by: 1,
        updated_at: now,
      })),
    );
    // Since migration 0031 these are on the term's row (school_terms), written with the calendar below.
    if (await bulk.hasTable('report_terms')) await bulk.insert('report_terms', cardTerms);
    await bulk.exec(`delete from settings where key = 'report_cards'`);
    const reportCards = JSON.stringify({
      ...DEFAULT_REPORT_SETTINGS,
      require_comments: true,
      signature: benchImage(240, 80, 'png', (x, y) => Math.abs(y - 40 - Math.round(18 * Math.sin(x / 14))) < 3),
      stamp: benchImage(120, 120, 'png', (x, y) => Math.abs(Math.hypot(x - 60, y - 60) - 50) < 4),
    });
    await bulk.insert('settings', [{ key: 'report_cards', value: reportCards }]);
    // The settings the earlier sessions ended with (migration 0047, decision 058): their cards read these.
    if (await bulk.hasTable('session_report_settings'))
      await bulk.insert(
        'session_report_settings',
        sessionIds.slice(0, -1).map((sid) => ({ session_id: sid, value: reportCards, updated_at: now })),
      );
  }
  const photo = benchImage(120, 150, 'jpeg', (x, y) => Math.hypot(x - 60, y - 55) < 30 || (y > 100 && Math.abs(x - 60) < 45));

  // Students, their results and payments, streamed in chunks so memory stays flat at any size.
  t = performance.now();
  const firstStudentUser = 2 + S;
  const CHUNK = isPg ? 500 : 1000;
  const rand = rng(2026);
  let resultId = 1;
  let paymentId = 1;
  let results = 0;
  let payments = 0;
  for (let from = 1; from <= N; from += CHUNK) {
    const to = Math.min(N, from + CHUNK - 1);
    const users: Row[] = [];
    const students: Row[] = [];
    const choiceRows: Row[] = [];
    const resultRows: Row[] = [];
    const paymentRows: Row[] = [];
    const entryRows: Row[] = [];
    const photoRows: Row[] = [];
    for (let i = from; i <= to; i++) {
      const userId = firstStudentUser + i - 1;
      const cls = classOfStudent(i, N);
      const plan = benchStudentPlan(i, cls);
      for (const name of plan.add) choiceRows.push({ student_id: i, subject_id: subjectId.get(name)!, choice: 'add' });
      const scale = DEFAULT_SCALES[levelOfClass(cls)];
      const first = FIRST[i % FIRST.length]!;
      const last = LAST[(i * 7) % LAST.length]!;
      const email = `student${i}@bench.school`;
      const admission = formatAdmissionNumber(i);
      users.push(userRow(userId, 'student', email, studentHash));
      students.push({
        id: i,
        user_id: userId,
        admission_number: admission,
        first_name: first,
        last_name: last,
        phone_number: '08031234567',
        gender: i % 2 ? 'F' : 'M',
        date_of_birth: `20${10 + (i % 5)}-0${1 + (i % 9)}-1${i % 10}`,
        student_class: cls,
        stream_id: plan.stream === null ? null : streamId.get(plan.stream)!,
        fathers_name: `Mr ${last}`,
        fathers_phone: '08039876543',
        mothers_name: `Mrs ${last}`,
        mothers_phone: '08035556666',
        home_address: '5 Allen Avenue, Ikeja, Lagos',
        created_at: now,
        updated_at: now,
      });
      const ability = 35 + rand() * 50;
      // The big class has photos (the card PDFs draw them).
      if (hasCards && cls === BENCH_BIG_CLASS) photoRows.push({ student_id: i, photo, updated_by: 1, updated_at: now });
      for (const [j, sid] of sessionIds.entries()) {
        for (const [t, term] of TERM_VALUES.entries()) {
          if (hasCards) {
            // Every card filled: ratings, both comments, attendance, a promotion override now and then.
            const absent = (i + t) % 9;
            entryRows.push({
              student_id: i,
              session_id: sid,
              term,
              student_class: cls,
              ratings: benchRatings(i, t),
              form_comment: ability >= 55 ? 'A very good result. Aim higher next term.' : 'A fair result. More effort is needed.',
              principal_comment: ability >= 55 ? 'Good performance. Keep it up.' : 'Satisfactory. You can do better.',
              days_present: 110 + t * 5 - absent,
              days_absent: absent,
              promotion_override: term === '3rd' && i % 97 === 0 ? 'trial' : null,
              override_reason: term === '3rd' && i % 97 === 0 ? 'Ill for half of the session' : '',
              version: 1,
              updated_by: 1,
              updated_at: now,
            });
          }
          for (const subject of plan.subjects) {
            const score = Math.max(0, Math.min(100, Math.round(ability + (rand() - 0.5) * 40)));
            resultRows.push({
              id: resultId++,
              student_id: i,
              session_id: sid,
              term,
              student_class: cls,
              subject,
              score,
              ...(hasSchemes ? { components: sid === sheetSession && levelOfClass(cls) === 'SSS' ? componentsOf(score) : null } : {}),
              remarks: '',
              grade: gradeFor(score, scale),
              version: 1,
              created_by: null,
              updated_by: null,
              created_at: now,
              updated_at: now,
            });
          }
          if (hasPayments) {
            // Most students pay each term; some are pending, some have not paid.
            const p = rand();
            if (p < 0.85) {
              const status = p < 0.8 ? 'successful' : 'pending';
              const paidAt = status === 'successful' ? now : null;
              paymentRows.push({
                id: paymentId++,
                reference: `BENCH-${sid}-${term}-${i}`,
                student_id: i,
                admission_number: admission,
                full_name: `${first} ${last}`,
                current_class: cls,
                current_session: names[j],
                ...(paymentSessionIds ? { session_id: sessionIds[j] } : {}),
                term,
                email,
                phone_number: '08031234567',
                amount_kobo: FEE_KOBO,
                currency: 'NGN',
                status,
                provider: 'simulator',
                provider_transaction_id: status === 'successful' ? `SIM-${paymentId}` : null,
                provider_access_code: null,
                provider_status: status === 'successful' ? 'success' : null,
                initiated_by: userId,
                paid_at: paidAt,
                created_at: now,
                updated_at: now,
              });
            }
          }
        }
      }
    }
    await bulk.insert('users', users);
    await bulk.insert('students', students);
    await bulk.insert('student_subjects', choiceRows);
    // Results in slices: PostgreSQL statements stay a few MB each.
    for (let k = 0; k < resultRows.length; k += 20_000) await bulk.insert('results', resultRows.slice(k, k + 20_000));
    if (paymentRows.length) await bulk.insert('payments', paymentRows);
    for (let k = 0; k < entryRows.length; k += 5_000) await bulk.insert('report_card_entries', entryRows.slice(k, k + 5_000));
    if (photoRows.length) await bulk.insert('student_photos', photoRows);
    results += resultRows.length;
    payments += paymentRows.length;
    if (N >= 10_000 && (to % 10_000 === 0 || to === N)) log(`    … ${to.toLocaleString()} students (${fmtMs(performance.now() - t)})`);
  }
  phase(`${N.toLocaleString()} students, ${results.toLocaleString()} results, ${payments.toLocaleString()} payments`, t);

  // Families (migration 0032): one parent per family, signed in by phone, linked to their children.
  if (await bulk.hasTable('parent_links')) {
    t = performance.now();
    const F = benchFamilies(N);
    const parentUsers: Row[] = [];
    const parentRows: Row[] = [];
    const linkRows: Row[] = [];
    for (let f = 1; f <= F; f++) {
      const userId = firstStudentUser + N + f - 1;
      parentUsers.push(userRow(userId, 'parent', null, parentHash));
      parentRows.push({
        id: f,
        user_id: userId,
        name: `Parent ${f}`,
        phone: benchParentPhone(f),
        email: null,
        created_at: now,
        invited_at: now,
        last_sign_in_at: null,
      });
    }
    for (let i = 1; i <= N; i++)
      linkRows.push({
        id: i,
        parent_id: familyOfStudent(i, N),
        student_id: i,
        relationship: i % 2 ? 'mother' : 'father',
        source: 'import',
        created_at: now,
      });
    for (let k = 0; k < F; k += 5_000) await bulk.insert('users', parentUsers.slice(k, k + 5_000));
    for (let k = 0; k < F; k += 5_000) await bulk.insert('parents', parentRows.slice(k, k + 5_000));
    for (let k = 0; k < linkRows.length; k += 5_000) await bulk.insert('parent_links', linkRows.slice(k, k + 5_000));
    phase(`${F.toLocaleString()} families`, t);
  }

  // Reported transfers waiting for the bursar, for bursary-transfer-confirm: each run
  // confirms about 400 of them, so a dataset serves ~50 runs (it is rebuilt when this file changes).
  if (await bulk.hasTable('transfer_reports')) {
    t = performance.now();
    await bulk.insert('transfer_reports', benchTransferReports(N, K, now));
    phase(`${BENCH_TRANSFER_REPORTS.toLocaleString()} reported transfers waiting`, t);
  }
  // Discounts (migration 0019): one student in twenty (STU-0001, STU-0021, …) has a sibling discount
  // of 10 % on the first item (Tuition) in every session, so every fee scenario reads some.
  if (feeTable === 'fee_items' && (await bulk.hasTable('fee_discounts'))) {
    t = performance.now();
    const discountRows: Row[] = [];
    let discountId = 1;
    for (const sid of sessionIds)
      for (let i = 1; i <= N; i += 20)
        discountRows.push({
          id: discountId++,
          student_id: i,
          session_id: sid,
          term: null,
          kind: 'sibling',
          basis: 'percent',
          percent_bp: 1000,
          amount_kobo: 0,
          items: JSON.stringify(['Tuition']),
          reason: 'Bench sibling',
          given_by: 1,
          given_at: now,
          revoked_at: null,
          revoked_by: null,
          revoke_reason: '',
        });
    for (let k = 0; k < discountRows.length; k += 5_000) await bulk.insert('fee_discounts', discountRows.slice(k, k + 5_000));
    phase(`${discountRows.length.toLocaleString()} discounts`, t);
  }

  // The attendance register (migration 0017): the calendar, and a term of registers.
  let attendanceMarks = 0;
  if (await bulk.hasTable('attendance_marks')) {
    t = performance.now();
    const startYears = names.map((n) => Number(n.slice(0, 4)));
    attendanceMarks = await writeAttendance(bulk, sessionIds, startYears, N, now);
    if (!(await bulk.hasTable('report_terms')))
      for (const c of cardTerms)
        await bulk.exec(
          `update school_terms set next_term_begins = '${c.next_term_begins}', times_opened = ${c.times_opened} where session_id = ${c.session_id} and term = '${c.term}'`,
        );
    phase(`attendance, ${attendanceMarks.toLocaleString()} marks`, t);
  }

  // Public ids come from the same counters as the services: set to the last one handed out.
  await bulk.exec(`delete from counters where name in ('student', 'staff')`);
  await bulk.insert('counters', [
    { name: 'student', value: N },
    { name: 'staff', value: S },
  ]);

  t = performance.now();
  if (isPg) {
    // Explicit ids were inserted: move each serial sequence past them, then gather statistics.
    for (const table of [
      'users',
      'admins',
      'staff',
      'students',
      'academic_sessions',
      'results',
      'result_publications',
      'payments',
      'fee_schedules',
      'fee_items',
      'subjects',
      'class_arms',
      'streams',
      'teaching_assignments',
      'calendar_events',
      'attendance_registers',
      'fee_discounts',
      'parents',
      'parent_links',
    ]) {
      if (!(await bulk.hasTable(table))) continue;
      await bulk.exec(`select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from "${table}"), 0) + 1, false)`);
    }
    await bulk.exec('analyze');
    phase('sequences, analyze', t);
  } else {
    await bulk.exec('pragma wal_checkpoint(truncate)');
  }
  await bulk.finish();

  const meta: DatasetMeta = {
    students: N,
    sessions: K,
    staff: S,
    results,
    payments,
    fingerprint: migrationsFingerprint(),
    generatedAt: now,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    currentSession: names[K - 1]!,
    currentSessionId: K,
  };
  mkdirSync(path.dirname(metaFile(opts.url)), { recursive: true });
  writeFileSync(metaFile(opts.url), JSON.stringify(meta, null, 2));
  return meta;
}

async function main(): Promise<void> {
  const args = parseArgs();
  const students = intArg(args, 'students', 1500);
  const sessions = intArg(args, 'sessions', students > 10_000 ? 3 : 2);
  const target = typeof args.db === 'string' ? args.db : typeof args.out === 'string' ? args.out : undefined;
  const loc = datasetLocation(students, target);
  process.stdout.write(`Building a school of ${students.toLocaleString()} students, ${sessions} session(s) in ${loc.label}\n`);
  const meta = await generate({ students, sessions, url: loc.url });
  const rss = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  process.stdout.write(
    `Done in ${meta.seconds} s: ${meta.students.toLocaleString()} students, ${meta.staff} staff, ${meta.results.toLocaleString()} results, ` +
      `${meta.payments.toLocaleString()} payments; peak RSS ${rss ? Math.round(Number(rss) / 1024) : '?'} MB\n` +
      `Sign-ins: ${Object.entries(BENCH_ACCOUNTS)
        .map(([role, a]) => `${role} ${a.email} / ${a.password}`)
        .join('; ')}\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
