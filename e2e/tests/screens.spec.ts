import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, expect, expectAccessible, signInViaApi, test, type Role } from '../fixtures';

/**
 * Screens on a 360 px phone (issue 11 items 6, 10–12, 14–16, 19): every route of every role, with
 * payment history, published results and very long names present.
 */

const PHONE = { width: 360, height: 740 };
const LONG_FIRST = 'Oluwadamilarenimiayomide';
const LONG_LAST = 'Adebayo-Ogunlesi-Akinwunmi-Fashola';
let longStudent = '';
let receiptRef = '';
let sessionId = 0;

async function admin(request: APIRequestContext) {
  return { authorization: `Bearer ${await apiToken(request, 'admin')}` };
}

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
}

test.beforeAll(async ({ browser, request }) => {
  const headers = await admin(request);
  const sessions = (await (await request.get('/api/sessions/', { headers })).json()) as { id: number; is_current: boolean }[];
  sessionId = sessions.find((s) => s.is_current)!.id;
  for (const [term, amount] of [
    ['1st', 45000],
    ['2nd', 40000],
  ] as const) {
    const res = await request.post('/api/payments/fee-schedules/', {
      headers,
      data: { student_class: 'JSS 1A', session_id: sessionId, term, amount, description: `${term} term tuition` },
    });
    expect([201, 409]).toContain(res.status());
  }
  const t = Date.now().toString(36);
  const student = await request.post('/api/students/', {
    headers,
    data: {
      first_name: LONG_FIRST,
      last_name: `${LONG_LAST}${t}`,
      email: `long.name.${t}@a-very-long-email-domain-for-testing.school`,
      phone_number: '08031234567',
      gender: 'F',
      date_of_birth: '2011-06-01',
      student_class: 'JSS 1A',
      fathers_name: 'Mr Adebayo-Ogunlesi-Akinwunmi-Fashola',
      home_address: '3 Ring Road, Ibadan',
    },
  });
  expect(student.status(), await student.text()).toBe(201);
  longStudent = ((await student.json()) as { admission_number: string }).admission_number;
  const staff = await request.post('/api/staff/', {
    headers,
    data: {
      username: `long${t}`,
      email: `long.staff.${t}@a-very-long-email-domain-for-testing.school`,
      first_name: LONG_FIRST,
      last_name: `${LONG_LAST}${t}`,
      phone_number: '08051234567',
      gender: 'M',
      designation: 'Chemistry Teacher',
      department: 'Sciences',
      marital_status: 'S',
    },
  });
  expect(staff.status(), await staff.text()).toBe(201);
  const pub = await request.post('/api/results/publications/', {
    headers,
    data: { session_id: sessionId, term: '1st', student_class: 'JSS 1A' },
  });
  expect([200, 201]).toContain(pub.status());

  // The student pays the first term through the simulator, so there is payment history.
  const page = await browser.newPage({ baseURL: test.info().project.use.baseURL });
  await signInViaApi(page, page.request, 'student');
  await page.goto('/PaymentForm');
  await expect(page.getByTestId('fees-outstanding')).toBeVisible();
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page.waitForURL(/\/pay\/simulator\/[a-f0-9]+$/);
  await page.getByRole('button', { name: /^Pay ₦/ }).click();
  await expect(page.getByTestId('payment-message')).toHaveText('Payment verified successfully');
  const link = page.getByRole('link', { name: /^Receipt/ }).first();
  receiptRef = decodeURIComponent((await link.getAttribute('href'))!.split('/').pop()!);
  await page.close();
});

type Prepare = (page: Page) => Promise<void>;
interface Screen {
  path: string | (() => string);
  prepare?: Prepare;
}

const loadBroadsheet: Prepare = async (page) => {
  await page.getByLabel('Academic Term').selectOption('1st');
  await page.getByLabel('Class').selectOption('JSS 1A');
  await page.getByRole('button', { name: 'Load Broadsheet' }).click();
  await expect(page.getByRole('region', { name: 'Broadsheet JSS 1A' })).toBeVisible();
};
const classResults: Prepare = async (page) => {
  await page.getByLabel('Academic Term').selectOption('1st');
  await page.getByRole('button', { name: 'Fetch Students' }).click();
  await expect(page.getByRole('list', { name: 'Students' })).toBeVisible();
};
const checkResult: Prepare = async (page) => {
  const adm = page.getByLabel('Admission Number');
  if (await adm.isEditable()) await adm.fill('STU-0001');
  await page.getByLabel('Academic Term').selectOption('1st');
  await page.getByRole('button', { name: 'Check Result' }).click();
  await expect(page.getByRole('rowheader', { name: 'Mathematics' })).toBeVisible();
};
const paymentReport: Prepare = async (page) => {
  await page.getByLabel('Class', { exact: true }).selectOption('JSS 1A');
  await expect(page.getByTestId('class-report')).toBeVisible();
  await page.getByLabel('Admission Number').fill('STU-0001');
  await expect(page.getByTestId('payment-history')).toBeVisible();
};
const reportCard = () => `/report-card?admission_number=STU-0001&session_id=${sessionId}&term=1st`;

const STAFF_SCREENS: Screen[] = [
  { path: '/staffHomePage' },
  { path: '/StudentReg' },
  { path: '/UpdateStudentDetails' },
  { path: '/DeleteStudent' },
  { path: () => `/DeleteStudent/${longStudent}` },
  { path: '/CheckAStudentData' },
  { path: '/StaffDetails' },
  { path: '/CheckAStaffData' },
  { path: '/student-data' },
  { path: () => `/students/${longStudent}` },
  { path: '/student-BioData/1' },
  { path: '/staff-BioData/1' },
  { path: '/Delete-message' },
  { path: '/import/students' },
  { path: '/staff' },
  { path: '/staff/STAFF-0001' },
  { path: '/dashboard/staff' },
  { path: '/StudentInfos' },
  { path: '/ResultUpload' },
  { path: '/UpdateResult' },
  { path: '/DeleteResult' },
  { path: '/broadsheet', prepare: loadBroadsheet },
  { path: '/ResultsCheck', prepare: classResults },
  { path: '/check-a-result', prepare: checkResult },
  { path: reportCard },
  { path: '/PaymentForm', prepare: paymentReport },
  { path: () => `/payments/receipt/${encodeURIComponent(receiptRef)}` },
  { path: '/change-password' },
];
const ADMIN_SCREENS: Screen[] = [
  { path: '/adminHomePage' },
  { path: '/settings' },
  { path: '/StaffReg' },
  { path: '/UpdateStaffDetails' },
  { path: '/DeleteStaff' },
  { path: '/staff/create' },
  { path: '/staff/STAFF-0001/edit' },
  { path: '/dashboard/staff/create' },
  { path: '/import/staff' },
  { path: '/sessions' },
  { path: '/grading-scales' },
  { path: '/publish-results' },
  { path: '/result-audit' },
  { path: '/payments/fee-schedules' },
  ...STAFF_SCREENS.filter((s) => s.path !== '/staffHomePage'),
];
const STUDENT_SCREENS: Screen[] = [
  { path: '/StudentHomePage' },
  { path: '/StudentInfos' },
  { path: '/ResultsCheck' },
  { path: '/check-a-result', prepare: checkResult },
  { path: reportCard },
  { path: '/PaymentForm' },
  { path: () => `/payments/receipt/${encodeURIComponent(receiptRef)}` },
  { path: '/change-password' },
];
const PUBLIC_SCREENS = ['/', '/login', '/Admin', '/StaffLogin', '/StudentLogin', '/no-such-page'];

async function sideways(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test('item 6: no screen of any role scrolls sideways on a 360 px phone, with data present', async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(PHONE);
  const failures: string[] = [];
  for (const path of PUBLIC_SCREENS) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    const over = await sideways(page);
    if (over > 0) failures.push(`public ${path}: ${over}px`);
  }
  const byRole: [Role, Screen[]][] = [
    ['student', STUDENT_SCREENS],
    ['staff', STAFF_SCREENS],
    ['admin', ADMIN_SCREENS],
  ];
  for (const [role, screens] of byRole) {
    await signInViaApi(page, request, role);
    for (const screen of screens) {
      const path = typeof screen.path === 'function' ? screen.path() : screen.path;
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      if (screen.prepare) await screen.prepare(page);
      const over = await sideways(page);
      if (over > 0) failures.push(`${role} ${path}: ${over}px`);
    }
    await signOut(page);
  }
  expect(failures).toEqual([]);
});

test('item 6: on a phone with payment history, a tap on Proceed to Payment hits that button', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'student');
  await page.goto('/PaymentForm');
  await expect(page.getByTestId('payment-history')).toBeVisible();
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  const button = page.getByRole('button', { name: 'Proceed to Payment' });
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  const hit = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? '',
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
  expect(hit).toContain('Proceed to Payment');
  await expectAccessible(page);
});
