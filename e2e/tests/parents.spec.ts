import type { Page } from '@playwright/test';
import { PARENT_MESSAGES } from '../../packages/domain/src/parents';
import { PARENT_SCREEN_LABELS as L, PARENT_SCREENS } from '../../packages/domain/src/parent-screens';
import { expect, expectAccessible, noSideways, PHONE, signInViaApi, studentSubjects, test } from '../fixtures';
import {
  addFee,
  asAdmin,
  createArm,
  createChildOf,
  createStudent,
  currentTerm,
  enterScores,
  publishArm,
  runMobile,
  runTag,
  type AdminApi,
} from '../school';

test.describe.configure({ mode: 'serial' });

// Its own data (school.ts): three arms of this run (JSS 1, JSS 3, SSS 2), one child of one father in
// each, the father's phone written three ways on the forms (one parent, three children); the JSS 1
// arm owes ₦20,000 this term; the JSS 3 child has results, released; a student of another family.
// The admin invites the JSS 1 arm's parents (the father) and reads the one-time password off the
// screen; the father signs in on a 360 px phone, chooses his password, switches between his three
// children, pays for one through the simulator, reads another's released card, and is refused a
// child not his.

const RUN = runTag();
const FATHER = { name: `Mr Emeka Okafor${RUN}`, phone: runMobile(RUN) };
const E164 = `+234${FATHER.phone.slice(1)}`;
const NEW_PASSWORD = `Parent-Pass-${RUN}`;
let API: AdminApi;
let SESSION_ID = 0;
let TERM = '1st';
const ARMS: string[] = [];
const KIDS: { admission_number: string; first_name: string; last_name: string }[] = [];
let STRANGER = '';
let OTP = '';

const childName = (i: number) => `${KIDS[i]!.first_name} ${KIDS[i]!.last_name}`;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  API = await asAdmin(request);
  const current = await currentTerm(API);
  SESSION_ID = current.session_id;
  TERM = current.term;
  for (const [i, level] of (['JSS 1', 'JSS 3', 'SSS 2'] as const).entries()) ARMS.push(await createArm(API, level, `${RUN}${i}`));
  // One phone, three spellings: the school's forms are filled by hand.
  const spellings = [FATHER.phone, `+234 ${FATHER.phone.slice(1, 4)} ${FATHER.phone.slice(4, 7)} ${FATHER.phone.slice(7)}`, `234-${FATHER.phone.slice(1)}`];
  for (const [i, arm] of ARMS.entries())
    KIDS.push(await createChildOf(API, arm, `${RUN}K${i}`, { name: FATHER.name, phone: spellings[i]! }, { first_name: ['Ada', 'Obi', 'Chika'][i]! }));
  await addFee(API, { arm: ARMS[0]!, sessionId: SESSION_ID, term: current.term, naira: 20_000 });
  // The second child's results of this term, released.
  const token = API.headers.authorization.slice('Bearer '.length);
  const subjects = await studentSubjects(request, token, KIDS[1]!.admission_number);
  const scores = Object.fromEntries(subjects.map((name, j) => [name, 60 + (j % 30)]));
  await enterScores(API, { sessionId: SESSION_ID, term: current.term, arm: ARMS[1]!, admission: KIDS[1]!.admission_number, scores });
  await publishArm(API, { sessionId: SESSION_ID, term: current.term, arm: ARMS[1]! });
  // Another family's child, in the same arm as the second child.
  STRANGER = (await createStudent(API, ARMS[1]!, `${RUN}X`)).admission_number;
});

async function asAdminOnDesktop(page: Page) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInViaApi(page, page.request, 'admin');
}

test('admin, 1280 px: the parents list finds the father with his three children; the invitation shows his one-time password once', async ({
  page,
}) => {
  await asAdminOnDesktop(page);
  await page.goto('/adminHomePage');
  await page.locator('#admin-menu').getByRole('link', { name: new RegExp(`^${PARENT_SCREENS.list.label}`) }).click();
  await expect(page.getByRole('heading', { name: PARENT_SCREENS.list.title, level: 1 })).toBeVisible();
  await page.getByLabel(L.search).fill(FATHER.phone);
  await page.getByRole('button', { name: L.searchButton }).click();
  const row = page.getByTestId('parents-table').getByRole('row').filter({ hasText: FATHER.name });
  await expect(row).toHaveCount(1);
  await expect(row.locator('td[data-label="Children"]')).toHaveText('3');
  await expect(row.locator('td[data-label="Invited"]')).toHaveText(L.notYet);
  await expectAccessible(page);
  await noSideways(page);

  // The detail: three children, one from each arm.
  await row.getByRole('link', { name: FATHER.name }).click();
  await expect(page.getByRole('heading', { name: FATHER.name, level: 1 })).toBeVisible();
  await expect(page.getByTestId('parent-child')).toHaveCount(3);
  for (const arm of ARMS) await expect(page.getByTestId('parent-children')).toContainText(arm);
  await expectAccessible(page);

  // Invite the first arm's parents: the father's password is on the screen, once.
  await page.goto(PARENT_SCREENS.invitations.to);
  await expect(page.getByRole('heading', { name: PARENT_SCREENS.invitations.title, level: 1 })).toBeVisible();
  await page.getByLabel(L.arm).selectOption(ARMS[0]!);
  await expectAccessible(page);
  await page.getByRole('button', { name: L.invite, exact: true }).click();
  const slip = page.getByTestId('invitation-slips').getByRole('row').filter({ hasText: FATHER.name });
  await expect(slip).toHaveCount(1);
  OTP = (await slip.getByTestId('slip-password').innerText()).trim();
  expect(OTP.length).toBeGreaterThanOrEqual(8);
  await expectAccessible(page);
  await noSideways(page);

  // Inviting the arm again without "again": nobody new.
  await page.getByRole('button', { name: L.invite, exact: true }).click();
  await expect(page.getByTestId('invite-none')).toHaveText(PARENT_MESSAGES.noneToInvite);
});

test('the father on a 360 px phone: first sign-in by phone number, password change, three children, switching keeps the child in the address', async ({
  page,
}) => {
  expect(OTP, 'the invitation ran').not.toBe('');
  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await page.getByRole('link', { name: /Parent/ }).click();
  await expect(page).toHaveURL(/\/ParentLogin$/);
  await expect(page.getByRole('heading', { name: L.loginTitle, level: 1 })).toBeVisible();
  await expectAccessible(page);
  await noSideways(page);
  // The phone number as the father types it: spaces, the national form.
  await page.getByLabel(L.loginField).fill(`${FATHER.phone.slice(0, 4)} ${FATHER.phone.slice(4, 7)} ${FATHER.phone.slice(7)}`);
  await page.getByLabel('Password', { exact: true }).fill(OTP);
  await page.getByRole('button', { name: 'Login' }).click();

  await expect(page).toHaveURL(/\/change-password$/);
  await page.getByLabel('Current password').fill(OTP);
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();

  await expect(page).toHaveURL(/\/ParentHomePage$/);
  await expect(page.getByRole('heading', { name: PARENT_SCREENS.home.title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('child-card')).toHaveCount(3);
  // The released card of the second child shows at a glance; the first owes this term's fees.
  const second = page.locator(`[data-testid="child-card"][data-admission="${KIDS[1]!.admission_number}"]`);
  await expect(second.getByTestId('card-average')).not.toHaveText('—');
  const first = page.locator(`[data-testid="child-card"][data-admission="${KIDS[0]!.admission_number}"]`);
  await expect(first.getByTestId('fees-outstanding')).toHaveText('₦20,000.00');
  await expectAccessible(page);
  await noSideways(page);

  // The switcher: each child in turn, kept in the address, the chosen child's card first.
  const switcher = page.getByLabel(L.child, { exact: true });
  for (const i of [1, 2, 0]) {
    await switcher.selectOption(KIDS[i]!.admission_number);
    await expect(page).toHaveURL(new RegExp(`\\?child=${KIDS[i]!.admission_number}$`));
    await expect(page.getByTestId('child-card').first()).toHaveAttribute('data-admission', KIDS[i]!.admission_number);
  }
  await noSideways(page);

  // The second child's attendance and statement pages keep the switcher, and switch too.
  await page.goto(`/my-attendance?child=${KIDS[1]!.admission_number}`);
  await expect(page.getByLabel(L.child, { exact: true })).toHaveValue(KIDS[1]!.admission_number);
  await expect(page.getByTestId('student-attendance')).toContainText(KIDS[1]!.admission_number);
  await page.getByLabel(L.child, { exact: true }).selectOption(KIDS[2]!.admission_number);
  await expect(page.getByTestId('student-attendance')).toContainText(KIDS[2]!.admission_number);
  await expectAccessible(page);
  await noSideways(page);
  await page.goto(`/my-statement?child=${KIDS[0]!.admission_number}`);
  await expect(page.getByRole('main')).toContainText(KIDS[0]!.admission_number);
  await expectAccessible(page);
  await noSideways(page);
});

async function signInAsFather(page: Page) {
  await page.setViewportSize(PHONE);
  await page.goto('/ParentLogin');
  await page.getByLabel(L.loginField).fill(E164);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/ParentHomePage$/);
}

test('the father pays the first child’s fees through the simulator, once, and sees the receipt', async ({ page }) => {
  await signInAsFather(page);
  const first = page.locator(`[data-testid="child-card"][data-admission="${KIDS[0]!.admission_number}"]`);
  await first.getByRole('link', { name: `${L.pay}: ${childName(0)}` }).click();
  await expect(page).toHaveURL(new RegExp(`/PaymentForm\\?child=${KIDS[0]!.admission_number}$`));
  await expect(page.getByLabel('Admission Number')).toHaveValue(KIDS[0]!.admission_number);
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('20000.00');
  await expect(page.getByRole('heading', { name: 'Class Payment Report' })).toHaveCount(0);
  await expectAccessible(page);
  await noSideways(page);

  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page.waitForURL(/\/pay\/simulator\/[a-f0-9]+$/);
  await expect(page.getByTestId('simulator-amount')).toHaveText('₦20,000.00');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Pay ₦20,000.00' }).click();

  // Back on the same child's form: verified once, nothing left to pay, one successful payment.
  await expect(page).toHaveURL(new RegExp(`/PaymentForm\\?child=${KIDS[0]!.admission_number}$`));
  await expect(page.getByTestId('payment-message')).toHaveText('Payment verified successfully');
  await expect(page.getByTestId('fees-outstanding')).toHaveText('₦0.00');
  const history = page.getByTestId('payment-history');
  await expect(history.getByRole('row').filter({ hasText: '₦20,000.00' }).filter({ hasText: 'Successful' })).toHaveCount(1);
  await noSideways(page);

  await page.getByRole('link', { name: 'View receipt' }).click();
  await expect(page.getByRole('heading', { name: 'Payment Receipt' })).toBeVisible();
  await expect(page.getByTestId('receipt-amount')).toHaveText('₦20,000.00');
  await expectAccessible(page);
  await noSideways(page);

  // The home shows the balance settled and the receipt under the child.
  await page.goto(`/ParentHomePage?child=${KIDS[0]!.admission_number}`);
  await expect(first.getByTestId('fees-outstanding')).toHaveText('₦0.00');
  await expect(first.getByTestId('child-receipts')).toContainText('₦20,000.00');
  // The other children owe nothing new and were not charged.
  const res = await page.request.get(`/api/payments/history/?admission_number=${KIDS[2]!.admission_number}`, {
    headers: API.headers,
  });
  expect(((await res.json()) as unknown[]).length).toBe(0);
});

test('the father reads the second child’s released card (screen and PDF), and is refused a child not his', async ({ page }) => {
  await signInAsFather(page);
  const second = page.locator(`[data-testid="child-card"][data-admission="${KIDS[1]!.admission_number}"]`);
  await second.getByRole('link', { name: L.viewCard }).click();
  await expect(page).toHaveURL(new RegExp(`/report-card\\?child=${KIDS[1]!.admission_number}&session_id=${SESSION_ID}&term=${TERM}$`));
  await expect(page.getByRole('heading', { name: 'Report Card', level: 1 })).toBeVisible();
  await expect(page.getByTestId('card-name')).toContainText(KIDS[1]!.first_name);
  await expect(page.getByLabel('Admission Number')).toHaveValue(KIDS[1]!.admission_number);
  await expect(page.getByLabel(L.child, { exact: true })).toHaveValue(KIDS[1]!.admission_number);
  await expectAccessible(page);
  await noSideways(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  expect((await download).suggestedFilename()).toMatch(new RegExp(`^report-card-${KIDS[1]!.admission_number}-`));

  // Another family's child, named in the address: the server refuses, the screen says so.
  await page.goto(`/report-card?child=${STRANGER}&session_id=${SESSION_ID}&term=${TERM}`);
  await expect(page.getByRole('alert').filter({ hasText: PARENT_MESSAGES.notYourChild })).toBeVisible();
  await expect(page.getByTestId('card-name')).toHaveCount(0);
  await expectAccessible(page);
  await noSideways(page);
  await page.goto(`/my-attendance?child=${STRANGER}`);
  await expect(page.getByText(PARENT_MESSAGES.notYourChild)).toBeVisible();

  // The API refuses the same, for each of the student screens' calls.
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const headers = { authorization: `Bearer ${token}` };
  for (const path of [
    `/api/report-card/?admission_number=${STRANGER}&session_id=${SESSION_ID}&term=${TERM}`,
    `/api/attendance/student/?admission_number=${STRANGER}`,
    `/api/payments/history/?admission_number=${STRANGER}`,
    `/api/bursary/statement/?admission_number=${STRANGER}`,
  ]) {
    const res = await page.request.get(path, { headers });
    expect(res.status(), path).toBe(403);
  }
});

test('a parent is sent home from the admin’s and a student’s-only pages', async ({ page }) => {
  await signInAsFather(page);
  await page.goto('/parents');
  await expect(page).toHaveURL(/\/ParentHomePage$/);
  await expect(page.getByText('Page not available')).toBeVisible();
  await page.goto('/ResultsCheck');
  await expect(page).toHaveURL(/\/ParentHomePage$/);
});

test('admin, 1280 px: link a child by admission number with a relationship, then remove the link', async ({ page }) => {
  await asAdminOnDesktop(page);
  await page.goto(`${PARENT_SCREENS.list.to}?search=${encodeURIComponent(FATHER.phone)}`);
  await page.getByTestId('parents-table').getByRole('link', { name: FATHER.name }).click();
  await expect(page.getByTestId('parent-child')).toHaveCount(3);
  await page.getByLabel(L.admissionNumber).fill(STRANGER.toLowerCase());
  await page.getByLabel(L.relationship).selectOption('guardian');
  await page.getByRole('button', { name: L.link, exact: true }).click();
  await expect(page.getByTestId('parent-child')).toHaveCount(4);
  await expect(page.locator(`[data-testid="parent-child"][data-admission="${STRANGER}"]`)).toContainText('Guardian');
  await expectAccessible(page);

  // An unknown admission number: the server's words beside the form.
  await page.getByLabel(L.admissionNumber).fill('STU-NOPE');
  await page.getByRole('button', { name: L.link, exact: true }).click();
  await expect(page.getByTestId('link-error')).toBeVisible();

  const stranger = page.locator(`[data-testid="parent-child"][data-admission="${STRANGER}"]`);
  await stranger.getByRole('button', { name: /^Remove link to / }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: L.removeLink }).click();
  await expect(page.getByTestId('parent-child')).toHaveCount(3);
  await noSideways(page);

  await page.goto(PARENT_SCREENS.conflicts.to);
  await expect(page.getByRole('heading', { name: PARENT_SCREENS.conflicts.title, level: 1 })).toBeVisible();
  await expectAccessible(page);
  await noSideways(page);
});
