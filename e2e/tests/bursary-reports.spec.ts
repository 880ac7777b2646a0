import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  FEE_REPORT_LABELS as L,
  FEE_REPORT_SCREENS,
  type CollectionSummary,
  type DebtorsPage,
} from '../../packages/domain/src/fee-reports';
import { formatNaira } from '../../packages/domain/src/money';
import { pdfText } from '../../apps/server/test/pdf-text';
import { apiToken, expect, expectAccessible, noSideways, signInViaUi, test } from '../fixtures';
import { addFee, asAdmin, createArm, createStaff, currentSessionId, currentTerm, runTag } from '../school';

// The bursar's reports on a 360 px phone: the bursar opens Debtors from the menu, filters to this
// spec's own SSS 2 arm, sorts by balance and finds the two students of this run; a cash payment
// recorded for one lowers their balance in the list; the CSV and the PDF of the list hold the
// student; the Collection Summary shows the cash under today's money and the arm's collected. Its own
// data, made through the API: the arm with its tuition, two students and a bursar; today is the
// school's, as the server says.

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
const CASH = 20_000;
const PART = 5_000;

let ARM = '';
let BURSAR = { email: '', password: '' };
let sessionId = 0;
let owes = ''; // owes the whole session
let part = ''; // paid part of it before the test
let token = '';
let schoolToday = '';

/** The school's today (in its time zone, as the server says). */
const lagosToday = () => schoolToday;

async function newStudent(request: APIRequestContext, headers: Record<string, string>, suffix: string): Promise<string> {
  const res = await request.post('/api/students/', {
    headers,
    data: {
      first_name: 'Report',
      last_name: `${suffix}${RUN}`,
      email: `report.${suffix.toLowerCase()}.${RUN.toLowerCase()}@e2e.school`,
      phone_number: '08031234567',
      gender: 'M',
      date_of_birth: '2009-03-01',
      student_class: ARM,
      fathers_name: 'Mr Report',
      home_address: '2 Marina, Lagos',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { admission_number: string }).admission_number;
}

async function cash(request: APIRequestContext, admission: string, naira: number) {
  const res = await request.post('/api/bursary/payments/', {
    headers: { authorization: `Bearer ${token}` },
    data: { admission_number: admission, session_id: sessionId, term: null, amount: naira, method: 'cash', paid_on: lagosToday() },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function apiGet<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

/** The text of a compressed pdfkit PDF: each stream inflated in place, then read as the server's tests do. */
function textOfPdf(pdf: Buffer): string {
  const src = pdf.toString('latin1');
  let out = '';
  let at = 0;
  for (const m of src.matchAll(/stream\r?\n/g)) {
    if (m.index < at || src.slice(Math.max(0, m.index - 3), m.index) === 'end') continue;
    const start = m.index + m[0].length;
    const end = src.indexOf('endstream', start);
    let body = pdf.subarray(start, end);
    try {
      body = inflateSync(body);
    } catch {
      // Not deflated (an image, a font kept raw): kept as it is.
    }
    out += src.slice(at, start) + body.toString('latin1') + '\n';
    at = end;
  }
  return pdfText(Buffer.from(out + src.slice(at), 'latin1'));
}

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  const { headers } = api;
  sessionId = await currentSessionId(api);
  schoolToday = (await currentTerm(api)).today;
  ARM = await createArm(api, 'SSS 2', RUN);
  await addFee(api, { arm: ARM, sessionId, term: '1st', naira: 45_000 });
  BURSAR = await createStaff(api, RUN, ['bursar']);
  owes = await newStudent(request, headers, 'Owes');
  part = await newStudent(request, headers, 'Part');
  token = await apiToken(request, 'staff', BURSAR);
  await cash(request, part, PART);
});

test('the bursar finds a debtor of the arm, records cash, downloads the list as CSV and PDF, and sees the cash in the summary', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const due = (
    await apiGet<DebtorsPage>(request, `/api/bursary/debtors/?session_id=${sessionId}&student_class=${encodeURIComponent(ARM)}`)
  ).debtors.find((d) => d.admission_number === owes)!.due;
  expect(due).toBeGreaterThan(CASH);
  const summaryBefore = await apiGet<CollectionSummary>(request, `/api/bursary/collections/?session_id=${sessionId}`);
  const collectedBefore = summaryBefore.by_class.find((c) => c.student_class === ARM)!.collected;

  // Debtors from the bursar's menu, filtered to the arm.
  await signInViaUi(page, 'staff', BURSAR);
  await page.getByRole('link', { name: new RegExp(`^${FEE_REPORT_SCREENS.debtors.label}`) }).click();
  await expect(page).toHaveURL(/\/bursary\/debtors$/);
  await expect(page.getByRole('heading', { name: FEE_REPORT_SCREENS.debtors.title, level: 1 })).toBeVisible();
  await page.getByLabel(L.arm).selectOption(ARM);
  await expect(page).toHaveURL(new RegExp(`student_class=${ARM.replaceAll(' ', '\\+')}`));
  const rows = page.getByTestId('debtor-row');
  const row = (admission: string) => page.locator(`[data-testid="debtor-row"][data-admission="${admission}"]`);
  await expect(row(owes)).toBeVisible();
  await expect(row(owes).getByTestId('debtor-balance')).toHaveText(formatNaira(due));
  await expect(row(part).getByTestId('debtor-balance')).toHaveText(formatNaira(due - PART));

  // Sort by balance: smallest first, then largest first (the header says which).
  const balanceHeader = page.getByRole('columnheader', { name: new RegExp(L.balance) });
  await expect(balanceHeader).toHaveAttribute('aria-sort', 'descending');
  await page.getByRole('button', { name: L.sortBy(L.balance) }).click();
  await expect(balanceHeader).toHaveAttribute('aria-sort', 'ascending');
  const order = async () =>
    (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-admission')))).filter((a) => a === owes || a === part);
  await expect.poll(order).toEqual([part, owes]);
  await page.getByRole('button', { name: L.sortBy(L.balance) }).click();
  await expect(balanceHeader).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(order).toEqual([owes, part]);
  await expectAccessible(page);
  await noSideways(page);

  // The name stays in view while the table scrolls sideways inside its own region.
  const region = page.getByRole('region', { name: FEE_REPORT_SCREENS.debtors.title });
  const name = row(owes).locator('th');
  const before = (await name.boundingBox())!;
  await region.evaluate((el) => el.scrollBy({ left: 400 }));
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(50);
  expect(Math.abs((await name.boundingBox())!.x - before.x)).toBeLessThan(2);

  // A cash payment for the student lowers their balance in the list.
  await cash(request, owes, CASH);
  await page.reload();
  await expect(row(owes).getByTestId('debtor-balance')).toHaveText(formatNaira(due - CASH));

  // The CSV and the PDF of the list hold the student with the new balance.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: L.downloadCsv }).click()]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const csvText = readFileSync(await csv.path(), 'utf8');
  expect(csvText).toContain(`${owes},Report Owes${RUN},${ARM},`);
  expect(csvText).toContain(`,${(due - CASH).toFixed(2)},`);
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: L.downloadPdf }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  const pdfBytes = readFileSync(await pdf.path());
  expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
  const text = textOfPdf(pdfBytes);
  expect(text).toContain(`Report Owes${RUN}`);
  expect(text).toContain(owes);
  expect(text).toContain(formatNaira(due - CASH));

  // The Collection Summary: today's cash, and the arm's collected grown by this run's cash.
  await page.goto('/staffHomePage');
  await page.getByRole('link', { name: new RegExp(`^${FEE_REPORT_SCREENS.collections.label}`) }).click();
  await expect(page.getByRole('heading', { name: FEE_REPORT_SCREENS.collections.title, level: 1 })).toBeVisible();
  await page.getByLabel(L.from).fill(lagosToday());
  await page.getByLabel(L.to).fill(lagosToday());
  await page.getByRole('button', { name: L.show }).click();
  await expect(page).toHaveURL(new RegExp(`from=${lagosToday()}`));
  const cashRow = page.getByTestId('collections-by-method').locator('[data-method="cash"]');
  await expect(cashRow).toBeVisible();
  await expect(cashRow).toContainText('Cash');
  const amountOf = async (loc: ReturnType<Page['locator']>) => Number(((await loc.textContent()) ?? '').replace(/[^\d.]/g, ''));
  expect(await amountOf(cashRow.getByTestId('method-amount'))).toBeGreaterThanOrEqual(CASH + PART);
  expect(
    await amountOf(page.getByTestId('collections-by-day').locator(`[data-date="${lagosToday()}"]`).getByTestId('day-amount')),
  ).toBeGreaterThanOrEqual(CASH + PART);
  const armRow = page.getByTestId('collections-by-class').locator(`[data-class="${ARM}"]`);
  await expect(armRow).toContainText(formatNaira(collectedBefore + CASH));
  await expectAccessible(page);
  await noSideways(page);
});
