import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * `npm run backup [-- --out FILE]`: a consistent copy of the SQLite database, taken while the
 * server runs. `VACUUM INTO` copies one read snapshot (WAL readers never block the server's
 * writers, and the server's writes never tear the copy). PostgreSQL: use pg_dump (docs/security.md).
 */

/** The database the server would use: DATABASE_URL, else `<DATA_DIR>/portal.db` (as config.ts does). */
export function databaseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return env.DATABASE_URL || `sqlite:${path.join(dataDir, 'portal.db')}`;
}

export function sqliteFileOf(url: string): string {
  if (/^postgres(ql)?:\/\//.test(url)) {
    throw new UsageError(
      'DATABASE_URL points at PostgreSQL: use pg_dump/pg_restore (see docs/security.md, "Backups"). This script handles SQLite.',
    );
  }
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  if (!file || file === ':memory:') throw new UsageError('The database is in memory: there is nothing to back up.');
  return path.resolve(file);
}

/** A mistake of the operator's (wrong argument, wrong file): printed without a stack trace. */
export class UsageError extends Error {}

/** Tables every portal database has; a file without them is not one of ours. */
export const REQUIRED_TABLES = ['users', 'refresh_tokens', 'settings', 'audit_log', 'students', 'staff', 'results', 'kysely_migration'];

export interface CheckReport {
  integrity: string;
  foreignKeyProblems: number;
  missingTables: string[];
  counts: Record<string, number>;
}

/** integrity_check, foreign_key_check, our tables present, and row counts of each table. */
export function checkDatabaseFile(file: string): CheckReport {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
    const foreignKeyProblems = (db.pragma('foreign_key_check') as unknown[]).length;
    const tables = (
      db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as { name: string }[]
    ).map((r) => r.name);
    const missingTables = REQUIRED_TABLES.filter((t) => !tables.includes(t));
    const counts: Record<string, number> = {};
    for (const t of tables) counts[t] = (db.prepare(`select count(*) as n from "${t.replaceAll('"', '""')}"`).get() as { n: number }).n;
    return { integrity, foreignKeyProblems, missingTables, counts };
  } finally {
    db.close();
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  counts: Record<string, number>;
}

/** Copies `source` to `out` (a temp file renamed into place, so a half-written backup never has the final name). */
export function backupSqlite(source: string, out: string): BackupResult {
  if (!existsSync(source)) throw new UsageError(`No database at ${source}.`);
  const target = path.resolve(out);
  if (existsSync(target)) throw new UsageError(`${target} already exists; choose another --out.`);
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const db = new SQLite(source, { fileMustExist: true, timeout: 10_000 });
  try {
    db.prepare('VACUUM INTO ?').run(partial);
  } finally {
    db.close();
  }
  const report = checkDatabaseFile(partial);
  if (report.integrity !== 'ok') {
    rmSync(partial, { force: true });
    throw new Error(`The copy failed its integrity check: ${report.integrity}`);
  }
  // A backup holds every account and hash: readable by its owner only.
  chmodSync(partial, 0o600);
  renameSync(partial, target);
  return { file: target, bytes: statSync(target).size, counts: report.counts };
}

function timestamp(d = new Date()): string {
  return d.toISOString().replace(/[:]/g, '-').replace(/\..+$/, 'Z');
}

export function parseArgs(argv: string[]): { positional: string[]; out?: string; database?: string } {
  const positional: string[] = [];
  let out: string | undefined;
  let database: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--out' || a === '-o') out = argv[++i];
    else if (a.startsWith('--out=')) out = a.slice(6);
    else if (a === '--database') database = argv[++i];
    else if (a.startsWith('--database=')) database = a.slice(11);
    else if (a === '--help' || a === '-h') positional.push('--help');
    else positional.push(a);
  }
  return { positional, out, database };
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  if (args.positional.includes('--help')) {
    process.stdout.write('Usage: npm run backup [-- --out FILE] [--database sqlite:FILE]\n');
    return;
  }
  const url = args.database ?? databaseUrlFromEnv();
  const source = sqliteFileOf(url);
  const out = args.out ?? path.join(path.resolve(process.env.DATA_DIR || './data'), 'backups', `portal-${timestamp()}.db`);
  const result = backupSqlite(source, out);
  const rows = Object.entries(result.counts)
    .filter(([t]) => ['users', 'students', 'staff', 'results'].includes(t) || t === 'payments')
    .map(([t, n]) => `${t}=${n}`)
    .join(' ');
  process.stdout.write(`Backup written: ${result.file} (${(result.bytes / 1024).toFixed(0)} KiB; integrity ok; ${rows})\n`);
}

/**
 * True when the process runs the script `name` (not restore.ts importing this file, nor a test), from
 * its TypeScript (`src/scripts/backup.ts`) or compiled (`dist/backup.js`, apps/server/build.ts). By
 * name, not by `import.meta.url`: compiled, restore.js holds this file's code too, with its own URL.
 */
export function isEntry(name: string): boolean {
  const entry = process.argv[1];
  return Boolean(entry) && path.basename(entry!).replace(/\.[cm]?[jt]s$/, '') === name;
}

/**
 * Runs `main` when the script `name` is the process entry: a failure prints `failure: why` and
 * exits 2 for wrong usage, 1 for anything else.
 */
export function runAsScript(name: string, main: () => void, failure: string): void {
  if (!isEntry(name)) return;
  try {
    main();
  } catch (err) {
    process.stderr.write(`${failure}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  }
}

runAsScript('backup', main, 'Backup failed');
