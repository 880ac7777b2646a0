import type { Page } from '@playwright/test';
import { GENERAL_MESSAGES as M } from '../../packages/domain/src/http';
import { expect, expectAccessible, PHONE, signInViaApi, test } from '../fixtures';

// A release while a tab is open (a 360 px phone): the page's code the tab knew is gone (404 since the
// server stopped answering a missing file with the app's HTML). The tab loads the new release once,
// at the address asked for, and the page opens; if the code is still missing, it says so with a way
// on, and does not reload again: never the router's developer page, never a loop.

const BROADSHEET_CHUNK = '**/assets/broadsheet-*.js';

/**
 * Signed in as the admin on a phone, /broadsheet opened with its chunk answered 404 while `missing`
 * says so (given how many times the page's document has been requested): the count of those.
 */
async function openWithChunkMissing(page: Page, missing: (documents: number) => boolean): Promise<() => number> {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'admin');
  let documents = 0;
  page.on('request', (r) => {
    if (r.isNavigationRequest() && new URL(r.url()).pathname === '/broadsheet') documents++;
  });
  await page.route(BROADSHEET_CHUNK, (route) =>
    missing(documents)
      ? route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"Not found."}' })
      : route.continue(),
  );
  await page.goto('/broadsheet');
  return () => documents;
}

test('a page whose code is gone loads the new release once and opens', async ({ page }) => {
  // The old release's chunk: missing until the tab loads the page again.
  const documents = await openWithChunkMissing(page, (n) => n < 2);
  await expect(page.getByRole('heading', { name: 'Broadsheet', level: 1 })).toBeVisible();
  expect(documents()).toBe(2);
  await expect(page.getByText(/Unexpected Application Error/)).toHaveCount(0);
});

test('still missing after the reload: the app’s message and a way on, no second reload', async ({ page }) => {
  const documents = await openWithChunkMissing(page, () => true);
  await expect(page.getByRole('heading', { name: M.pageFailedTitle })).toBeVisible();
  await expect(page.getByText(M.pageFailed)).toBeVisible();
  await expect(page.getByRole('link', { name: M.goHome })).toBeVisible();
  // Time for a second reload, were there one.
  await page.waitForTimeout(1_000);
  expect(documents()).toBe(2);
  await expect(page.getByText(/Unexpected Application Error/)).toHaveCount(0);
  await expectAccessible(page);
});
