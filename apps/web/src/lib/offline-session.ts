import { useSyncExternalStore } from 'react';
import type { CurrentTerm } from '@portal/domain/current-term';
import { getSession, type Session } from './auth-store';
import type { FlushResult, OfflineScope } from './offline';
import { userOf } from './offline/user';

// The IndexedDB side (lib/offline, idb) is loaded when first needed, not with the first script.
const core = () => import('./offline');

/**
 * Whose offline data this browser holds, and of which term (issue 35.4, docs/decisions/044): the
 * partition every kept copy and queued row is written under, and the rules of the data's safety:
 * - another account signing in clears the previous account's kept copies (its queued rows stay,
 *   unsent and unshown, until that account signs in again here);
 * - the same account signing in again (an expired session) sends what its queue holds;
 * - the current term's arrival drops every older term's copies;
 * - sign-out (lib/logout.ts) clears the account's data after asking about what is unsent.
 * The term is kept per account in local storage: offline, a reload still knows its partition.
 */
const TERM_KEY = 'portal-offline-term:';
/** The account whose data the offline store holds (kept across an expired session; removed at sign-out). */
const LAST_USER_KEY = 'portal-offline-user';
/** Before the school's current term is known (a first visit offline): copies wait under this. */
export const UNKNOWN_TERM = 'unknown';

const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode: the partition is not kept across reloads, the data then waits under the unknown term.
  }
}

/** `sessionId:term` of a current term (the core's partition), or the unknown term when the calendar has none. */
export const termKeyOf = (t: Pick<CurrentTerm, 'session_id' | 'term'>): string =>
  t.session_id && t.term ? `${t.session_id}:${t.term}` : UNKNOWN_TERM;

/** The partition of the signed-in account (null: nobody is signed in, nothing is kept). */
export function offlineScope(session: Pick<Session, 'role' | 'publicId'> | null = getSession()): OfflineScope | null {
  const user = userOf(session);
  if (!user) return null;
  return { user, term: read(TERM_KEY + user) ?? UNKNOWN_TERM };
}

function subscribe(cb: () => void): () => void {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** The signed-in account's partition, following the term's changes. */
export function useOfflineScope(session: Pick<Session, 'role' | 'publicId'> | null): OfflineScope | null {
  const user = userOf(session);
  const term = useSyncExternalStore(
    subscribe,
    () => (user ? (read(TERM_KEY + user) ?? UNKNOWN_TERM) : null),
    () => null,
  );
  return user && term ? { user, term } : null;
}

/**
 * The school's current term as the server says it (online): kept as the account's partition, and
 * every other term's kept copies dropped (the queued rows of an older term stay: the server decides).
 */
export async function noteCurrentTerm(user: string, current: Pick<CurrentTerm, 'session_id' | 'term'>): Promise<void> {
  const term = termKeyOf(current);
  if (term === UNKNOWN_TERM) return;
  if (read(TERM_KEY + user) !== term) {
    write(TERM_KEY + user, term);
    emit();
  }
  await (await core()).dropStale(term);
}

const signIns = new Set<() => void>();

/** Runs after every sign-in on this page (the app keeps the new account's day offline). */
export function onOfflineSignIn(listener: () => void): () => void {
  signIns.add(listener);
  return () => signIns.delete(listener);
}

/** What a sign-in did to the offline data: whose kept copies it cleared, and the account's own queue being sent. */
export interface SignInOutcome {
  /** Another account's partition whose kept copies were cleared (its queue stays). */
  cleared: string | null;
  /** Rows of this account waiting on this phone (an expired session), sent now by `flush`. */
  waiting: number;
  flush: Promise<FlushResult> | null;
}

/**
 * An account has just signed in on this browser. Another account's kept copies (an expired session
 * never signed out) are cleared so this one never sees them; their queued rows stay, unsent, until
 * that account signs in here again. This account's own queue (its session expired) is sent now.
 */
export async function offlineSignedIn(session: Pick<Session, 'role' | 'publicId'>): Promise<SignInOutcome> {
  const user = userOf(session)!;
  const { accountSignedOut, clearOfflineData, flushOutbox, unsentRows } = await core();
  accountSignedOut(user, false);
  const last = read(LAST_USER_KEY);
  write(LAST_USER_KEY, user);
  const cleared = last && last !== user ? last : null;
  if (cleared) await clearOfflineData(cleared, { keepUnsent: true });
  const waiting = (await unsentRows(user)).length;
  signIns.forEach((l) => l());
  return { cleared, waiting, flush: waiting ? flushOutbox(user) : null };
}

/** Rows queued on this browser by accounts other than `user` (counted, never shown). */
export async function othersWaiting(user: string): Promise<number> {
  const { queuedAccounts, unsentRows } = await core();
  const last = read(LAST_USER_KEY);
  const others = new Set<string>([...(last ? [last] : []), ...(await queuedAccounts())]);
  others.delete(user);
  let n = 0;
  for (const u of others) n += (await unsentRows(u)).length;
  return n;
}

/** Sign-out: the account's offline data goes (after the warning), and this browser holds no account's partition. */
export async function offlineSignedOut(user: string): Promise<void> {
  const { accountSignedOut, clearOfflineData } = await core();
  accountSignedOut(user, true);
  await clearOfflineData(user);
  if (read(LAST_USER_KEY) === user) write(LAST_USER_KEY, null);
  write(TERM_KEY + user, null);
  emit();
}
