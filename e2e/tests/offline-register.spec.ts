import type { APIRequestContext, Page } from '@playwright/test';
import { ATTENDANCE_LABELS, type Register } from '../../packages/domain/src/attendance';
import { OFFLINE_SAFETY_MESSAGES as M } from '../../packages/domain/src/offline-safety-screens';
import { expect, expectAccessible, noSideways, PHONE, signInViaUi, submitSignIn, test, type Creds } from '../fixtures';
import { backOnline, loadOffline } from '../offline';
import {
  asAdmin,
  createFormClass,
  createStaff,
  createStudentWithResults,
  currentTerm,
  okJson,
  publishArm,
  runTag,
  type AdminApi,
  type FormClass,
  type OwnStaff,
  type OwnStudent,
} from '../school';

// Issue 35.2, 35.4 and 35.5 on a 360 px phone: the form teacher's register kept on the phone, marked
// offline across a reload and sent once when the network is back; sign-out with changes not sent
// (warned: send first, or discard); a session that ends while changes wait (another account signing
// in on the same browser neither sees nor sends them; the same teacher signing in again sends them);
// a report card opened before, read offline as a saved copy. Its own data (fixture school.ts): a
// JSS 2 arm of this run with three students, its form teacher and another teacher of the run, and
// registers of past school days of the demo calendar's third term (only this arm's).
// Offline: each page load is served as the app's service worker serves it (the shell; the API
// unreachable), then the browser goes offline (`loadOffline`).

const RUN = runTag();
// School days of the demo calendar's 2025/2026 third term (Thursdays and Fridays), one per test.
const DAYS = { synced: '2026-05-07', sendFirst: '2026-05-08', discard: '2026-05-14', expired: '2026-05-15' };

let api: AdminApi;
let form: FormClass;
let other: OwnStaff;
let pupil: OwnStudent & { subjects: string[] };
let card = '';

const creds = (s: { email: string; password: string }): Creds => ({ email: s.email, password: s.password });
const registerScreen = (date: string) => `/attendance?class=${encodeURIComponent(form.arm)}&date=${date}`;

async function storedRegister(request: APIRequestContext, date: string): Promise<Register> {
  const q = `student_class=${encodeURIComponent(form.arm)}&date=${date}&period=morning`;
  return okJson<Register>(await request.get(`/api/attendance/register/?${q}`, { headers: api.headers }));
}

/** The offline database's records (only read once the app has made it: opening it first would make an empty one). */
async function offlineRecords(page: Page, store: 'sheets' | 'outbox'): Promise<{ user: string; kind: string }[]> {
  return page.evaluate(async (store) => {
    const dbs = await indexedDB.databases();
    if (!dbs.some((d) => d.name === 'portal-offline')) return [];
    return new Promise<{ user: string; kind: string }[]>((resolve, reject) => {
      const open = indexedDB.open('portal-offline');
      open.onerror = () => reject(new Error(String(open.error)));
      open.onsuccess = () => {
        const db = open.result;
        const req = db.transaction(store).objectStore(store).getAll();
        req.onerror = () => reject(new Error(String(req.error)));
        req.onsuccess = () => {
          db.close();
          resolve((req.result as { user: string; kind: string }[]).map((r) => ({ user: r.user, kind: r.kind })));
        };
      };
    });
  }, store);
}

/** Marks the open register: everyone present, the first student absent; then Save. */
async function markAndSave(page: Page): Promise<void> {
  await page.getByRole('button', { name: ATTENDANCE_LABELS.markAllPresent }).click();
  const first = form.students[0]!;
  await page.getByRole('button', { name: `Absent: ${first.first_name} ${first.last_name}`, exact: true }).click();
  await page.getByRole('button', { name: ATTENDANCE_LABELS.save }).click();
}

/** The teacher signs in on this browser and opens a register online (it is kept on the phone). */
async function openRegister(page: Page, date: string): Promise<void> {
  await page.setViewportSize(PHONE);
  await signInViaUi(page, 'staff', creds(form.teacher));
  await page.goto(registerScreen(date));
  await expect(page.getByTestId('register-list')).toBeVisible();
}

/** Offline, the register marked and saved: it waits on the phone (the header's badge counts it). */
async function queueOffline(page: Page): Promise<void> {
  await loadOffline(page);
  await expect(page.getByTestId('register-list')).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await markAndSave(page);
  await expect(page.getByTestId('unsent-badge')).toHaveText('1');
}

test.beforeAll(async ({ request }) => {
  api = await asAdmin(request);
  const current = await currentTerm(api);
  form = await createFormClass(api, 'JSS 2', RUN, { sessionId: current.session_id, students: 3 });
  other = await createStaff(api, `${RUN}O`);
  pupil = await createStudentWithResults(api, form.arm, `${RUN}P`, {
    sessionId: current.session_id,
    terms: [current.term],
    score: (j) => 40 + j,
  });
  await publishArm(api, { sessionId: current.session_id, term: current.term, arm: form.arm });
  card = `/report-card?session_id=${current.session_id}&term=${current.term}`;
  for (const day of Object.values(DAYS)) expect((await storedRegister(request, day)).day.school_day, day).toBe(true);
});

test.afterEach(async ({ page }) => {
  await backOnline(page);
});

test('the register opens offline from the phone, takes marks across a reload and is sent once when the network is back', async ({
  page,
  request,
}) => {
  await openRegister(page, DAYS.synced);
  await queueOffline(page);
  await expect(page.getByTestId('offline-banner')).toContainText('Offline since');
  await expectAccessible(page);
  await noSideways(page);

  // Reloaded offline: the marks are still there, still waiting.
  await loadOffline(page);
  await expect(page.getByTestId('register-summary')).toContainText('1 absent');
  await expect(page.getByTestId('unsent-badge')).toHaveText('1');
  expect((await storedRegister(request, DAYS.synced)).saved).toBeNull();

  await backOnline(page);
  await expect(page.getByTestId('unsent-badge')).toHaveCount(0);
  const stored = await storedRegister(request, DAYS.synced);
  expect(stored.saved?.version, 'written once').toBe(1);
  expect(stored.rows.filter((r) => r.status === 'absent')).toHaveLength(1);
  // Everyone else present (the arm's three students and the student with results).
  expect(stored.rows.filter((r) => r.status === 'present')).toHaveLength(stored.rows.length - 1);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});

test('sign-out with a change not sent warns; "send them first" sends it and signs out', async ({ page, request }) => {
  await openRegister(page, DAYS.sendFirst);
  await queueOffline(page);
  // Home, the register closed with its change kept on the phone.
  await loadOffline(page, '/staffHomePage');
  await expect(page.getByTestId('unsent-badge')).toHaveText('1');

  await page.getByRole('button', { name: 'Logout' }).click();
  const ask = page.getByRole('alertdialog', { name: M.signOutTitle });
  await expect(ask.getByTestId('sign-out-unsent')).toHaveText(M.signOutUnsent(1));
  await expect(ask).toContainText(M.signOutOffline);
  await expect(ask.getByRole('button', { name: M.sendFirst })).toBeDisabled();
  await expectAccessible(page);
  await noSideways(page);
  // On a laptop too.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(ask).toBeInViewport();
  await expectAccessible(page);
  await page.setViewportSize(PHONE);

  await backOnline(page);
  await ask.getByRole('button', { name: M.sendFirst }).click();
  await expect(page).toHaveURL(/\/StaffLogin$/);
  expect((await storedRegister(request, DAYS.sendFirst)).saved?.version).toBe(1);
  expect(await offlineRecords(page, 'outbox')).toEqual([]);
  expect(await offlineRecords(page, 'sheets')).toEqual([]);
});

test('sign-out and discard: the change is not sent and nothing of the teacher stays on the phone', async ({ page, request }) => {
  await openRegister(page, DAYS.discard);
  await queueOffline(page);
  // The browser says online but the server stays out of reach (so the sign-in page's code still loads).
  await page.context().setOffline(false);
  await page.getByRole('button', { name: 'Logout' }).click();
  const ask = page.getByRole('alertdialog', { name: M.signOutTitle });
  await ask.getByRole('button', { name: M.discardAndSignOut }).click();
  await expect(page).toHaveURL(/\/StaffLogin$/);
  expect(await offlineRecords(page, 'outbox')).toEqual([]);
  expect(await offlineRecords(page, 'sheets')).toEqual([]);
  await backOnline(page);
  // Back online, nothing was sent.
  expect((await storedRegister(request, DAYS.discard)).saved).toBeNull();
});

test('a session ended while offline: another account signing in neither sees nor sends the queue; the teacher signing in again sends it', async ({
  page,
  request,
}) => {
  await openRegister(page, DAYS.expired);
  await queueOffline(page);
  // The session ends meanwhile (here: revoked on the server, as a password change elsewhere would).
  const refresh = await page.evaluate(() => localStorage.getItem('refreshToken'));
  const access = await page.evaluate(() => localStorage.getItem('accessToken'));
  expect((await request.post('/api/logout/', { headers: { authorization: `Bearer ${access}` }, data: { refresh } })).status()).toBeLessThan(
    300,
  );

  // Back online: the register's save meets the ended session, and the app asks to sign in again.
  await backOnline(page);
  await expect(page).toHaveURL(/\/StaffLogin\?expired=1/);
  await expect(page.getByText('Your session has ended. Please sign in again.')).toBeVisible();

  // Another teacher signs in on the same browser: told that changes wait, shown nothing of them.
  await submitSignIn(page, creds(other));
  await expect(page.getByTestId('other-accounts-waiting')).toHaveText(M.otherUsersChanges(1));
  await expect(page.getByTestId('unsent-badge')).toHaveCount(0);
  await expect(page.getByTestId('register-list')).toHaveCount(0);
  await expectAccessible(page);
  const teacherUser = `staff:${form.teacher.staff_id}`;
  expect((await offlineRecords(page, 'sheets')).filter((r) => r.user === teacherUser)).toEqual([]);
  expect(await offlineRecords(page, 'outbox')).toEqual([{ user: teacherUser, kind: 'register' }]);
  expect((await storedRegister(request, DAYS.expired)).saved).toBeNull();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/StaffLogin$/);

  // The teacher signs in again: the queue is sent under their account.
  await submitSignIn(page, creds(form.teacher));
  await expect(page).toHaveURL(/\/staffHomePage$/);
  await expect.poll(async () => (await storedRegister(request, DAYS.expired)).saved?.version ?? 0).toBe(1);
  await expect.poll(() => offlineRecords(page, 'outbox')).toEqual([]);
});

test('a report card opened before reads offline as a saved copy, read only', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInViaUi(page, 'student', creds(pupil));
  await page.goto(card);
  await expect(page.getByText(pupil.subjects[0]!).first()).toBeVisible();
  await expect(page.getByTestId('saved-copy')).toHaveCount(0);
  // Kept on the phone once opened online.
  await expect.poll(async () => (await offlineRecords(page, 'sheets')).some((r) => r.kind === 'report-card')).toBe(true);

  await loadOffline(page);
  await expect(page.getByTestId('saved-copy')).toContainText('Saved copy from');
  await expect(page.getByText(pupil.subjects[0]!).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download PDF' })).toHaveCount(0);
  await expectAccessible(page);
  await noSideways(page);

  // Signing out clears it: the next person on this phone finds no copy.
  await backOnline(page);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/StudentLogin$/);
  expect(await offlineRecords(page, 'sheets')).toEqual([]);
});
