import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * File modes of what the portal keeps on disk: the data folder is 0700 and every file
 * in it (SQLite database, its -wal/-shm, the generated jwt-secret, backups) 0600, so no other local
 * user can read accounts, hashes or the signing key.
 */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** chmod, except on a file another user owns (EPERM): the portal still starts, as before. */
function tighten(p: string, mode: number): void {
  try {
    if ((statSync(p).mode & 0o777) !== mode) chmodSync(p, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
}

/** Creates `dir` (0700) or tightens an existing one, then its files and its `backups` folder. */
export function secureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  tighten(dir, DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isFile()) tighten(p, FILE_MODE);
    else if (entry.isDirectory() && entry.name === 'backups') secureDataDir(p);
  }
}

/** The SQLite file (created 0600 when new) and its WAL/SHM companions, when present. */
export function secureSqliteFile(file: string): void {
  const dir = path.dirname(file);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (!existsSync(file)) closeSync(openSync(file, 'a', FILE_MODE));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    if (existsSync(f)) tighten(f, FILE_MODE);
  }
}
