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
