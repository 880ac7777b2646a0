import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import pg from 'pg';
import type { Kysely, Selectable } from 'kysely';
import { buildApp } from '../src/app';
import { buildServices, type ServiceDeps, type Services } from '../src/composition';
import { testConfig, type Config } from '../src/config';
import { STUDENT_CSV_COLUMNS } from '@portal/domain';
import { createDatabase, migrateToLatest, nowIso, type DatabaseHandle, type DB } from '../src/db/index';
import { createAdmin, createSession, createStaff, createStudent, newUserRow } from '../src/db/factories';
import type { Dialect } from '../src/db/migrations/util';
import type { Database } from '../src/db/schema';

export type TestDialect = Dialect;

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const DIALECTS: TestDialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** Runs a suite once per database dialect. */
export function describeEachDatabase(name: string, fn: (dialect: TestDialect) => void): void {
  for (const dialect of DIALECTS) describe(`${name} [${dialect}]`, () => fn(dialect));
}

export interface TestContext {
  app: FastifyInstance;
  handle: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

/** Runs one statement on a connection of its own (create/drop database cannot run in a transaction or a pool's session). */
export async function runPgStatement(url: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/** A PostgreSQL schema of a test's own (named `${prefix}_<random>`) and how to drop it. */
export async function newPgSchema(url: string, prefix: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = (statement: string) => runPgStatement(url, statement);
  await run(`create schema ${name}`);
  return { name, drop: () => run(`drop schema ${name} cascade`) };
}

/**
 * Kysely's migrator looks for its own tables with an introspection query over every schema that
 * calls has_schema_privilege(name); when another test file drops its schema meanwhile, PostgreSQL
 * fails the query with 3F000 `schema "t_…" does not exist`, naming that other schema (the server's
 * log shows the statement). Nothing has been migrated at that point, so the migration is tried again.
 */
async function migrateTestDatabase(handle: DatabaseHandle): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateToLatest(handle);
    } catch (err) {
      const missing = /schema "([^"]+)" does not exist/.exec(String(err))?.[1];
      if (attempt >= 5 || !missing || missing === handle.pgSchema) throw err;
    }
  }
}

/**
 * A fresh, migrated database and app. SQLite uses a private in-memory database (or `sqliteFile`);
 * PostgreSQL gets a schema of its own, dropped on close, so test files never see each other's rows.
 */
export async function createTestContext(
  dialect: TestDialect,
  overrides: Partial<Config> = {},
  opts: { sqliteFile?: string; loggerStream?: { write(line: string): void }; now?: () => number; clock?: () => number } = {},
): Promise<TestContext> {
  let handle: DatabaseHandle;
  let dropSchema: (() => Promise<void>) | undefined;
  if (dialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    const pgSchema = await newPgSchema(url, 't');
    handle = createDatabase(url, { pgSchema: pgSchema.name, pgPoolSize: 5 });
    dropSchema = pgSchema.drop;
  } else {
    handle = createDatabase(opts.sqliteFile ? `sqlite:${opts.sqliteFile}` : 'sqlite::memory:');
  }
  await migrateTestDatabase(handle);
  const config = testConfig(overrides);
  const app = await buildApp({ config, handle, logger: false, loggerStream: opts.loggerStream, now: opts.now, clock: opts.clock });
  await app.ready();
  return {
    app,
    handle,
    config,
    async close() {
      await app.close();
      await handle.destroy();
      await dropSchema?.();
    },
  };
}

/**
 * The portal's services as the composition root builds them, over `db` (the test's database, or a
 * connection of its own that counts statements) with the test's config and dialect.
 */
export function servicesOver(
  ctx: TestContext,
  db: DB = ctx.handle.db,
  opts: Pick<ServiceDeps, 'now' | 'clock' | 'paymentProvider'> = {},
): Services {
  return buildServices({ db, dialect: ctx.handle.dialect, config: ctx.config, log: ctx.app.log, ...opts });
}

export const TEST_PASSWORD = 'Correct-Horse-9';

export interface SignedIn {
  access: string;
  refresh: string;
  userId: number;
  /** admin username, staff_id or admission_number */
  publicId: string;
  email: string;
  auth: { authorization: string };
}

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

/**
 * One sign-in attempt at the role's endpoint (`email` is the sign-in id: an email, or a student's
 * admission number), from `from.remoteAddress` and with the browser's device `from.cookie` when given.
 */
export async function login(
  app: FastifyInstance,
  role: 'admin' | 'staff' | 'student',
  email: string,
  password = TEST_PASSWORD,
  from: { remoteAddress?: string; cookie?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url: `/api/${role}/login/`,
    payload: { email, password },
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
    ...(from.cookie ? { headers: { cookie: from.cookie } } : {}),
  });
}

/** The sign-in envelope of a refused attempt: what the login screen reads (`errors.non_field_errors[0]`). */
export function signInRefusal(message: string) {
  return { status: 'error', data: null, message, errors: { non_field_errors: [message] } };
}

/** The Authorization header of a bearer token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** GET /api/me/ with `auth` (anonymous without it). */
export function fetchMe(ctx: TestContext, auth?: { authorization: string }) {
  return ctx.app.inject({ method: 'GET', url: '/api/me/', ...(auth ? { headers: auth } : {}) });
}

/** POST /api/token/refresh/ with a refresh token (or whatever a test sends in its place). */
export function refreshTokens(ctx: TestContext, refresh: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh } });
}

/** POST /api/password/change/ with the caller's `auth` header. */
export function changePassword(ctx: TestContext, auth: { authorization: string }, old_password: string, new_password: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/password/change/', headers: auth, payload: { old_password, new_password } });
}

async function signIn(
  ctx: TestContext,
  role: 'admin' | 'staff' | 'student',
  email: string,
  userId: number,
  publicId: string,
): Promise<SignedIn> {
  const res = await login(ctx.app, role, email);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const data = res.json<{ data: { access: string; refresh: string } }>().data;
  return { access: data.access, refresh: data.refresh, userId, publicId, email, auth: { authorization: `Bearer ${data.access}` } };
}

/** Creates an admin and signs in. */
export async function signInAdmin(ctx: TestContext): Promise<SignedIn> {
  const email = `admin-${unique()}@test.school`;
  const a = await createAdmin(ctx.handle.db, { email, password: TEST_PASSWORD, username: `admin${unique()}` });
  return signIn(ctx, 'admin', email, a.userId, 'admin');
}

export async function signInStaff(
  ctx: TestContext,
  input: Partial<Parameters<typeof createStaff>[1]> = {},
): Promise<SignedIn & { staffId: string; id: number }> {
  const email = input.email ?? `staff-${unique()}@test.school`;
  const s = await createStaff(ctx.handle.db, { firstName: 'Grace', lastName: 'Okafor', ...input, email, password: TEST_PASSWORD });
  return { ...(await signIn(ctx, 'staff', email, s.userId, s.staffId)), staffId: s.staffId, id: s.id };
}

export async function signInStudent(
  ctx: TestContext,
  input: Partial<Parameters<typeof createStudent>[1]> = {},
): Promise<SignedIn & { admissionNumber: string; id: number }> {
  const email = input.email ?? `student-${unique()}@test.school`;
  const s = await createStudent(ctx.handle.db, {
    firstName: 'Ada',
    lastName: 'Eze',
    arm: 'JSS 1A',
    ...input,
    email,
    password: TEST_PASSWORD,
  });
  return { ...(await signIn(ctx, 'student', email, s.userId, s.admissionNumber)), admissionNumber: s.admissionNumber, id: s.id };
}

/** A student (not signed in) of the class with the given names, under an email of their own. */
export function addStudent(ctx: TestContext, arm: string, firstName: string, lastName: string) {
  return createStudent(ctx.handle.db, {
    email: `pupil-${unique()}@test.school`,
    password: TEST_PASSWORD,
    firstName,
    lastName,
    arm,
  });
}

export { createAdmin, createSession, createStaff, createStudent };

/**
 * A student's sign-in row written straight to `users` (placeholder hash, no student row), for tests
 * that build the rest by hand: inside one transaction, or on a database an earlier release left.
 */
export function insertStudentUser(db: DB, email: string | null, mustChangePassword: 0 | 1 = 1) {
  return db
    .insertInto('users')
    .values(newUserRow('student', email, 'x', mustChangePassword === 1))
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * A describe block's own database: opened before its tests, closed after them. `ready` gets it
 * first, to set the block's variables and add what its tests share.
 */
export function withTestContext(
  dialect: TestDialect,
  ready: (ctx: TestContext) => unknown,
  overrides: Partial<Config> = {},
  opts: Parameters<typeof createTestContext>[2] = {},
): void {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await createTestContext(dialect, overrides, opts);
    await ready(ctx);
  });
  afterAll(() => ctx?.close());
}

/**
 * A describe block's own database with one admin signed in and nothing else (no staff, no
 * session): for the tests that count what a school has set up.
 */
export function withAdmin(dialect: TestDialect, ready: (school: { ctx: TestContext; admin: SignedIn }) => unknown): void {
  withTestContext(dialect, async (ctx) => ready({ ctx, admin: await signInAdmin(ctx) }));
}

export interface TestSchool {
  ctx: TestContext;
  admin: SignedIn;
  staff: SignedIn & { staffId: string; id: number };
  /** The session before the current one (the one but last of `sessions`), or 0 when there is none. */
  previousSessionId: number;
  /** The current session's id (the last of `sessions`), or 0 when there is none. */
  sessionId: number;
}

/**
 * The school most API tests start from: a database of the block's own with an admin and a staff
 * member signed in and the academic `sessions` given (the last one current), before `ready`.
 */
export function withSchool(
  dialect: TestDialect,
  opts: { sessions?: string[]; overrides?: Partial<Config>; now?: () => number },
  ready: (school: TestSchool) => unknown = () => undefined,
): void {
  withTestContext(
    dialect,
    async (ctx) => {
      const admin = await signInAdmin(ctx);
      const staff = await signInStaff(ctx);
      const names = opts.sessions ?? [];
      const sessionIds: number[] = [];
      for (const [i, name] of names.entries()) sessionIds.push((await createSession(ctx.handle.db, name, i === names.length - 1)).id);
      await ready({ ctx, admin, staff, sessionId: sessionIds.at(-1) ?? 0, previousSessionId: sessionIds.at(-2) ?? 0 });
    },
    opts.overrides,
    { now: opts.now },
  );
}

/** A valid registration body, unique email each call. */
export function studentBody(over: Record<string, unknown> = {}) {
  return {
    first_name: 'Chiamaka',
    last_name: 'Obi',
    email: `chiamaka.${unique()}@pupil.school`,
    phone_number: '08031234567',
    gender: 'F',
    date_of_birth: '2012-03-09',
    student_class: 'JSS 2A',
    fathers_name: 'Mr Obi',
    fathers_phone: '08039998888',
    mothers_name: 'Mrs Obi',
    mothers_phone: '',
    home_address: '12 Awolowo Road, Ikoyi',
    user_type: 3,
    ...over,
  };
}

/** A class arm the school has, written straight to the database: `name` is `level arm` unless given. */
export async function addArm(ctx: TestContext, level: string, arm: string, name = `${level} ${arm}`): Promise<string> {
  await ctx.handle.db.insertInto('class_arms').values({ level, arm, name, created_at: nowIso() }).execute();
  return name;
}

/** An import CSV of students: the template's header, then one line per row (a column not given is empty). */
export function studentsCsv(rows: Partial<Record<(typeof STUDENT_CSV_COLUMNS)[number], string>>[]): string {
  return [STUDENT_CSV_COLUMNS.join(','), ...rows.map((row) => STUDENT_CSV_COLUMNS.map((c) => row[c] ?? '').join(','))].join('\n');
}

/** The lines of a CSV download (its byte-order mark and last line break taken off). */
export function csvLines(res: LightMyRequestResponse): string[] {
  return res.body
    .replace(/^\ufeff/, '')
    .trim()
    .split('\n');
}

/**
 * POST /api/payments/initiate/ as `student` (signed in as Ada Eze) for their own fees in `current_class`
 * and `current_session`, paid by their own email, with `fields` (amount, term...) added.
 */
export function initiatePayment(
  ctx: TestContext,
  student: SignedIn & { admissionNumber: string },
  fields: { current_class: string; current_session: string } & Record<string, unknown>,
) {
  const payload = { admission_number: student.admissionNumber, full_name: 'Ada Eze', email: student.email, ...fields };
  return ctx.app.inject({ method: 'POST', url: '/api/payments/initiate/', headers: student.auth, payload });
}

/**
 * GET, POST and PUT as a signed-in user, on the block's context (`ctx` is read when a request is
 * sent, so a describe block can take them before its database is open); answers unchecked.
 */
export function requestsOn(ctx: () => TestContext) {
  const send = (method: 'POST' | 'PUT', who: SignedIn, url: string, payload: unknown) =>
    ctx().app.inject({ method, url, headers: who.auth, payload: payload as InjectOptions['payload'] });
  return {
    get: (who: SignedIn, url: string) => ctx().app.inject({ method: 'GET', url, headers: who.auth }),
    post: (who: SignedIn, url: string, payload: unknown) => send('POST', who, url, payload),
    put: (who: SignedIn, url: string, payload: unknown) => send('PUT', who, url, payload),
  };
}

/** `n` requests sent at once (the i-th built by `request`), their answers in order: for races. */
export function injectAtOnce(ctx: TestContext, n: number, request: (i: number) => InjectOptions): Promise<LightMyRequestResponse[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => ctx.app.inject(request(i))));
}

/** The select of `table`'s `columns` in the rows whose `column` is `value` (rowWhere, rowsWhere). */
function selectWhere(ctx: TestContext, table: keyof Database, columns: string[], [column, value]: [string, string | number]) {
  const db = ctx.handle.db as unknown as Kysely<{ row: Record<string, unknown> }>;
  return db
    .selectFrom(table as 'row')
    .select(columns as never[])
    .where(column as never, '=', value as never);
}

/**
 * The `columns` of the one row of `table` whose `column` is `value`, read straight from the
 * database (what a request left there); throws when there is none.
 */
export function rowWhere<T extends keyof Database, C extends keyof Database[T] & string>(
  ctx: TestContext,
  table: T,
  columns: C[],
  where: [keyof Database[T] & string, string | number],
): Promise<Pick<Selectable<Database[T]>, C & keyof Selectable<Database[T]>>> {
  return selectWhere(ctx, table, columns, where).executeTakeFirstOrThrow() as never;
}

/** The `columns` of every row of `table` whose `column` is `value`, in `orderBy` order, read straight from the database. */
export function rowsWhere<T extends keyof Database, C extends keyof Database[T] & string>(
  ctx: TestContext,
  table: T,
  columns: C[],
  where: [keyof Database[T] & string, string | number],
  orderBy: keyof Database[T] & string,
): Promise<Pick<Selectable<Database[T]>, C & keyof Selectable<Database[T]>>[]> {
  return selectWhere(ctx, table, columns, where)
    .orderBy(orderBy as never)
    .execute() as never;
}

/** The audit row of one action on one record; throws when there is none. */
export function auditRow(ctx: TestContext, entity: string, entityId: string, action: string) {
  return ctx.handle.db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity', '=', entity)
    .where('entity_id', '=', entityId)
    .where('action', '=', action)
    .executeTakeFirstOrThrow();
}

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json<T>();
}

/**
 * An environment for `loadConfig` as a production deployment would set it (production
 * checks go through the real loader, not `testConfig()`). Nothing is written: JWT_SECRET is given.
 */
export function productionEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    JWT_SECRET: 'production-test-secret-production-test-secret-0123',
    PUBLIC_URL: 'https://portal.example.school',
    DATA_DIR: '/nonexistent/portal-production-test',
    WEB_DIST: '/nonexistent/portal-production-test/web',
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

/**
 * A second instance of the app on the PostgreSQL schema of `ctx` (its own pool and listener, as a
 * second server behind nginx), ready once its reference cache and card memo hear changes (LISTEN);
 * `close()` stops it and its pool.
 */
export async function secondInstance(ctx: TestContext): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const handle = createDatabase(process.env.TEST_DATABASE_URL!, { pgSchema: ctx.handle.pgSchema, pgPoolSize: 2 });
  const app = await buildApp({ config: ctx.config, handle, logger: false });
  await app.ready();
  const listening = () => app.referenceCache.enabled && app.cardMemos.card.enabled;
  for (let i = 0; i < 200 && !listening(); i++) await new Promise((r) => setTimeout(r, 10));
  const close = async () => {
    await app.close();
    await handle.destroy();
  };
  if (!listening()) {
    await close();
    throw new Error('the second instance never listened for changes');
  }
  return { app, close };
}
