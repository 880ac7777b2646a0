/**
 * One sender of a row at a time across the tabs of this browser: the Web Locks API where there is
 * one (every current browser), else a lock of this page only (tests, old browsers).
 */
const local = new Map<string, Promise<unknown>>();

export function withRowLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (locks?.request) return locks.request(`portal-outbox:${name}`, fn) as Promise<T>;
  const before = local.get(name) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => undefined);
  local.set(name, tail);
  void tail.then(() => {
    if (local.get(name) === tail) local.delete(name);
  });
  return run;
}
