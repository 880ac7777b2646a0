import type { Page } from '@playwright/test';
import { BANK_REFERENCE_MESSAGES } from '../../packages/domain/src/bank-references';
import { BURSARY_MESSAGES, BURSARY_SCREENS } from '../../packages/domain/src/bursary';
import { BURSARY_SCREEN_LABELS as L } from '../../packages/domain/src/bursary-screens';
import { formatNaira } from '../../packages/domain/src/money';
import { expect, expectAccessible, noSideways, openOnPhone, test } from '../fixtures';
import { addFee, asAdmin, createArm, createStudent, currentSessionId, fillPayment, runTag } from '../school';

// Bank references on a 360 px phone: the bank is picked from the list the form
// offers as one types; a teller of ₦9,000 that was really ₦90,000 is reversed and recorded again with
// the same teller number, and the ledger says the new one replaces the reversed receipt; a look-alike
// Cyrillic letter in a reference is refused on the form. The admin (who holds the bursar's
// capability) records for a student in a JSS 2 arm of this run (its own data, made through the API),
// with fresh references: no other spec's data.

const RUN = runTag();
const TELLER_REF = `GTB-${RUN}`;
let admission = '';

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  const arm = await createArm(api, 'JSS 2', RUN);
  await addFee(api, { arm, sessionId: await currentSessionId(api), term: '1st', naira: 100_000 });
  admission = (await createStudent(api, arm, RUN, { first_name: 'Reference', gender: 'M', date_of_birth: '2012-04-01' })).admission_number;
});

/** A first-term bank teller for the spec's student. */
const fill = (page: Page, p: { amount: number; bank: string; reference: string }) =>
  fillPayment(page, { ...p, admission, name: `Pupil${RUN}`, term: '1st', method: 'bank_teller' });

test('the bank is picked from the list; a reversed teller is recorded again and replaces it; a look-alike letter is refused', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openOnPhone(page, 'admin', BURSARY_SCREENS.record.to);

  // The bank field offers the list: the datalist holds every bank by its name, aliases as labels.
  await page.getByLabel(L.method).selectOption('bank_teller');
  const bank = page.getByLabel(L.bank, { exact: true });
  const listId = await bank.getAttribute('list');
  expect(listId).toBeTruthy();
  const gtb = page.locator(`datalist#${listId} option[value="Guaranty Trust Bank"]`);
  await expect(gtb).toHaveCount(1);
  expect(await gtb.getAttribute('label')).toContain('GTB');
  await expect(page.locator(`datalist#${listId} option[value="Access Bank"]`)).toHaveCount(1);
  await expectAccessible(page);
  await noSideways(page);

  // A look-alike Cyrillic Т in the reference: refused on the form with the domain's message.
  await fill(page, { amount: 9_000, bank: 'Guaranty Trust Bank', reference: TELLER_REF.replace('G', 'G\u0422') });
  await page.getByRole('button', { name: L.record }).click();
  await expect(page.getByText(BANK_REFERENCE_MESSAGES.otherScript)).toBeVisible();
  await expectAccessible(page);
  await noSideways(page);

  // The ₦9,000 teller (really ₦90,000), the bank typed as people say it.
  await page.getByLabel(L.bankReference).fill(TELLER_REF);
  await page.getByLabel(L.bank, { exact: true }).fill('GTBank');
  await page.getByRole('button', { name: L.record }).click();
  const message = page.getByTestId('record-message');
  await expect(message).toHaveText(/^Payment recorded: receipt R-\d{6}\.$/);
  const wrongReceipt = /R-\d{6}/.exec((await message.textContent()) ?? '')![0];

  // Reversed from the ledger, searched by the teller number.
  await page.goto(`${BURSARY_SCREENS.ledger.to}?bank_reference=${encodeURIComponent(TELLER_REF.toLowerCase())}`);
  const rows = page.getByTestId('ledger-row');
  await expect(rows).toHaveCount(1);
  await page.getByRole('button', { name: `${L.reverse} ${wrongReceipt}` }).click();
  const dialog = page.getByTestId('reverse-dialog');
  await dialog.getByLabel(L.reason).fill('The teller was for 90,000');
  await dialog.getByRole('button', { name: L.confirmReverse }).click();
  await expect(page.getByTestId('toast-success')).toContainText(BURSARY_MESSAGES.reversed(wrongReceipt));
  await expect(rows).toHaveCount(2);

  // The right amount, with the same teller number (spaced and lower case): recorded, not "already recorded".
  await page.goto(BURSARY_SCREENS.record.to);
  await fill(page, { amount: 90_000, bank: 'Guaranty Trust Bank Plc', reference: ` ${TELLER_REF.toLowerCase().replace('-', ' ')} ` });
  await page.getByRole('button', { name: L.record }).click();
  await expect(message).toHaveText(/^Payment recorded: receipt R-\d{6}\.$/);
  const rightReceipt = /R-\d{6}/.exec((await message.textContent()) ?? '')![0];
  await expectAccessible(page);

  // The ledger: the payment, its reversal, and the new one saying which receipt it replaces.
  await page.goto(`${BURSARY_SCREENS.ledger.to}?bank_reference=${encodeURIComponent(TELLER_REF)}`);
  await expect(rows).toHaveCount(3);
  const right = page.locator(`[data-testid="ledger-row"][data-receipt="${rightReceipt}"]`);
  await expect(right.getByTestId('replaces-mark')).toHaveText(L.replaces(wrongReceipt));
  await expect(right.getByTestId('ledger-amount')).toHaveText(formatNaira(90_000));
  await expect(right).toContainText('Guaranty Trust Bank');
  await expect(page.getByTestId('ledger-total')).toHaveText(formatNaira(90_000));
  await expectAccessible(page);
  await noSideways(page);
});
