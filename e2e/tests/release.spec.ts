import { GENERAL_MESSAGES as M } from '../../packages/domain/src/http';
import { expect, expectAccessible, PHONE, signInViaApi, test } from '../fixtures';

// A release while a tab is open (a 360 px phone): the page's code the tab knew is gone (404 since the
// server stopped answering a missing file with the app's HTML). The tab loads the new release once,
// at the address asked for, and the page opens; if the code is still missing, it says so with a way
// on, and does not reload again: never the router's developer page, never a loop.

const BROADSHEET_CHUNK = '**/assets/broadsheet-*.js';

test('a page whose code is gone loads the new release once and opens', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'admin');
  let documents = 0;
  page.on('request', (r) => {
    if (r.isNavigationRequest() && new URL(r.url()).pathname === '/broadsheet') documents++;
  });
  // The old release's chunk: missing until the tab loads the page again.
  await page.route(BROADSHEET_CHUNK, (route) =>
    documents < 2 ? route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"Not found."}' }) : route.continue(),
  );
  await page.goto('/broadsheet');
  await expect(page.getByRole('heading', { name: 'Broadsheet', level: 1 })).toBeVisible();
  expect(documents).toBe(2);
  await expect(page.getByText(/Unexpected Application Error/)).toHaveCount(0);
});

test('still missing after the reload: the app’s message and a way on, no second reload', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'admin');
  let documents = 0;
  page.on('request', (r) => {
    if (r.isNavigationRequest() && new URL(r.url()).pathname === '/broadsheet') documents++;
  });
  await page.route(BROADSHEET_CHUNK, (route) =>
    route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"Not found."}' }),
  );
  await page.goto('/broadsheet');
  await expect(page.getByRole('heading', { name: M.pageFailedTitle })).toBeVisible();
  await expect(page.getByText(M.pageFailed)).toBeVisible();
  await expect(page.getByRole('link', { name: M.goHome })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(documents).toBe(2);
  await expect(page.getByText(/Unexpected Application Error/)).toHaveCount(0);
  await expectAccessible(page);
});
