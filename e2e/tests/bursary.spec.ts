import type { Page } from '@playwright/test';
import { BURSARY_MESSAGES, BURSARY_SCREENS } from '../../packages/domain/src/bursary';
import { BURSARY_FEE_SCREENS, BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M } from '../../packages/domain/src/bursary-screens';
import { formatNaira } from '../../packages/domain/src/money';
import { apiToken, expect, expectAccessible, noSideways, openOnPhone, PHONE, signInViaApi, signInViaUi, test } from '../fixtures';
import { addFee, asAdmin, createArm, createStaff, createStudent, currentSessionId, fillPayment, runTag, statementOf } from '../school';

// The bursar's office on a 360 px phone: the admin makes a staff member the bursar; the bursar
// records a bank-teller payment with a scan and a cash payment for a student of this spec's own, is
// refused the same bank reference again, reverses the cash payment with a reason; the ledger shows
// the reversal negative and the statement the charges, both payments, the reversal and the balance.
// A plain staff member is refused. Axe on every new screen. Its own data, made through the API: a
// JSS 2 arm with its tuition, a student in it, the future bursar and a plain staff member, and fresh
// bank references per run: no other spec's data is read.

const RUN = runTag();
let BURSAR = { email: '', password: '' };
let PLAIN = { email: '', password: '' };
const TELLER_REF = `TLR-${RUN}`;
const TELLER_NAIRA = 20_000;
const CASH_NAIRA = 5_000;
// The smallest PNG: one transparent pixel.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let admission = '';
let sessionId = 0;

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  sessionId = await currentSessionId(api);
  const arm = await createArm(api, 'JSS 2', RUN);
  await addFee(api, { arm: arm, sessionId, term: '1st', naira: 45_000 });
  admission = (await createStudent(api, arm, RUN, { first_name: 'Bursary', date_of_birth: '2012-03-01' })).admission_number;
  // Not the bursar yet: the admin gives the capability on screen.
  BURSAR = await createStaff(api, RUN);
  PLAIN = await createStaff(api, `${RUN}P`);
});

/** Fills the Record a Payment form (bank fields only for a banked method) and submits it. */
async function record(page: Page, p: { term: string; amount: number; method: string; bank?: string; reference?: string; scan?: boolean }) {
  await fillPayment(page, { ...p, admission, name: `Pupil${RUN}` });
  if (p.scan) {
    await page.getByLabel(L.scan).setInputFiles({ name: 'teller.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('button', { name: L.removeScan })).toBeVisible();
  }
  await noSideways(page);
  await page.getByRole('button', { name: L.record }).click();
}

test('the bursar records a teller and a cash payment, is refused a reference twice, reverses cash; ledger and statement agree', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);

  // The admin makes the new staff member the bursar.
  await openOnPhone(page, 'admin', BURSARY_SCREENS.capabilities.to);
  const row = page.getByTestId('capability-row').filter({ hasText: BURSAR.email });
  const bursarSwitch = row.getByRole('switch');
  await expect(bursarSwitch).toBeVisible();
  await expectAccessible(page);
  await noSideways(page);
  if (!(await bursarSwitch.isChecked())) {
    await bursarSwitch.check();
    await expect(page.getByTestId('toast-success')).toContainText(BURSARY_MESSAGES.capabilitiesSaved);
  }
  await expect(bursarSwitch).toBeChecked();
  await page.evaluate(() => localStorage.clear());

  // The bursar signs in and finds the Bursary menu.
  await signInViaUi(page, 'staff', BURSAR);
  await expect(page.getByRole('heading', { name: 'Bursary' })).toBeVisible();
  await page.getByRole('link', { name: new RegExp(`^${BURSARY_SCREENS.record.label}`) }).click();
  await expect(page).toHaveURL(/\/bursary\/record$/);
  await expectAccessible(page);

  // A bank-teller payment with a scan.
  await record(page, { term: '1st', amount: TELLER_NAIRA, method: 'bank_teller', bank: 'First Bank', reference: TELLER_REF, scan: true });
  const message = page.getByTestId('record-message');
  await expect(message).toHaveText(/^Payment recorded: receipt R-\d{6}\.$/);
  const tellerReceipt = /R-\d{6}/.exec((await message.textContent()) ?? '')![0];
  await expect(page.getByRole('link', { name: L.viewReceipt })).toHaveAttribute('href', /^\/payments\/receipt\//);
  await expectAccessible(page);
  await noSideways(page);

  // A cash payment: no bank fields.
  await page.getByRole('button', { name: L.recordAnother }).click();
  await page.getByLabel(L.method).selectOption('cash');
  await expect(page.getByLabel(L.bank, { exact: true })).toHaveCount(0);
  await expect(page.getByLabel(L.bankReference)).toHaveCount(0);
  await record(page, { term: '', amount: CASH_NAIRA, method: 'cash' });
  await expect(message).toHaveText(/^Payment recorded: receipt R-\d{6}\.$/);
  const cashReceipt = /R-\d{6}/.exec((await message.textContent()) ?? '')![0];
  expect(cashReceipt).not.toBe(tellerReceipt);

  // The same teller again (other case, spaces) is refused, naming the receipt it clashes with.
  await page.getByRole('button', { name: L.recordAnother }).click();
  await record(page, {
    term: '1st',
    amount: TELLER_NAIRA,
    method: 'bank_teller',
    bank: 'first bank',
    reference: ` ${TELLER_REF.toLowerCase()} `,
  });
  await expect(page.getByTestId('record-error')).toHaveText(BURSARY_MESSAGES.referenceTaken(tellerReceipt));
  await expect(page.getByTestId('clash-receipt')).toHaveText(tellerReceipt);
  await expectAccessible(page);

  // The ledger: reverse the cash payment with a reason.
  await page.goto(`${BURSARY_SCREENS.ledger.to}?admission_number=${admission}`);
  const rows = page.getByTestId('ledger-row');
  await expect(rows).toHaveCount(2);
  await expectAccessible(page);
  await noSideways(page);
  await page.getByRole('button', { name: `${L.reverse} ${cashReceipt}` }).click();
  const dialog = page.getByTestId('reverse-dialog');
  await dialog.getByRole('button', { name: L.confirmReverse }).click();
  await expect(dialog.getByTestId('field-error')).toHaveText(BURSARY_MESSAGES.reasonRequired);
  await expectAccessible(page);
  await dialog.getByLabel(L.reason).fill('Entered twice by mistake');
  await dialog.getByRole('button', { name: L.confirmReverse }).click();
  await expect(page.getByTestId('toast-success')).toContainText(BURSARY_MESSAGES.reversed(cashReceipt));
  await expect(rows).toHaveCount(3);
  const reversal = rows.filter({ has: page.getByTestId('reversal-mark') });
  await expect(reversal).toHaveCount(1);
  await expect(reversal.getByTestId('ledger-amount')).toHaveText(formatNaira(-CASH_NAIRA));
  await expect(reversal).toContainText(L.reverses(cashReceipt));
  await expect(page.locator(`[data-testid="ledger-row"][data-receipt="${cashReceipt}"]`)).toContainText(L.reversedBy(''));
  await expect(page.getByTestId('ledger-total')).toHaveText(formatNaira(TELLER_NAIRA));
  await expect(page.getByRole('button', { name: `${L.reverse} ${cashReceipt}` })).toHaveCount(0);
  await noSideways(page);

  // The teller's scan opens from the ledger (fetched with the token); the CSV downloads.
  const [scan] = await Promise.all([
    page.waitForEvent('popup'),
    page.locator(`[data-receipt="${tellerReceipt}"]`).getByRole('button', { name: L.viewScan }).click(),
  ]);
  expect(scan.url()).toMatch(/^blob:/);
  await scan.close();
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: L.downloadCsv }).click()]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);

  // The admin's fee items are the bursar's too.
  await page.goto(BURSARY_FEE_SCREENS.schedules.to);
  await expect(page.getByRole('heading', { name: BURSARY_FEE_SCREENS.schedules.label, level: 1 })).toBeVisible();

  // The statement: charges, both payments, the reversal and the balance.
  const expected = await statementOf(page.request, admission, sessionId);
  expect(expected.paid).toBe(TELLER_NAIRA);
  expect(expected.balance).toBe(expected.charged - TELLER_NAIRA);
  await page.goto(BURSARY_SCREENS.statement.to);
  await expectAccessible(page);
  await page.getByLabel(L.admissionNumber).fill(admission);
  await page.getByRole('button', { name: L.open }).click();
  const lines = page.getByTestId('statement-line');
  await expect(lines.filter({ hasText: tellerReceipt })).toHaveCount(1);
  expect(await lines.and(page.locator('[data-kind="charge"]')).count()).toBeGreaterThan(0);
  await expect(lines.and(page.locator('[data-kind="payment"]'))).toHaveCount(2);
  await expect(lines.and(page.locator('[data-kind="reversal"]'))).toHaveCount(1);
  await expect(page.getByTestId('statement-charged')).toHaveText(formatNaira(expected.charged));
  await expect(page.getByTestId('statement-paid')).toHaveText(formatNaira(TELLER_NAIRA));
  await expect(page.getByTestId('statement-balance')).toHaveText(formatNaira(expected.charged - TELLER_NAIRA));
  await expect(lines.last().locator('td').last()).toHaveText(formatNaira(expected.charged - TELLER_NAIRA));
  await expectAccessible(page);
  await noSideways(page);

  // Printed, the statement stands alone: the pickers and the shell hidden, the school's name on top, every line kept.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByLabel(L.admissionNumber)).toBeHidden();
  await expect(page.locator('.statement .print-only')).toBeVisible();
  await expect(lines.filter({ hasText: tellerReceipt })).toBeVisible();
  const printed = await page.pdf({ format: 'A4' });
  expect(printed.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await page.emulateMedia({ media: 'screen' });

  // A plain staff member is refused every bursary screen, and the API refuses them too.
  const plain = await browser.newPage({ viewport: PHONE });
  await signInViaApi(plain, plain.request, 'staff', PLAIN);
  for (const screen of [BURSARY_SCREENS.record, BURSARY_SCREENS.ledger, BURSARY_SCREENS.statement, BURSARY_FEE_SCREENS.schedules]) {
    await plain.goto(screen.to);
    await expect(plain).toHaveURL(/\/staffHomePage$/);
    await expect(plain.getByText(M.bursarPageRefused(screen.to))).toBeVisible();
  }
  await expect(plain.getByRole('heading', { name: 'Bursary' })).toHaveCount(0);
  const refused = await plain.request.post('/api/bursary/payments/', {
    headers: { authorization: `Bearer ${await apiToken(plain.request, 'staff', PLAIN)}` },
    data: { admission_number: admission, session_id: sessionId, term: null, amount: 1000, method: 'cash', paid_on: '2026-01-05' },
  });
  expect(refused.status()).toBe(403);
  await plain.close();
});
