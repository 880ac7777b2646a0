import { createQueryId, type Compilable, type CompiledQuery, type QueryResult } from 'kysely';

const SLOT_PREFIX = '\u0000slot:';

/**
 * Stands for a value given at run time. Typed `never` so that it fits wherever the builder expects
 * a column's value; at compile time it becomes an ordinary bound parameter.
 */
export type Slot = (name: string) => never;

/** A Kysely instance or transaction: what runs the compiled query. */
interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

interface Template {
  compiled: CompiledQuery;
  /** For each bound parameter, the slot it is filled from, or null for a constant of the builder. */
  slots: (string | null)[];
}

/**
 * Queries on the hottest read paths, built and compiled once per shape and then run with each
 * request's values.
 *
 * Building and compiling a Kysely query costs about as much as running a small indexed query on
 * SQLite (bench/run.ts profile: 18 % of the CPU of one student's term results). The SQL is exactly
 * what the builder produces for the dialect, so the two paths cannot drift apart; values are still
 * bound parameters, never spliced into the SQL.
 */
export class QueryTemplates {
  private readonly templates = new Map<string, Template>();

  /**
   * `shape` names everything that changes the SQL text (which filters are present, for instance);
   * `build` must produce the same SQL for the same shape, with every run-time value as a slot.
   */
  async execute<R>(
    db: QueryRunner,
    shape: string,
    build: (slot: Slot) => Compilable<R>,
    values: Readonly<Record<string, unknown>> = {},
  ): Promise<R[]> {
    let template = this.templates.get(shape);
    if (!template) {
      const compiled = build((name) => `${SLOT_PREFIX}${name}` as never).compile();
      const slots = compiled.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(SLOT_PREFIX) ? p.slice(SLOT_PREFIX.length) : null,
      );
      template = { compiled, slots };
      this.templates.set(shape, template);
    }
    const { compiled, slots } = template;
    const parameters = slots.map((slot, i) => {
      if (slot === null) return compiled.parameters[i];
      const value = values[slot];
      if (value === undefined) throw new Error(`query template ${shape}: no value for slot ${slot}`);
      return value;
    });
    const { rows } = await db.executeQuery<R>({ ...compiled, parameters, queryId: createQueryId() });
    return rows;
  }
}
