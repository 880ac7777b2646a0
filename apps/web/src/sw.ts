/// <reference lib="webworker" />
/**
 * The service worker (docs/decisions/045), built by vite-plugin-pwa (`injectManifest`) into /sw.js.
 *
 * - Precaches the build's static files: the shell (index.html), the entry and every screen's chunks,
 *   the CSS and the icons. A signed-in screen then opens without a network after one visit.
 * - Navigations go to the network first, never kept: the server renders some pages for the signed-in
 *   user (the report card) and they must come from it whenever it answers. Only when the network
 *   fails does the cached shell answer, and the app renders the screen in the browser.
 * - Nothing else is handled: /api/ requests, documents and uploads pass to the network untouched and
 *   nothing is cached at run time. Offline data lives in IndexedDB (apps/web/src/lib/offline/), per user.
 * - A new version waits until the app asks it to take over (the "update available" prompt).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** The message the update prompt sends (apps/web/src/lib/pwa/register.ts). */
const SKIP_WAITING = 'SKIP_WAITING';
const SHELL = '/index.html';
/** Navigations that are not the app's screens: API documents opened as pages (PDFs, CSVs), the API docs, metrics. */
const NOT_A_SCREEN = [/^\/api(\/|$)/, /^\/metrics(\/|$)/];

// Before the precache's own route, which would answer `/` from the cache (its directory index).
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch {
        // Offline (or the server unreachable): the shell, and the app renders the screen from its precached chunks.
        return (await matchPrecache(SHELL)) ?? Response.error();
      }
    },
    { denylist: NOT_A_SCREEN },
  ),
);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// A first install takes the open page at once (nothing older runs there), so screens opened next load offline.
clientsClaim();

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === SKIP_WAITING) void self.skipWaiting();
});
