import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBJECTS, formatAdmissionNumber } from '@portal/domain';
import { nowIso } from '../../src/db/index';
import { allocate } from '../../src/db/counters';
import { writeAudit } from '../../src/db/audit';
import { checkDatabaseFile } from '../../src/scripts/backup';
import { assertNotInUse, restoreSqlite, validateBackup } from '../../src/scripts/restore';
import { createSession, createTestContext, insertStudentUser, type TestContext } from '../helpers';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../../..');

function cli(script: 'backup' | 'restore', args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, ['--import', 'tsx', `apps/server/src/scripts/${script}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    timeout: 30_000,
  });
}

/** One registration as the services make it: account, student, 14 results and an audit row, in ONE transaction. */
async function registerWithResults(ctx: TestContext, sessionId: number, n: number): Promise<void> {
  await ctx.handle.db.transaction().execute(async (trx) => {
    const now = nowIso();
    const user = await insertStudentUser(trx, `load${n}@backup.test`);
    const admission = formatAdmissionNumber(await allocate(trx, 'student'));
    const st = await trx
      .insertInto('students')
      .values({
        user_id: user.id,
        admission_number: admission,
        first_name: 'Load',
        last_name: `N${n}`,
        phone_number: '08030000000',
        gender: 'F',
        date_of_birth: '2011-01-01',
        student_class: 'JSS 1A',
        fathers_name: '',
        fathers_phone: '',
        mothers_name: '',
        mothers_phone: '',
        home_address: '',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('results')
      .values(
        SUBJECTS.map((subject, i) => ({
          student_id: st.id,
          session_id: sessionId,
          term: '1st',
          student_class: 'JSS 1A',
          subject,
          score: (n + i) % 101,
          remarks: '',
          grade: 'A',
          version: 1,
          created_by: null,
          updated_by: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await writeAudit(trx, { actorUserId: null, action: 'create', entity: 'student', entityId: admission });
  });
}

/** Every invariant a half-copied database would break. */
function assertConsistent(file: string): { students: number } {
  const report = checkDatabaseFile(file);
  expect(report.integrity).toBe('ok');
  expect(report.foreignKeyProblems).toBe(0);
  expect(report.missingTables).toEqual([]);
  const db = new SQLite(file, { readonly: true });
  try {
    const students = (db.prepare('select count(*) n from students').get() as { n: number }).n;
    const perStudent = db
      .prepare('select s.id, count(r.id) n from students s left join results r on r.student_id = s.id group by s.id having n <> ?')
      .all(SUBJECTS.length);
    expect(perStudent).toEqual([]);
    expect(report.counts.results).toBe(students * SUBJECTS.length);
    expect(report.counts.users).toBe(students);
    expect(report.counts.audit_log).toBe(students);
    const counter = db.prepare("select value from counters where name = 'student'").get() as { value: number } | undefined;
    expect(counter?.value ?? 0).toBe(students);
    const orphans = db
      .prepare('select count(*) n from users u where not exists (select 1 from students s where s.user_id = u.id)')
      .get() as {
      n: number;
    };
    expect(orphans.n).toBe(0);
    return { students };
  } finally {
    db.close();
  }
}

describe('backup and restore [sqlite]', () => {
  let dir: string;
  let ctx: TestContext;
  let dbFile: string;
  let sessionId: number;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-backup-'));
    dbFile = path.join(dir, 'portal.db');
    ctx = await createTestContext('sqlite', {}, { sqliteFile: dbFile });
    sessionId = (await createSession(ctx.handle.db, '2025/2026', true)).id;
    // The FK check needs the session; the invariants count only what the loop writes.
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a backup taken by `npm run backup` under write load restores to a consistent database', async () => {
    let n = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        await registerWithResults(ctx, sessionId, n++);
        // Let the event loop breathe so the load looks like a server's.
        if (n % 5 === 0) await new Promise((r) => setImmediate(r));
      }
    })();
    while (n < 30) await new Promise((r) => setTimeout(r, 10));
    const before = n;
    const out = path.join(dir, 'backups', 'under-load.db');
    const { stdout } = await cli('backup', ['--out', out, '--database', `sqlite:${dbFile}`]);
    const after = n;
    // Keep writing a little after the copy finished, then stop.
    await new Promise((r) => setTimeout(r, 50));
    stop = true;
    await writer;

    expect(stdout).toContain('Backup written');
    expect(after).toBeGreaterThan(before); // writes really ran while the backup was taken
    const backupState = assertConsistent(out);
    expect(backupState.students).toBeGreaterThanOrEqual(before);
    expect(backupState.students).toBeLessThan(n);

    // The live database is still fine and has more than the backup.
    const liveCount = await ctx.handle.db
      .selectFrom('students')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(liveCount.n)).toBe(n);

    // Restore into a fresh file and open it like the server would.
    const restored = path.join(dir, 'restored', 'portal.db');
    const result = restoreSqlite(out, restored);
    expect(result.counts.students).toBe(backupState.students);
    expect(assertConsistent(restored).students).toBe(backupState.students);
    const db = new SQLite(restored);
    db.pragma('foreign_keys = ON');
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });

  it('restore refuses while the database is open by a running server', async () => {
    const out = path.join(dir, 'backups', 'refuse.db');
    await cli('backup', ['--out', out, '--database', `sqlite:${dbFile}`]);
    expect(() => assertNotInUse(dbFile)).toThrow(/in use \(is the server running\?\)/);
    const refused = await cli('restore', [out, '--database', `sqlite:${dbFile}`]).catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain('Stop the server');
  });

  it('restore refuses files that are not sound portal databases', () => {
    const junk = path.join(dir, 'junk.db');
    writeFileSync(junk, 'this is not a database'.repeat(100));
    expect(() => validateBackup(junk)).toThrow(/not a valid SQLite database/);
    const foreign = path.join(dir, 'foreign.db');
    const f = new SQLite(foreign);
    f.exec('create table notes(x)');
    f.close();
    expect(() => validateBackup(foreign)).toThrow(/not a portal database \(missing tables: users/);
    expect(() => validateBackup(path.join(dir, 'missing.db'))).toThrow(/No such file/);
  });

  it('`npm run restore` replaces a stopped database atomically, drops its stale WAL and keeps the old one aside', async () => {
    const out = path.join(dir, 'backups', 'for-restore.db');
    await cli('backup', ['--out', out, '--database', `sqlite:${dbFile}`]);
    const expected = assertConsistent(out).students;

    // A stopped server's database, with newer rows and a leftover WAL (as after a crash).
    const target = path.join(dir, 'stopped', 'portal.db');
    restoreSqlite(out, target, { keepPrevious: false });
    const live = new SQLite(target);
    live.pragma('journal_mode = WAL');
    live.pragma('wal_autocheckpoint = 0');
    live.exec("insert into settings(key, value) values ('after-backup', '1')");
    // Keep a copy of the WAL with that commit, close (which checkpoints and deletes it), then put it
    // back: the leftover of a crash. Replayed onto the restored file it would corrupt it.
    const wal = `${target}-wal`;
    const staleWal = readFileSync(wal);
    expect(staleWal.length).toBeGreaterThan(32);
    live.close();
    writeFileSync(wal, staleWal);

    const { stdout } = await cli('restore', [out], { DATABASE_URL: `sqlite:${target}` });
    expect(stdout).toMatch(/Restored .*\(integrity ok;/);
    const kept = /kept at (.+)\.\n/.exec(stdout)?.[1];
    expect(kept).toBeTruthy();
    expect(existsSync(`${target}-wal`)).toBe(false);
    expect(assertConsistent(target).students).toBe(expected);
    const countAfterBackup = (file: string) => {
      const db = new SQLite(file, { readonly: true });
      try {
        return db.prepare("select count(*) n from settings where key = 'after-backup'").get();
      } finally {
        db.close();
      }
    };
    expect(countAfterBackup(target)).toEqual({ n: 0 });
    // The replaced database, crash leftover included, was kept aside rather than lost.
    expect(countAfterBackup(kept!)).toEqual({ n: 1 });

    // Without keeping a copy, the stale WAL must be removed before the rename, or it is replayed.
    const again = new SQLite(target);
    again.pragma('journal_mode = WAL');
    again.pragma('wal_autocheckpoint = 0');
    again.exec("insert into settings(key, value) values ('after-backup', '2')");
    const wal2 = readFileSync(`${target}-wal`);
    again.close();
    writeFileSync(`${target}-wal`, wal2);
    restoreSqlite(out, target, { keepPrevious: false });
    expect(existsSync(`${target}-wal`)).toBe(false);
    expect(countAfterBackup(target)).toEqual({ n: 0 });
    expect(assertConsistent(target).students).toBe(expected);
  });
});
