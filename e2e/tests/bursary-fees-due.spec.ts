import type { APIRequestContext } from '@playwright/test';
import type { Statement } from '../../packages/domain/src/bursary';
import { BURSARY_SCREEN_LABELS as BL } from '../../packages/domain/src/bursary-screens';
import { termLabel } from '../../packages/domain/src/constants';
import { addDays } from '../../packages/domain/src/attendance-rules';
import { formatDate } from '../../packages/domain/src/datetime';
import { FEE_REPORT_LABELS as L, type DebtorsPage } from '../../packages/domain/src/fee-reports';
import { FEE_MESSAGES } from '../../packages/domain/src/fees';
import { currentTermOf } from '../../packages/domain/src/fees-due';
import { formatNaira } from '../../packages/domain/src/money';
import type { TermStarts } from '../../packages/domain/src/fees-due';
import { apiToken, expect, expectAccessible, noSideways, signInViaUi, test } from '../fixtures';
import { addFee, asAdmin, createArm, createStaff, createStudent, currentSessionId, currentTerm, runTag, termStarts } from '../school';

// When fees fall due, on a 360 px phone: the bursar gives a fee item a due date a month away on the
// fee items screen; the statement lists it as not yet due, outside the balance; the debtors list opens
// on the current term (the school calendar's, as of today) and does not count it. Its own data: an
// arm, a student and a bursar made for this run, an item named for it; the calendar read from the server.

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
const ITEM = `Excursion ${RUN}`;
const ITEM_NAIRA = 7_500;

let ARM = '';
let BURSAR = { email: '', password: '' };
let sessionId = 0;
let admission = '';
let token = '';
/** The school's today (in its time zone) and its terms' first days, as the server says. */
let schoolToday = '';
let starts: TermStarts = {};

async function apiGet<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  sessionId = await currentSessionId(api);
  schoolToday = (await currentTerm(api)).today;
  starts = await termStarts(api, sessionId);
  ARM = await createArm(api, 'SSS 3', RUN);
  admission = (await createStudent(api, ARM, RUN, { first_name: 'Due', date_of_birth: '2008-03-01' })).admission_number;
  BURSAR = await createStaff(api, RUN, ['bursar']);
  // The arm's tuition, owed since the 1st term began: the student is a debtor whatever the item does.
  await addFee(api, { arm: ARM, sessionId, term: '1st', naira: 45_000 });
  // A 1st-term item with no due date yet: it falls due when the term begins, like every item.
  await addFee(api, { arm: ARM, sessionId, term: '1st', naira: ITEM_NAIRA, name: ITEM });
  token = await apiToken(request, 'staff', BURSAR);
});

test('a fee due next month is upcoming on the statement and not owed in the debtors list, which opens on the current term', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const today = schoolToday;
  const dueOn = addDays(today, 30);
  const before = await apiGet<Statement>(request, `/api/bursary/statement/?admission_number=${admission}&session_id=${sessionId}`);
  // Until a date is set the item is owed with the rest of its term.
  expect(before.upcoming).toBe(0);
  const owedWithItem = before.balance;

  // The fee items screen: the bursar gives the item its due date.
  await signInViaUi(page, 'staff', BURSAR);
  await page.goto('/payments/fee-schedules');
  await expect(page.getByRole('heading', { name: 'Fee Schedules', level: 1 })).toBeVisible();
  const arm = page.getByTestId('fee-schedules').getByRole('listitem', { name: `${ARM} fees` });
  await arm.getByRole('button', { name: `Edit ${ITEM} for ${ARM}` }).click();
  await page.getByLabel(FEE_MESSAGES.dueOnLabel, { exact: true }).fill(dueOn);
  await noSideways(page);
  await expectAccessible(page);
  await arm.getByRole('button', { name: 'Save' }).click();
  await expect(arm.getByTestId('fee-due-on')).toHaveText(FEE_MESSAGES.dueFrom(formatDate(dueOn)));

  // The statement: the item is listed as not yet due, and today's balance no longer counts it.
  await page.goto(`/bursary/statement?admission_number=${admission}`);
  await expect(page.getByTestId('statement-upcoming')).toHaveText(formatNaira(ITEM_NAIRA));
  await expect(page.getByTestId('statement-balance')).toHaveText(formatNaira(owedWithItem - ITEM_NAIRA));
  const upcoming = page.getByTestId('statement-upcoming-lines');
  await expect(upcoming.getByRole('rowheader', { name: new RegExp(ITEM) })).toBeVisible();
  await expect(upcoming).toContainText(formatDate(dueOn));
  await expect(page.getByRole('heading', { name: BL.upcoming })).toBeVisible();
  await noSideways(page);
  await expectAccessible(page);

  // Debtors, opened without a term: the current term is chosen, and the student owes what has fallen due only.
  const current = currentTermOf(starts, today)!;
  await page.goto(`/bursary/debtors?student_class=${encodeURIComponent(ARM)}`);
  await expect(page.getByLabel(L.term)).toHaveValue(current);
  await expect(page.getByLabel(L.term).locator('option:checked')).toHaveText(termLabel(current));
  const row = page.locator(`[data-testid="debtor-row"][data-admission="${admission}"]`);
  const listed = await apiGet<DebtorsPage>(request, `/api/bursary/debtors/?student_class=${encodeURIComponent(ARM)}`);
  expect(listed.term).toBe(current);
  const mine = listed.debtors.find((d) => d.admission_number === admission)!;
  expect(mine.balance).toBe(owedWithItem - ITEM_NAIRA);
  await expect(row.getByTestId('debtor-balance')).toHaveText(formatNaira(mine.balance));
  await expect(page.getByText(L.termHint)).toBeVisible();
  await noSideways(page);
  await expectAccessible(page);
});
