import { yieldToEventLoop } from '../lib/yield';

/**
 * `write(slice)` for `rows` taken `size` at a time, one slice after the other, with what each slice
 * gave back joined in order. One multi-row statement per slice keeps a bulk write under SQLite's
 * bound-parameter limit and a PostgreSQL statement small. `yieldBetween`: a turn of the event loop
 * between slices, so a long import lets other requests run.
 */
export async function inSlices<T, R>(
  rows: readonly T[],
  size: number,
  write: (slice: T[]) => Promise<readonly R[]>,
  opts: { yieldBetween?: boolean } = {},
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += size) {
    if (i && opts.yieldBetween) await yieldToEventLoop();
    out.push(...(await write(rows.slice(i, i + size))));
  }
  return out;
}
