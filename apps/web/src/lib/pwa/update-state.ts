import { useSyncExternalStore } from 'react';

/**
 * Whether a new version of the app waits to take over, and how to let it (docs/decisions/045). Kept
 * out of the registration code (./register.ts, workbox-window), which loads only once a signed-in
 * screen is on screen: the first JavaScript carries this file alone.
 */
let apply: (() => void) | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const ready = () => apply !== null;

/** Called by the registration when a new service worker waits; `take` makes it take over and reloads. */
export function offerUpdate(take: () => void): void {
  apply = take;
  for (const l of listeners) l();
}

/** True while a new version waits for the user's reload. */
export function useUpdateReady(): boolean {
  return useSyncExternalStore(subscribe, ready, () => false);
}

/** The user's "Reload now": the waiting version takes over and the page reloads under it. */
export function applyUpdate(): void {
  apply?.();
}

let started = false;

/**
 * Registers the service worker once, from the first signed-in screen (signed-out visitors download
 * nothing beyond the page they read). Only in a production build: `vite` dev serves no worker.
 */
export function startServiceWorker(): void {
  if (started || !import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  started = true;
  void import('./register').then(({ registerServiceWorker }) => registerServiceWorker(offerUpdate));
}
