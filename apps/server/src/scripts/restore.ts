import { chmodSync, closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { checkDatabaseFile, databaseUrlFromEnv, parseArgs, runAsScript, sqliteFileOf, UsageError, type CheckReport } from './backup';

/**
 * `npm run restore -- FILE`: puts a backup back in place of the SQLite database.
 * STOP THE SERVER FIRST. The script refuses while another process has the database open, refuses
 * a file that is not a sound portal database, keeps the current database aside, and swaps the
 * new one in with a rename (atomic on one file system), after removing the old -wal/-shm files.
 */

/** Throws unless `file` is a readable SQLite database with our tables, passing integrity and FK checks. */
export function validateBackup(file: string): CheckReport {
  if (!existsSync(file)) throw new UsageError(`No such file: ${file}`);
  let report: CheckReport;
  try {
    report = checkDatabaseFile(file);
  } catch (err) {
    throw new UsageError(`${file} is not a valid SQLite database (${err instanceof Error ? err.message : String(err)}).`);
  }
  if (report.integrity !== 'ok') throw new UsageError(`${file} fails the integrity check: ${report.integrity}`);
  if (report.missingTables.length) {
    throw new UsageError(`${file} is not a portal database (missing tables: ${report.missingTables.join(', ')}).`);
  }
  if (report.foreignKeyProblems) throw new UsageError(`${file} has ${report.foreignKeyProblems} broken references (foreign_key_check).`);
  return report;
}

/** Throws when some process (the server) has `file` open: we try to take SQLite's exclusive lock without waiting. */
export function assertNotInUse(file: string): void {
  if (!existsSync(file)) return;
  const db = new SQLite(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      throw new UsageError(`${file} is in use (is the server running?). Stop the server, then run the restore again.`);
    }
    throw err;
  } finally {
    db.close();
  }
}

export interface RestoreResult {
  target: string;
  previous?: string;
  counts: Record<string, number>;
}

export function restoreSqlite(backup: string, target: string, { keepPrevious = true } = {}): RestoreResult {
  const source = path.resolve(backup);
  const dest = path.resolve(target);
  if (source === dest) throw new UsageError('The backup and the database are the same file.');
  const report = validateBackup(source);
  assertNotInUse(dest);

  // 1. Copy to a temp file beside the target and flush it to disk.
  mkdirSync(path.dirname(dest), { recursive: true });
  const temp = `${dest}.restore-tmp`;
  rmSync(temp, { force: true });
  copyFileSync(source, temp);
  chmodSync(temp, 0o600);
  const fd = openSync(temp, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  validateBackup(temp);

  // 2. Keep the current database aside (the server closed it cleanly, so its WAL is checkpointed).
  let previous: string | undefined;
  if (keepPrevious && existsSync(dest)) {
    previous = `${dest}.pre-restore-${new Date().toISOString().replace(/[:]/g, '-').replace(/\..+$/, 'Z')}`;
    const db = new SQLite(dest, { fileMustExist: true, timeout: 0 });
    try {
      db.prepare('VACUUM INTO ?').run(previous);
    } finally {
      db.close();
    }
    chmodSync(previous, 0o600);
  }

  // 3. A stale WAL would be replayed onto the new file: remove it first, then rename into place.
  rmSync(`${dest}-wal`, { force: true });
  rmSync(`${dest}-shm`, { force: true });
  renameSync(temp, dest);
  return { target: dest, previous, counts: report.counts };
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const file = args.positional[0];
  if (!file || file === '--help') {
    process.stdout.write(
      'Usage: npm run restore -- BACKUP_FILE [--database sqlite:FILE]\nStop the server first; the current database is kept beside it as *.pre-restore-<time>.\n',
    );
    if (!file) process.exitCode = 2;
    return;
  }
  const target = sqliteFileOf(args.database ?? databaseUrlFromEnv());
  const result = restoreSqlite(file, target);
  const c = result.counts;
  process.stdout.write(
    `Restored ${path.resolve(file)} -> ${result.target} (integrity ok; users=${c.users ?? 0} students=${c.students ?? 0} results=${c.results ?? 0}).\n` +
      (result.previous ? `The database it replaced is kept at ${result.previous}.\n` : '') +
      'Start the server again.\n',
  );
}

runAsScript('restore', main, 'Restore refused');
