import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe } from 'vitest';
import pg from 'pg';
import { buildApp } from '../src/app';
import { testConfig, type Config } from '../src/config';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../src/db/index';
import { createAdmin, createSession, createStaff, createStudent } from '../src/db/factories';
import type { Dialect } from '../src/db/migrations/util';

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

/** A PostgreSQL schema of a test's own (named `${prefix}_<random>`) and how to drop it. */
export async function newPgSchema(url: string, prefix: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await run(`create schema ${name}`);
  return { name, drop: () => run(`drop schema ${name} cascade`) };
}

/**
 * A fresh, migrated database and app. SQLite uses a private in-memory database (or `sqliteFile`);
 * PostgreSQL gets a schema of its own, dropped on close, so test files never see each other's rows.
 */
export async function createTestContext(
  dialect: TestDialect,
  overrides: Partial<Config> = {},
  opts: { sqliteFile?: string; loggerStream?: { write(line: string): void } } = {},
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
  await migrateToLatest(handle);
  const config = testConfig(overrides);
  const app = await buildApp({ config, handle, logger: false, loggerStream: opts.loggerStream });
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

export async function login(app: FastifyInstance, role: 'admin' | 'staff' | 'student', email: string, password = TEST_PASSWORD) {
  return app.inject({ method: 'POST', url: `/api/${role}/login/`, payload: { email, password } });
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
    studentClass: 'JSS 1A',
    ...input,
    email,
    password: TEST_PASSWORD,
  });
  return { ...(await signIn(ctx, 'student', email, s.userId, s.admissionNumber)), admissionNumber: s.admissionNumber, id: s.id };
}

export { createAdmin, createSession, createStaff, createStudent };

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
