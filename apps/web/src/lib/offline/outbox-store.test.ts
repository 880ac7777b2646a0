import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api-client';
import { RowOutbox, type LoadedRow, type SaveFailure } from '../autosave/row-outbox';
import { clearOfflineData, dropStale } from './maintenance';
import { flushOutbox, PersistentOutboxStore, registerOutboxSender, unsentRows } from './outbox-store';
import { sheetCache } from './sheet-cache';
import { closeOfflineStore, openOfflineStore, type OfflineScope } from './store';

// The row outbox on the IndexedDB store (fake-indexeddb): what survives a reload, in which order,
// coalesced, retried, and sent once across two tabs. A row's value is a number, its stored value
// { value, version }; the "server" below stores each row and counts the requests.

interface Stored {
  value: number | null;
  version: number;
}

const NETWORK = new ApiError(0, null, 'network');
const CONFLICT = new ApiError(409, null);
const REFUSED = new ApiError(400, null);
const T1: OfflineScope = { user: 'staff:T1', term: '3:1st' };

/** A server of rows with versions: a stale version is a conflict unless it is a replay of the same value. */
function server() {
  const rows = new Map<string, Stored>();
  const calls: { key: string; value: number; version: number }[] = [];
  /** Requests answered (one per `send`, one per `sendMany`). */
  const requests: string[][] = [];
  let down = false;
  let refuse = false;
  return {
    rows,
    calls,
    requests,
    setDown: (v: boolean) => (down = v),
    setRefuse: (v: boolean) => (refuse = v),
    send(key: string, value: number, base: Stored): Promise<Stored> {
      if (down) return Promise.reject(NETWORK);
      requests.push([key]);
      return this.write([{ key, value, base }]).then((m) => m.get(key)!);
    },
    /** One transaction: a stale row (not a replay) refuses the whole request. */
    sendMany(list: readonly LoadedRow<number, Stored>[]): Promise<Map<string, Stored>> {
      if (down) return Promise.reject(NETWORK);
      requests.push(list.map((r) => r.key));
      return this.write(list);
    },
    write(list: readonly LoadedRow<number, Stored>[]): Promise<Map<string, Stored>> {
      if (refuse) return Promise.reject(REFUSED);
      const out = new Map<string, Stored>();
      for (const { key, value, base } of list) {
        const cur = rows.get(key) ?? { value: null, version: 0 };
        if (cur.version !== base.version && cur.value !== value) return Promise.reject(CONFLICT);
        out.set(key, cur.version !== base.version ? cur : { value, version: cur.version + 1 });
      }
      for (const { key, value, base } of list) {
        calls.push({ key, value, version: base.version });
        rows.set(key, out.get(key)!);
      }
      return Promise.resolve(out);
    },
  };
}

type Server = ReturnType<typeof server>;
/** The same rows behind no network. */
const offline = (srv: Server) => ({ rows: srv.rows, send: () => Promise.reject<Stored>(NETWORK) });
/** The rows a server with one request for many. */
const batching = (srv: Server) => ({ rows: srv.rows, send: srv.send.bind(srv), sendMany: srv.sendMany.bind(srv) });
const failure = (e: unknown): SaveFailure<Stored> =>
  e === CONFLICT
    ? { kind: 'conflict', message: 'changed' }
    : e instanceof ApiError && e.kind === 'network'
      ? { kind: 'transient', message: 'Network error' }
      : { kind: 'refused', message: 'No' };

/** A tab with the sheet open: an outbox on its own store instance, loaded from the server's rows, then restored. */
async function openTab(srv: Pick<Server, 'rows' | 'send'> & { sendMany?: Server['sendMany'] }, keys: string[], scope = T1, sheet = 'S1') {
  const store = new PersistentOutboxStore<number, Stored>(scope, 'test', sheet);
  const outbox = new RowOutbox<number, Stored>({
    debounceMs: 0,
    backoff: () => 60_000,
    maxInFlight: srv.sendMany ? 100 : 4,
    transport: { send: store.guard((k, v, b) => srv.send(k, v, b), srv.sendMany && ((rows) => srv.sendMany!(rows))) },
    rules: {
      valid: (v) => v >= 0,
      unchanged: (v, b) => v === b.value,
      stored: (b) => b.version > 0,
      version: (b) => b.version,
      failure,
    },
    store,
  });
  const loaded: LoadedRow<number, Stored>[] = keys.map((key) => {
    const s = srv.rows.get(key) ?? { value: null, version: 0 };
    return { key, value: s.value ?? 0, base: s };
  });
  outbox.load(loaded);
  const queued = await store.load();
  outbox.restore(queued);
  return { outbox, store, queued, status: (k: string) => outbox.rows[k]!.status };
}

const settle = async (store: PersistentOutboxStore<number, Stored>) => {
  await vi.waitFor(async () => {
    await store.idle();
    await new Promise((r) => setTimeout(r, 5));
  });
  await store.idle();
};

afterEach(async () => {
  await clearOfflineData();
  await closeOfflineStore();
});

describe('the persistent outbox store', () => {
  it('keeps edits made offline across a reload: one record per row with its last value, oldest first, sent in that order with the base version', async () => {
    const srv = server();
    srv.rows.set('b', { value: 1, version: 1 });
    // The page that dies offline: its last sends (stop) fail too.
    const tab = await openTab(offline(srv), ['a', 'b', 'c']);
    tab.outbox.edit('c', () => 5);
    tab.outbox.edit('a', () => 6);
    tab.outbox.edit('b', () => 7);
    tab.outbox.edit('c', () => 8); // coalesces with the first edit of c, keeps its place
    await vi.waitFor(() => expect(tab.status('c')).toBe('failed'));
    await settle(tab.store);
    tab.outbox.stop();
    const kept = await unsentRows(T1.user);
    expect(kept.map((r) => [r.row, r.value, (r.base as Stored).version])).toEqual([
      ['c', 8, 0],
      ['a', 6, 0],
      ['b', 7, 1],
    ]);

    // A reload: a new page, a new outbox; the network is back.
    await closeOfflineStore();
    const again = await openTab(srv, ['a', 'b', 'c']);
    expect(again.queued.map((r) => r.key)).toEqual(['c', 'a', 'b']);
    await vi.waitFor(() => expect(['a', 'b', 'c'].map(again.status)).toEqual(['saved', 'saved', 'saved']));
    expect(srv.calls).toEqual([
      { key: 'c', value: 8, version: 0 },
      { key: 'a', value: 6, version: 0 },
      { key: 'b', value: 7, version: 1 },
    ]);
    await settle(again.store);
    expect(await unsentRows(T1.user)).toEqual([]);
  });

  it('a refused or conflicting row stays queued (nothing dropped); a network failure stays queued and is retried', async () => {
    const srv = server();
    srv.rows.set('a', { value: 1, version: 4 });
    const tab = await openTab(srv, ['a', 'b']);
    srv.rows.set('a', { value: 2, version: 5 }); // someone else, after the sheet was loaded
    tab.outbox.edit('a', () => 3);
    await vi.waitFor(() => expect(tab.status('a')).toBe('conflict'));
    srv.setRefuse(true);
    tab.outbox.edit('b', () => 4);
    await vi.waitFor(() => expect(tab.status('b')).toBe('failed'));
    await settle(tab.store);
    expect((await unsentRows(T1.user)).map((r) => [r.row, r.value])).toEqual([
      ['a', 3],
      ['b', 4],
    ]);
    expect(srv.rows.get('a')).toEqual({ value: 2, version: 5 });
    srv.setRefuse(false);
    srv.setDown(true);
    tab.outbox.saveNow('b');
    await vi.waitFor(() => expect(tab.outbox.rows.b!.message).toBe('Network error'));
    srv.setDown(false);
    tab.outbox.online();
    await vi.waitFor(() => expect(tab.status('b')).toBe('saved'));
    await settle(tab.store);
    expect((await unsentRows(T1.user)).map((r) => r.row)).toEqual(['a']);
    tab.outbox.stop();
  });

  it('two tabs holding the same queued rows send each row once', async () => {
    const srv = server();
    const first = await openTab(offline(srv), ['a', 'b', 'c', 'd']);
    for (const k of ['a', 'b', 'c', 'd']) first.outbox.edit(k, () => k.charCodeAt(0));
    await vi.waitFor(() => expect(first.status('d')).toBe('failed'));
    await settle(first.store);
    first.outbox.stop();
    // Both tabs reopen the sheet (each restores the four rows), the network is back in both.
    const [x, y] = await Promise.all([openTab(srv, ['a', 'b', 'c', 'd']), openTab(srv, ['a', 'b', 'c', 'd'])]);
    expect(x.queued).toHaveLength(4);
    expect(y.queued).toHaveLength(4);
    await vi.waitFor(() => expect(['a', 'b', 'c', 'd'].flatMap((k) => [x.status(k), y.status(k)]).every((s) => s === 'saved')).toBe(true));
    expect(srv.calls.map((c) => c.key).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(y.outbox.rows.a!.base).toEqual({ value: 97, version: 1 });
    x.outbox.stop();
    y.outbox.stop();
  });

  it('flushOutbox sends the queue with no sheet open, oldest first; a sheet opened afterwards sends nothing again', async () => {
    const srv = server();
    srv.setDown(true);
    const tab = await openTab(srv, ['a', 'b']);
    tab.outbox.edit('b', () => 2);
    tab.outbox.edit('a', () => 1);
    await vi.waitFor(() => expect(tab.status('a')).toBe('failed'));
    await settle(tab.store);
    srv.setDown(false);
    registerOutboxSender('test', (rec) => srv.send(rec.row, rec.value as number, rec.base as Stored));
    const out = await flushOutbox(T1.user);
    expect(out).toEqual({ sent: 2, failed: [] });
    expect(srv.calls.map((c) => c.key)).toEqual(['b', 'a']);
    // The open tab's rows still wait in memory: their send takes the answer kept, no request.
    tab.outbox.online();
    await vi.waitFor(() => expect([tab.status('a'), tab.status('b')]).toEqual(['saved', 'saved']));
    expect(srv.calls).toHaveLength(2);
    tab.outbox.stop();
  });

  it('with a request for many, the queue back online leaves as one request, oldest first; a conflict in it sends each row alone', async () => {
    const srv = server();
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const first = await openTab(offline(srv), keys);
    for (const k of ['e', 'b', 'a', 'd', 'c']) first.outbox.edit(k, () => k.charCodeAt(0));
    await vi.waitFor(() => expect(first.status('c')).toBe('failed'));
    await settle(first.store);
    first.outbox.stop();
    const again = await openTab(batching(srv), keys);
    await vi.waitFor(() => expect(keys.map(again.status).every((s) => s === 'saved')).toBe(true));
    expect(srv.requests).toEqual([['e', 'b', 'a', 'd', 'c']]);
    again.outbox.stop();

    // Offline again; meanwhile someone else changes c: the one request is refused (409), then each row alone.
    const third = await openTab(offline(srv), keys);
    for (const k of ['a', 'c', 'e']) third.outbox.edit(k, (v) => v + 1);
    await vi.waitFor(() => expect(third.status('e')).toBe('failed'));
    await settle(third.store);
    third.outbox.stop();
    srv.rows.set('c', { value: 1, version: 2 });
    srv.requests.length = 0;
    const fourth = await openTab(batching(srv), keys);
    await vi.waitFor(() => expect(['a', 'c', 'e'].map(fourth.status)).toEqual(['saved', 'conflict', 'saved']));
    expect(srv.requests).toEqual([['a', 'c', 'e'], ['a'], ['c'], ['e']]);
    expect(srv.rows.get('c')).toEqual({ value: 1, version: 2 });
    await settle(fourth.store);
    expect((await unsentRows(T1.user)).map((r) => [r.row, r.value])).toEqual([['c', 100]]);
    fourth.outbox.stop();
  });

  it('a request for many that meets no network fails every row alike, without a request per row', async () => {
    const srv = server();
    const tab = await openTab(batching(srv), ['a', 'b', 'c']);
    srv.setDown(true);
    tab.outbox.edit('a', () => 1);
    tab.outbox.edit('b', () => 2);
    await vi.waitFor(() => expect([tab.status('a'), tab.status('b')]).toEqual(['failed', 'failed']));
    expect(tab.outbox.rows.a!.message).toBe('Network error');
    expect(srv.requests).toEqual([]);
    srv.setDown(false);
    tab.outbox.online();
    await vi.waitFor(() => expect([tab.status('a'), tab.status('b')]).toEqual(['saved', 'saved']));
    expect(srv.requests).toEqual([['a', 'b']]);
    tab.outbox.stop();
  });

  it('offline, a send fails at once as a network failure: nothing waits behind the lock to leave later with an older value', async () => {
    const srv = server();
    const tab = await openTab(batching(srv), ['a', 'b']);
    vi.stubGlobal('navigator', { onLine: false });
    try {
      tab.outbox.edit('a', () => 1);
      await vi.waitFor(() => expect(tab.status('a')).toBe('failed'));
      expect(tab.outbox.rows.a!.message).toBe('Network error');
      tab.outbox.edit('a', () => 2);
      await vi.waitFor(() => expect(tab.outbox.rows.a).toMatchObject({ value: 2, status: 'failed', attempts: 2 }));
    } finally {
      vi.unstubAllGlobals();
    }
    expect(srv.requests).toEqual([]);
    tab.outbox.online();
    await vi.waitFor(() => expect(tab.status('a')).toBe('saved'));
    expect(srv.calls).toEqual([{ key: 'a', value: 2, version: 0 }]);
    tab.outbox.stop();
  });

  it('records are partitioned by user and term: another user sees nothing, clearing one user keeps the other, dropStale keeps the current term', async () => {
    const srv = server();
    srv.setDown(true);
    const t2: OfflineScope = { user: 'staff:T2', term: '3:1st' };
    const mine = await openTab(srv, ['a'], T1);
    const theirs = await openTab(srv, ['a'], t2);
    mine.outbox.edit('a', () => 1);
    theirs.outbox.edit('a', () => 2);
    await sheetCache.put(T1, 'test', 'S1', { rows: 1 });
    await sheetCache.put({ ...T1, term: '3:2nd' }, 'test', 'S1', { rows: 2 });
    await sheetCache.put(t2, 'test', 'S1', { rows: 3 });
    await settle(mine.store);
    await settle(theirs.store);
    expect((await unsentRows(T1.user)).map((r) => r.value)).toEqual([1]);
    expect((await unsentRows(t2.user)).map((r) => r.value)).toEqual([2]);
    expect(await new PersistentOutboxStore(t2, 'test', 'S1').load()).toEqual([{ key: 'a', value: 2, base: { value: null, version: 0 } }]);
    expect(await dropStale('3:2nd')).toBe(2);
    expect(await sheetCache.get(T1, 'test', 'S1')).toBeNull();
    expect((await sheetCache.get({ ...T1, term: '3:2nd' }, 'test', 'S1'))?.data).toEqual({ rows: 2 });
    expect(await unsentRows(T1.user)).toHaveLength(1); // unsent work of the older term is kept
    await clearOfflineData(T1.user);
    expect(await unsentRows(T1.user)).toEqual([]);
    expect(await unsentRows(t2.user)).toHaveLength(1);
    const db = await openOfflineStore();
    expect((await db.getAll('sheets')).map((s) => s.user)).toEqual([]);
    mine.outbox.stop();
    theirs.outbox.stop();
  });
});
