import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterEach, expect } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../src/db/index';
import { createAdmin, createStudent } from '../src/db/factories';
import { StaticMigrationProvider } from '../src/db/migrations/index';
import { login, newPgSchema, TEST_PASSWORD, type TestDialect } from './helpers';

/** The tables of release 0013 (before the teaching structure), whose rows every later upgrade must keep. */
export const RELEASE_0013_TABLES = [
  'users',
  'students',
  'staff',
  'academic_sessions',
  'results',
  'result_publications',
  'result_audit',
  'fee_items',
  'payments',
  'audit_log',
] as const;

/** Release 0014's: those and the teaching structure. */
export const RELEASE_0014_TABLES = [
  ...RELEASE_0013_TABLES,
  'class_arms',
  'subjects',
  'level_subjects',
  'teaching_assignments',
  'form_teachers',
] as const;

/** Release 0016's (before the attendance register): every table it had, the old `attendance` one included. */
export const RELEASE_0016_TABLES = [
  ...RELEASE_0014_TABLES,
  'admins',
  'refresh_tokens',
  'login_throttle',
  'settings',
  'counters',
  'attendance',
  'grading_scales',
  'payment_webhook_events',
  'payment_simulator_transactions',
  'session_grading_scales',
  'streams',
  'stream_subjects',
  'student_subjects',
  'score_entry_windows',
  'session_teaching',
  'assessment_schemes',
  'report_terms',
  'report_card_entries',
  'report_card_status',
  'student_photos',
] as const;

/** Release 0017's (before the bursar's office): those and the attendance register. */
export const RELEASE_0017_TABLES = [
  ...RELEASE_0016_TABLES,
  'school_terms',
  'calendar_events',
  'attendance_registers',
  'attendance_marks',
  'attendance_carried',
] as const;

/** Release 0018's (the bursar's office, first part): those and the capabilities and teller scans. */
export const RELEASE_0018_TABLES = [...RELEASE_0017_TABLES, 'staff_capabilities', 'payment_scans'] as const;

/** Release 0019's (the bursar's office): those and discounts and transfer reports. */
export const RELEASE_0019_TABLES = [...RELEASE_0018_TABLES, 'fee_discounts', 'transfer_reports'] as const;

export type Cleanups = (() => Promise<void> | void)[];

/** A list of clean-ups run, last first, after each test of the file that calls this. */
export function cleanupsAfterEach(): Cleanups {
  const cleanups: Cleanups = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return cleanups;
}

/** The number of rows in each table, to show an upgrade kept them all. */
export async function countRows(handle: DatabaseHandle, tables: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) {
    const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(t)}`.execute(handle.db);
    out[t] = Number(r.rows[0]!.n);
  }
  return out;
}

/** Every row of each table, as sorted JSON lines: an upgrade that keeps them leaves this unchanged. */
export async function tableRows(handle: DatabaseHandle, tables: readonly string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const merged = tables.includes('report_terms') && (await termTableMerged(handle));
  for (const t of tables) {
    const r =
      t === 'report_terms' && merged
        ? await sql<
            Record<string, unknown>
          >`select session_id, term, next_term_begins, times_opened, updated_by, updated_at from school_terms
            where next_term_begins is not null or times_opened is not null`.execute(handle.db)
        : await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(handle.db);
    out[t] = r.rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/**
 * Whether migration 0031 merged `report_terms` into the term rows (`school_terms`): `tableRows` then
 * reads a release's `report_terms` rows from there (the terms with a card value).
 */
async function termTableMerged(handle: DatabaseHandle): Promise<boolean> {
  const r = await sql<{ name: string }>`select name from kysely_migration where name = '0031_one_term_table'`.execute(handle.db);
  return r.rows.length > 0;
}

/**
 * The rows of the tables `before` holds, each read on the columns it had there: compare with `before`
 * to show an upgrade kept every row and value while later migrations add columns to those tables.
 */
export async function tableRowsAsBefore(handle: DatabaseHandle, before: Record<string, string[]>): Promise<Record<string, string[]>> {
  const after = await tableRows(handle, Object.keys(before));
  const out: Record<string, string[]> = {};
  for (const [t, rows] of Object.entries(after)) {
    const first = before[t]?.[0];
    const columns = first ? Object.keys(JSON.parse(first) as Record<string, unknown>) : null;
    out[t] = columns
      ? rows
          .map((r) => {
            const row = JSON.parse(r) as Record<string, unknown>;
            return JSON.stringify(Object.fromEntries(columns.map((c) => [c, row[c]])));
          })
          .sort()
      : rows;
  }
  return out;
}

/**
 * The comparison keys migration 0020 computes again (bank code and reference rule): an upgrade test
 * of a later migration compares every other value; 0020's own test checks these.
 */
export const KEYS_RECOMPUTED_BY_0020: Record<string, readonly string[]> = {
  payments: ['bank_reference_key'],
  transfer_reports: ['bank_reference_key', 'waiting_key'],
};

/** `tableRows` output without the keys 0020 computes again. */
export function withoutRecomputedKeys(rows: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(rows).map(([t, list]) => {
      const omit = KEYS_RECOMPUTED_BY_0020[t];
      if (!omit) return [t, list];
      return [
        t,
        list
          .map((r) => {
            const row = JSON.parse(r) as Record<string, unknown>;
            for (const c of omit) delete row[c];
            return JSON.stringify(row);
          })
          .sort(),
      ];
    }),
  );
}

/** A private copy of the SQLite database an earlier release made (`test/fixtures/<release>.sqlite.gz`), not migrated. */
export function databaseFromFixture(release: string, cleanups: Cleanups): DatabaseHandle {
  const fixture = path.join(__dirname, 'fixtures', `${release}.sqlite.gz`);
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-upgrade-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'portal.sqlite');
  writeFileSync(file, gunzipSync(readFileSync(fixture)));
  const handle = createDatabase(`sqlite:${file}`);
  cleanups.push(() => handle.destroy());
  return handle;
}

/** The previous release's database (`release-0019`, not migrated yet) and every row of its tables as it left them. */
export async function previousRelease(cleanups: Cleanups): Promise<{ handle: DatabaseHandle; before: Record<string, string[]> }> {
  const handle = databaseFromFixture('release-0019', cleanups);
  return { handle, before: await tableRows(handle, RELEASE_0019_TABLES) };
}

/** Migrates `handle` to the latest and expects every row of `before` still there with every value (0020's recomputed keys apart). */
export async function migrateKeepingRows(handle: DatabaseHandle, before: Record<string, string[]>): Promise<void> {
  await migrateToLatest(handle);
  expect(withoutRecomputedKeys(await tableRowsAsBefore(handle, before))).toEqual(withoutRecomputedKeys(before));
}

/** The app on an upgraded database, with a new admin signed in; `now` fixes its clock. */
export async function appAsAdmin(
  handle: DatabaseHandle,
  cleanups: Cleanups,
  opts: { now?: () => number } = {},
): Promise<{ app: FastifyInstance; auth: { authorization: string } }> {
  const app = await buildApp({ config: testConfig(), handle, logger: false, now: opts.now });
  cleanups.push(() => app.close());
  await createAdmin(handle.db, { email: 'upgrade-admin@test.school', password: TEST_PASSWORD, username: 'upgradeadmin' });
  const auth = { authorization: `Bearer ${(await login(app, 'admin', 'upgrade-admin@test.school')).json().data.access}` };
  return { app, auth };
}

/**
 * The bursar's office records an offline payment by `payer` on an upgraded app: the response, for
 * the test to check (a refusal may be what it expects).
 */
export function recordOfflinePayment(
  app: FastifyInstance,
  auth: { authorization: string },
  payer: { admission_number: string; session_id: number },
  fields: Record<string, unknown>,
) {
  return app.inject({ method: 'POST', url: '/api/bursary/payments/', headers: auth, payload: { ...payer, ...fields } });
}

/** Student number `n` in `arm`, as an earlier release stored one. */
export function oldStudent(handle: DatabaseHandle, arm: string, n: number) {
  return createStudent(handle.db, {
    email: `m${n}@test.school`,
    password: TEST_PASSWORD,
    firstName: 'Old',
    lastName: `Row${n}`,
    arm,
  });
}

/**
 * A database migrated only up to `migration`, as an earlier release left it, for upgrade tests: a
 * private in-memory SQLite or a PostgreSQL schema of its own. Its clean-up goes onto `cleanups`.
 */
export async function databaseAtMigration(dialect: TestDialect, migration: string, cleanups: Cleanups): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (dialect === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = await newPgSchema(url, 'm');
    handle = createDatabase(url, { pgSchema: schema.name, pgPoolSize: 3 });
    cleanups.push(schema.drop);
  } else {
    handle = createDatabase('sqlite::memory:');
  }
  cleanups.push(() => handle.destroy());
  const migrator = new Migrator({
    db: handle.db,
    provider: new StaticMigrationProvider(handle.dialect),
    ...(handle.pgSchema ? { migrationTableSchema: handle.pgSchema } : {}),
  });
  const { error } = await migrator.migrateTo(migration);
  if (error) throw error instanceof Error ? error : new Error(`migration to ${migration} failed`);
  return handle;
}

/**
 * PostgreSQL: the `portal_table_changes` notices heard while `write` runs (each `<schema>.<table>`),
 * listening from before it until `enough` says so (or a second passes), then 50 ms more for a
 * notice that should not come.
 */
export async function tableChangesHeard(write: () => Promise<void>, enough: (heard: string[]) => boolean): Promise<string[]> {
  const heard: string[] = [];
  const listener = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await listener.connect();
  try {
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query('listen portal_table_changes');
    await write();
    for (let i = 0; i < 100 && !enough(heard); i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    return heard;
  } finally {
    await listener.end();
  }
}
