import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { chromiumPath } from '../chromium';
import { releaseNewWorker } from '../app-release';
import { APP_UPDATE_MESSAGES } from '../../packages/domain/src/web-app-manifest';
import { expect, expectAccessible, noSideways, PHONE, signInViaApi, test } from '../fixtures';
import { asAdmin, createFormClass, currentSessionId, runTag, type FormClass } from '../school';

/**
 * The installable app (issue 35 item 1, docs/decisions/045): the manifest and Chromium's own
 * installability checks, the service worker's precache opening signed-in screens offline after one
 * visit, nothing from /api/ (or anything else personal) in any cache, signed-out visitors left without
 * a worker, and the "new version" prompt. The suite blocks service workers (playwright.config.ts);
 * this spec allows them.
 */
test.use({ serviceWorkers: 'allow' });

const RUN = runTag();
let CLASS: FormClass;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.resolve(
  process.env.E2E_WEB_DIST ? path.resolve(root, 'e2e', process.env.E2E_WEB_DIST) : path.join(root, 'apps/web/dist'),
);

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  CLASS = await createFormClass(api, 'JSS 1', `PWA${RUN}`, { sessionId: await currentSessionId(api), students: 2, teaches: 'Mathematics' });
});

/** Waits until the service worker is active, has precached the build and controls the page. */
async function untilControlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // `ready`: a worker is active, so its install (the whole precache) has finished.
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
}

/** Every URL held in Cache Storage, by cache. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
    return urls;
  });
}

/** The shell of a signed-in screen: the header with Logout, a page title, not the "not found" page. */
async function expectScreen(page: Page, title?: string | RegExp): Promise<void> {
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(title ? h1.filter({ hasText: title }) : h1).toBeVisible();
  await expect(page.getByText('Page not found')).toHaveCount(0);
}

test('signed-out visitors get no service worker and nothing cached', async ({ page }) => {
  for (const url of ['/', '/login', '/StaffLogin']) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
  }
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  expect(await cachedUrls(page)).toEqual([]);
});

test("installable: the school's manifest and icons, and Chromium reports no installability error", async ({ request }) => {
  // Chromium never offers to install from an incognito-like context (Playwright's default): a profile on disk.
  const profile = mkdtempSync(path.join(tmpdir(), 'portal-pwa-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu'],
    baseURL: test.info().project.use.baseURL,
    serviceWorkers: 'allow',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signInViaApi(page, request, 'admin');
    await page.goto('/adminHomePage');
    await untilControlled(page);
    const cdp = await context.newCDPSession(page);
    // What Lighthouse's installability audit read: the browser's own checks of manifest, icons and worker.
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const { url, errors } = await cdp.send('Page.getAppManifest');
    expect(new URL(url).pathname).toBe('/manifest.webmanifest');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  const settings = await (await request.get('/api/settings/')).json();
  expect(manifest.name).toBe(settings.school_name);
  for (const icon of manifest.icons as { src: string; sizes: string }[]) {
    const res = await request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()['content-type']).toBe('image/png');
    // The PNG's own width and height (IHDR) are the size the manifest says.
    const png = await res.body();
    expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
  }
  const sw = await request.get('/sw.js');
  expect(sw.headers()['cache-control']).toBe('no-cache');
});

test("a teacher's screens open offline after one visit, from the precache; /api/ is never cached", async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', CLASS.teacher);
  const home = await page.goto('/staffHomePage');
  await expectScreen(page);
  // Online, a screen comes from the server: the preload of its page's chunk (route-preloads.json) is
  // added by the server to this path's index.html, and is not in the shell the worker keeps.
  const PAGE_PRELOAD = /<link rel="modulepreload" crossorigin href="\/assets\/home-pages-[\w-]+\.js">/;
  expect(await home!.text()).toMatch(PAGE_PRELOAD);
  await untilControlled(page);
  for (const url of ['/my-classes', '/attendance', '/score-sheet']) {
    await page.goto(url);
    await expectScreen(page);
  }
  const online = await cachedUrls(page);
  expect(online.length).toBeGreaterThan(20);
  // Only the build's static files: no API answer, no navigation, nothing of this user's.
  for (const u of online) expect(u, u).toMatch(/^\/(assets\/[\w.-]+\.(js|css)|index\.html|favicon\.svg|icons\/[\w-]+\.png)$/);

  await page.goto('/staffHomePage');
  await expectScreen(page);
  await page.context().setOffline(true);
  try {
    const shell = await page.reload();
    // Offline, the worker answered with its cached shell (no page preload), and the app drew the screen.
    expect(shell!.fromServiceWorker()).toBe(true);
    expect(await shell!.text()).not.toMatch(PAGE_PRELOAD);
    await expectScreen(page);
    // Screens this phone never opened, by address and by the app's own links: their chunks were precached.
    for (const url of ['/staffHomePage', '/class-comments', '/class-ratings', '/attendance/month', '/school-calendar']) {
      await page.goto(url);
      await expectScreen(page);
    }
    await page.goto('/staffHomePage');
    await expectScreen(page);
    await noSideways(page);
    await expectAccessible(page);
    // The network really is gone for the page: the API does not answer.
    expect(
      await page.evaluate(() =>
        fetch('/api/health').then(
          () => 'answered',
          () => 'offline',
        ),
      ),
    ).toBe('offline');
    // The installed app's start address opens the signed-in user's home offline.
    await page.goto('/app');
    await expect(page).toHaveURL(/\/staffHomePage$/);
    await expectScreen(page);
  } finally {
    await page.context().setOffline(false);
  }
  // Browsing offline added nothing to the caches.
  expect((await cachedUrls(page)).sort()).toEqual(online.sort());
});

test('a new version deployed: the prompt says so, and Reload now switches to it', async ({ page, request }) => {
  const swFile = path.join(dist, 'sw.js');
  test.skip(!existsSync(swFile), `no built service worker at ${swFile}`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInViaApi(page, request, 'staff', CLASS.teacher);
  await page.goto('/staffHomePage');
  await untilControlled(page);
  await expect(page.getByTestId('app-update')).toHaveCount(0);
  // A release: the worker's bytes differ (as a new build's precache list does), in every copy.
  const restore = releaseNewWorker(swFile, RUN);
  try {
    // The browser checks the worker on navigation; the app also checks when it comes back into view.
    await page.reload();
    const prompt = page.getByTestId('app-update');
    await expect(prompt).toContainText(APP_UPDATE_MESSAGES.ready);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null)).toBe(true);
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await noSideways(page);
    await expectAccessible(page);
    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: APP_UPDATE_MESSAGES.reload }).click();
    await reloaded;
    await expectScreen(page);
    await expect(page.getByTestId('app-update')).toHaveCount(0);
    // The waiting version took over: nothing waits any more, and the page is under it.
    expect(
      await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        return { waiting: reg?.waiting ?? null, controlled: navigator.serviceWorker.controller !== null };
      }),
    ).toEqual({ waiting: null, controlled: true });
  } finally {
    restore();
  }
});
