import { expect, expectAccessible, schoolClasses, signInViaApi, signInViaUi, test } from '../fixtures';
import type { Page } from '@playwright/test';
import { FEE_MESSAGES } from '../../packages/domain/src/fees';
import {
  addTermFees,
  asAdmin,
  createArm,
  createStaff,
  createStudent,
  currentTerm,
  runTag,
  type OwnStaff,
  type OwnStudent,
} from '../school';

test.describe.configure({ mode: 'serial' });

// Its own data (fixture school.ts), with a school's usual fees: a JSS 1 arm of this run owes ₦45,000
// tuition for the 1st term and ₦40,000 for the 2nd, with an optional school bus item that is not part
// of the balance; its four students (PUPIL pays through the simulator, the other three pay nothing);
// an SSS 3 arm of this run (₦55,000 and ₦50,000, and the bus); a staff member of this run.

const RUN = runTag();
let ARM = '';
let SENIOR = '';
let SESSION = '';
let PUPIL: OwnStudent;
let CLASSMATE = '';
let STAFF: OwnStaff;

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  const current = await currentTerm(api);
  SESSION = current.session_name!;
  ARM = await createArm(api, 'JSS 1', RUN);
  SENIOR = await createArm(api, 'SSS 3', RUN);
  await addTermFees(api, { arm: ARM, sessionId: current.session_id, tuition: [45_000, 40_000], bus: 15_000 });
  await addTermFees(api, { arm: SENIOR, sessionId: current.session_id, tuition: [55_000, 50_000], bus: 15_000 });
  PUPIL = await createStudent(api, ARM, RUN);
  CLASSMATE = (await createStudent(api, ARM, `${RUN}C1`)).admission_number;
  for (const i of [2, 3]) await createStudent(api, ARM, `${RUN}C${i}`);
  STAFF = await createStaff(api, RUN);
});

async function startPayment(page: Page, amount?: string) {
  if (amount !== undefined) await page.getByLabel('Amount (₦)').fill(amount);
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page.getByText('Redirecting to secure payment page...')).toBeVisible();
  await page.waitForURL(/\/pay\/simulator\/[a-f0-9]+$/);
}

/** The pupil signs in and opens the payment form, which offers the whole balance: ₦40,000.00. */
async function openPaymentForm(page: Page) {
  await signInViaApi(page, page.request, 'student', PUPIL);
  await page.goto('/PaymentForm');
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('40000.00');
}

const message = (page: Page) => page.getByTestId('payment-message');

test('a student on a phone pays the term fees through the simulator and gets a receipt', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInViaUi(page, 'student', PUPIL);
  await page.getByRole('link', { name: /Pay Fees/ }).click();
  await expect(page).toHaveURL(/\/PaymentForm$/);
  await expect(page.getByRole('heading', { name: 'School Fees Payment', level: 1 })).toBeVisible();

  // Pre-filled from the student's record and the fee schedule.
  await expect(page.getByLabel('Admission Number')).toHaveValue(PUPIL.admission_number);
  await expect(page.getByLabel('Class', { exact: true })).toHaveValue(ARM);
  await expect(page.getByLabel('Session')).toHaveValue(SESSION);
  await expect(page.getByLabel('Email')).toHaveValue(PUPIL.email);
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('45000.00');
  await expect(page.getByTestId('fees-outstanding')).toHaveText('₦85,000.00');
  await expect(page.getByRole('heading', { name: 'Payment History' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Class Payment Report' })).toHaveCount(0);
  await expectAccessible(page);

  // Whatever the payer types as the name, the receipt names the student from their record.
  const recordName = await page.getByLabel('Full Name').inputValue();
  await page.getByLabel('Full Name').fill('Somebody Else Entirely');
  await startPayment(page);
  await expect(page.getByTestId('simulator-amount')).toHaveText('₦45,000.00');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Pay ₦45,000.00' }).click();

  await expect(page).toHaveURL(/\/PaymentForm$/);
  await expect(message(page)).toHaveText('Payment verified successfully');
  await expect(page.getByTestId('fees-outstanding')).toHaveText('₦40,000.00');
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('40000.00');
  const history = page.getByTestId('payment-history');
  await expect(history.getByRole('row').filter({ hasText: '₦45,000.00' }).filter({ hasText: 'Successful' })).toHaveCount(1);
  await expectAccessible(page);

  await page.getByRole('link', { name: 'View receipt' }).click();
  await expect(page.getByRole('heading', { name: 'Payment Receipt' })).toBeVisible();
  await expect(page.getByTestId('receipt-amount')).toHaveText('₦45,000.00');
  await expect(page.getByText(PUPIL.admission_number)).toBeVisible();
  await expect(page.getByRole('main')).toContainText(recordName);
  await expect(page.getByRole('main')).not.toContainText('Somebody Else Entirely');
  await expectAccessible(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  expect((await download).suggestedFilename()).toMatch(/^receipt-FEES-.+\.pdf$/);
});

test('the form applies the rules, focuses the first invalid field and keeps a draft', async ({ page }) => {
  await openPaymentForm(page);

  await page.getByLabel('Full Name').fill('');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Phone Number (optional)').fill('12-34');
  const amount = page.getByLabel('Amount (₦)');
  await amount.fill('');
  await amount.pressSequentially('5a0');
  await expect(amount).toHaveValue('50');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(message(page)).toHaveText('Please correct the errors highlighted below.');
  await expect(page.getByText('Full name is required')).toBeVisible();
  await expect(page.getByText('Invalid email format')).toBeVisible();
  await expect(page.getByText('Phone number must be at least 10 characters', { exact: false })).toBeVisible();
  await expect(page.getByText('Minimum amount is ₦100')).toBeVisible();
  await expect(page.getByLabel('Full Name')).toBeFocused();
  await expectAccessible(page);

  await amount.fill('');
  await amount.pressSequentially('1,234.567.8');
  await expect(amount).toHaveValue('1234.56');
  await amount.fill('9000000');
  await page.getByLabel('Full Name').fill('Adaeze Okafor');
  await page.getByLabel('Email').fill(PUPIL.email);
  await page.getByLabel('Phone Number (optional)').fill('');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page.getByText('Maximum amount is ₦5,000,000')).toBeVisible();
  await expect(amount).toBeFocused();

  // The draft is saved 500 ms after a change and restored on load.
  await amount.fill('777.25');
  await page.waitForTimeout(700);
  await page.reload();
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('777.25');
  await expect(page.getByLabel('Full Name')).toHaveValue('Adaeze Okafor');
});

test('a declined payment shows an error and is not credited', async ({ page }) => {
  await openPaymentForm(page);
  await startPayment(page, '500');
  await page.getByRole('button', { name: 'Decline' }).click();
  await expect(page).toHaveURL(/\/PaymentForm$/);
  await expect(message(page)).toHaveText('Payment was declined. No money was taken.');
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByTestId('payment-history').getByRole('row').filter({ hasText: '₦500.00' })).toContainText('Failed');
  await expect(page.getByTestId('fees-outstanding')).toHaveText('₦40,000.00');
  await expectAccessible(page);
});

test('an abandoned payment is not credited', async ({ page }) => {
  await openPaymentForm(page);
  await startPayment(page, '650');
  await page.getByRole('button', { name: 'Abandon' }).click();
  await expect(message(page)).toHaveText('Payment was not completed.');
  await expect(page.getByTestId('payment-history').getByRole('row').filter({ hasText: '₦650.00' })).toContainText('Abandoned');
  await expect(page.getByTestId('fees-outstanding')).toHaveText('₦40,000.00');
});

test('on a phone, the form offers what is owed now and asks before paying a paid term or more than the balance', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInViaApi(page, page.request, 'student', PUPIL);
  // A draft left from before the 1st term was paid: it must not come back.
  await page.evaluate(
    (email) =>
      localStorage.setItem('paymentFormDraft', JSON.stringify({ full_name: 'Adaeze Okafor', email, amount: '45000.00', term: '1st' })),
    PUPIL.email,
  );
  await page.goto('/PaymentForm');
  await expect(page.getByLabel('Amount (₦)')).toHaveValue('40000.00');
  await expect(page.getByLabel('Term (optional)')).toHaveValue('2nd');
  await expect(message(page)).toHaveText('The amount was updated to what you owe now.');
  const byTerm = page.getByTestId('fees-by-term');
  await expect(byTerm.getByRole('listitem').filter({ hasText: 'First Term' })).toContainText('Paid in full');
  await expect(byTerm.getByRole('listitem').filter({ hasText: 'Second Term' })).toContainText('Unpaid');
  await expect(byTerm.getByRole('listitem').filter({ hasText: 'Second Term' })).toContainText('₦40,000.00 to pay');

  // Paying the 1st term again: a clear confirm step, and going back pays nothing.
  await page.getByLabel('Term (optional)').selectOption('1st');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Check before you pay' });
  await expect(dialog).toContainText('The First Term fees are already paid in full. Do you still want to pay this amount?');
  await expect(dialog.getByRole('button', { name: 'Change amount' })).toBeFocused();
  const box = await dialog.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Change amount' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/PaymentForm$/);

  // More than the outstanding balance: asked, then allowed once confirmed.
  await page.getByLabel('Term (optional)').selectOption('2nd');
  await page.getByLabel('Amount (₦)').fill('300000');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(dialog).toContainText('₦300,000.00 is more than the outstanding balance of ₦40,000.00.');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Pay anyway' }).click();
  await page.waitForURL(/\/pay\/simulator\/[a-f0-9]+$/);
  await expect(page.getByTestId('simulator-amount')).toHaveText('₦300,000.00');
  await page.getByRole('button', { name: 'Abandon' }).click();
  await expect(message(page)).toHaveText('Payment was not completed.');
  await expect(page.getByTestId('fees-outstanding')).toHaveText('₦40,000.00');
});

test('returning without a reference in the address verifies the remembered payment', async ({ page }) => {
  await openPaymentForm(page);
  await startPayment(page, '1500.50');
  // Pay on the checkout without following it back (as if the tab was closed): the checkout is the
  // signed-in payer's own, completed through the API with their token.
  const code = new URL(page.url()).pathname.split('/').pop();
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const signedOut = await page.request.post(`/api/payments/simulator/${code}/`, { data: { outcome: 'pay' } });
  expect(signedOut.status()).toBe(401);
  const res = await page.request.post(`/api/payments/simulator/${code}/`, {
    data: { outcome: 'pay' },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  expect((await res.json()).return_url).toMatch(/\/PaymentForm\?trxref=FEES-[^&]+&reference=FEES-/);
  expect(await page.evaluate(() => localStorage.getItem('lastPaymentReference'))).toMatch(/^FEES-/);

  await page.goto('/PaymentForm');
  await expect(message(page)).toHaveText('Payment verified successfully');
  await expect(page.getByTestId('payment-history').getByRole('row').filter({ hasText: '₦1,500.50' })).toContainText('Successful');
  await expect(page.getByTestId('fees-outstanding')).toHaveText('₦38,499.50');
  expect(await page.evaluate(() => localStorage.getItem('lastPaymentReference'))).toBeNull();
});

test("the simulator checkout is the payer's own: signed out goes to sign-in, other staff are refused", async ({ page, browser }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInViaApi(page, page.request, 'student', PUPIL);
  await page.goto('/PaymentForm');
  await expect(page.getByLabel('Amount (₦)')).not.toHaveValue('');
  await startPayment(page, '300');
  const checkout = new URL(page.url()).pathname;
  await expect(page.getByRole('button', { name: 'Pay ₦300.00' })).toBeVisible();
  await expectAccessible(page);

  const stranger = await browser.newPage();
  await stranger.goto(checkout);
  await expect(stranger).toHaveURL(/\/login$/);
  await signInViaApi(stranger, stranger.request, 'staff', STAFF);
  await stranger.goto(checkout);
  await expect(stranger.getByRole('alert')).toHaveText('You do not have permission to perform this action.');
  await expect(stranger.getByRole('button', { name: /Pay/ })).toHaveCount(0);
  await stranger.close();

  // The payer abandons it; nothing was credited by anyone else.
  await page.getByRole('button', { name: 'Abandon' }).click();
  await expect(message(page)).toHaveText('Payment was not completed.');
});

test('when online payment is off, the form says where to pay and cannot be submitted', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const off = 'Online payment is not set up for this school yet. Please pay at the bursary or contact the school.';
  // The server answers this in production without a provider key (API tests: money-hardening.test.ts).
  await page.route('**/api/payments/provider/', (route) =>
    route.fulfill({ json: { online_payment: false, provider: null, message: off } }),
  );
  await signInViaApi(page, page.request, 'student', PUPIL);
  await page.goto('/PaymentForm');
  await expect(page.getByTestId('payments-off')).toHaveText(off);
  await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeDisabled();
  await expectAccessible(page);
});

test('staff see the class report: part paid with the balance, unpaid, totals and a CSV export', async ({ page }) => {
  await signInViaApi(page, page.request, 'staff', STAFF);
  await page.goto('/PaymentForm');
  await expect(page.getByRole('heading', { name: 'Class Payment Report' })).toBeVisible();
  await page.getByLabel('Class', { exact: true }).selectOption(ARM);
  const report = page.getByTestId('class-report');
  await expect(report).toBeVisible();
  // ₦46,500.50 paid of ₦85,000: part paid, not paid.
  const stu1 = report.getByRole('row').filter({ hasText: PUPIL.admission_number });
  await expect(stu1).toContainText('Part paid');
  await expect(stu1).not.toContainText('Paid in full');
  await expect(stu1).toContainText('₦38,499.50');
  await expect(report.getByRole('row').filter({ hasText: CLASSMATE })).toContainText('Unpaid');
  await expect(page.getByTestId('class-report-summary')).toContainText('0 of 4 paid in full, 1 part paid, 3 unpaid.');
  await expect(report.locator('tbody tr')).toHaveCount(4);
  await expect(report.locator('tfoot')).toContainText('₦340,000.00');

  await page.getByLabel('Admission Number').fill(PUPIL.admission_number);
  await expect(page.getByTestId('payment-history').getByRole('row').filter({ hasText: '₦45,000.00' })).toContainText('Successful');
  await expectAccessible(page);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  expect((await download).suggestedFilename()).toBe(`payments-${ARM.replaceAll(' ', '-')}-${SESSION.replace('/', '-')}.csv`);
});

test('on a phone, the admin sets fee items for all JSS classes, copies last term and sees a duplicate in fee words', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const { access } = await signInViaApi(page, page.request, 'admin');
  // The spec's own arms: each has tuition and the school bus in the 1st and 2nd terms.
  const classes = await schoolClasses(page.request, access);
  const jss = classes.filter((c) => c.startsWith('JSS')).length;
  await page.goto('/payments/fee-schedules');
  await expect(page.getByRole('heading', { name: 'Fee Schedules', level: 1 })).toBeVisible();
  const list = page.getByTestId('fee-schedules');
  await expect(list.getByRole('listitem', { name: `${ARM} fees` })).toContainText('Tuition');

  // "PTA levy" beside tuition, for every JSS class at once.
  await page.getByLabel('All JSS classes').check();
  await page.getByLabel('Item 1 name').fill('PTA levy');
  await page.getByLabel('Item 1 amount (₦)').fill('5000');
  await page.getByRole('button', { name: 'Add another item' }).click();
  await page.getByLabel('Item 2 name').fill('Books');
  await page.getByLabel('Item 2 amount (₦)').fill('12500');
  await page.getByRole('button', { name: 'Save fees' }).click();
  await expect(page.getByText(`Fees saved for ${jss} classes: ${2 * jss} added, 0 updated`)).toBeVisible();
  const jss1a = list.getByRole('listitem', { name: `${ARM} fees` });
  await expect(jss1a).toContainText('PTA levy');
  await expect(jss1a).toContainText('School bus');
  await expect(jss1a).toContainText('(optional)');
  // Due: tuition ₦45,000 + PTA ₦5,000 + books ₦12,500; the optional bus is not owed.
  await expect(page.getByTestId(`fee-total-${ARM}`)).toHaveText('Due: ₦62,500.00');
  await expect(list.getByRole('listitem', { name: `${SENIOR} fees` })).not.toContainText('PTA levy');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);

  // Renaming an item onto another's name is refused in a fee's words.
  await jss1a.getByRole('button', { name: `Edit PTA levy for ${ARM}` }).click();
  await page.getByLabel('New name').fill('tuition');
  await jss1a.getByRole('button', { name: 'Save' }).click();
  await expect(jss1a).toContainText(`${ARM} already has a fee item called "tuition" for the First Term of this session.`);
  await expect(page.getByText('A payment with these details already exists.')).toHaveCount(0);
  await jss1a.getByRole('button', { name: 'Cancel' }).click();

  // The 3rd term starts from the 2nd term's items. The spec's arms have none yet; other specs may have
  // given arms of their own 3rd-term fees, which the copy keeps (and says so).
  await page.getByLabel('Term', { exact: true }).selectOption('3rd');
  await expect(page.getByRole('button', { name: 'Copy fees from Second Term' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: `${ARM} fees` })).toHaveCount(0);
  const sessionId = Number(await page.getByLabel('Session').inputValue());
  const items = (await (
    await page.request.get(`/api/payments/fee-schedules/?session_id=${sessionId}`, { headers: { authorization: `Bearer ${access}` } })
  ).json()) as { term: string; student_class: string; name: string }[];
  const key = (i: { student_class: string; name: string }) => `${i.student_class}|${i.name.trim().toLowerCase()}`;
  const second = items.filter((i) => i.term === '2nd');
  const third = new Set(items.filter((i) => i.term === '3rd').map(key));
  const kept = second.filter((i) => third.has(key(i))).length;
  const own = [ARM, SENIOR];
  expect(second.filter((i) => own.includes(i.student_class))).toHaveLength(2 * own.length);
  await page.getByRole('button', { name: 'Copy fees from Second Term' }).click();
  await expect(page.getByText(FEE_MESSAGES.copied(second.length - kept, 'Second Term', kept))).toBeVisible();
  await expect(page.getByTestId(`fee-total-${SENIOR}`)).toHaveText('Due: ₦50,000.00');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
});
