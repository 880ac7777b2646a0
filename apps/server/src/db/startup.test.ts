import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../config';
import { createDatabase, type DatabaseHandle } from './index';
import { StaticMigrationProvider } from './migrations/index';
import { prepareDatabase } from './startup';
import { runPgStatement } from '../../test/helpers';

const url = process.env.TEST_DATABASE_URL;

/** Runs one statement on the server's maintenance connection (create/drop database cannot run in a transaction). */
const admin = (statement: string) => runPgStatement(url!, statement);

/**
 * Several instances started at the same moment on one fresh PostgreSQL database: each runs
 * the whole start-up (migrations, first admin, demo school). A database of its own, not a schema: the
 * migrator's introspection reads every schema of the database, and other test files drop theirs
 * meanwhile. PostgreSQL only: SQLite is one process per database file.
 */
describe.skipIf(!url)('start-up of instances starting together [postgres]', () => {
  const name = `t_startup_${randomBytes(6).toString('hex')}`;
  const handles: DatabaseHandle[] = [];
  beforeAll(() => admin(`create database ${name}`));
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.destroy()));
    await admin(`drop database if exists ${name} with (force)`);
  });

  it('three instances on a fresh database all start; each migration, the first admin and the demo school exist once', async () => {
    const dbUrl = new URL(url!);
    dbUrl.pathname = `/${name}`;
    for (let i = 0; i < 3; i++) handles.push(createDatabase(dbUrl.toString(), { pgPoolSize: 3 }));
    const config = testConfig({
      adminEmail: 'first-admin@test.school',
      adminPassword: 'First-Admin-Pass-1',
      demoData: true,
      demoPasswords: { staff: 'Demo-Staff-Pass-1', student: 'Demo-Student-Pass-1' },
    });
    const log = { info: () => undefined, warn: () => undefined };

    const outcomes = await Promise.allSettled(handles.map((h) => prepareDatabase(h, config, log)));
    expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'started'))).toEqual(['started', 'started', 'started']);

    const db = handles[0]!.db;
    const expected = Object.keys(await new StaticMigrationProvider('postgres').getMigrations()).sort();
    const applied = await sql<{
      name: string;
      n: number;
    }>`select name, count(*) as n from kysely_migration group by name order by name`.execute(db);
    expect(applied.rows).toEqual(expected.map((n) => ({ name: n, n: 1 })));
    const admins = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(admins.n).toBe(1);
    // The demo school once: its sessions (one row per name) and STU-0001 once.
    const sessions = await db.selectFrom('academic_sessions').select('name').orderBy('name').execute();
    expect(sessions.map((s) => s.name)).toEqual(['2024/2025', '2025/2026', '2026/2027']);
    const first = await db.selectFrom('students').select('id').where('admission_number', '=', 'STU-0001').execute();
    expect(first).toHaveLength(1);
  }, 120_000);
});
