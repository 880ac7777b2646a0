import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { CHECK_RESULT_PATH, RESULT_PIN_MESSAGES as PM } from '../../packages/domain/src/result-pins';
import {
  RESULT_PIN_LABELS as L,
  RESULT_PIN_SCREEN_MESSAGES as M,
  RESULT_PIN_SCREENS as S,
} from '../../packages/domain/src/result-pin-screens';
import { termLabel } from '../../packages/domain/src/constants';
import { expect, expectAccessible, noSideways, openFromAdminMenu, PHONE, signInViaApi, test } from '../fixtures';
import {
  addFee,
  asAdmin,
  createArm,
  createStaff,
  createStudentWithResults,
  currentTerm,
  okJson,
  publishArm,
  runTag,
  type AdminApi,
  type OwnStaff,
} from '../school';

test.describe.configure({ mode: 'serial' });

// Its own data (school.ts): a JSS 2 arm of this run with one student whose results of the current term
// are released and another student of the arm; a JSS 3 arm whose student's card is released but who
// owes the term's ₦25,000; a bursar of the run. PINs start off; the admin turns them on from the
// batches screen (settings are put back after). The admin generates 6 three-use PINs for the term on
// a laptop, downloads the A4 sheet and the printer's CSV (the spec reads the PINs off the CSV, as the
// printer would), marks three cards sold (a range typed, one picked) and seals the batch. The bursar
// sells one more on a phone, and can neither generate nor print. A parent with no account opens
// /check-result from the home page on a 360 px phone, types a PIN with spaces and dashes, reads the
// card and downloads its PDF; on a laptop, from the sign-in page, checks again (one use fewer), is
// refused another student, uses the last use, and is told the PIN is used up. A wrong PIN is refused
// in words; with the fee gate on, the owing student's card is refused with what is owed; ten wrong
// guesses for one number stop the next try. axe on every screen.

const RUN = runTag();
const BATCH_COUNT = 6;
const USES = 3;
const PRICE = 500;
let API: AdminApi;
let SESSION_ID = 0;
let SESSION_NAME = '';
let TERM: '1st' | '2nd' | '3rd' = '1st';
let ARM = '';
let CHILD = { admission_number: '', last_name: '' };
let OTHER = '';
/** A student of another arm of the run who owes the term's fees (the fee gate). */
let OWING = '';
let SETTINGS: Record<string, unknown> = {};
let BURSAR: OwnStaff;
let BATCH_URL = '';
/** Serial and PIN of each card, read off the CSV. */
const CARDS: { serial: string; pin: string }[] = [];

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  API = await asAdmin(request);
  const current = await currentTerm(API);
  SESSION_ID = current.session_id;
  SESSION_NAME = current.session_name ?? '';
  TERM = current.term;
  ARM = await createArm(API, 'JSS 2', RUN);
  const child = await createStudentWithResults(API, ARM, `${RUN}C`, { sessionId: SESSION_ID, terms: [TERM], score: (j) => 55 + (j % 40) });
  CHILD = { admission_number: child.admission_number, last_name: child.last_name };
  OTHER = (await createStudentWithResults(API, ARM, `${RUN}O`, { sessionId: SESSION_ID, terms: [TERM], score: (j) => 50 + (j % 30) }))
    .admission_number;
  await publishArm(API, { sessionId: SESSION_ID, term: TERM, arm: ARM });
  BURSAR = await createStaff(API, `${RUN}B`, ['bursar']);
  const owingArm = await createArm(API, 'JSS 3', `${RUN}F`);
  OWING = (await createStudentWithResults(API, owingArm, `${RUN}F`, { sessionId: SESSION_ID, terms: [TERM], score: (j) => 60 + (j % 20) }))
    .admission_number;
  await publishArm(API, { sessionId: SESSION_ID, term: TERM, arm: owingArm });
  await addFee(API, { arm: owingArm, sessionId: SESSION_ID, term: TERM, naira: 25_000 });
  SETTINGS = await okJson<Record<string, unknown>>(await request.get('/api/settings/'));
  // Off, as a school starts: the admin turns it on from the batches screen.
  await okJson(await request.put('/api/settings/', { headers: API.headers, data: { ...SETTINGS, result_pins_enabled: false } }));
});

test.afterAll(async ({ request }) => {
  const api = await asAdmin(request);
  const now = await okJson<Record<string, unknown>>(await request.get('/api/settings/'));
  await request.put('/api/settings/', {
    headers: api.headers,
    data: {
      ...now,
      result_pins_enabled: SETTINGS.result_pins_enabled ?? false,
      results_fee_gate: SETTINGS.results_fee_gate ?? false,
      results_fee_gate_percent: SETTINGS.results_fee_gate_percent ?? 100,
    },
  });
});

/** Fills the public check's form and presses Check. */
async function check(page: Page, admission: string, pin: string): Promise<void> {
  await page.getByLabel(L.admission).fill(admission);
  await page.getByLabel(L.pin).fill(pin);
  await page.getByLabel(L.session).selectOption({ label: SESSION_NAME });
  await page.getByLabel(L.term).selectOption(TERM);
  await page.getByRole('button', { name: L.checkButton }).click();
}

/** "123456789012" as a parent types it off a card: "1234 5678-9012". */
const typed = (pin: string) => `${pin.slice(0, 4)} ${pin.slice(4, 8)}-${pin.slice(8)}`;

test('the admin generates a batch, downloads its sheet and CSV, and marks cards sold', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  // While PINs are off, the public page says so and the home page does not offer it.
  await page.goto(S.check.to);
  await expect(page.getByText(M.notEnabled)).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('check-result-link')).toHaveCount(0);

  await signInViaApi(page, page.request, 'admin');
  await openFromAdminMenu(page, S.batches.title);
  await expectAccessible(page);

  // The school turns the public check on (off by default).
  const settings = page.getByTestId('pin-settings');
  await settings.getByLabel(L.enabledLabel).check();
  await settings.getByRole('button', { name: L.saveSettings }).click();
  await expect(page.getByText(M.settingsSaved)).toBeVisible();
  await expect(settings.getByText(L.enabledOnHint)).toBeVisible();

  const form = page.getByTestId('generate-form');
  await form.getByLabel(L.session).selectOption(String(SESSION_ID));
  await form.getByLabel(L.term).selectOption(TERM);
  await form.getByLabel(L.count).fill(String(BATCH_COUNT));
  await form.getByLabel(L.uses).fill(String(USES));
  await form.getByRole('button', { name: L.generate }).click();
  await expect(page.getByText(M.generated(BATCH_COUNT))).toBeVisible();

  // The newest batch heads the list; it opens on its page.
  const batches = page.getByTestId('batches');
  await expect(batches).toContainText(termLabel(TERM));
  await batches
    .getByRole('link', { name: /Batch \d+/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/result-pins\/\d+$/);
  BATCH_URL = new URL(page.url()).pathname;
  await expect(page.getByTestId('count-cards')).toHaveText(String(BATCH_COUNT));
  await expect(page.getByTestId('count-unused')).toHaveText(String(BATCH_COUNT));
  await expect(page.getByTestId('count-sold')).toHaveText('0');
  await expectAccessible(page);

  // The A4 sheet, and the CSV a printer takes: a serial and a 12-digit PIN per card.
  const [sheet] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-sheet').click()]);
  expect(sheet.suggestedFilename()).toMatch(/\.pdf$/);
  expect(
    readFileSync(await sheet.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-csv').click()]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  for (const line of readFileSync(await csv.path(), 'utf8')
    .split(/\r?\n/)
    .slice(1)) {
    const cells = line.split(',').map((c) => c.replace(/^"|"$/g, '').trim());
    const pin = cells.map((c) => c.replace(/[\s-]/g, '')).find((c) => /^\d{12}$/.test(c));
    if (pin) CARDS.push({ serial: cells[0]!, pin });
  }
  expect(CARDS).toHaveLength(BATCH_COUNT);

  // Three cards sold: the first two as a range typed, the third picked in the list.
  const sold = page.getByTestId('sold-form');
  await sold.getByLabel(L.byRange).fill(`${CARDS[0]!.serial} to ${CARDS[1]!.serial}`);
  await page.getByRole('checkbox', { name: L.pick(CARDS[2]!.serial) }).check();
  await expect(page.getByTestId('picked-count')).toHaveText(L.pickedCount(1));
  await sold.getByLabel(L.price).fill(String(PRICE));
  await sold.getByLabel(L.soldTo).fill(`Mama Ngozi's shop ${RUN}`);
  await sold.getByRole('button', { name: L.markSoldButton }).click();
  await expect(page.getByText(M.soldDone(3))).toBeVisible();
  await expect(page.getByTestId('count-sold')).toHaveText('3');

  // The list of sold cards: who bought them and for how much.
  await page.getByRole('group', { name: L.state }).getByRole('button', { name: 'Sold' }).click();
  const rows = page.getByTestId('pins').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('pins')).toContainText(`Mama Ngozi's shop ${RUN}`);
  await expect(page.getByTestId('pins')).toContainText('₦500');
  await expectAccessible(page);

  // Printed and checked: the admin seals the batch; its PINs can no longer be downloaded (they still work).
  await page.getByRole('button', { name: L.seal }).click();
  await page.getByRole('alertdialog', { name: L.seal }).getByRole('button', { name: L.seal }).click();
  await expect(page.getByText(M.sealedDone)).toBeVisible();
  await expect(page.getByText(L.sealedNote)).toBeVisible();
  await expect(page.getByTestId('download-sheet')).toHaveCount(0);
  await expectAccessible(page);

  // On a phone the batch reads without scrolling sideways.
  await page.setViewportSize(PHONE);
  await page.goto(BATCH_URL);
  await expect(page.getByTestId('count-sold')).toHaveText('3');
  await noSideways(page);
});

test('the bursar sells cards from the same batch, without printing or generating', async ({ page }) => {
  expect(BATCH_URL, 'the batch of the first test').not.toBe('');
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'staff', BURSAR);
  await page.goto('/staffHomePage');
  await page
    .getByRole('navigation', { name: 'Bursary' })
    .getByRole('link', { name: new RegExp(S.batches.label) })
    .click();
  await expect(page.getByRole('heading', { name: S.batches.title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('generate-form')).toHaveCount(0);
  await page
    .getByTestId('batches')
    .getByRole('link', { name: /Batch \d+/ })
    .first()
    .click();
  await expect(page.getByTestId('count-sold')).toHaveText('3');
  await expect(page.getByTestId('download-sheet')).toHaveCount(0);
  await page.getByRole('checkbox', { name: L.pick(CARDS[3]!.serial) }).check();
  await page.getByTestId('sold-form').getByLabel(L.price).fill(String(PRICE));
  await page.getByTestId('sold-form').getByRole('button', { name: L.markSoldButton }).click();
  await expect(page.getByText(M.soldDone(1))).toBeVisible();
  await expect(page.getByTestId('count-sold')).toHaveText('4');
  await noSideways(page);
  await expectAccessible(page);
});

test('a parent without an account checks a result with a PIN on a 360 px phone, then on a laptop', async ({ page }) => {
  expect(CARDS.length, 'the batch of the first test').toBe(BATCH_COUNT);
  const card = CARDS[0]!;
  await page.setViewportSize(PHONE);
  // From the public home page: no sign-in.
  await page.goto('/');
  await page.getByTestId('check-result-link').click();
  await expect(page).toHaveURL(new RegExp(`${CHECK_RESULT_PATH}$`));
  await expect(page.getByRole('heading', { name: S.check.title, level: 1 })).toBeVisible();
  await expect(page.getByLabel(L.pin)).toHaveAttribute('inputmode', 'numeric');
  await expectAccessible(page);
  await noSideways(page);

  await check(page, CHILD.admission_number.toLowerCase(), typed(card.pin));
  await expect(page.getByTestId('uses-left')).toHaveText(L.usesLeftOf(USES - 1));
  await expect(page.getByRole('article', { name: 'Report card' })).toContainText(CHILD.last_name);
  await expect(page.getByRole('article', { name: 'Report card' })).toContainText(CHILD.admission_number);
  await noSideways(page);
  await expectAccessible(page);

  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('checked-pdf').click()]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  expect(
    readFileSync(await pdf.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  // On a laptop, from the sign-in chooser: the same PIN, one use fewer (the PDF took none).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/login');
  await page.getByTestId('check-result-link').click();
  await check(page, CHILD.admission_number, card.pin);
  await expect(page.getByTestId('uses-left')).toHaveText(L.usesLeftOf(USES - 2));
  await expect(page.getByRole('article', { name: 'Report card' })).toContainText(CHILD.last_name);
  await expectAccessible(page);

  // The PIN is the child's now: another student's number is refused in words.
  await page.getByRole('button', { name: L.checkAnother }).click();
  await check(page, OTHER, card.pin);
  await expect(page.getByTestId('check-refusal')).toContainText(PM.boundToAnother);
  await expectAccessible(page);

  // The last use, then the PIN is used up.
  await check(page, CHILD.admission_number, card.pin);
  await expect(page.getByTestId('uses-left')).toHaveText(L.noUsesLeft);
  await page.getByRole('button', { name: L.checkAnother }).click();
  await check(page, CHILD.admission_number, card.pin);
  await expect(page.getByTestId('check-refusal')).toContainText(PM.exhausted);
  await expectAccessible(page);
});

test('a wrong PIN is refused in words, on a phone and a laptop', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto(S.check.to);
  // A PIN of the wrong shape is caught before it is sent.
  await check(page, CHILD.admission_number, '1234 5678');
  await expect(page.getByText(PM.pinInvalid)).toBeVisible();
  // A well-formed PIN that is no card's: the one answer for a wrong PIN or number.
  const wrong = CARDS.some((c) => c.pin === '000000000000') ? '000000000001' : '000000000000';
  await check(page, CHILD.admission_number, typed(wrong));
  const refusal = page.getByTestId('check-refusal');
  await expect(refusal).toContainText(M.wrongPinTitle);
  await expect(refusal).toContainText(PM.wrongPinOrNumber);
  await noSideways(page);
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(refusal).toBeVisible();
  await expectAccessible(page);
});

test('with the fee gate on, a PIN does not open the card of a student who owes the term’s fees: the page says what is owed', async ({
  page,
  request,
}) => {
  const now = await okJson<Record<string, unknown>>(await request.get('/api/settings/'));
  await okJson(
    await request.put('/api/settings/', { headers: API.headers, data: { ...now, results_fee_gate: true, results_fee_gate_percent: 100 } }),
  );
  try {
    await page.setViewportSize(PHONE);
    await page.goto(S.check.to);
    await check(page, OWING, typed(CARDS[5]!.pin));
    const refusal = page.getByTestId('check-refusal');
    await expect(refusal).toContainText(M.feesTitle);
    await expect(refusal.getByTestId('fees-owed')).toContainText('₦25,000');
    await noSideways(page);
    await expectAccessible(page);
  } finally {
    await request.put('/api/settings/', { headers: API.headers, data: { ...now, results_fee_gate: now.results_fee_gate ?? false } });
  }
});

test('wrong guesses for one admission number are stopped, and the page says to wait', async ({ page }) => {
  // Ten wrong PINs for one number (the per-number limit) from this address, then the parent's try.
  const target = OTHER;
  for (let i = 0; i < 10; i++) {
    const res = await page.request.post('/api/check-result/', {
      data: { admission_number: target, pin: `99999999${String(1000 + i)}`, session_id: SESSION_ID, term: TERM },
    });
    expect([404, 429]).toContain(res.status());
  }
  await page.setViewportSize(PHONE);
  await page.goto(S.check.to);
  await check(page, target, typed(CARDS[4]!.pin));
  const refusal = page.getByTestId('check-refusal');
  await expect(refusal).toContainText(M.throttledTitle);
  await expect(refusal).toContainText(/Too many wrong attempts/);
  await noSideways(page);
  await expectAccessible(page);
});
