import type { APIRequestContext, Page } from '@playwright/test';
import type { Statement } from '../../packages/domain/src/bursary';
import { BURSARY_SCREEN_LABELS as BL } from '../../packages/domain/src/bursary-screens';
import { termLabel } from '../../packages/domain/src/constants';
import { addDays } from '../../packages/domain/src/attendance';
import { formatDate } from '../../packages/domain/src/datetime';
import { FEE_REPORT_LABELS as L, type DebtorsPage } from '../../packages/domain/src/fee-reports';
import { FEE_MESSAGES } from '../../packages/domain/src/fees';
import { currentTermOf } from '../../packages/domain/src/fees-due';
import { formatNaira } from '../../packages/domain/src/money';
import { apiToken, expect, expectAccessible, signInViaUi, test } from '../fixtures';

// When fees fall due, on a 360 px phone: the bursar gives a fee item a due date a month away on the
// fee items screen; the statement lists it as not yet due, outside the balance; the debtors list opens
// on the current term (the demo calendar's, as of today) and does not count it. An arm no other spec
// reads (SSS 3C), a fresh student and an item named for this run.

const PHONE = { width: 360, height: 740 };
const BURSAR = { email: 'staff3@demo.school', password: 'Teach-Demo-2026' };
const RUN = Date.now().toString(36).toUpperCase();
const ARM = 'SSS 3C';
const ITEM = `Excursion ${RUN}`;
const ITEM_NAIRA = 7_500;
/** The demo school's calendar (apps/server/src/db/seed/calendar.ts) for 2025/2026. */
const DEMO_TERM_STARTS = { '1st': '2025-09-15', '2nd': '2026-01-12', '3rd': '2026-04-27' } as const;

let sessionId = 0;
let admission = '';
let token = '';

/** The school's today (the demo school is in Lagos). */
const lagosToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

async function noSideways(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function apiGet<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

test.beforeAll(async ({ request }) => {
  const headers = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
  const sessions = (await (await request.get('/api/sessions/', { headers })).json()) as { id: number; is_current: boolean }[];
  sessionId = sessions.find((s) => s.is_current)!.id;
  const student = await request.post('/api/students/', {
    headers,
    data: {
      first_name: 'Due',
      last_name: `Pupil${RUN}`,
      email: `due.${RUN.toLowerCase()}@e2e.school`,
      phone_number: '08031234567',
      gender: 'F',
      date_of_birth: '2008-03-01',
      student_class: ARM,
      fathers_name: 'Mr Pupil',
      home_address: '3 Marina, Lagos',
    },
  });
  expect(student.status(), await student.text()).toBe(201);
  admission = ((await student.json()) as { admission_number: string }).admission_number;
  // A 1st-term item with no due date yet: it falls due when the term begins, like every item.
  const item = await request.post('/api/payments/fee-schedules/', {
    headers,
    data: { student_class: ARM, session_id: sessionId, term: '1st', amount: ITEM_NAIRA, name: ITEM },
  });
  expect(item.status(), await item.text()).toBe(201);
  token = await apiToken(request, 'staff', BURSAR);
});

test('a fee due next month is upcoming on the statement and not owed in the debtors list, which opens on the current term', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const today = lagosToday();
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
  const current = currentTermOf(DEMO_TERM_STARTS, today)!;
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
