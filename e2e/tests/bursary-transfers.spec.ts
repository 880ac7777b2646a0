import type { Page } from '@playwright/test';
import { TRANSFER_REPORT_SCREEN_LABELS as L } from '../../packages/domain/src/transfer-report-screens';
import { BURSARY_SCREEN_LABELS as BL } from '../../packages/domain/src/bursary-screens';
import { TRANSFER_REPORT_MESSAGES, TRANSFER_REPORT_SCREENS } from '../../packages/domain/src/transfer-reports';
import { formatNaira } from '../../packages/domain/src/money';
import { expect, expectAccessible, noSideways, signInViaUi, test } from '../fixtures';
import { addFee, asAdmin, createArm, createStaff, createStudent, currentSessionId, runTag } from '../school';

// Reported transfers on a 360 px phone: a student of an SSS 1 arm made for this run (with its 1st-term
// tuition) reports a bank transfer with a photo of the slip and a teller payment; a bursar made for
// this run finds both on "Payments to Confirm", opens the slip, confirms the transfer (the receipt
// number is shown) and rejects the teller with a reason; the student sees "Confirmed" with the
// receipt, and the reason of the rejection. Axe and no sideways scroll on both screens.

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
let BURSAR = { email: '', password: '' };
const TRANSFER = { amount: 35_000, bank: 'GTBank', reference: `GTB-${RUN}` };
const TELLER = { amount: 12_500, bank: 'First Bank', reference: `FBN-${RUN}` };
const REASON = 'The teller number does not match the bank statement. Please check it.';
// The smallest PNG: one transparent pixel (the "photo" of the slip).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let student = { email: '', admission: '', password: '' };

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  const sessionId = await currentSessionId(api);
  const arm = await createArm(api, 'SSS 1', RUN);
  await addFee(api, { arm: arm, sessionId, term: '1st', naira: 60_000 });
  const own = await createStudent(api, arm, RUN);
  student = { email: own.email, admission: own.admission_number, password: own.password };
  BURSAR = await createStaff(api, RUN, ['bursar']);
});

/** Fills the student's form and sends it. */
async function reportPayment(page: Page, p: { amount: number; method: string; bank: string; reference: string }) {
  await page.getByLabel(BL.amount).fill(String(p.amount));
  await page.getByLabel(L.method).selectOption(p.method);
  await page.getByLabel(BL.bank, { exact: true }).fill(p.bank);
  await page.getByLabel(L.bankReference).fill(p.reference);
  await page.getByLabel(L.term).selectOption('1st');
  const slip = page.getByLabel(L.slip);
  // A phone offers the camera for an image input.
  await expect(slip).toHaveAttribute('accept', 'image/*,application/pdf');
  await slip.setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('button', { name: BL.removeScan })).toBeVisible();
  await noSideways(page);
  await page.getByRole('button', { name: L.send }).click();
  await expect(page.getByTestId('report-sent')).toHaveText(TRANSFER_REPORT_MESSAGES.reported);
}

test('a student reports two payments; the bursar confirms one (receipt) and rejects the other; the student sees both outcomes', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);

  // The student finds "Report a Payment" on their menu.
  await signInViaUi(page, 'student', { email: student.email, password: student.password });
  await page.getByRole('link', { name: new RegExp(`^${TRANSFER_REPORT_SCREENS.mine.label}`) }).click();
  await expect(page).toHaveURL(new RegExp(`${TRANSFER_REPORT_SCREENS.mine.to}$`));
  await expect(page.getByRole('heading', { name: TRANSFER_REPORT_SCREENS.mine.title, level: 1 })).toBeVisible();
  await expectAccessible(page);

  // Sending without a slip says what is missing.
  await page.getByRole('button', { name: L.send }).click();
  await expect(page.getByTestId('report-error')).toBeVisible();
  await expect(page.getByText(TRANSFER_REPORT_MESSAGES.scanRequired)).toBeVisible();
  await expectAccessible(page);

  await reportPayment(page, { ...TRANSFER, method: 'bank_transfer' });
  await reportPayment(page, { ...TELLER, method: 'bank_teller' });
  const mine = page.getByTestId('transfer-report');
  const transferCard = mine.filter({ hasText: TRANSFER.reference });
  const tellerCard = mine.filter({ hasText: TELLER.reference });
  await expect(transferCard.getByTestId('report-status')).toHaveText('To confirm');
  await expect(transferCard.getByTestId('report-amount')).toHaveText(formatNaira(TRANSFER.amount));
  await expect(tellerCard.getByTestId('report-status')).toHaveText('To confirm');
  await expectAccessible(page);
  await noSideways(page);

  // The bursar signs in on their own phone and sees the waiting count on the menu.
  const bursarContext = await browser.newContext({ viewport: PHONE });
  const bursar = await bursarContext.newPage();
  await signInViaUi(bursar, 'staff', BURSAR);
  const entry = bursar.getByRole('link', { name: new RegExp(`^${TRANSFER_REPORT_SCREENS.queue.label}`) });
  await expect(entry.getByTestId('menu-badge')).toHaveText(/^\d+ waiting$/);
  await entry.click();
  await expect(bursar).toHaveURL(new RegExp(`${TRANSFER_REPORT_SCREENS.queue.to}$`));
  const queue = bursar.getByTestId('transfer-report');
  const toConfirm = queue.filter({ hasText: TRANSFER.reference });
  const toReject = queue.filter({ hasText: TELLER.reference });
  await expect(toConfirm).toContainText(student.admission);
  await expect(toConfirm.getByTestId('report-amount')).toHaveText(formatNaira(TRANSFER.amount));
  await expect(toReject).toBeVisible();
  await expectAccessible(bursar);
  await noSideways(bursar);

  // The slip opens (fetched with the token) in a new tab.
  const [slip] = await Promise.all([bursar.waitForEvent('popup'), toConfirm.getByRole('button', { name: L.viewSlip }).click()]);
  expect(slip.url()).toMatch(/^blob:/);
  await slip.close();

  // Confirm: asked once more, then the receipt number.
  await toConfirm.getByRole('button', { name: `${L.confirm} ${TRANSFER.reference}` }).click();
  const panel = bursar.getByRole('alertdialog', { name: `${L.confirm} ${TRANSFER.reference}` });
  await expect(panel).toContainText(formatNaira(TRANSFER.amount));
  await expectAccessible(bursar);
  await panel.getByRole('button', { name: L.yesConfirm }).click();
  const done = bursar.getByTestId('confirm-message');
  await expect(done).toHaveText(/^Payment confirmed: receipt R-\d{6}\.$/);
  const receipt = /R-\d{6}/.exec((await done.textContent()) ?? '')![0];
  // Confirmed reports leave the waiting list.
  await expect(toConfirm).toHaveCount(0);
  await expectAccessible(bursar);
  await noSideways(bursar);

  // Reject: the reason is required, then the student reads it.
  await toReject.getByRole('button', { name: `${L.reject} ${TELLER.reference}` }).click();
  const dialog = bursar.getByTestId('reject-dialog');
  await dialog.getByRole('button', { name: L.confirmReject }).click();
  await expect(dialog.getByTestId('field-error')).toHaveText(TRANSFER_REPORT_MESSAGES.rejectReasonRequired);
  await expectAccessible(bursar);
  await noSideways(bursar);
  await dialog.getByLabel(L.rejectReason).fill(REASON);
  await dialog.getByRole('button', { name: L.confirmReject }).click();
  await expect(bursar.getByTestId('toast-success')).toContainText(TRANSFER_REPORT_MESSAGES.rejected);
  await expect(toReject).toHaveCount(0);

  // Every report, decided ones included.
  await bursar.getByLabel(L.status).selectOption('all');
  await expect(queue.filter({ hasText: TRANSFER.reference }).getByTestId('report-status')).toHaveText('Confirmed');
  await expect(queue.filter({ hasText: TELLER.reference }).getByTestId('report-reason')).toContainText(REASON);
  await expectAccessible(bursar);
  await noSideways(bursar);
  await bursarContext.close();

  // The student sees what became of both, and opens the receipt.
  await page.reload();
  await expect(transferCard.getByTestId('report-status')).toHaveText('Confirmed');
  await expect(transferCard.getByTestId('report-receipt')).toContainText(receipt);
  await expect(tellerCard.getByTestId('report-status')).toHaveText('Rejected');
  await expect(tellerCard.getByTestId('report-reason')).toContainText(REASON);
  await expectAccessible(page);
  await noSideways(page);
  await transferCard.getByRole('link', { name: L.viewReceipt }).click();
  await expect(page).toHaveURL(/\/payments\/receipt\//);
  await expect(page.getByTestId('receipt-number')).toHaveText(receipt);
  await expect(page.getByTestId('receipt-amount')).toContainText(formatNaira(TRANSFER.amount).replace('.00', ''));
});
