/**
 * Lets the event loop run other requests' I/O (health checks, sign-ins) between the slices of a long
 * job: a CSV import parses, checks and inserts in slices with this between them.
 * A plain `await` of a resolved promise is not enough: microtasks run before any I/O callback.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Rows a heavy report handles between two turns of the event loop: on the
 * loaded 2-core machine a slice of this size takes a few milliseconds, whether a student's dues,
 * a CSV line or a row read from SQLite.
 */
export const ROWS_PER_SLICE = 100;

/** `rows.map(fn)` with a turn of the event loop after every slice of rows (none for a short list). */
export async function mapInSlices<T, U>(rows: readonly T[], fn: (row: T, index: number) => U, size = ROWS_PER_SLICE): Promise<U[]> {
  const out: U[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i && i % size === 0) await yieldToEventLoop();
    out.push(fn(rows[i]!, i));
  }
  return out;
}

/**
 * A long list read in slices: `ids` in the list's order (one light query), then the rows `size`
 * ids at a time by `read` (unordered: each slice's rows are put in the order of its ids here), with
 * a turn of the event loop between slices. better-sqlite3 runs a query in one synchronous piece,
 * and so would hold the loop for a whole school's rows at once; PostgreSQL gains little but loses
 * nothing (the same queries, a slice at a time). No ORDER BY in `read`: with one, SQLite (without
 * statistics) planned a slice of the ledger by the order's index, reading every payment (170 ms).
 */
export async function readInSlices<R>(
  ids: readonly number[],
  read: (slice: number[]) => Promise<R[]>,
  idOf: (row: R) => number,
  size = 2 * ROWS_PER_SLICE,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < ids.length; i += size) {
    if (i) await yieldToEventLoop();
    const slice = ids.slice(i, i + size);
    const at = new Map(slice.map((id, n) => [id, n]));
    out.push(...(await read(slice)).sort((a, b) => at.get(idOf(a))! - at.get(idOf(b))!));
  }
  return out;
}
