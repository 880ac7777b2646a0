import type { APIRequestContext, Page } from '@playwright/test';
import { BURSARY_SCREENS, type LedgerPage } from '../../packages/domain/src/bursary';
import { BURSARY_SCREEN_LABELS as L } from '../../packages/domain/src/bursary-screens';
import { DUPLICATE_CASH_MESSAGES } from '../../packages/domain/src/money-guards';
import { apiToken, expect, expectAccessible, noSideways, openOnPhone, test } from '../fixtures';
import { addFee, asAdmin, createArm, createStudent, currentSessionId, fillPayment, runTag } from '../school';

// On a 360 px phone: a Record a Payment form submitted twice at once records one payment
// (both requests carry one Idempotency-Key); the same cash amount again that day is asked about, and
// the bursar's confirmation, whose answer is lost on the way back, is retried and still records once.
// Its own data (fixture school.ts): a JSS 2 arm of this run with its tuition, and a student in it.

const RUN = runTag();
const CASH_NAIRA = 3_000;
let admission = '';

async function ledgerCount(request: APIRequestContext): Promise<number> {
  const res = await request.get(`/api/bursary/payments/?admission_number=${admission}`, {
    headers: { authorization: `Bearer ${await apiToken(request, 'admin')}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as LedgerPage).total;
}

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  const arm = await createArm(api, 'JSS 2', RUN);
  await addFee(api, { arm, sessionId: await currentSessionId(api), term: '1st', naira: 100_000 });
  admission = (await createStudent(api, arm, RUN, { first_name: 'Retry', gender: 'M', date_of_birth: '2012-03-01' })).admission_number;
});

/** The same cash payment each time (the term left as the form chooses it). */
const fillCash = (page: Page) => fillPayment(page, { admission, name: `Pupil${RUN}`, amount: CASH_NAIRA, method: 'cash' });

test('a double-submitted payment records once; a second cash payment today is asked about and a lost answer retried records once', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openOnPhone(page, 'admin', BURSARY_SCREENS.record.to);
  await expect(page.getByLabel(L.paidOn)).toHaveAttribute('min', /^\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByLabel(L.paidOn)).toHaveAttribute('max', /^\d{4}-\d{2}-\d{2}$/);

  // The form sent twice at once (a double tap that beats the button's disabling): the first answer is slowed down.
  const keys: (string | undefined)[] = [];
  await page.route('**/api/bursary/payments/', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    keys.push(route.request().headers()['idempotency-key']);
    if (keys.length === 1) await new Promise((r) => setTimeout(r, 800));
    return route.continue();
  });
  await fillCash(page);
  await noSideways(page);
  await page.evaluate((name) => {
    const form = document.querySelector<HTMLFormElement>(`form[aria-label="${name}"]`)!;
    form.requestSubmit();
    form.requestSubmit();
  }, BURSARY_SCREENS.record.title);
  const message = page.getByTestId('record-message');
  await expect(message).toHaveText(/^Payment recorded: receipt R-\d{6}\.$/);
  const receipt = /R-\d{6}/.exec((await message.textContent()) ?? '')![0];
  await expect.poll(() => keys.length).toBe(2);
  expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
  expect(keys[1]).toBe(keys[0]);
  expect(await ledgerCount(page.request)).toBe(1);
  await page.unrouteAll({ behavior: 'wait' });

  // The same cash amount again today: the server asks, the form shows the question and a confirm button.
  await page.getByRole('button', { name: L.recordAnother }).click();
  await fillCash(page);
  await page.getByRole('button', { name: L.record }).click();
  const question = page.getByTestId('second-cash-question');
  await expect(question).toHaveText(DUPLICATE_CASH_MESSAGES.question(CASH_NAIRA, receipt));
  const confirm = page.getByRole('button', { name: DUPLICATE_CASH_MESSAGES.confirm });
  await expect(confirm).toBeVisible();
  await expectAccessible(page);
  await noSideways(page);
  expect(await ledgerCount(page.request)).toBe(1);

  // The confirmation reaches the server, but its answer is lost (a dropped connection): the bursar taps again.
  const confirmKeys: (string | undefined)[] = [];
  await page.route('**/api/bursary/payments/', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    confirmKeys.push(route.request().headers()['idempotency-key']);
    if (confirmKeys.length === 1) {
      await route.fetch();
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  await confirm.click();
  await expect(page.getByTestId('record-error')).toBeVisible();
  await expect(confirm).toBeVisible();
  await confirm.click();
  await expect(message).toHaveText(/^Payment recorded: receipt R-\d{6}\.$/);
  expect(confirmKeys).toHaveLength(2);
  expect(confirmKeys[1]).toBe(confirmKeys[0]);
  expect(await ledgerCount(page.request)).toBe(2);
  await expectAccessible(page);
  await noSideways(page);
});
