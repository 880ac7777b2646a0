import type { Page } from '@playwright/test';
import type { StudentDashboard } from '../../packages/domain/src/dashboard-student';
import type { ReportCard } from '../../packages/domain/src/report-cards';
import { PARENT_SCREEN_LABELS as L } from '../../packages/domain/src/parent-screens';
import { expect, expectAccessible, noSideways, PHONE, signInViaApi, test } from '../fixtures';
import {
  addFee,
  adminGet,
  asAdmin,
  createArm,
  createParent,
  createStudentWithResults,
  currentTerm,
  publishArm,
  runTag,
  type AdminApi,
  type OwnParent,
  type OwnStudent,
} from '../school';

test.describe.configure({ mode: 'serial' });

// Its own data (school.ts): a JSS 2 arm of this run with two students whose results of the current
// term are entered and released, ₦30,000 of tuition owed this term, and a parent linked to the
// first student. The student opens their home on a 1280 px screen and on a 360 px phone (a cheap
// Android phone is the student's device); the parent opens theirs. Each sees the dashboard, whose
// table views show the numbers the API and the report card give, with the menu still reachable.
// Nothing of the shared demo school is changed.

const RUN = runTag();
let API: AdminApi;
let SESSION_ID = 0;
let TERM: '1st' | '2nd' | '3rd' = '1st';
let ARM = '';
let PUPIL: OwnStudent & { subjects: string[] };
let PARENT: OwnParent;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  API = await asAdmin(request);
  const current = await currentTerm(API);
  SESSION_ID = current.session_id;
  TERM = current.term;
  ARM = await createArm(API, 'JSS 2', `${RUN}D`);
  PUPIL = await createStudentWithResults(API, ARM, `${RUN}A`, { sessionId: SESSION_ID, terms: [TERM], score: (j) => 55 + ((j * 7) % 40) });
  await createStudentWithResults(API, ARM, `${RUN}B`, { sessionId: SESSION_ID, terms: [TERM], score: (j) => 48 + ((j * 5) % 45) });
  await publishArm(API, { sessionId: SESSION_ID, term: TERM, arm: ARM });
  await addFee(API, { arm: ARM, sessionId: SESSION_ID, term: TERM, naira: 30_000 });
  PARENT = await createParent(API, `${RUN}P`, { arm: ARM, admissionNumbers: [PUPIL.admission_number] });
});

const dashboardOf = (request: Page['request']) =>
  adminGet<StudentDashboard>(request, `/api/dashboards/student/?student=${PUPIL.admission_number}`);

/** The dashboard's tables against the API's answer and the report card: the same numbers. */
async function expectSameNumbers(page: Page, root: ReturnType<Page['locator']>) {
  const d = await dashboardOf(page.request);
  const card = await adminGet<ReportCard>(
    page.request,
    `/api/report-card/?admission_number=${PUPIL.admission_number}&session_id=${SESSION_ID}&term=${TERM}`,
  );
  const point = d.history.find((p) => p.session_id === SESSION_ID && p.term === TERM)!;
  expect(point.average).toBe(card.average);
  expect(point.position).toBe(card.position);
  const history = await showNumbers(root, 'history');
  const row = history.getByRole('row').filter({ hasText: point.arm });
  await expect(row).toContainText(card.average.toFixed(2));
  await expect(row).toContainText(`${card.position} of ${card.class_size}`);
  const subjects = await showNumbers(root, 'subjects');
  await expect(subjects.locator('tbody tr')).toHaveCount(PUPIL.subjects.length);
  for (const s of card.subjects.filter((x) => x.score !== null)) {
    const r = subjects.getByRole('row').filter({ hasText: s.subject });
    await expect(r).toContainText(String(s.score));
    await expect(r).toContainText(s.class_average!.toFixed(2));
  }
  await expect(root.getByTestId('dash-balance')).toHaveText('₦30,000.00');
}

/** Opens a chart's table view ("Show numbers" in its panel) and returns the table. */
async function showNumbers(root: ReturnType<Page['locator']>, chart: 'history' | 'subjects') {
  const table = root.getByTestId(`${chart}-table`);
  await expect(root.getByTestId(`${chart}-chart`)).toBeVisible();
  await root.getByTestId(`${chart}-toggle`).click();
  await expect(table).toBeVisible();
  return table;
}

for (const [name, size] of [
  ['1280 px', { width: 1280, height: 900 }],
  ['360 px', PHONE],
] as const) {
  test(`a student at ${name}: their home shows the term at a glance, the numbers of the card, and the menu`, async ({ page }) => {
    await page.setViewportSize(size);
    await signInViaApi(page, page.request, 'student', { email: PUPIL.email, password: PUPIL.password });
    await page.goto('/StudentHomePage');
    const dash = page.getByTestId('student-dashboard');
    await expect(dash.getByTestId('history-chart')).toBeVisible();
    // The charts, then their tables: axe and no sideways scroll on both views.
    await expectAccessible(page);
    await noSideways(page);
    await expectSameNumbers(page, dash);
    // The menu is still there, and its links still open their screens.
    await expect(page.getByRole('link', { name: /My Report Card/ })).toBeVisible();
    await expectAccessible(page);
    await noSideways(page);
    await page.getByRole('link', { name: /My Report Card/ }).click();
    await expect(page).toHaveURL(/\/report-card/);
  });
}

for (const [name, size] of [
  ['360 px', PHONE],
  ['1280 px', { width: 1280, height: 900 }],
] as const) {
  test(`a parent at ${name}: the child's dashboard on the parent's home, the same numbers`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto('/ParentLogin');
    await page.getByLabel(L.loginField).fill(PARENT.phone);
    await page.getByLabel('Password', { exact: true }).fill(PARENT.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/ParentHomePage/);
    const dash = page.locator(`[data-testid="student-dashboard"][data-child="${PUPIL.admission_number}"]`);
    await expect(dash.getByTestId('subjects-chart')).toBeVisible();
    await expectAccessible(page);
    await noSideways(page);
    await expectSameNumbers(page, dash);
    // The child's card, attendance and fee links of the parent home are still there.
    await expect(page.getByTestId('child-card')).toHaveCount(1);
    await expectAccessible(page);
    await noSideways(page);
  });
}
