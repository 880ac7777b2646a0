import { useSyncExternalStore } from 'react';

/**
 * Whether the browser believes it is online, and since when it is offline (kept in this browser, so
 * a reload offline still says since when). The browser can be wrong one way: online without a
 * network; a failed request then says so (the screens fall back to their kept copy).
 */
const SINCE_KEY = 'portal-offline-since';

function readSince(): number | null {
  try {
    const v = Number(localStorage.getItem(SINCE_KEY));
    return v > 0 ? v : null;
  } catch {
    return null;
  }
}

function writeSince(v: number | null): void {
  try {
    if (v === null) localStorage.removeItem(SINCE_KEY);
    else localStorage.setItem(SINCE_KEY, String(v));
  } catch {
    // Private mode: "since" is not kept across reloads.
  }
}

let since: number | null = null;
let watching = false;

function watch(): void {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  since = navigator.onLine ? null : (readSince() ?? Date.now());
  writeSince(since);
  window.addEventListener('offline', () => {
    since = Date.now();
    writeSince(since);
  });
  window.addEventListener('online', () => {
    since = null;
    writeSince(null);
  });
}

const subscribe = (cb: () => void) => {
  watch();
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
};

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/** When the browser went offline (milliseconds), null while online. */
export function offlineSince(): number | null {
  watch();
  return navigator.onLine ? null : since;
}

/** Whether a request failing now is best answered from the kept copy (offline, or no network). */
// `=== false`: Node 21+ has a `navigator` without `onLine` (tests), which is not offline.
export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
