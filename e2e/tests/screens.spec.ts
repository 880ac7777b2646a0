import type { APIRequestContext, Page } from '@playwright/test';
import { ATTENDANCE_LABELS } from '../../packages/domain/src/attendance';
import { ADMIN, apiToken, expect, expectAccessible, schoolClasses, signInViaApi, test, type Role } from '../fixtures';
import {
  addTermFees,
  asAdmin,
  createFormClass,
  createStaff,
  createStudent,
  currentSessionId,
  runTag,
  type OwnStaff,
  type OwnStudent,
} from '../school';

/**
 * Screens on a 360 px phone: every route of every role, with
 * payment history, published results and very long names present. Its own data (fixture school.ts):
 * a JSS 1 arm of this run (ARM) with the term fees, three students with 1st and 2nd-term results
 * (the 1st term's released; PUPIL has paid a term) and the long-named one; a JSS 2 arm of this run
 * (OTHER) with a student with results; a teacher of this run who is ARM's form teacher and teaches it
 * Mathematics; a long-named staff member.
 */

const PHONE = { width: 360, height: 740 };
const LONG_FIRST = 'Oluwadamilarenimiayomide';
const LONG_LAST = 'Adebayo-Ogunlesi-Akinwunmi-Fashola';
const RUN = runTag();
let ARM = '';
let OTHER = '';
let PUPIL: OwnStudent;
let STAFF: OwnStaff;
let longStudent = '';
let receiptRef = '';
let sessionId = 0;
/** Who signs in for each role. */
const creds = (role: Role) => ({ admin: ADMIN, staff: STAFF, student: PUPIL })[role];

async function admin(request: APIRequestContext) {
  return { authorization: `Bearer ${await apiToken(request, 'admin')}` };
}

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
}

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(120_000);
  const api = await asAdmin(request);
  const headers = api.headers;
  sessionId = await currentSessionId(api);
  const results = { terms: ['1st', '2nd'] as ('1st' | '2nd')[], score: (_: number, k: number) => 48 + ((k * 7) % 45) };
  const form = await createFormClass(api, 'JSS 1', RUN, { sessionId, students: 3, teaches: 'Mathematics', results });
  ({ arm: ARM, teacher: STAFF } = form);
  PUPIL = form.students[0]!;
  // A second class of its own, its results not released: the one published and filtered below.
  OTHER = (await createFormClass(api, 'JSS 2', `${RUN}O`, { sessionId, students: 1, results })).arm;
  await addTermFees(api, { arm: ARM, sessionId, tuition: [45_000, 40_000], bus: 15_000 });
  const t = RUN.toLowerCase();
  longStudent = (
    await createStudent(api, ARM, `${RUN}L`, {
      first_name: LONG_FIRST,
      last_name: `${LONG_LAST}${t}`,
      email: `long.name.${t}@a-very-long-email-domain-for-testing.school`,
      date_of_birth: '2011-06-01',
      fathers_name: 'Mr Adebayo-Ogunlesi-Akinwunmi-Fashola',
      home_address: '3 Ring Road, Ibadan',
    })
  ).admission_number;
  await createStaff(api, `${RUN}L`, [], {
    email: `long.staff.${t}@a-very-long-email-domain-for-testing.school`,
    first_name: LONG_FIRST,
    last_name: `${LONG_LAST}${t}`,
    gender: 'M',
    designation: 'Chemistry Teacher',
    department: 'Sciences',
  });
  const pub = await request.post('/api/results/publications/', {
    headers,
    data: { session_id: sessionId, term: '1st', student_class: ARM },
  });
  expect([200, 201]).toContain(pub.status());

  // The student has paid a term through the simulator, so there is payment history.
  const page = await browser.newPage({ baseURL: test.info().project.use.baseURL });
  await signInViaApi(page, page.request, 'student', PUPIL);
  await page.goto('/PaymentForm');
  await expect(page.getByTestId('fees-outstanding')).toBeVisible();
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page.waitForURL(/\/pay\/simulator\/[a-f0-9]+$/);
  await page.getByRole('button', { name: /^Pay ₦/ }).click();
  await expect(page.getByTestId('payment-message')).toHaveText('Payment verified successfully');
  await page.close();
  const studentHeaders = { authorization: `Bearer ${await apiToken(request, 'student', PUPIL)}` };
  const history = await request.get(`/api/payments/history/?admission_number=${PUPIL.admission_number}`, { headers: studentHeaders });
  receiptRef = ((await history.json()) as { reference: string; status: string }[]).find((p) => p.status === 'successful')!.reference;

  // The attendance screens stand on 2025/2026's third term, dated by the demo seed's calendar.
  const day = await request.get(`/api/attendance/register/?student_class=${encodeURIComponent(ARM)}&date=${REGISTER_DAY}`, { headers });
  expect(day.status(), await day.text()).toBe(200);
  expect(((await day.json()) as { day: { school_day: boolean; session_id: number | null } }).day).toMatchObject({
    school_day: true,
    session_id: sessionId,
  });
});

type Prepare = (page: Page) => Promise<void>;
interface Screen {
  path: string | (() => string);
  prepare?: Prepare;
}

const loadBroadsheet: Prepare = async (page) => {
  await page.getByLabel('Academic Term').selectOption('1st');
  await page.getByLabel('Class').selectOption(ARM);
  await page.getByRole('button', { name: 'Load Broadsheet' }).click();
  await expect(page.getByRole('region', { name: `Broadsheet ${ARM}` })).toBeVisible();
};
const classResults: Prepare = async (page) => {
  await page.getByLabel('Academic Term').selectOption('1st');
  await page.getByRole('button', { name: 'Fetch Students' }).click();
  await expect(page.getByRole('list', { name: 'Students' })).toBeVisible();
};
const checkResult: Prepare = async (page) => {
  const adm = page.getByLabel('Admission Number');
  if (await adm.isEditable()) await adm.fill(PUPIL.admission_number);
  await page.getByLabel('Academic Term').selectOption('1st');
  await page.getByRole('button', { name: 'Check Result' }).click();
  await expect(page.getByRole('rowheader', { name: 'Mathematics' })).toBeVisible();
};
const paymentReport: Prepare = async (page) => {
  await page.getByLabel('Class', { exact: true }).selectOption(ARM);
  await expect(page.getByTestId('class-report')).toBeVisible();
  await page.getByLabel('Admission Number').fill(PUPIL.admission_number);
  await expect(page.getByTestId('payment-history')).toBeVisible();
};
const reportCard = () => `/report-card?admission_number=${PUPIL.admission_number}&session_id=${sessionId}&term=1st`;
// Released results and the long-named student: the reason field and a wrapped name column.
const scoreSheet = () => `/score-sheet?session_id=${sessionId}&term=1st&class=${encodeURIComponent(ARM)}&subject=Mathematics`;
const showGrid: Prepare = async (page) => {
  await expect(page.getByTestId('score-grid')).toBeVisible();
};

// ARM's sheets for its form teacher and the admin: the ratings grid scrolls inside its region.
const ratingsSheet = () => `/class-ratings?session_id=${sessionId}&term=2nd&class=${encodeURIComponent(ARM)}`;
const showRatings: Prepare = async (page) => {
  await expect(page.getByTestId('ratings-grid')).toBeVisible();
};
const commentsSheet = () => `/class-comments?session_id=${sessionId}&term=2nd&class=${encodeURIComponent(ARM)}`;
const showComments: Prepare = async (page) => {
  await expect(page.getByTestId('comments-list')).toBeVisible();
};

// The approvals of a term: the staff member sees ARM, their form class; the admin every arm.
const showApprovals: Prepare = async (page) => {
  await page.getByLabel('Academic Term').selectOption('2nd');
  await expect(page.getByTestId(`approval-${ARM}`)).toBeVisible();
};

// Attendance: ARM's register of a school day with nothing saved (only opened here), its
// month, a student's term; the admin's Absent Today and School Calendar; the student's own.
const REGISTER_DAY = '2026-05-05';
const registerDay = () => `/attendance?class=${encodeURIComponent(ARM)}&date=${REGISTER_DAY}`;
const showRegister: Prepare = async (page) => {
  await expect(page.getByTestId('register-list')).toBeVisible();
};
const attendanceMonth = () => `/attendance/month?class=${encodeURIComponent(ARM)}&month=2026-05`;
const showMonth: Prepare = async (page) => {
  await expect(page.getByTestId('month-grid')).toBeVisible();
};
const studentAttendance = () => `/attendance/student?admission_number=${PUPIL.admission_number}&session_id=${sessionId}&term=3rd`;
const showStudentAttendance: Prepare = async (page) => {
  await expect(page.getByTestId('student-attendance')).toBeVisible();
};
const showCalendar: Prepare = async (page) => {
  await expect(page.getByTestId('term-3rd')).toBeVisible();
};
const showAbsent: Prepare = async (page) => {
  await expect(page.getByRole('heading', { name: 'Absent', exact: true })).toBeVisible();
};
const ATTENDANCE_STAFF: Screen[] = [
  { path: '/attendance' },
  { path: registerDay, prepare: showRegister },
  { path: attendanceMonth, prepare: showMonth },
  { path: studentAttendance, prepare: showStudentAttendance },
];
const ATTENDANCE_ADMIN: Screen[] = [
  { path: '/attendance/absent', prepare: showAbsent },
  { path: '/school-calendar', prepare: showCalendar },
];
const ATTENDANCE_STUDENT: Screen[] = [{ path: '/my-attendance', prepare: showStudentAttendance }];

// The bursar's office: the admin holds the bursar capability; PUPIL has a payment (the
// simulator's, above), so the ledger and the statement have lines. The student reads their own statement.
const showLedger: Prepare = async (page) => {
  await expect(page.getByTestId('ledger-row').first()).toBeVisible();
};
const showStatement: Prepare = async (page) => {
  await expect(page.getByTestId('statement-lines')).toBeVisible();
};
const BURSARY_ADMIN: Screen[] = [
  { path: '/bursary/record' },
  { path: '/bursary/ledger', prepare: showLedger },
  { path: '/bursary/statement' },
  { path: () => `/bursary/statement?admission_number=${PUPIL.admission_number}&session_id=${sessionId}`, prepare: showStatement },
  { path: '/staff-capabilities', prepare: async (page) => await expect(page.getByTestId('capability-row').first()).toBeVisible() },
  // Discounts: the student's panel, their discounts (if any) and the give form.
  {
    path: () => `/bursary/discounts?admission_number=${PUPIL.admission_number}&session_id=${sessionId}`,
    prepare: async (page) => await expect(page.getByRole('form', { name: 'Give a discount' })).toBeVisible(),
  },
];
const BURSARY_STUDENT: Screen[] = [{ path: '/my-statement', prepare: showStatement }];
// The bursar's reports: the whole school's debtors (the table scrolls sideways inside its
// own region, the name column sticky) and the collection summary.
const FEE_REPORTS_ADMIN: Screen[] = [
  { path: '/bursary/debtors', prepare: async (page) => await expect(page.getByTestId('debtor-row').first()).toBeVisible() },
  { path: '/bursary/collections', prepare: async (page) => await expect(page.getByTestId('collections-by-class')).toBeVisible() },
];
// Reported transfers: the student's form and list, the bursar's queue.
const showTransferForm: Prepare = async (page) => {
  await expect(page.getByRole('button', { name: 'Send to the bursar' })).toBeVisible();
};
BURSARY_STUDENT.push({ path: '/my-transfers', prepare: showTransferForm });
BURSARY_ADMIN.push({ path: '/bursary/transfers?status=all' });

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
  { path: () => `/student-BioData/${PUPIL.id}` },
  { path: () => `/staff-BioData/${STAFF.id}` },
  { path: '/Delete-message' },
  { path: '/import/students' },
  { path: '/staff' },
  { path: () => `/staff/${STAFF.staff_id}` },
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
  { path: '/my-classes' },
  { path: '/score-sheet' },
  { path: scoreSheet, prepare: showGrid },
  { path: '/class-ratings' },
  { path: ratingsSheet, prepare: showRatings },
  { path: '/class-comments' },
  { path: commentsSheet, prepare: showComments },
  { path: '/report-approvals', prepare: showApprovals },
  ...ATTENDANCE_STAFF,
  { path: '/change-password' },
];
const ADMIN_SCREENS: Screen[] = [
  { path: '/classes-subjects' },
  { path: '/teaching-assignments' },
  { path: () => `/student-subjects?admission_number=${PUPIL.admission_number}` },
  { path: '/adminHomePage' },
  { path: '/settings' },
  { path: '/StaffReg' },
  { path: '/UpdateStaffDetails' },
  { path: '/DeleteStaff' },
  { path: '/staff/create' },
  { path: () => `/staff/${STAFF.staff_id}/edit` },
  { path: '/dashboard/staff/create' },
  { path: '/import/staff' },
  { path: '/sessions' },
  { path: '/grading-scales' },
  { path: '/assessment-schemes' },
  { path: '/publish-results' },
  { path: '/result-audit' },
  { path: '/payments/fee-schedules' },
  { path: '/report-card-settings' },
  ...ATTENDANCE_ADMIN,
  ...BURSARY_ADMIN,
  ...FEE_REPORTS_ADMIN,
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
  ...ATTENDANCE_STUDENT,
  ...BURSARY_STUDENT,
  { path: '/change-password' },
];
const PUBLIC_SCREENS = ['/', '/login', '/Admin', '/StaffLogin', '/StudentLogin', '/no-such-page'];

async function sideways(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Each role signs in (the spec's own accounts) and opens its screens, ready, then `check`s each. */
async function visitScreens(
  page: Page,
  request: APIRequestContext,
  byRole: [Role, Screen[]][],
  check: (role: Role, path: string) => Promise<void>,
): Promise<void> {
  for (const [role, screens] of byRole) {
    await signInViaApi(page, request, role, creds(role));
    for (const screen of screens) {
      const path = typeof screen.path === 'function' ? screen.path() : screen.path;
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      if (screen.prepare) await screen.prepare(page);
      await check(role, path);
    }
    await signOut(page);
  }
}

test('no screen of any role scrolls sideways on a 360 px phone, with data present', async ({ page, request }) => {
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
  await visitScreens(page, request, byRole, async (role, path) => {
    const over = await sideways(page);
    if (over > 0) failures.push(`${role} ${path}: ${over}px`);
  });
  expect(failures).toEqual([]);
});

test('on a phone with payment history, a tap on Proceed to Payment hits that button', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'student', PUPIL);
  await page.goto('/PaymentForm');
  await expect(page.getByTestId('payment-history')).toBeVisible();
  expect(await sideways(page)).toBeLessThanOrEqual(0);
  const button = page.getByRole('button', { name: 'Proceed to Payment' });
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? '', {
    x: box.x + box.width / 2,
    y: box.y + box.height / 2,
  });
  expect(hit).toContain('Proceed to Payment');
  await expectAccessible(page);
});

/** Text that is cut off: spilling out of its box, or clipped by a scrolling or hidden-overflow ancestor. */
async function cutOff(page: Page, scope = 'main'): Promise<string[]> {
  return page.evaluate((scope) => {
    const out: string[] = [];
    const root = document.querySelector(scope);
    if (!root) return out;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const el = node.parentElement;
      if (!text || !el || el.closest('.sr-only, [hidden], option, select')) continue;
      let hidden = false;
      for (let a: Element | null = el; a && !hidden; a = a.parentElement)
        hidden = getComputedStyle(a).clipPath === 'inset(50%)' || a.getBoundingClientRect().width <= 1;
      if (hidden) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      if (!r.width) continue;
      const box = el.getBoundingClientRect();
      if (r.right > box.right + 1 || r.left < box.left - 1) out.push(`spills: ${text.slice(0, 40)}`);
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const ox = getComputedStyle(a).overflowX;
        if (ox === 'visible') continue;
        const ab = a.getBoundingClientRect();
        if (r.right > ab.right + 1 || r.left < ab.left - 1) {
          out.push(`clipped: ${text.slice(0, 40)}`);
          break;
        }
      }
      if (r.right > window.innerWidth + 1) out.push(`off screen: ${text.slice(0, 40)}`);
    }
    return [...new Set(out)];
  }, scope);
}

test('nothing is cut off on a 360 px phone: results, report card, receipt, fees, long names', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'student', PUPIL);
  const found: string[] = [];
  const check = async (label: string) => {
    for (const c of await cutOff(page)) found.push(`${label}: ${c}`);
  };

  await page.goto('/ResultsCheck');
  await expect(page.getByRole('heading', { name: 'My Results' })).toBeVisible();
  await expect(page.getByText(/Average/).first()).toBeVisible();
  await check('My Results');
  await expectAccessible(page);

  await page.goto(reportCard());
  await expect(page.getByTestId('card-position')).toBeVisible();
  await check('Report card');
  await expectAccessible(page);

  await page.goto('/PaymentForm');
  await expect(page.getByTestId('fees-outstanding')).toBeVisible();
  await check('Fees');
  await page.goto(`/payments/receipt/${encodeURIComponent(receiptRef)}`);
  await expect(page.getByTestId('receipt-amount')).toBeVisible();
  await check('Receipt');
  await expectAccessible(page);

  await signOut(page);
  await signInViaApi(page, request, 'admin');
  await page.goto(`/students/${longStudent}`);
  await expect(page.getByText(LONG_FIRST).first()).toBeVisible();
  await check('Student details');
  await page.goto('/student-data');
  await page
    .getByRole('searchbox')
    .or(page.getByLabel(/Search/))
    .first()
    .fill(LONG_FIRST);
  await expect(page.getByText(LONG_FIRST).first()).toBeVisible();
  await check('Student list');
  await page.goto('/staff');
  await expect(page.getByText(LONG_FIRST).first()).toBeVisible();
  await check('Staff list');
  await expectAccessible(page);
  expect(found).toEqual([]);
});

test('the home page sign-in button has real contrast, measured by axe; the admission link goes to the portal’s own page', async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto('/');
  const signIn = page.getByRole('link', { name: 'Sign in to the portal' });
  await expect(signIn).toBeVisible();
  // axe leaves text over a gradient "incomplete" (unmeasured): that is how white on white passed.
  const AxeBuilder = (await import('@axe-core/playwright')).default;
  const axe = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  const targets = (list: typeof axe.passes) => list.flatMap((r) => r.nodes.map((n) => n.html));
  expect(targets(axe.violations)).toEqual([]);
  expect(targets(axe.incomplete).filter((h) => h.includes('Sign in to the portal'))).toEqual([]);
  expect(targets(axe.passes).filter((h) => h.includes('Sign in to the portal'))).toHaveLength(1);
  const colours = await signIn.evaluate((el) => {
    const s = getComputedStyle(el);
    return { fg: s.color, bg: s.backgroundColor };
  });
  expect(colours.fg).not.toBe(colours.bg);
  await expect(page.getByRole('link', { name: 'Admission process' })).toHaveAttribute('href', '/admission');
  await expectAccessible(page);

  const headers = await admin(request);
  const settings = await (await request.get('/api/settings/')).json();
  const put = await request.put('/api/settings/', { headers, data: { ...settings, admission_url: 'https://example.school/admissions' } });
  expect(put.status(), await put.text()).toBe(200);
  try {
    // The home page keeps the portal's own page; it offers the school's address on.
    await page.reload();
    await page.getByRole('link', { name: 'Admission process' }).click();
    await expect(page.getByRole('link', { name: 'Apply online' })).toHaveAttribute('href', 'https://example.school/admissions');
  } finally {
    await request.put('/api/settings/', { headers, data: { ...settings, admission_url: '' } });
  }
});

test('the broadsheet prints every column on A4 landscape and keeps the name in view on a phone', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'admin');
  await page.goto('/broadsheet');
  await loadBroadsheet(page);
  const region = page.getByRole('region', { name: `Broadsheet ${ARM}` });
  await expectAccessible(page);
  const name = region.locator('tbody th[scope=row]').first();
  const before = (await name.boundingBox())!;
  await region.evaluate((el) => el.scrollBy({ left: 600 }));
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(100);
  const after = (await name.boundingBox())!;
  expect(Math.abs(after.x - before.x)).toBeLessThan(2);
  expect(await sideways(page)).toBeLessThanOrEqual(0);

  // Print: A4 landscape is 297 mm wide, 281 mm inside 8 mm margins (1062 px at 96 dpi).
  await page.setViewportSize({ width: 1062, height: 750 });
  await page.emulateMedia({ media: 'print' });
  const clipped = await region.evaluate((el) => {
    const edge = el.getBoundingClientRect().right;
    return Array.from(el.querySelectorAll('thead th'))
      .filter((th) => th.getBoundingClientRect().right > edge + 1)
      .map((th) => th.textContent);
  });
  expect(clipped).toEqual([]);
  expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const landscape = await page.evaluate(() =>
    Array.from(document.styleSheets).some((sheet) =>
      Array.from(sheet.cssRules).some((r) => r instanceof CSSPageRule && /landscape/.test(r.style.getPropertyValue('size'))),
    ),
  );
  expect(landscape).toBe(true);
  const pdf = (await page.pdf({ preferCSSPageSize: true, printBackground: true })).toString('latin1');
  // Every page of the printed broadsheet is A4 landscape: 842 pt wide, 595 pt high.
  const boxes = [...pdf.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [Math.round(Number(m[1])), Math.round(Number(m[2]))]);
  expect(boxes.length).toBeGreaterThan(0);
  for (const box of boxes) expect(box).toEqual([842, 595]);
});

test('a toast does not cover Logout or the CSV button, and a success is said once', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'admin');
  await page.goto('/staff');
  await expect(page.getByText(LONG_FIRST).first()).toBeVisible();
  // Loading a list is not news.
  await page.waitForTimeout(500);
  await expect(page.getByTestId('toast-success')).toHaveCount(0);

  await page.goto('/sessions');
  await page.getByLabel('Session name').fill('2031/2032');
  await page.getByRole('button', { name: 'Create Session' }).click();
  const toast = page.getByTestId('toast-success');
  await expect(toast).toBeVisible();
  const logout = page.getByRole('button', { name: 'Logout' });
  const overlaps = async (a: { x: number; y: number; width: number; height: number }, target: typeof logout) => {
    const b = (await target.boundingBox())!;
    return !(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y);
  };
  expect(await overlaps((await toast.boundingBox())!, logout)).toBe(false);
  await expectAccessible(page);

  await page.goto('/publish-results');
  await page.getByLabel('Academic Term').selectOption('2nd');
  await page.getByRole('button', { name: `Publish ${OTHER}` }).click();
  await expect(page.getByTestId('toast-success')).toBeVisible();
  expect(await overlaps((await page.getByTestId('toast-success').boundingBox())!, logout)).toBe(false);

  // The class payment report's Export CSV, with a toast up: the toast sits clear of it.
  await page.goto('/PaymentForm');
  await page.getByLabel('Class', { exact: true }).selectOption(ARM);
  const csv = page.getByRole('button', { name: 'Export CSV' });
  await csv.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const anyToast = page.locator('[data-testid^="toast-"]').first();
  if (await anyToast.isVisible()) {
    const box = (await anyToast.boundingBox())!;
    expect(await overlaps(box, logout)).toBe(false);
    expect(await overlaps(box, csv)).toBe(false);
  }
  // Wherever a toast shows, it sits at the bottom edge, away from the header's controls.
  const place = await page.evaluate(() => {
    const el = document.querySelector('.fixed[aria-live="polite"]');
    return el ? { bottom: el.getBoundingClientRect().bottom, viewport: window.innerHeight } : null;
  });
  expect(place && place.viewport - place.bottom).toBe(12);

  // Registering staff shows the success on the page, with no second toast of the same news.
  await page.goto('/staff/create');
  const t = Date.now().toString(36);
  await page.getByLabel('Username').fill(`once${t}`);
  await page.getByLabel('Email').fill(`once.${t}@e2e.school`);
  await page.getByLabel('First name').fill('Ngozi');
  await page.getByLabel('Last name').fill(`Eze${t}`);
  await page.getByLabel('Phone number').fill('08051234567');
  await page.getByLabel('Designation').fill('Biology Teacher');
  await page.getByLabel('Department').fill('Sciences');
  await page.getByRole('button', { name: 'Create Staff' }).click();
  await expect(page.getByTestId('alert-success')).toBeVisible();
  await expect(page.getByTestId('toast-success')).toHaveCount(0);
});

test('a page the role may not open says why on the page the user lands on', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'student', PUPIL);
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/StudentHomePage$/);
  await expect(page.getByText('You cannot open /settings: that page is only for administrators.', { exact: false })).toBeVisible();
  await expectAccessible(page);
  await signOut(page);
  await signInViaApi(page, request, 'staff', STAFF);
  await page.goto('/StaffReg');
  await expect(page).toHaveURL(/\/staffHomePage$/);
  await expect(page.getByText('You cannot open /StaffReg: that page is only for administrators.', { exact: false })).toBeVisible();
  await page.getByRole('link', { name: 'Register Student' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('You cannot open')).toHaveCount(0);
});

test('the class filter of Check Class Results offers every class of the school', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', STAFF);
  await page.goto('/ResultsCheck');
  const classes = await schoolClasses(request, await apiToken(request, 'staff', STAFF));
  await expect(page.getByLabel('Class', { exact: true }).locator('option')).toHaveText(['All', ...classes]);
  await page.getByLabel('Academic Term').selectOption('1st');
  await page.getByLabel('Class', { exact: true }).selectOption(OTHER);
  await page.getByRole('button', { name: 'Fetch Students' }).click();
  await expect(page.getByRole('list', { name: 'Students' })).toContainText(OTHER);
  await expectAccessible(page);
});

test('receipt time in the school time zone whatever the device clock; greeting; delete warning', async ({ browser, request }) => {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, timezoneId: 'UTC', viewport: PHONE });
  const page = await context.newPage();
  await signInViaApi(page, request, 'student', PUPIL);
  const token = await apiToken(request, 'student', PUPIL);
  const receipt = await (
    await request.get(`/api/payments/receipt/${encodeURIComponent(receiptRef)}/`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  const { formatDateTime } = await import('../../packages/domain/src/datetime');
  const lagos = formatDateTime(receipt.paid_at, 'Africa/Lagos');
  await page.goto(`/payments/receipt/${encodeURIComponent(receiptRef)}`);
  await expect(page.getByText(lagos, { exact: true })).toBeVisible();
  await expectAccessible(page);

  // The first admin (no name of their own) is not greeted "Welcome, School!".
  await page.evaluate(() => localStorage.clear());
  await page.goto('/Admin');
  await page.getByLabel('Email').fill('admin@e2e.school');
  await page.getByLabel('Password', { exact: true }).fill('Admin-E2E-Pass-1');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/adminHomePage$/);
  await expect(page.getByText('Welcome!', { exact: true })).toBeVisible();
  await expect(page.getByText('Welcome, School!')).toHaveCount(0);

  // Delete Student warns only about what exists: results (the portal keeps no attendance).
  await page.goto(`/DeleteStudent/${longStudent}`);
  await page.getByRole('button', { name: 'Delete Student' }).click();
  await expect(page.getByText('all results of this student will also be deleted', { exact: false })).toBeVisible();
  await expect(page.getByText(/attendance/i)).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await context.close();
});

/** Controls smaller than a thumb (44 x 44 px) in the page's content; a checkbox counts its label. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) return [];
    // The layout's "Back to home" link is on every page, not the screen's own.
    const back = main.querySelector(':scope > div:first-child a');
    const out: string[] = [];
    for (const el of Array.from(main.querySelectorAll('a[href], button, input, select, textarea, [role="button"]'))) {
      if (el === back) continue;
      const target = el.matches('input[type="checkbox"], input[type="radio"]') ? (el.closest('label') ?? el) : el;
      const r = target.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      if (r.width < 44 || r.height < 44) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? el.getAttribute('name') ?? '').trim().slice(0, 30);
        out.push(`${el.tagName.toLowerCase()} "${name}": ${Math.round(r.width)}x${Math.round(r.height)}`);
      }
    }
    return out;
  });
}

/**
 * Each role's screens on the phone: axe, thumb-sized targets, nothing cut off (where `checkCutOff`
 * says so) and no sideways scroll. Returns what it found, one line a problem.
 */
async function phoneProblems(
  page: Page,
  request: APIRequestContext,
  byRole: [Role, Screen[]][],
  checkCutOff: (path: string) => boolean = () => true,
): Promise<string[]> {
  const found: string[] = [];
  await visitScreens(page, request, byRole, async (role, path) => {
    await expectAccessible(page);
    for (const t of await smallTargets(page)) found.push(`${role} ${path}: small ${t}`);
    if (checkCutOff(path)) for (const c of await cutOff(page)) found.push(`${role} ${path}: ${c}`);
    const over = await sideways(page);
    if (over > 0) found.push(`${role} ${path}: ${over}px sideways`);
  });
  return found;
}

test('the attendance screens on a 360 px phone: axe, thumb-sized targets, nothing cut off or sideways', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const found = await phoneProblems(
    page,
    request,
    [
      ['student', ATTENDANCE_STUDENT],
      ['staff', ATTENDANCE_STAFF],
      ['admin', ATTENDANCE_ADMIN],
    ],
    // The month grid scrolls sideways inside its own region, by design.
    (path) => path !== attendanceMonth(),
  );

  // Save with nobody marked: the sticky bar says who is missing without covering the list.
  await signInViaApi(page, request, 'staff', STAFF);
  await page.goto(registerDay());
  await showRegister(page);
  await page.getByRole('button', { name: ATTENDANCE_LABELS.save }).click();
  const bar = page.getByTestId('register-summary').locator('..');
  await expect(bar.getByRole('alert')).toBeVisible();
  const barBox = (await bar.boundingBox())!;
  expect(barBox.height).toBeLessThan(PHONE.height / 3);
  // At the bottom of the page the last student's buttons are clear of the sticky bar.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const last = page.getByTestId('register-list').locator('li').last();
  const lastBox = (await last.boundingBox())!;
  const barNow = (await bar.boundingBox())!;
  expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(barNow.y + 1);
  for (const c of await cutOff(page)) found.push(`register after Save: ${c}`);
  expect(found).toEqual([]);
});

test('the bursary screens on a 360 px phone: axe, thumb-sized targets, nothing cut off or sideways', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const found = await phoneProblems(page, request, [
    ['student', BURSARY_STUDENT],
    ['admin', BURSARY_ADMIN],
  ]);
  expect(found).toEqual([]);
});

test('the debtors and collections screens on a 360 px phone: axe, thumb-sized targets, nothing cut off or sideways', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  // The debtors table scrolls sideways inside its own region, by design.
  const found = await phoneProblems(page, request, [['admin', FEE_REPORTS_ADMIN]], (path) => path !== '/bursary/debtors');
  expect(found).toEqual([]);
});
