/**
 * A per-process memo of answers computed from the database's tables (the report cards, decision 053):
 * any write to one of them drops every entry. Writes are heard from this process's change feed
 * (`TableChanges`: after each statement, and again after its transaction commits) and, on PostgreSQL,
 * from other instances through NOTIFY (`listenForTableChanges`, migrations 0044 and 0046). A load that
 * raced a write is not kept: the memo has a version, and an answer is stored only when the version it
 * started under is still current. Off (every call computes) while other instances cannot be heard.
 *
 * Entries are deeply frozen (every request shares them) and bounded: the oldest go first.
 */
export class TableMemo<T> {
  private readonly entries = new Map<string, T>();
  private version = 0;
  private on: boolean;
  /** False when configured off (`CARD_MEMO=0`, or no change feed): `setEnabled` never turns it on. */
  private readonly allowed: boolean;
  hits = 0;
  misses = 0;

  constructor(
    /** Whether a write to `table` may change an answer. */
    readonly watches: (table: string) => boolean,
    private readonly maxEntries: number,
    opts: { enabled?: boolean } = {},
  ) {
    this.allowed = opts.enabled ?? true;
    this.on = this.allowed;
  }

  get enabled(): boolean {
    return this.on;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Turns the memo on (unless configured off) or off; either way it starts empty. */
  setEnabled(on: boolean): void {
    this.on = on && this.allowed;
    this.clear();
  }

  async get(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.on) return load();
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const before = this.version;
    const value = await load();
    if (this.on && this.version === before) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, deepFreeze(value));
    }
    return value;
  }

  /** Drops everything when one of `tables` is watched (and makes loads still in flight unkept). */
  invalidate(tables: Iterable<string>): void {
    for (const t of tables) {
      if (this.watches(t)) {
        this.clear();
        return;
      }
    }
  }

  clear(): void {
    this.version++;
    this.entries.clear();
  }
}

/** Deeply frozen: a memoised answer is shared by every request, so no caller may change it. */
function deepFreeze<V>(value: V): V {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
