import { FEE_GATE_MESSAGES, FEE_RELEASES_SCREEN } from '../../packages/domain/src/card-fee-gate';
import { expect, expectAccessible, noSideways, PHONE, signInViaApi, studentSubjects, test } from '../fixtures';
import {
  addFee,
  asAdmin,
  createArm,
  createStudent,
  currentTerm,
  enterScores,
  okJson,
  publishArm,
  runTag,
  type AdminApi,
  type OwnStudent,
} from '../school';

test.describe.configure({ mode: 'serial' });

// Results gated by fees (issue 34 item 7, decision 042). Its own data (school.ts): an arm of this run
// owing ₦20,000 this term, two students with released results. The admin turns the gate on; the first
// student, on a 360 px phone, finds the card withheld with what is owed, pays through the simulator
// and goes back to the card, which opens; the admin, at 1280 px, opens the second student's card with
// a reason and sees it listed; the second student then reads the card.

const RUN = runTag();
let API: AdminApi;
let SESSION_ID = 0;
let TERM = '1st';
let ARM = '';
const PUPILS: OwnStudent[] = [];

async function setGate(api: AdminApi, on: boolean) {
  const current = await okJson<Record<string, unknown>>(await api.request.get('/api/settings/'));
  await okJson(
    await api.request.put('/api/settings/', {
      headers: api.headers,
      data: { ...current, results_fee_gate: on, results_fee_gate_percent: 100 },
    }),
  );
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  API = await asAdmin(request);
  const current = await currentTerm(API);
  SESSION_ID = current.session_id;
  TERM = current.term;
  ARM = await createArm(API, 'JSS 2', RUN);
  await addFee(API, { arm: ARM, sessionId: SESSION_ID, term: current.term, naira: 20_000 });
  for (const i of [0, 1]) {
    const s = await createStudent(API, ARM, `${RUN}G${i}`);
    const subjects = await studentSubjects(request, API.headers.authorization.slice('Bearer '.length), s.admission_number);
    const scores = Object.fromEntries(subjects.map((name, j) => [name, 55 + (j % 40)]));
    await enterScores(API, { sessionId: SESSION_ID, term: current.term, arm: ARM, admission: s.admission_number, scores });
    PUPILS.push(s);
  }
  await publishArm(API, { sessionId: SESSION_ID, term: current.term, arm: ARM });
  await setGate(API, true);
});

test.afterAll(async ({ request }) => {
  await setGate(await asAdmin(request), false);
});

const cardAddress = () => `/report-card?session_id=${SESSION_ID}&term=${TERM}`;

test('a student on a 360 px phone: the card is withheld with what is owed; paying through the simulator opens it', async ({ page }) => {
  const pupil = PUPILS[0]!;
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'student', pupil);
  await page.goto(cardAddress());
  await expect(page.getByRole('heading', { name: 'Report Card', level: 1 })).toBeVisible();
  await expect(page.getByText(FEE_GATE_MESSAGES.gatedTitle)).toBeVisible();
  await expect(page.getByTestId('fee-gate-owed')).toHaveText('₦20,000.00');
  await expect(page.getByTestId('card-name')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download PDF' })).toHaveCount(0);
  await expectAccessible(page);
  await noSideways(page);
  // The PDF is withheld too.
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const pdf = await page.request.get(
    `/api/report-card/pdf/?admission_number=${pupil.admission_number}&session_id=${SESSION_ID}&term=${TERM}`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  expect(pdf.status()).toBe(403);
  expect(((await pdf.json()) as { code: string }).code).toBe('fees_outstanding');

  await page.getByRole('link', { name: FEE_GATE_MESSAGES.payToOpen }).click();
  await expect(page).toHaveURL(/\/PaymentForm$/);
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('20000.00');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page.waitForURL(/\/pay\/simulator\/[a-f0-9]+$/);
  await page.getByRole('button', { name: 'Pay ₦20,000.00' }).click();
  await expect(page.getByTestId('payment-message')).toHaveText('Payment verified successfully');
  await expectAccessible(page);
  await noSideways(page);

  // Back to the card: open at once.
  await page.getByTestId('back-to-card').click();
  await expect(page).toHaveURL(/\/report-card\?/);
  await expect(page.getByTestId('card-name')).toContainText(pupil.first_name);
  await expect(page.getByText(FEE_GATE_MESSAGES.gatedTitle)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download PDF' })).toBeVisible();
  await expectAccessible(page);
  await noSideways(page);
});

test('the admin at 1280 px opens the second student’s card with a reason; it is listed; the student reads it', async ({
  page,
  browser,
}) => {
  const pupil = PUPILS[1]!;
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInViaApi(page, page.request, 'admin');
  // The settings screen shows the gate on.
  await page.goto('/settings');
  await expect(page.getByLabel(FEE_GATE_MESSAGES.settingLabel)).toBeChecked();
  await expect(page.getByLabel(FEE_GATE_MESSAGES.percentLabel)).toHaveValue('100');
  await expectAccessible(page);

  await page.goto(`${cardAddress()}&admission_number=${pupil.admission_number}`);
  await expect(page.getByTestId('card-name')).toContainText(pupil.first_name);
  const panel = page.getByRole('form').or(page.locator('form').filter({ has: page.getByLabel('Reason') }));
  await expect(page.getByText(FEE_GATE_MESSAGES.releaseTitle)).toBeVisible();
  await expectAccessible(page);
  // No reason: the domain's message, nothing opened.
  await page.getByRole('button', { name: 'Open this card' }).click();
  await expect(panel.getByText(FEE_GATE_MESSAGES.reasonRequired)).toBeVisible();
  await page.getByLabel('Reason').fill('Scholarship confirmed by the board');
  await page.getByRole('button', { name: 'Open this card' }).click();
  await expect(page.getByTestId('card-opened')).toHaveText(FEE_GATE_MESSAGES.alreadyReleased);
  await noSideways(page);

  await page.goto(FEE_RELEASES_SCREEN.to);
  await expect(page.getByRole('heading', { name: FEE_GATE_MESSAGES.releasesTitle, level: 1 })).toBeVisible();
  const row = page.getByTestId('fee-releases').getByRole('row').filter({ hasText: pupil.admission_number });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Scholarship confirmed by the board');
  await expectAccessible(page);
  await noSideways(page);

  // The student, on a phone, reads the card opened for them.
  const context = await browser.newContext({ viewport: PHONE });
  const phone = await context.newPage();
  await signInViaApi(phone, phone.request, 'student', pupil);
  await phone.goto(cardAddress());
  await expect(phone.getByTestId('card-name')).toContainText(pupil.first_name);
  await expect(phone.getByText(FEE_GATE_MESSAGES.gatedTitle)).toHaveCount(0);
  await expectAccessible(phone);
  await noSideways(phone);
  await context.close();
});
