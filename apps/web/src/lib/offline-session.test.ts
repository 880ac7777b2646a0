// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { clearSession, saveLogin } from './auth-store';
import {
  clearOfflineData,
  closeOfflineStore,
  PersistentOutboxStore,
  registerOutboxSender,
  sheetCache,
  unsentRows,
  type OfflineScope,
  type OutboxRecord,
} from './offline';
import { keptAt, keptOffline } from './offline-query';
import { noteCurrentTerm, offlineScope, offlineSignedIn, offlineSignedOut, othersWaiting, UNKNOWN_TERM } from './offline-session';

// The offline data's safety rules (issue 35.4, 35.5; docs/decisions/044) on fake-indexeddb: copies
// kept per account and term, another account never reading them, sign-in and sign-out clearing the
// right things, the previous account's queue kept unsent, the same account's queue sent.

const A = { role: 'staff' as const, publicId: 'STAFF-0001' };
const B = { role: 'staff' as const, publicId: 'STAFF-0002' };
const userA = 'staff:STAFF-0001';
const userB = 'staff:STAFF-0002';
const TERM = { session_id: 3, term: '1st' as const };

/** Signs in on this browser as the login page does: the session, then the offline rules. */
async function signIn(who: typeof A) {
  saveLogin('staff', { access: `a-${who.publicId}`, refresh: `r-${who.publicId}`, first_name: who.publicId, staff_id: who.publicId });
  return offlineSignedIn(who);
}

const network = () => new ApiError(0, null, 'network');
/** A query kept offline whose server answers `answer` (or fails with it). */
const query = (answer: () => Promise<unknown>) => keptOffline<unknown>('card', ['report-card', { term: '1st' }], answer).queryFn;

/** Waits for the copy the query put (the put is not awaited by the query). */
async function copyOf(scope: OfflineScope | null) {
  if (!scope) return null;
  await vi.waitFor(async () => expect(await sheetCache.list(scope.user)).not.toHaveLength(0));
  return sheetCache.list(scope.user);
}

/** A row of `scope` queued as an open register would queue it. */
async function queue(scope: OfflineScope, key: string, value: Record<string, string>) {
  const store = new PersistentOutboxStore<Record<string, string>, { version: number }>(scope, 'register', key);
  store.put(key, { value, base: { version: 0 } });
  await store.idle();
  return store;
}

const sent: OutboxRecord[] = [];
registerOutboxSender('register', (rec) => {
  sent.push(rec);
  return Promise.resolve({ version: 1 });
});

beforeEach(() => {
  localStorage.clear();
  sent.length = 0;
});

afterEach(async () => {
  clearSession();
  await clearOfflineData();
  await closeOfflineStore();
});

describe('copies kept offline', () => {
  it("keeps each answer under the signed-in account and term, answers from it when the server cannot be reached, marked as a copy; never another account's, never a refusal", async () => {
    await signIn(A);
    await noteCurrentTerm(userA, TERM);
    expect(offlineScope()).toEqual({ user: userA, term: '3:1st' });
    const fresh = await query(() => Promise.resolve({ card: 'A1' }))();
    expect(keptAt(fresh)).toBeNull();
    expect((await copyOf(offlineScope()))!.map((r) => [r.user, r.term, r.data])).toEqual([[userA, '3:1st', { card: 'A1' }]]);

    const copy = await query(() => Promise.reject(network()))();
    expect(copy).toEqual({ card: 'A1' });
    expect(keptAt(copy)).toEqual(expect.any(Number));
    // A refusal is the server's answer, not a lost connection: no copy instead.
    await expect(query(() => Promise.reject(new ApiError(403, { detail: 'no' })))()).rejects.toMatchObject({ status: 403 });

    // Another account on the same browser: the copy is not theirs.
    await signIn(B);
    await expect(query(() => Promise.reject(network()))()).rejects.toMatchObject({ kind: 'network' });
  });

  it('keeps nothing for nobody: signed out, an answer is not kept', async () => {
    await query(() => Promise.resolve({ card: 'public' }))();
    await signIn(A);
    await expect(query(() => Promise.reject(network()))()).rejects.toMatchObject({ kind: 'network' });
    expect(await sheetCache.list(userA)).toEqual([]);
  });

  it('waits under the unknown term until the current term is known, then drops every other term (queued rows stay)', async () => {
    await signIn(A);
    expect(offlineScope()!.term).toBe(UNKNOWN_TERM);
    await query(() => Promise.resolve({ card: 'early' }))();
    await copyOf(offlineScope());
    await noteCurrentTerm(userA, TERM);
    await query(() => Promise.resolve({ card: 'first term' }))();
    await queue(offlineScope()!, 'JSS 1A|2025-10-08|morning', { 'STU-1': 'present' });
    await noteCurrentTerm(userA, { session_id: 3, term: '2nd' });
    expect(offlineScope()!.term).toBe('3:2nd');
    expect(await sheetCache.list(userA)).toEqual([]);
    expect(await unsentRows(userA)).toHaveLength(1);
  });
});

describe('signing in and out on a shared phone', () => {
  it("another account signing in: the previous account's copies are cleared, its queue stays, neither shown nor sent; that account signing in again sends it", async () => {
    await signIn(A);
    await noteCurrentTerm(userA, TERM);
    await query(() => Promise.resolve({ card: 'A1' }))();
    await copyOf(offlineScope());
    await queue(offlineScope()!, 'JSS 1A|2025-10-08|morning', { 'STU-1': 'absent' });
    // The session ends (not a sign-out); B signs in on the same browser.
    clearSession();
    const b = await signIn(B);
    expect(b).toEqual({ cleared: userA, waiting: 0, flush: null });
    expect(await sheetCache.list(userA)).toEqual([]);
    expect((await unsentRows(userA)).map((r) => r.value)).toEqual([{ 'STU-1': 'absent' }]);
    expect(await othersWaiting(userB)).toBe(1);
    expect(await unsentRows(userB)).toEqual([]);
    expect(sent).toEqual([]);

    // B signs out (nothing of theirs waits); A signs in again: A's queue is sent, under A.
    await offlineSignedOut(userB);
    expect(await unsentRows(userA)).toHaveLength(1);
    clearSession();
    const a = await signIn(A);
    expect(a.waiting).toBe(1);
    expect(await a.flush).toEqual({ sent: 1, failed: [] });
    expect(sent.map((r) => [r.user, r.row])).toEqual([[userA, 'JSS 1A|2025-10-08|morning']]);
    expect(await unsentRows(userA)).toEqual([]);
  });

  it("sign-out clears the account's copies and queue, not another account's; an open sheet's store writes nothing after", async () => {
    await signIn(B);
    await noteCurrentTerm(userB, TERM);
    await queue(offlineScope()!, 'JSS 2A|2025-10-08|morning', { 'STU-2': 'late' });
    clearSession();
    await signIn(A);
    await noteCurrentTerm(userA, TERM);
    await query(() => Promise.resolve({ card: 'A1' }))();
    await copyOf(offlineScope());
    const open = await queue(offlineScope()!, 'JSS 1A|2025-10-08|morning', { 'STU-1': 'present' });

    clearSession();
    await offlineSignedOut(userA);
    expect(await sheetCache.list(userA)).toEqual([]);
    expect(await unsentRows(userA)).toEqual([]);
    expect(await unsentRows(userB)).toHaveLength(1);
    // The register still open sends once more as the page leaves: nothing comes back under A.
    open.put('JSS 1A|2025-10-08|morning', { value: { 'STU-1': 'absent' }, base: { version: 0 } });
    await open.idle();
    expect(await unsentRows(userA)).toEqual([]);
    expect(offlineScope()).toBeNull();
  });

  it('whatever the order of sign-ins and reads, an account never reads a copy another account kept (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ who: fc.constantFrom(A, B), card: fc.constantFrom('x', 'y') }), { minLength: 1, maxLength: 6 }),
        async (steps) => {
          localStorage.clear();
          await clearOfflineData();
          const keptBy = new Map<string, string>();
          for (const [step, { who, card }] of steps.entries()) {
            await signIn(who);
            const user = `${who.role}:${who.publicId}`;
            const read = keptOffline<{ by: string; step: number }>('card', ['card', card], () => Promise.reject(network())).queryFn;
            const got = await read().catch(() => null);
            // Only a copy this account kept (and that no other account's sign-in cleared since).
            if (got) expect(got.by).toBe(user);
            expect(got?.by ?? null).toBe(keptBy.get(`${user}|${card}`) ?? null);
            await keptOffline('card', ['card', card], () => Promise.resolve({ by: user, step })).queryFn();
            await vi.waitFor(async () =>
              expect((await sheetCache.list(user)).some((r) => (r.data as { step: number }).step === step)).toBe(true),
            );
            // Another account signing in cleared everyone else's copies.
            for (const k of [...keptBy.keys()]) if (!k.startsWith(`${user}|`)) keptBy.delete(k);
            keptBy.set(`${user}|${card}`, user);
            clearSession();
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
