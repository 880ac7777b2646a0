import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countRows, RowOutbox, type Clock, type OutboxOptions, type OutboxStore, type SaveFailure } from './row-outbox';

// The outbox's rules, with a fake clock: a row's value is a number, its stored value { value, version }.

interface Stored {
  value: number | null;
  version: number;
}

/** A request on the wire, answered by the test. */
interface Sent {
  key: string;
  value: number;
  version: number;
  resolve: (s: Stored) => void;
  reject: (e: unknown) => void;
}

const NETWORK = new Error('network');
const REFUSED = new Error('refused');
const CONFLICT = new Error('conflict');

function harness(over: Partial<OutboxOptions<number, Stored>> = {}, keys = ['a', 'b', 'c']) {
  const sent: Sent[] = [];
  const saved: string[] = [];
  const outbox = new RowOutbox<number, Stored>({
    debounceMs: 2500,
    transport: {
      send: (key, value, base) =>
        new Promise<Stored>((resolve, reject) => sent.push({ key, value, version: base.version, resolve, reject })),
    },
    rules: {
      valid: (v) => v >= 0,
      unchanged: (v, b) => v === b.value,
      stored: (b) => b.version > 0,
      version: (b) => b.version,
      failure: (e): SaveFailure<Stored> =>
        e === CONFLICT
          ? { kind: 'conflict', message: 'changed', theirs: { value: 99, version: 7 } }
          : e === NETWORK
            ? { kind: 'transient', message: 'Network error' }
            : { kind: 'refused', message: 'No' },
    },
    onSaved: (k) => saved.push(k),
    ...over,
  });
  outbox.load(keys.map((key) => ({ key, value: 0, base: { value: 0, version: 0 } })));
  /** Answers the oldest request on the wire. */
  const answer = async (how: 'ok' | Error = 'ok') => {
    const r = sent.shift()!;
    if (how === 'ok') r.resolve({ value: r.value, version: r.version + 1 });
    else r.reject(how);
    await vi.advanceTimersByTimeAsync(0);
  };
  return { outbox, sent, saved, answer, row: (k: string) => outbox.rows[k]! };
}

const set = (n: number) => () => n;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('row outbox: debounce and coalescing', () => {
  it('sends a row once, 2.5 s after its last edit, with the latest value', async () => {
    const { outbox, sent, row } = harness();
    outbox.edit('a', set(1));
    await vi.advanceTimersByTimeAsync(2000);
    outbox.edit('a', set(12));
    await vi.advanceTimersByTimeAsync(2499);
    expect(sent).toHaveLength(0);
    expect(row('a').status).toBe('unsaved');
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.map((s) => [s.key, s.value, s.version])).toEqual([['a', 12, 0]]);
    expect(row('a').status).toBe('saving');
  });

  it('keeps one request per row on the wire; an edit meanwhile follows with the version the answer carries', async () => {
    const { outbox, sent, answer, row } = harness();
    outbox.edit('a', set(1));
    outbox.saveNow('a');
    outbox.edit('a', set(2));
    outbox.edit('a', set(3));
    outbox.saveNow('a');
    expect(sent).toHaveLength(1);
    expect(row('a').status).toBe('unsaved');
    await answer();
    expect(row('a').base).toEqual({ value: 1, version: 1 });
    // Asked to save during the send: the latest value goes as soon as the answer is in.
    expect(sent.map((s) => [s.value, s.version])).toEqual([[3, 1]]);
    await answer();
    expect(row('a')).toMatchObject({ status: 'saved', value: 3, base: { value: 3, version: 2 } });
  });

  it('an edit back to the stored value needs no request', async () => {
    const { outbox, sent, row } = harness();
    outbox.edit('a', set(5));
    outbox.edit('a', set(0));
    expect(row('a').status).toBe('idle');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(0);
  });

  it('never sends an invalid row: it waits, unsaved', async () => {
    const { outbox, sent, row } = harness();
    outbox.edit('a', set(-1));
    await vi.advanceTimersByTimeAsync(10_000);
    outbox.saveAll();
    expect(sent).toHaveLength(0);
    expect(row('a').status).toBe('unsaved');
  });

  it('a refusal of the screen (a reason needed) fails the row without a request', () => {
    const { outbox, sent, row } = harness({
      rules: {
        valid: () => true,
        unchanged: (v, b) => v === b.value,
        stored: () => false,
        version: (b) => b.version,
        failure: () => ({ kind: 'refused', message: 'x' }),
        refusal: () => 'Give a reason',
      },
    });
    outbox.edit('a', set(4));
    outbox.saveNow('a');
    expect(sent).toHaveLength(0);
    expect(row('a')).toMatchObject({ status: 'failed', message: 'Give a reason', autoRetry: false });
  });
});

describe('row outbox: failures and retries', () => {
  it('retries a network failure on its own, waiting 2 s, then 4 s, then 8 s', async () => {
    const { outbox, sent, answer, row } = harness();
    outbox.edit('a', set(1));
    outbox.saveNow('a');
    await answer(NETWORK);
    expect(row('a')).toMatchObject({ status: 'failed', message: 'Network error', autoRetry: true, attempts: 1 });
    await vi.advanceTimersByTimeAsync(1999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    await answer(NETWORK);
    await vi.advanceTimersByTimeAsync(3999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await answer(NETWORK);
    await vi.advanceTimersByTimeAsync(8000);
    expect(sent).toHaveLength(1);
    await answer();
    expect(row('a')).toMatchObject({ status: 'saved', attempts: 0, autoRetry: false, message: null });
  });

  it('sends every failed row at once when the browser is back online, its backoff reset', async () => {
    const { outbox, sent, answer, row } = harness();
    for (const k of ['a', 'b', 'c']) outbox.edit(k, set(3));
    outbox.saveAll();
    for (let i = 0; i < 3; i++) await answer(NETWORK);
    outbox.online();
    expect(sent.map((s) => s.key)).toEqual(['a', 'b', 'c']);
    for (let i = 0; i < 3; i++) await answer();
    expect(['a', 'b', 'c'].map((k) => row(k).status)).toEqual(['saved', 'saved', 'saved']);
  });

  it('waits for the teacher after a refusal: no automatic retry, "Save all" sends it again', async () => {
    const { outbox, sent, answer, row } = harness();
    outbox.edit('a', set(1));
    outbox.saveNow('a');
    await answer(REFUSED);
    expect(row('a')).toMatchObject({ status: 'failed', message: 'No', autoRetry: false });
    outbox.online();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sent).toHaveLength(0);
    outbox.saveAll();
    expect(sent).toHaveLength(1);
  });

  it('an edit of a failed row is sent after the debounce, the latest value only', async () => {
    const { outbox, sent, answer } = harness();
    outbox.edit('a', set(1));
    outbox.saveNow('a');
    await answer(NETWORK);
    outbox.edit('a', set(2));
    outbox.edit('a', set(3));
    await vi.advanceTimersByTimeAsync(2500);
    expect(sent.map((s) => s.value)).toEqual([3]);
  });

  it('keeps both values on a conflict until the teacher chooses, then sends on the stored version', async () => {
    const { outbox, sent, answer, row } = harness();
    outbox.edit('a', set(5));
    outbox.saveNow('a');
    await answer(CONFLICT);
    expect(row('a')).toMatchObject({ status: 'conflict', value: 5, theirs: { value: 99, version: 7 } });
    outbox.edit('a', set(6));
    outbox.online();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(0);
    expect(row('a').status).toBe('conflict');
    // Keep mine: made on theirs.
    outbox.rebase('a', row('a').theirs!);
    expect(sent.map((s) => [s.value, s.version])).toEqual([[6, 7]]);
  });

  it('take theirs: the stored value on screen, nothing sent', () => {
    const { outbox, sent, answer, row } = harness();
    outbox.edit('a', set(5));
    outbox.saveNow('a');
    return answer(CONFLICT).then(() => {
      outbox.rebase('a', row('a').theirs!, 99);
      expect(row('a')).toMatchObject({ status: 'saved', value: 99, base: { value: 99, version: 7 } });
      expect(sent).toHaveLength(0);
    });
  });
});

describe('row outbox: the queue', () => {
  it('has at most four rows on the wire, oldest edit first', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => `r${i}`);
    const { outbox, sent, answer } = harness({}, keys);
    for (const k of [...keys].reverse()) outbox.edit(k, set(1));
    outbox.saveAll();
    expect(sent.map((s) => s.key)).toEqual(['r9', 'r8', 'r7', 'r6']);
    await answer();
    expect(sent.map((s) => s.key)).toEqual(['r8', 'r7', 'r6', 'r5']);
  });

  it('runs one timer for the whole outbox, whatever the number of rows waiting', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `r${i}`);
    const { outbox } = harness({}, keys);
    for (const [i, k] of keys.entries()) {
      outbox.edit(k, set(i + 1));
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(vi.getTimerCount()).toBe(1);
  });

  it('sends nothing of the register kind until asked; then retries on its own, with the latest marks', async () => {
    const { outbox, sent, answer, row } = harness({ debounceMs: null });
    outbox.edit('a', set(1));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(0);
    expect(row('a').status).toBe('unsaved');
    outbox.saveNow('a');
    await answer(NETWORK);
    outbox.edit('a', set(2));
    expect(row('a').status).toBe('failed');
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent.map((s) => s.value)).toEqual([2]);
  });

  it('sends what waits once when the screen is left, and retries nothing after', async () => {
    const { outbox, sent, answer } = harness();
    outbox.edit('a', set(1));
    outbox.edit('b', set(2));
    outbox.stop();
    expect(sent.map((s) => s.key)).toEqual(['a', 'b']);
    await answer(NETWORK);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sent).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a reloaded sheet replaces rows with nothing unsent and keeps typed ones', () => {
    const { outbox, row } = harness();
    outbox.edit('a', set(4));
    outbox.load([
      { key: 'a', value: 8, base: { value: 8, version: 3 } },
      { key: 'b', value: 9, base: { value: 9, version: 3 } },
    ]);
    expect(row('a')).toMatchObject({ value: 4, status: 'unsaved', base: { version: 0 } });
    expect(row('b')).toMatchObject({ value: 9, status: 'idle' });
    expect(outbox.rows.c).toBeUndefined();
  });

  it('never takes a saved row back to an older version when a refetch answers late', async () => {
    const { outbox, answer, row } = harness();
    outbox.edit('a', set(6));
    outbox.saveNow('a');
    await answer();
    // A refetch sent before the save (the browser back online) answers after it, with nothing stored.
    outbox.load(['a', 'b', 'c'].map((key) => ({ key, value: 0, base: { value: 0, version: 0 } })));
    expect(row('a')).toMatchObject({ value: 6, status: 'saved', base: { value: 6, version: 1 } });
    // A newer stored value (someone else's save) is taken.
    outbox.load([{ key: 'a', value: 8, base: { value: 8, version: 2 } }]);
    expect(row('a')).toMatchObject({ value: 8, status: 'idle' });
  });

  it('keeps each unsent row in the store with its latest value, and takes it out once stored', async () => {
    const puts: [string, unknown][] = [];
    const store: OutboxStore<number, Stored> = { put: (k, e) => puts.push([k, e]) };
    const { outbox, answer } = harness({ store });
    puts.length = 0;
    outbox.edit('a', set(1));
    outbox.edit('a', set(2));
    outbox.saveNow('a');
    await answer();
    expect(puts.at(-2)).toEqual(['a', { value: 2, base: { value: 0, version: 0 } }]);
    expect(puts.at(-1)).toEqual(['a', null]);
  });

  it('sends again at once what the store kept (a page opened again)', () => {
    const { outbox, sent, row } = harness();
    outbox.restore([{ key: 'b', value: 4, base: { value: 0, version: 0 } }]);
    expect(row('b').status).toBe('saving');
    expect(sent.map((s) => [s.key, s.value])).toEqual([['b', 4]]);
  });

  it('counts unsent and failed rows', async () => {
    const { outbox, answer } = harness();
    outbox.edit('a', set(1));
    outbox.edit('b', set(2));
    outbox.saveNow('b');
    await answer(NETWORK);
    expect(countRows(outbox.rows)).toEqual({ unsaved: 2, failed: 1, saving: 0 });
  });
});

/**
 * A clock the property drives by hand (no fake timers): one pending callback at a time is all the
 * outbox may hold, which the property checks too.
 */
function manualClock() {
  let now = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let id = 0;
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      timers.set(++id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (h) => void timers.delete(h as number),
  };
  const tick = (ms: number) => {
    now += ms;
    for (const [k, t] of [...timers]) if (t.at <= now && timers.delete(k)) t.fn();
  };
  return { clock, tick, timers };
}

describe('row outbox: whatever happens, the last value typed is what ends up stored', () => {
  it('holds for any interleaving of edits, time, failures, answers and reconnections', async () => {
    vi.useRealTimers();
    const step = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), key: fc.constantFrom('a', 'b'), value: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 5000 }) }),
      fc.record({ kind: fc.constant('answer' as const), how: fc.constantFrom('ok', 'network', 'refused') }),
      fc.record({ kind: fc.constant('online' as const) }),
      fc.record({ kind: fc.constant('saveAll' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const { clock, tick, timers } = manualClock();
        const db = new Map<string, Stored>();
        const wire: { key: string; value: number; version: number; settle: (ok: boolean, how: Error) => void }[] = [];
        const outbox = new RowOutbox<number, Stored>({
          debounceMs: 2500,
          clock,
          transport: {
            send: (key, value, base) =>
              new Promise<Stored>((resolve, reject) =>
                wire.push({
                  key,
                  value,
                  version: base.version,
                  settle: (ok, how) => {
                    if (!ok) return reject(how);
                    const cur = db.get(key) ?? { value: 0, version: 0 };
                    // Only this client writes: a stale version would be a bug of the outbox.
                    expect(base.version).toBe(cur.version);
                    const next = { value, version: cur.version + 1 };
                    db.set(key, next);
                    resolve(next);
                  },
                }),
              ),
          },
          rules: {
            valid: () => true,
            unchanged: (v, b) => v === b.value,
            stored: (b) => b.version > 0,
            version: (b) => b.version,
            failure: (e) => (e === REFUSED ? { kind: 'refused', message: 'No' } : { kind: 'transient', message: 'Network error' }),
          },
        });
        outbox.load(['a', 'b'].map((key) => ({ key, value: 0, base: { value: 0, version: 0 } })));
        const flush = () => new Promise<void>((r) => setTimeout(r, 0));
        const typed: Record<string, number> = { a: 0, b: 0 };
        for (const s of steps) {
          if (s.kind === 'edit') {
            typed[s.key] = s.value;
            outbox.edit(s.key, () => s.value);
          } else if (s.kind === 'tick') tick(s.ms);
          else if (s.kind === 'answer' && wire.length) {
            const r = wire.shift()!;
            r.settle(s.how === 'ok', s.how === 'refused' ? REFUSED : NETWORK);
            await flush();
          } else if (s.kind === 'online') outbox.online();
          else if (s.kind === 'saveAll') outbox.saveAll();
          expect(timers.size).toBeLessThanOrEqual(1);
          expect(new Set(wire.map((w) => w.key)).size).toBe(wire.length);
        }
        // Then the network holds: every request is answered, time passes, the teacher presses "Save all" once.
        outbox.saveAll();
        for (let i = 0; i < 50 && (wire.length || timers.size); i++) {
          while (wire.length) {
            wire.shift()!.settle(true, NETWORK);
            await flush();
          }
          tick(60_000);
        }
        for (const k of ['a', 'b']) {
          expect(outbox.rows[k]!.value).toBe(typed[k]);
          expect(db.get(k)?.value ?? 0).toBe(typed[k]);
          expect(['saved', 'idle']).toContain(outbox.rows[k]!.status);
        }
      }),
      { numRuns: 300 },
    );
  });
});
