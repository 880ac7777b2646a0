// One file (about 460 lines): the outbox is one class whose saving, retry, conflict and storage
// steps share private state; splitting it would expose that state.
/**
 * The row-autosave engine every entry sheet uses (the score grid, the ratings and comments sheets,
 * the register): an outbox of rows, each holding the latest value typed and the stored value it was
 * made on (its version inside). Framework-free: the screens reach it through `useAutosaveRows`.
 *
 * Its rules (docs/decisions/019-row-autosave-outbox.md):
 * - one request per row at a time; an edit while the row is being sent is kept and sent after the
 *   answer, with the version that answer carries (the latest value only: edits coalesce);
 * - a row is sent `debounceMs` after its last edit (or at once: `saveNow`, `saveAll`, leaving);
 *   with `debounceMs: null` only when asked (the register's Save);
 * - a failed send is retried on its own when the failure is the network's or the server's (backoff,
 *   and at once when the browser says it is back online); a refusal (a bad value, no right) waits
 *   for the teacher; a 409 keeps both values until the teacher chooses (keep mine / take theirs);
 * - one timer for the whole outbox, armed for the earliest row due; at most `maxInFlight` rows on
 *   the wire, oldest edit first;
 * - where the unsent rows are kept (memory now, IndexedDB later) and how a row is sent are the
 *   `store` and `transport` seams: offline entry changes those, not the screens.
 */

export type RowStatus = 'idle' | 'unsaved' | 'saving' | 'saved' | 'failed' | 'conflict';

/** Rows holding something not stored: leaving the screen with one of these warns first. */
export const UNSAVED_STATUSES: ReadonlySet<RowStatus> = new Set(['unsaved', 'saving', 'failed', 'conflict']);

export interface OutboxRow<V, S> {
  /** What the screen shows: the latest edit. */
  value: V;
  /** The stored value the edits were made on (the version sent with the save is inside). */
  base: S;
  status: RowStatus;
  /** Why the last send failed, in the server's or the screen's words. */
  message: string | null;
  /** The row as stored now by someone else (status `conflict`), when the server said. */
  theirs?: S;
  /** Bumped on every edit: an answer to an older value leaves the row unsaved. */
  seq: number;
  /** Failed sends since the last success (the automatic retry waits longer after each). */
  attempts: number;
  /** A failed row that is sent again on its own (network or server trouble), not a refusal. */
  autoRetry: boolean;
}

/** How a row leaves: resolves to the row as stored now; throws the API's error. */
export interface RowTransport<V, S> {
  send(key: string, value: V, base: S): Promise<S>;
}

/** Where unsent rows are kept (`null`: nothing unsent for that row any more). In memory by default. */
export interface OutboxStore<V, S> {
  put(key: string, entry: { value: V; base: S } | null): void;
}

export type SaveFailure<S> =
  | { kind: 'conflict'; message: string | null; theirs?: S }
  /** Network or server trouble: sent again on its own. */
  | { kind: 'transient'; message: string }
  /** A refusal the same request would meet again: waits for an edit or the teacher's retry. */
  | { kind: 'refused'; message: string };

export interface RowRules<V, S> {
  /** Whether the value may be sent (an invalid row waits, unsaved, with its problems on screen). */
  valid(value: V): boolean;
  /** Whether the value is what is stored (nothing to send). */
  unchanged(value: V, base: S): boolean;
  /** Whether anything is stored for the row: a row with nothing to send is then "saved", else "idle". */
  stored(base: S): boolean;
  /** The stored value's version (0: nothing stored): a reload never takes a row back to an older one. */
  version(base: S): number;
  /** What a failed send means. */
  failure(error: unknown): SaveFailure<S>;
  /** A reason not to send yet, in the screen's words (a released result without a reason): the row fails unsent. */
  refusal?(key: string, value: V): string | null;
  /** The value once `stored` came back (e.g. the server's trimmed text); `newer`: typing went on meanwhile. */
  afterSave?(value: V, stored: S, newer: boolean): V;
  /** A row in conflict when the sheet is loaded again: its new state, or null to keep it as it is. */
  reloaded?(row: OutboxRow<V, S>, stored: S, value: V): { value: V; base: S; queue: boolean } | null;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** 2 s, 4 s, 8 s … at most a minute between automatic retries. */
export function defaultBackoff(attempts: number): number {
  return Math.min(60_000, 2000 * 2 ** Math.max(0, attempts - 1));
}

export interface OutboxOptions<V, S> {
  transport: RowTransport<V, S>;
  rules: RowRules<V, S>;
  /** Milliseconds after a row's last edit before it is sent; null: only when asked. */
  debounceMs: number | null;
  backoff?: (attempts: number) => number;
  maxInFlight?: number;
  clock?: Clock;
  store?: OutboxStore<V, S>;
  onSaved?: (key: string) => void;
  onFailed?: (key: string, failure: SaveFailure<S>) => void;
}

export interface LoadedRow<V, S> {
  key: string;
  value: V;
  base: S;
}

type Listener = (urgent: boolean) => void;

export class RowOutbox<V, S> {
  private current: Readonly<Record<string, OutboxRow<V, S>>> = {};
  /** When each queued row is sent next (clock milliseconds). */
  private readonly due = new Map<string, number>();
  /** Queue order: when each row last became unsaved (oldest first). */
  private readonly order = new Map<string, number>();
  private stamp = 0;
  private readonly inflight = new Set<string>();
  /**
   * Rows whose last send failed without an answer (no network, a timeout): the server may hold that
   * value or not, so the row is sent even when it looks like what is stored (a stale version then
   * meets a 409 rather than a silent difference).
   */
  private readonly uncertain = new Set<string>();
  private readonly listeners = new Set<Listener>();
  private timer: unknown = null;
  private running = true;
  private readonly clock: Clock;
  private readonly backoff: (attempts: number) => number;
  private readonly maxInFlight: number;

  constructor(private readonly options: OutboxOptions<V, S>) {
    this.clock = options.clock ?? realClock;
    this.backoff = options.backoff ?? defaultBackoff;
    this.maxInFlight = options.maxInFlight ?? 4;
  }

  /** The rows as they stand: a new object after every change, rows unchanged keep their identity. */
  get rows(): Readonly<Record<string, OutboxRow<V, S>>> {
    return this.current;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The sheet as (re)loaded: rows holding nothing unsent take the stored value, unless this outbox
   * already holds a newer one (a refetch answered before the saves that followed it); unsent rows
   * stay as typed (a conflict row as `rules.reloaded` says); rows no longer on the sheet go.
   */
  load(rows: readonly LoadedRow<V, S>[]): void {
    const next: Record<string, OutboxRow<V, S>> = {};
    for (const r of rows) {
      const cur = this.current[r.key];
      if (cur?.status === 'conflict' && this.options.rules.reloaded) {
        const merged = this.options.rules.reloaded(cur, r.base, r.value);
        if (merged) {
          next[r.key] = this.settle(r.key, {
            ...cur,
            value: merged.value,
            base: merged.base,
            theirs: undefined,
            message: null,
            status: 'unsaved',
          });
          if (UNSAVED_STATUSES.has(next[r.key]!.status)) this.queue(r.key, merged.queue ? 0 : null);
          continue;
        }
      }
      const keep = cur && (UNSAVED_STATUSES.has(cur.status) || this.options.rules.version(cur.base) > this.options.rules.version(r.base));
      next[r.key] = keep ? cur : fresh(r.value, r.base);
    }
    for (const key of Object.keys(this.current)) if (!(key in next)) this.forget(key);
    this.current = next;
    this.emit(true);
    this.pump();
  }

  /** Rows kept unsent by the store (a reload of the page, later): queued to be sent at once. */
  restore(entries: readonly LoadedRow<V, S>[]): void {
    for (const e of entries) {
      const cur = this.current[e.key];
      if (!cur) continue;
      this.put(e.key, this.settle(e.key, { ...cur, value: e.value, base: e.base, seq: cur.seq + 1, status: 'unsaved', message: null }));
      this.queue(e.key, 0);
    }
    this.emit(true);
    this.pump();
  }

  /** An edit: the row shows it at once and is sent after the debounce (coalescing with later edits). */
  edit(key: string, update: (value: V) => V): void {
    const cur = this.current[key];
    if (!cur) return;
    const value = update(cur.value);
    const seq = cur.seq + 1;
    if (cur.status === 'conflict') {
      // The edit becomes "mine"; the row waits for the teacher's choice.
      this.put(key, { ...cur, value, seq });
    } else if (this.options.debounceMs === null && this.due.has(key) && cur.status === 'failed') {
      // Asked to be saved and failed: the retry will send this latest value.
      this.put(key, { ...cur, value, seq });
    } else {
      // While an older value is on the wire the row stays unsaved: its answer decides (settle then).
      const edited: OutboxRow<V, S> = { ...cur, value, seq, status: 'unsaved', message: null };
      const next = this.inflight.has(key) ? edited : this.settle(key, edited);
      this.put(key, next);
      if (next.status !== 'unsaved') this.due.delete(key);
      else if (this.options.debounceMs !== null) this.queue(key, this.options.debounceMs);
    }
    this.emit(true);
    this.pump();
  }

  /** Sends a row now (leaving it, Retry, the register's Save). */
  saveNow(key: string): void {
    const cur = this.current[key];
    if (!cur || (cur.status !== 'unsaved' && cur.status !== 'failed')) return;
    this.queue(key, 0);
    this.pump();
  }

  /** Sends every unsaved or failed row now ("Save all", leaving the screen). */
  saveAll(): void {
    for (const [key, row] of Object.entries(this.current)) if (row.status === 'unsaved' || row.status === 'failed') this.queue(key, 0);
    this.pump();
  }

  /** The browser is back online: every failed row that retries on its own goes now, its backoff reset. */
  online(): void {
    for (const [key, row] of Object.entries(this.current)) {
      if (row.status === 'failed' && row.autoRetry) {
        this.current = { ...this.current, [key]: { ...row, attempts: 0 } };
        this.queue(key, 0);
      } else if (row.status === 'unsaved' && this.due.has(key)) this.queue(key, 0);
    }
    this.pump();
  }

  /**
   * A conflict settled, or a row put on another stored value: `base` becomes what the row was made
   * on (with `value`, when given, what it shows); still different from it, it is sent (`send`).
   */
  rebase(key: string, base: S, value?: V, send = true): void {
    const cur = this.current[key];
    if (!cur) return;
    const next = this.settle(key, {
      ...cur,
      base,
      value: value ?? cur.value,
      seq: value === undefined ? cur.seq : cur.seq + 1,
      theirs: undefined,
      message: null,
      status: 'unsaved',
    });
    this.put(key, next);
    if (next.status === 'unsaved' && send) this.queue(key, 0);
    else this.due.delete(key);
    this.emit(true);
    this.pump();
  }

  /** Resumes after `stop` (a screen shown again). */
  start(): void {
    this.running = true;
    this.pump();
  }

  /** The screen is left: every row still waiting is sent once, now, and nothing is retried after. */
  stop(): void {
    for (const [key, row] of Object.entries(this.current))
      if ((row.status === 'unsaved' || row.status === 'failed') && !this.inflight.has(key)) this.send(key);
    this.running = false;
    this.disarm();
  }

  // ---------- the queue ----------

  /** Puts a row in the queue, due in `ms` (null: out of the queue). */
  private queue(key: string, ms: number | null): void {
    if (ms === null) {
      this.due.delete(key);
      return;
    }
    this.due.set(key, this.clock.now() + ms);
    if (!this.order.has(key)) this.order.set(key, ++this.stamp);
  }

  private forget(key: string): void {
    this.due.delete(key);
    this.uncertain.delete(key);
    this.order.delete(key);
    this.options.store?.put(key, null);
  }

  /** Sends what is due (oldest edit first, up to the limit on the wire), then arms the one timer for the next. */
  private pump(): void {
    if (!this.running) return;
    const now = this.clock.now();
    const ready = [...this.due.entries()]
      .filter(([key, at]) => at <= now && !this.inflight.has(key))
      .sort(([a], [b]) => (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0));
    for (const [key] of ready) {
      if (this.inflight.size >= this.maxInFlight) break;
      this.send(key);
    }
    this.arm();
  }

  private arm(): void {
    this.disarm();
    if (!this.running || this.inflight.size >= this.maxInFlight) return;
    let next = Infinity;
    for (const [key, at] of this.due) if (!this.inflight.has(key) && at < next) next = at;
    if (next === Infinity) return;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        this.pump();
      },
      Math.max(0, next - this.clock.now()),
    );
  }

  private disarm(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private send(key: string): void {
    this.due.delete(key);
    const row = this.current[key];
    if (!row || (row.status !== 'unsaved' && row.status !== 'failed')) return;
    const { rules, transport } = this.options;
    // An invalid row is never sent: it waits, its problems on screen.
    if (!rules.valid(row.value)) {
      if (row.status === 'failed') this.update(key, { ...row, status: 'unsaved', message: null, autoRetry: false });
      return;
    }
    if (!this.uncertain.has(key) && rules.unchanged(row.value, row.base)) {
      this.update(key, this.settle(key, { ...row, status: 'unsaved' }));
      return;
    }
    const refusal = rules.refusal?.(key, row.value) ?? null;
    if (refusal) {
      this.update(key, { ...row, status: 'failed', message: refusal, autoRetry: false });
      return;
    }
    const { seq, value, base } = row;
    this.inflight.add(key);
    this.update(key, { ...row, status: 'saving', message: null });
    new Promise<S>((resolve) => resolve(transport.send(key, value, base))).then(
      (stored) => this.answered(key, seq, stored),
      (err: unknown) => this.refused(key, err),
    );
  }

  private answered(key: string, seq: number, stored: S): void {
    this.inflight.delete(key);
    this.uncertain.delete(key);
    const cur = this.current[key];
    if (cur) {
      const newer = cur.seq !== seq;
      const value = this.options.rules.afterSave ? this.options.rules.afterSave(cur.value, stored, newer) : cur.value;
      const next: OutboxRow<V, S> = {
        ...cur,
        value,
        base: stored,
        theirs: undefined,
        message: null,
        attempts: 0,
        autoRetry: false,
        status: newer ? 'unsaved' : 'saved',
      };
      const settled = newer ? this.settle(key, next) : next;
      this.put(key, settled);
      // Typing went on during the send: the latest value follows (after the debounce; asked for, in manual mode).
      if (settled.status === 'unsaved' && !this.due.has(key) && this.options.debounceMs !== null) this.queue(key, this.options.debounceMs);
      this.emit(false);
      this.options.onSaved?.(key);
    }
    this.pump();
  }

  private refused(key: string, err: unknown): void {
    this.inflight.delete(key);
    const cur = this.current[key];
    if (cur) {
      const failure = this.options.rules.failure(err);
      const attempts = cur.attempts + 1;
      if (failure.kind === 'transient') this.uncertain.add(key);
      else this.uncertain.delete(key);
      if (failure.kind === 'conflict') {
        this.put(key, { ...cur, status: 'conflict', message: failure.message, theirs: failure.theirs, attempts });
        this.due.delete(key);
      } else {
        const autoRetry = failure.kind === 'transient';
        this.put(key, { ...cur, status: 'failed', message: failure.message, attempts, autoRetry });
        if (autoRetry) this.queue(key, this.backoff(attempts));
        else this.due.delete(key);
      }
      this.emit(false);
      this.options.onFailed?.(key, failure);
    }
    this.pump();
  }

  // ---------- row state ----------

  /** An unsaved row whose value is what is stored (and valid) has nothing to send: saved or idle. */
  private settle(key: string, row: OutboxRow<V, S>): OutboxRow<V, S> {
    const { rules } = this.options;
    if (row.status !== 'unsaved' || this.uncertain.has(key) || !rules.valid(row.value) || !rules.unchanged(row.value, row.base)) return row;
    return { ...row, status: rules.stored(row.base) ? 'saved' : 'idle', message: null, attempts: 0, autoRetry: false };
  }

  private put(key: string, row: OutboxRow<V, S>): void {
    this.current = { ...this.current, [key]: row };
    const unsent = UNSAVED_STATUSES.has(row.status);
    this.options.store?.put(key, unsent ? { value: row.value, base: row.base } : null);
    if (!unsent) this.order.delete(key);
  }

  private update(key: string, row: OutboxRow<V, S>): void {
    this.put(key, row);
    this.emit(false);
  }

  private emit(urgent: boolean): void {
    for (const l of this.listeners) l(urgent);
  }
}

export function fresh<V, S>(value: V, base: S): OutboxRow<V, S> {
  return { value, base, status: 'idle', message: null, seq: 0, attempts: 0, autoRetry: false };
}

/** How many rows hold something unsent, and how many of those failed or met a conflict. */
export function countRows(rows: Readonly<Record<string, OutboxRow<unknown, unknown>>>): {
  unsaved: number;
  failed: number;
  saving: number;
} {
  let unsaved = 0;
  let failed = 0;
  let saving = 0;
  for (const r of Object.values(rows)) {
    if (UNSAVED_STATUSES.has(r.status)) unsaved++;
    if (r.status === 'failed' || r.status === 'conflict') failed++;
    if (r.status === 'saving') saving++;
  }
  return { unsaved, failed, saving };
}
