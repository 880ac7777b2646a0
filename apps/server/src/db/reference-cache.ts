import { WATCHED, type WatchedTable } from './table-changes';

/** Deeply frozen: a cached value is shared by every request, so no caller may change it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/**
 * The per-process cache of reference rows (settings, grading scales, the subject catalogue, arms,
 * sessions, terms: docs/decisions/047). Each entry names the tables it was read from; a change to one
 * of them (this process's writes through the database's `TableChanges`, other instances' through
 * PostgreSQL's NOTIFY) drops it. A read that raced a change is not kept: every table has a version,
 * and a value is stored only when the versions it started under are still current.
 * Off (every read goes to the database) while changes from other instances cannot be heard.
 */
export class ReferenceCache {
  private readonly entries = new Map<string, { tables: readonly WatchedTable[]; value: unknown }>();
  private readonly versions = new Map<string, number>();
  private epoch = 0;
  private on: boolean;
  hits = 0;
  misses = 0;

  constructor(opts: { enabled?: boolean } = {}) {
    this.on = opts.enabled ?? true;
  }

  get enabled(): boolean {
    return this.on;
  }

  /** Turns the cache on or off; either way it starts empty. */
  setEnabled(on: boolean): void {
    this.on = on;
    this.clear();
  }

  async get<T>(key: string, tables: readonly WatchedTable[], load: () => Promise<T>): Promise<T> {
    if (!this.on) return load();
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      return hit.value as T;
    }
    this.misses++;
    // Keys include days and ranges: a bound, so no reader can grow it without end.
    if (this.entries.size >= 5000) this.entries.clear();
    const before = this.stamp(tables);
    const value = await load();
    if (this.on && this.stamp(tables) === before) this.entries.set(key, { tables, value: deepFreeze(value) });
    return value;
  }

  /** Drops what was read from `tables` (and makes reads still in flight from them unkept). */
  invalidate(tables: Iterable<string>): void {
    // The change feed reports every table written (the card memo keeps others): only the reference tables count here.
    const changed = new Set([...tables].filter((t) => WATCHED.has(t)));
    if (!changed.size) return;
    for (const t of changed) this.versions.set(t, (this.versions.get(t) ?? 0) + 1);
    for (const [key, e] of this.entries) if (e.tables.some((t) => changed.has(t))) this.entries.delete(key);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private stamp(tables: readonly string[]): string {
    return `${this.epoch}:${tables.map((t) => this.versions.get(t) ?? 0).join(',')}`;
  }
}

/** The cache of each app database (the composition root attaches it): transactions have none. */
const caches = new WeakMap<object, ReferenceCache>();

export function attachReferenceCache(db: object, cache: ReferenceCache): void {
  caches.set(db, cache);
}

/**
 * A repository's read of reference rows through `conn`: from the cache when `conn` is the app's
 * database, from the database otherwise (a transaction reads its own rows, never the cache's).
 */
export function cachedRead<T>(conn: object, key: string, tables: readonly WatchedTable[], load: () => Promise<T>): Promise<T> {
  const cache = caches.get(conn);
  return cache ? cache.get(key, tables, load) : load();
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's reference cache (tests read whether it is on and how often it answered). */
    referenceCache: ReferenceCache;
  }
}
