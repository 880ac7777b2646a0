import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

// A page load with the network gone, as the app's service worker answers it (docs/decisions/045):
// the precached shell for every page, the app's chunks, never the API. Specs that open screens
// offline after a reload use these; those about the worker itself (offline-app.spec.ts) let it run.

/** The build the suite serves, and its shell, which the service worker serves offline in place of a page. */
const DIST = process.env.E2E_WEB_DIST
  ? path.resolve(process.env.E2E_WEB_DIST)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const SHELL = readFileSync(path.join(DIST, 'index.html'), 'utf8');

/**
 * Loads `to` (or the page again) as with no network: every page is the shell, the app's code comes from
 * the build, every API request fails as with no connection; once the app has started the browser goes
 * offline too.
 */
export async function loadOffline(page: Page, to?: string): Promise<void> {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.route('**/*', (route) => {
    const req = route.request();
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/')) return route.abort('internetdisconnected');
    if (req.resourceType() === 'document') return route.fulfill({ contentType: 'text/html', body: SHELL });
    // The app's code from the build, as the worker's precache holds it: a chunk the app asks for after
    // the browser went offline (the header's unsent badge comes after the page) is there too.
    const asset = path.join(DIST, path.normalize(url.pathname));
    if (url.pathname.startsWith('/assets/') && asset.startsWith(path.join(DIST, 'assets') + path.sep))
      return route.fulfill({ path: asset });
    return route.continue();
  });
  await page.context().setOffline(false);
  if (to) await page.goto(to);
  else await page.reload();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeEnabled();
  await page.context().setOffline(true);
}

/** The network back: the routes gone, the browser online. */
export async function backOnline(page: Page): Promise<void> {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.context().setOffline(false);
}
