import type { APIRequestContext } from '@playwright/test';
import { ARREARS_MESSAGES, ARREARS_SCREEN_LABELS as AL, PAYMENT_ALLOCATION_LABELS } from '../../packages/domain/src/arrears';
import type { LedgerEntry, Statement } from '../../packages/domain/src/bursary';
import { BURSARY_SCREEN_LABELS as L } from '../../packages/domain/src/bursary-screens';
import { formatNaira } from '../../packages/domain/src/money';
import { apiToken, expect, expectAccessible, noSideways, signInViaUi, test } from '../fixtures';
import {
  addFee,
  asAdmin,
  createArm,
  createStaff,
  createStudent,
  currentSessionId,
  fillPayment,
  okJson,
  runTag,
  statementOf,
} from '../school';

// Arrears on a 360 px phone (issue 34 item 6, decision 041): a student who paid part of an earlier
// session's fees opens the current session's statement with "Balance brought forward from …"; the
// statement shows it, counts it in the balance and shows what the payments settled; the bursar
// records a payment "current term first" and the statement's terms follow. Its own data: an earlier
// session named for the run, an arm, a student and a bursar made for this run.

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
const OLD_FEE = 30_000;
const OLD_PAID = 10_000.5;
const FEE = 45_000;
const PAID_NOW = 5_000;

let ARM = '';
let BURSAR = { email: '', password: '' };
let sessionId = 0;
let oldSession = { id: 0, name: '' };
let admission = '';
let lastName = '';

async function bursarPost<T>(request: APIRequestContext, url: string, data: Record<string, unknown>, status = 201): Promise<T> {
  const token = await apiToken(request, 'staff', BURSAR);
  return okJson<T>(await request.post(url, { headers: { authorization: `Bearer ${token}` }, data }), status);
}

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  sessionId = await currentSessionId(api);
  // An earlier session (by name, the calendar's order) for this run only: 19xx sorts before the demo's.
  const year = 1900 + (parseInt(RUN.slice(-4), 36) % 90);
  const created = await okJson<{ id: number; name: string }>(
    await api.request.post('/api/sessions/', { headers: api.headers, data: { name: `${year}/${year + 1}` } }),
    201,
  );
  oldSession = created;
  ARM = await createArm(api, 'JSS 2', RUN);
  const student = await createStudent(api, ARM, RUN, { first_name: 'Owes' });
  admission = student.admission_number;
  lastName = `Pupil${RUN}`;
  BURSAR = await createStaff(api, RUN, ['bursar']);
  await addFee(api, { arm: ARM, sessionId: oldSession.id, term: '1st', naira: OLD_FEE });
  await addFee(api, { arm: ARM, sessionId, term: '1st', naira: FEE });
  // Part of the old session's fees paid (in that session): the rest is brought forward.
  await bursarPost(request, '/api/bursary/payments/', {
    admission_number: admission,
    session_id: oldSession.id,
    term: '1st',
    amount: OLD_PAID,
    method: 'cash',
    paid_on: (await statementOf(request, admission, sessionId)).as_of,
    confirm: true,
  });
});

test('the statement opens with the balance brought forward; the bursar records a payment "current term first"', async ({ page }) => {
  test.setTimeout(120_000);
  const arrears = OLD_FEE - OLD_PAID;
  const before = await statementOf(page.request, admission, sessionId);
  expect(before.brought_forward).toBe(arrears);
  // Named after the session just before the current one (the chain carries the old session through it).
  const from = before.brought_forward_from!;
  expect(from < before.session).toBe(true);

  await page.setViewportSize(PHONE);
  await signInViaUi(page, 'staff', BURSAR);
  await page.goto(`/bursary/statement?admission_number=${admission}&session_id=${sessionId}`);
  const first = page.getByTestId('statement-line').first();
  await expect(first).toHaveAttribute('data-kind', 'brought_forward');
  await expect(first).toContainText(ARREARS_MESSAGES.broughtForward(from));
  await expect(first).toContainText(formatNaira(arrears));
  await expect(page.getByTestId('statement-brought-forward')).toContainText(formatNaira(arrears));
  await expect(page.getByTestId('statement-balance')).toHaveText(formatNaira(before.balance));
  await expect(page.getByRole('heading', { name: AL.allocationTitle })).toBeVisible();
  await expect(page.getByTestId('statement-terms')).toContainText(ARREARS_MESSAGES.arrearsRow);
  await noSideways(page);
  await expectAccessible(page);

  // The record form: the allocation choice, "current term first" for this payment.
  await page.goto('/bursary/record');
  await fillPayment(page, { admission, name: lastName, term: '1st', amount: PAID_NOW, method: 'cash' });
  await expect(page.getByTestId('student-brought-forward')).toContainText(formatNaira(arrears));
  const choice = page.getByLabel(ARREARS_MESSAGES.allocationLabel);
  await expect(choice).toHaveValue('arrears_first');
  await choice.selectOption('current_first');
  await expect(choice.locator('option:checked')).toHaveText(PAYMENT_ALLOCATION_LABELS.current_first);
  await noSideways(page);
  await expectAccessible(page);
  await page.getByRole('button', { name: L.record }).click();
  await expect(page.getByTestId('record-message')).toBeVisible();

  // The 1st term took the payment; the arrears are as they were.
  const after = await statementOf(page.request, admission, sessionId);
  expect(after.terms.find((t) => t.term === '1st')).toMatchObject({ paid: PAID_NOW });
  expect(after.arrears).toMatchObject({ outstanding: arrears });
  expect(after.balance).toBe(before.balance - PAID_NOW);
  const token = await apiToken(page.request, 'staff', BURSAR);
  const ledger = await okJson<{ entries: LedgerEntry[] }>(
    await page.request.get(`/api/bursary/payments/?admission_number=${admission}&session_id=${sessionId}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  expect(ledger.entries[0]!.allocation).toBe('current_first');
  await page.goto(`/bursary/statement?admission_number=${admission}&session_id=${sessionId}`);
  await expect(page.getByTestId('statement-balance')).toHaveText(formatNaira(after.balance));
  await expect(page.getByTestId('statement-terms')).toContainText(formatNaira(PAID_NOW));
  await noSideways(page);
  await expectAccessible(page);
});

export type { Statement };
