import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { releaseNewWorker } from '../app-release';
import { ASSESSMENT_MESSAGES, type ScoreSheet } from '../../packages/domain/src/assessment';
import { OFFLINE_MESSAGES } from '../../packages/domain/src/offline-screens';
import { APP_UPDATE_MESSAGES } from '../../packages/domain/src/web-app-manifest';
import { GRID_SCREEN_MESSAGES as G } from '../../packages/domain/src/score-grid-screens';
import { expect, expectAccessible, noSideways, openOnPhone, PHONE, signInViaApi, test } from '../fixtures';
import { adminGet, asAdmin, createFormClass, currentSessionId, currentTerm, runTag, type FormClass } from '../school';

/**
 * The score grid offline (issue 35 items 2 and 3, docs/decisions/044): a teacher's sheet opened once
 * online opens offline from IndexedDB (also after a reload, through the service worker's shell), says
 * since when its data is, takes entries as online; every edit waits in IndexedDB across reloads and is
 * sent once the network is back, each row once, with the version it was made on; another teacher's
 * change meanwhile is a conflict showing both values; two tabs never send the same row twice; an
 * update of the app while rows wait loses nothing. Its own data (school.ts): JSS 2 arms of this run,
 * each with its own teacher of Mathematics; the third term (no scores yet). Service workers allowed here.
 */
test.use({ serviceWorkers: 'allow' });

const RUN = runTag();
const SUBJECT = 'Mathematics';
const TERM = '3rd';
let sessionId = 0;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.resolve(
  process.env.E2E_WEB_DIST ? path.resolve(root, 'e2e', process.env.E2E_WEB_DIST) : path.join(root, 'apps/web/dist'),
);

test.beforeAll(async ({ request }) => {
  sessionId = await currentSessionId(await asAdmin(request));
});

async function newClass(request: APIRequestContext, tag: string, students: number): Promise<FormClass> {
  return createFormClass(await asAdmin(request), 'JSS 2', `${RUN}${tag}`, { sessionId, students, teaches: SUBJECT });
}

const gridUrl = (c: FormClass) => `/score-sheet?session_id=${sessionId}&term=${TERM}&class=${encodeURIComponent(c.arm)}&subject=${SUBJECT}`;
const stored = (request: APIRequestContext, c: FormClass) =>
  adminGet<ScoreSheet>(
    request,
    `/api/score-sheet/?session_id=${sessionId}&term=${TERM}&student_class=${encodeURIComponent(c.arm)}&subject=${SUBJECT}`,
  );
const cell = (page: Page, label: string, name: string) => page.getByLabel(G.cellOf(label, name), { exact: true });
const status = (page: Page, adm: string) => page.getByTestId(`row-${adm}`).getByTestId('row-status');
const badge = (page: Page) => page.getByTestId('unsent-badge');

/** Waits until the service worker has precached the build and controls the page. */
async function untilControlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
}

/** Leaving a page with unsent rows asks first (beforeunload): these reloads mean it. */
function acceptLeaving(page: Page) {
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()));
}

/** Every grid save the server answered 200, by admission number (both tabs of the context). */
function countSaves(context: BrowserContext): Map<string, number> {
  const saves = new Map<string, number>();
  context.on('response', (res) => {
    const req = res.request();
    if (req.method() !== 'PUT' || !req.url().includes('/api/score-sheet/') || res.status() !== 200) return;
    for (const r of (req.postDataJSON() as { rows: { admission_number: string }[] }).rows)
      saves.set(r.admission_number, (saves.get(r.admission_number) ?? 0) + 1);
  });
  return saves;
}

/** Types `marks(i)` into each component of the rows `from`…`to` (a phone shows one component at a time). */
async function enter(page: Page, sheet: ScoreSheet, from: number, to: number, marks: (i: number, c: number) => number) {
  const phone = (page.viewportSize()?.width ?? 1280) < 640;
  for (const [c, comp] of sheet.components.entries()) {
    if (phone && sheet.components.length > 1) await page.getByLabel('Component', { exact: true }).selectOption(comp.label);
    for (let i = from; i < to; i++) await cell(page, comp.label, sheet.rows[i]!.name).fill(String(marks(i, c)));
  }
  // Leaving the last cell: its row is queued at once.
  await page.keyboard.press('Tab');
}

const marksOf = (sheet: ScoreSheet, i: number, marks: (i: number, c: number) => number) =>
  Object.fromEntries(sheet.components.map((comp, c) => [comp.label, marks(i, c)]));

test('a whole arm entered offline on a phone, across a reload, then synced: every row written once with its marks', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const c = await newClass(request, 'OA', 8);
  const sheet = await stored(request, c);
  expect(sheet.rows).toHaveLength(8);
  const marks = (i: number, k: number) => Math.min(sheet.components[k]!.max, ((i * 3 + k * 5) % 10) + 1);
  acceptLeaving(page);
  const saves = countSaves(page.context());

  // Once online: the sheet is kept on the phone (and the app by the service worker).
  await openOnPhone(page, 'staff', gridUrl(c), c.teacher);
  await expect(page.getByTestId('score-grid')).toBeVisible();
  await untilControlled(page);
  await page.context().setOffline(true);
  try {
    // Offline, a reload: the grid opens from IndexedDB and says since when its data is.
    await page.reload();
    await expect(page.getByTestId('score-grid')).toBeVisible();
    await expect(page.getByTestId('offline-banner')).toContainText('Offline — showing data from');
    await expect(page.getByTestId('offline-banner')).toContainText(OFFLINE_MESSAGES.entriesKept);
    await expectAccessible(page);
    await noSideways(page);

    // The first half, then a reload: the rows come back as typed, still to be sent.
    await enter(page, sheet, 0, 4, marks);
    await expect(badge(page)).toHaveText('4');
    await page.reload();
    await expect(page.getByTestId('score-grid')).toBeVisible();
    const first = sheet.components[0]!.label;
    if (sheet.components.length > 1) await page.getByLabel('Component', { exact: true }).selectOption(first);
    for (let i = 0; i < 4; i++) {
      await expect(cell(page, first, sheet.rows[i]!.name)).toHaveValue(String(marks(i, 0)));
      await expect(status(page, sheet.rows[i]!.admission_number)).toHaveText(/Not saved$/);
    }
    // An invalid mark is refused offline as online (the domain's rule), and never queued.
    await cell(page, first, sheet.rows[4]!.name).fill(String(sheet.components[0]!.max + 1));
    await expect(cell(page, first, sheet.rows[4]!.name)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId(`row-detail-${sheet.rows[4]!.admission_number}`)).toHaveText(
      ASSESSMENT_MESSAGES.componentRange(first, sheet.components[0]!.max),
    );
    await enter(page, sheet, 4, 8, marks);
    await expect(badge(page)).toHaveText('8');
    await expectAccessible(page);
    expect(saves.size).toBe(0);
  } finally {
    await page.context().setOffline(false);
  }

  // The network is back: all eight saved without a tap, each once, from version 0.
  for (const r of sheet.rows) await expect(status(page, r.admission_number)).toHaveText(/Saved$/, { timeout: 20_000 });
  await expect(badge(page)).toHaveCount(0);
  const after = await stored(request, c);
  for (const [i, r] of after.rows.entries()) {
    expect(r.result?.components, r.name).toEqual(marksOf(sheet, i, marks));
    expect(r.result?.version, r.name).toBe(1);
    expect(saves.get(r.admission_number), r.name).toBe(1);
  }
});

test('a teacher who never opened the grid online: their sheets of the current term are kept from the home, and open offline', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const now = await currentTerm(await asAdmin(request));
  const c = await createFormClass(await asAdmin(request), 'JSS 2', `${RUN}HK`, {
    sessionId: now.session_id,
    students: 3,
    teaches: SUBJECT,
  });
  const url = `/score-sheet?session_id=${now.session_id}&term=${now.term}&class=${encodeURIComponent(c.arm)}&subject=${SUBJECT}`;
  // Online on the home only: the sheet of the teacher's own arm-subject is fetched without the grid.
  const sheet = await adminGet<ScoreSheet>(
    request,
    `/api/score-sheet/?session_id=${now.session_id}&term=${now.term}&student_class=${encodeURIComponent(c.arm)}&subject=${SUBJECT}`,
  );
  const fetched = page.waitForResponse(
    (res) => res.url().includes('/api/score-sheet/') && new URL(res.url()).searchParams.get('student_class') === c.arm,
  );
  await openOnPhone(page, 'staff', '/staffHomePage', c.teacher);
  expect((await fetched).status()).toBe(200);
  await untilControlled(page);
  // Let the copy reach IndexedDB before the network goes.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const open = indexedDB.open('portal-offline');
            open.onsuccess = () => {
              const tx = open.result.transaction('sheets', 'readonly');
              const count = tx.objectStore('sheets').count();
              count.onsuccess = () => resolve(count.result);
              count.onerror = () => resolve(0);
            };
            open.onerror = () => resolve(0);
          }),
      ),
    )
    .toBeGreaterThan(0);
  await page.context().setOffline(true);
  try {
    await page.goto(url);
    await expect(page.getByTestId('score-grid')).toBeVisible();
    await expect(page.getByTestId('offline-banner')).toContainText('Offline — showing data from');
    await expect(cell(page, sheet.components[0]!.label, sheet.rows[0]!.name)).toBeVisible();
    await expectAccessible(page);
  } finally {
    await page.context().setOffline(false);
  }
});

test('a conflict made by another teacher while offline shows both values; nothing is overwritten', async ({ page, request }) => {
  const c = await newClass(request, 'OC', 3);
  const sheet = await stored(request, c);
  const [label] = sheet.components.map((x) => x.label);
  const row = sheet.rows[1]!;
  acceptLeaving(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInViaApi(page, request, 'staff', c.teacher);
  await page.goto(gridUrl(c));
  await expect(page.getByTestId('score-grid')).toBeVisible();
  await untilControlled(page);

  await page.context().setOffline(true);
  const theirs = Object.fromEntries(sheet.components.map((x) => [x.label, 1]));
  try {
    await cell(page, label!, row.name).fill('7');
    await page.keyboard.press('Tab');
    await expect(badge(page)).toHaveText('1');
    // Meanwhile the admin enters the row (the API is not behind this phone's network).
    const admin = await asAdmin(request);
    const put = await request.put('/api/score-sheet/', {
      headers: admin.headers,
      data: {
        session_id: sessionId,
        term: TERM,
        student_class: c.arm,
        subject: SUBJECT,
        rows: [{ admission_number: row.admission_number, components: theirs, version: 0 }],
      },
    });
    expect(put.status(), await put.text()).toBe(200);
  } finally {
    await page.context().setOffline(false);
  }
  const conflict = page.getByTestId(`row-detail-${row.admission_number}`).getByTestId('conflict');
  await expect(conflict).toContainText(new RegExp(`Yours: ${label} 7`));
  await expect(conflict).toContainText(new RegExp(`Theirs \\(changed by .+\\): ${label} 1`));
  await expect(status(page, row.admission_number)).toHaveText(new RegExp(ASSESSMENT_MESSAGES.gridConflict));
  // Still waiting, and the stored row is the admin's.
  await expect(badge(page)).toHaveText('1');
  expect((await stored(request, c)).rows[1]!.result).toMatchObject({ components: theirs, version: 1 });
  await expectAccessible(page);
  await conflict.getByRole('button', { name: ASSESSMENT_MESSAGES.gridKeepMine }).click();
  await expect(status(page, row.admission_number)).toHaveText(/Saved$/);
  await expect(badge(page)).toHaveCount(0);
  expect((await stored(request, c)).rows[1]!.result).toMatchObject({ components: { ...theirs, [label!]: 7 }, version: 2 });
});

test('two tabs offline editing different rows: each row is sent once, even by a tab that restored both', async ({ page, request }) => {
  const c = await newClass(request, 'OT', 3);
  const sheet = await stored(request, c);
  const [label] = sheet.components.map((x) => x.label);
  const context = page.context();
  const saves = countSaves(context);
  acceptLeaving(page);
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', c.teacher);
  await page.goto(gridUrl(c));
  await expect(page.getByTestId('score-grid')).toBeVisible();
  await untilControlled(page);
  const other = await context.newPage();
  acceptLeaving(other);
  await other.setViewportSize(PHONE);
  await other.goto(gridUrl(c));
  await expect(other.getByTestId('score-grid')).toBeVisible();

  await context.setOffline(true);
  try {
    await cell(page, label!, sheet.rows[0]!.name).fill('4');
    await page.keyboard.press('Tab');
    await cell(other, label!, sheet.rows[2]!.name).fill('6');
    await other.keyboard.press('Tab');
    // Both tabs count both rows (the badge follows every tab's queue).
    await expect(badge(page)).toHaveText('2');
    await expect(badge(other)).toHaveText('2');
    // The second tab reloads: it restores both rows, the first tab's too.
    await other.reload();
    await expect(cell(other, label!, sheet.rows[0]!.name)).toHaveValue('4');
    await expect(cell(other, label!, sheet.rows[2]!.name)).toHaveValue('6');
  } finally {
    await context.setOffline(false);
  }
  for (const p of [page, other]) await expect(status(p, sheet.rows[0]!.admission_number)).toHaveText(/Saved$/, { timeout: 20_000 });
  await expect(status(other, sheet.rows[2]!.admission_number)).toHaveText(/Saved$/, { timeout: 20_000 });
  await expect(badge(page)).toHaveCount(0);
  const after = await stored(request, c);
  expect(after.rows[0]!.result).toMatchObject({ components: { [label!]: 4 }, version: 1 });
  expect(after.rows[2]!.result).toMatchObject({ components: { [label!]: 6 }, version: 1 });
  expect(Object.fromEntries(saves)).toEqual({ [sheet.rows[0]!.admission_number]: 1, [sheet.rows[2]!.admission_number]: 1 });
  await other.close();
});

test('an update of the app while rows wait: the new version takes over and the rows are still sent', async ({ page, request }) => {
  const swFile = path.join(dist, 'sw.js');
  test.skip(!existsSync(swFile), `no built service worker at ${swFile}`);
  const c = await newClass(request, 'OU', 2);
  const sheet = await stored(request, c);
  const [label] = sheet.components.map((x) => x.label);
  const context = page.context();
  acceptLeaving(page);
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', c.teacher);
  await page.goto(gridUrl(c));
  await expect(page.getByTestId('score-grid')).toBeVisible();
  await untilControlled(page);
  await context.setOffline(true);
  try {
    for (const [i, r] of sheet.rows.entries()) await cell(page, label!, r.name).fill(String(i + 2));
    await page.keyboard.press('Tab');
    await expect(badge(page)).toHaveText('2');
    // Back online, the saves still find no server (refused on the way) while a release comes out and the app updates.
    await context.route('**/api/score-sheet/', (route) =>
      route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.continue(),
    );
  } finally {
    await context.setOffline(false);
  }
  const restore = releaseNewWorker(swFile, RUN);
  try {
    await page.reload();
    const prompt = page.getByTestId('app-update');
    await expect(prompt).toContainText(APP_UPDATE_MESSAGES.ready);
    await expect(badge(page)).toHaveText('2');
    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: APP_UPDATE_MESSAGES.reload }).click();
    await reloaded;
    await expect(page.getByTestId('app-update')).toHaveCount(0);
    // Under the new version: the rows are back as typed, still waiting.
    await expect(cell(page, label!, sheet.rows[1]!.name)).toHaveValue('3');
    await expect(badge(page)).toHaveText('2');
  } finally {
    restore();
    await context.unroute('**/api/score-sheet/');
  }
  // The network is whole again: the browser's "online" sends what waits at once (else the backoff's next retry).
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  for (const r of sheet.rows) await expect(status(page, r.admission_number)).toHaveText(/Saved$/, { timeout: 20_000 });
  const after = await stored(request, c);
  expect(after.rows.map((r) => r.result?.components[label!])).toEqual([2, 3]);
  expect(after.rows.map((r) => r.result?.version)).toEqual([1, 1]);
});
