import { Workbox } from 'workbox-window';

/** How often an app left open (a phone keeps a tab for days) asks whether a release came out. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers /sw.js (scope: the whole site; src/sw.ts) after the page has loaded, so the precache's
 * downloads never compete with the screen's own. A new version installs in the background and waits;
 * `offer` shows the prompt, and only the tab whose user pressed it reloads when the new worker takes
 * over (another tab keeps its prompt, and its reload then just reloads).
 */
export function registerServiceWorker(offer: (take: () => void) => void): void {
  const wb = new Workbox('/sw.js', { scope: '/' });
  let asked = false;
  let registration: ServiceWorkerRegistration | undefined;
  wb.addEventListener('waiting', () =>
    offer(() => {
      asked = true;
      if (registration?.waiting) wb.messageSkipWaiting();
      else window.location.reload(); // another tab already let it take over
    }),
  );
  wb.addEventListener('controlling', (event) => {
    if (asked && event.isUpdate) window.location.reload();
  });
  wb.register()
    .then((reg) => {
      registration = reg;
      setInterval(() => void wb.update(), UPDATE_CHECK_MS);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') void wb.update();
      });
    })
    // Blocked (a private window, a browser setting, the e2e suite's default): the app works online as before.
    .catch(() => undefined);
}
