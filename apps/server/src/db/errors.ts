/**
 * What a database error means, the same on SQLite and PostgreSQL: every module that turns a
 * constraint into a clear 400 or 409 asks here.
 */

/** True when a database error is a unique-constraint (or primary-key) violation, optionally naming a column or constraint. */
export function isUniqueViolation(err: unknown, column?: string): boolean {
  const e = err as { code?: string; message?: string; constraint?: string; detail?: string };
  const unique =
    e.code === '23505' ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    /UNIQUE constraint failed/i.test(e.message ?? '');
  if (!unique || !column) return unique;
  return `${e.message ?? ''} ${e.constraint ?? ''} ${e.detail ?? ''}`.includes(column);
}

/**
 * True when a write failed for lack of space: SQLite's SQLITE_FULL ("database or disk is full"),
 * PostgreSQL's 53100 disk_full, or ENOSPC from the file system (uploads, backups). Looks through
 * `cause` too, for errors wrapped on their way up.
 */
export function isStorageFull(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === 'SQLITE_FULL' || e.code === '53100' || e.code === 'ENOSPC') return true;
    if (typeof e.message === 'string' && /database or disk is full|no space left on device/i.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}
