import { PostgresAdapter, type InferResult, type Kysely, type SelectQueryBuilder } from 'kysely';
import { jsonArrayFrom as pgJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';

/** Any select a repository builds (explicit columns: SQLite's JSON rows need their names). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>;

/**
 * Several independent reads as ONE statement (issue 37.4: a round trip each on PostgreSQL): each
 * query's rows come back as a JSON array (`json_agg` on PostgreSQL, `json_group_array` on SQLite) in a
 * column of a one-row select. Each read keeps its own SQL, rows and order; values come back as JSON
 * gives them: integers, reals (full precision on both), text and nulls as the driver would, sums as
 * numbers (callers read them with `Number()` as they do the driver's strings). No `selectAll()`
 * (SQLite's JSON rows need explicit columns) and no blobs.
 */
export async function readTogether<Q extends Record<string, AnySelect>>(
  conn: Kysely<any>, // eslint-disable-line @typescript-eslint/no-explicit-any
  queries: Q,
): Promise<{ [K in keyof Q]: InferResult<Q[K]> }> {
  const pg = conn.getExecutor().adapter instanceof PostgresAdapter;
  const keys = Object.keys(queries);
  const row = (await conn
    .selectNoFrom(keys.map((k) => (pg ? pgJsonArrayFrom(queries[k]!) : sqliteJsonArrayFrom(queries[k]!)).as(k)))
    .executeTakeFirstOrThrow()) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = row[k];
    out[k] = typeof v === 'string' ? JSON.parse(v) : (v ?? []);
  }
  return out as { [K in keyof Q]: InferResult<Q[K]> };
}
