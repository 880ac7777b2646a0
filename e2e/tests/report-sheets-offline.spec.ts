import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import type { CommentSheet, RatingSheet } from '../../packages/domain/src/report-cards';
import { OFFLINE_MESSAGES } from '../../packages/domain/src/offline-screens';
import { expect, expectAccessible, noSideways, openOnPhone, test } from '../fixtures';
import { backOnline, loadOffline } from '../offline';
import { adminGet, asAdmin, createFormClass, currentTerm, runTag, type FormClass } from '../school';

// The ratings and comments sheets offline on a 360 px phone (docs/decisions/044, the report
// sheets): a form teacher's sheets opened once online open offline from the phone; a rating and a
// comment typed with no network survive a reload still offline, shown as not saved and counted by
// the header's badge, and are saved once the network is back (the comment when its sheet is opened
// again), each written once. Its own data (fixture school.ts): a JSS 2 arm of this run with two
// students and its form teacher, in the current term. Offline, each page load is served as the app's
// service worker serves it (the shell; the API unreachable), then the browser goes offline.

const RUN = runTag();
let form: FormClass;
let q = { session_id: 0, term: '' };

const sheetUrl = (screen: string) =>
  `${screen}?session_id=${q.session_id}&term=${q.term}&class=${encodeURIComponent(form.arm)}`;
const apiQuery = () => `session_id=${q.session_id}&term=${q.term}&student_class=${encodeURIComponent(form.arm)}`;
const status = (page: Page, adm: string) => page.getByTestId(`row-${adm}`).getByTestId('row-status');
const badge = (page: Page) => page.getByTestId('unsent-badge');

/** The kinds of the sheets kept on this phone (IndexedDB, once the app has made it). */
function keptKinds(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'portal-offline')) return [];
    return new Promise<string[]>((resolve, reject) => {
      const open = indexedDB.open('portal-offline');
      open.onerror = () => reject(new Error(String(open.error)));
      open.onsuccess = () => {
        const req = open.result.transaction('sheets').objectStore('sheets').getAll();
        req.onsuccess = () => {
          open.result.close();
          resolve((req.result as { kind: string }[]).map((r) => r.kind));
        };
      };
    });
  });
}

/** Every save of a sheet the server answered 200, by admission number. */
function countSaves(context: BrowserContext, api: string): Map<string, number> {
  const saves = new Map<string, number>();
  context.on('response', (res) => {
    const req = res.request();
    if (req.method() !== 'PUT' || !req.url().includes(api) || res.status() !== 200) return;
    for (const r of (req.postDataJSON() as { rows: { admission_number: string }[] }).rows)
      saves.set(r.admission_number, (saves.get(r.admission_number) ?? 0) + 1);
  });
  return saves;
}

const ratingsOf = (request: APIRequestContext) => adminGet<RatingSheet>(request, `/api/class-ratings/?${apiQuery()}`);
const commentsOf = (request: APIRequestContext) => adminGet<CommentSheet>(request, `/api/class-comments/?${apiQuery()}`);

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  const current = await currentTerm(api);
  q = { session_id: current.session_id, term: current.term };
  form = await createFormClass(api, 'JSS 2', RUN, { sessionId: current.session_id, students: 2 });
});

test.afterEach(async ({ page }) => {
  await backOnline(page);
});

test('a rating and a comment typed offline survive a reload offline, are shown unsent, and are saved once each when the network is back', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // Reloading with rows not sent asks first (beforeunload): these reloads mean it.
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()));
  const ratingSaves = countSaves(page.context(), '/api/class-ratings/');
  const commentSaves = countSaves(page.context(), '/api/class-comments/');
  const ratings = await ratingsOf(request);
  const [ada, bola] = ratings.rows as [RatingSheet['rows'][number], RatingSheet['rows'][number]];
  const trait = ratings.traits.affective[0]!;
  const ratingCell = page.getByLabel(`${trait.name} for ${ada.name}`, { exact: true });
  const commentField = page.getByLabel(`Form teacher's comment for ${bola.name}`, { exact: true });
  const COMMENT = 'Helpful to classmates and always punctual.';

  // Online, the form teacher opens both sheets once (the school's term known first): each is kept on the phone.
  await openOnPhone(page, 'staff', '/', form.teacher);
  await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('portal-offline-term:')));
  await page.goto(sheetUrl('/class-comments'));
  await expect(page.getByTestId('comments-list')).toBeVisible();
  // Kept before the next page load (a full load would end the page's write to IndexedDB).
  await expect.poll(async () => await keptKinds(page)).toContain('comments');
  await page.goto(sheetUrl('/class-ratings'));
  await expect(page.getByTestId('ratings-grid')).toBeVisible();
  await expect.poll(async () => (await keptKinds(page)).sort()).toEqual(expect.arrayContaining(['comments', 'ratings']));

  // Offline, reloaded: the ratings open from the phone, with the register's banner; a rating typed waits.
  await loadOffline(page);
  await expect(page.getByTestId('ratings-grid')).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toContainText('Offline — showing data from');
  await expect(page.getByTestId('offline-banner')).toContainText(OFFLINE_MESSAGES.entriesKept);
  await ratingCell.fill('4');
  await ratingCell.press('Tab');
  await expect(status(page, ada.admission_number)).toHaveText(/Not saved$/);
  await expect(badge(page)).toHaveText('1');

  // The comments, opened offline too: a comment typed waits with the rating (two on the badge).
  await loadOffline(page, sheetUrl('/class-comments'));
  await expect(page.getByTestId('comments-list')).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await commentField.fill(COMMENT);
  await commentField.blur();
  await expect(status(page, bola.admission_number)).toContainText('Not saved');
  await expect(badge(page)).toHaveText('2');

  // Reloaded, still offline: the comment is there as typed, still unsent.
  await loadOffline(page);
  await expect(commentField).toHaveValue(COMMENT);
  await expect(status(page, bola.admission_number)).toContainText('Not saved');
  await expect(badge(page)).toHaveText('2');
  await expectAccessible(page);
  await noSideways(page);

  // And the ratings: the rating is there as typed, still unsent.
  await loadOffline(page, sheetUrl('/class-ratings'));
  await expect(ratingCell).toHaveValue('4');
  await expect(status(page, ada.admission_number)).toHaveText(/Not saved$/);
  await expect(badge(page)).toHaveText('2');
  await expectAccessible(page);
  expect((await ratingsOf(request)).rows.map((r) => r.version), 'nothing reached the server').toEqual([0, 0]);

  // The network is back: the open sheet's rating is saved; the comment waits for its sheet.
  await backOnline(page);
  await expect(status(page, ada.admission_number)).toHaveText(/Saved$/);
  await expect(badge(page)).toHaveText('1');
  await page.goto(sheetUrl('/class-comments'));
  await expect(status(page, bola.admission_number)).toContainText('Saved');
  await expect(commentField).toHaveValue(COMMENT);
  await expect(badge(page)).toHaveCount(0);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await expectAccessible(page);

  // Stored as typed, each written once.
  const storedRating = (await ratingsOf(request)).rows.find((r) => r.admission_number === ada.admission_number)!;
  expect(storedRating.version).toBe(1);
  expect(storedRating.ratings[trait.id]).toBe(4);
  const storedComment = (await commentsOf(request)).rows.find((r) => r.admission_number === bola.admission_number)!;
  expect(storedComment).toMatchObject({ form_comment: COMMENT, version: 1 });
  expect([...ratingSaves]).toEqual([[ada.admission_number, 1]]);
  expect([...commentSaves]).toEqual([[bola.admission_number, 1]]);
});
