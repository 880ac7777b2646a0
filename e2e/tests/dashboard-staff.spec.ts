import type { APIRequestContext, Page } from '@playwright/test';
import type { BursarDashboard, StaffDashboard } from '../../packages/domain/src/dashboard-staff';
import { formatNaira } from '../../packages/domain/src/money';
import { PAYMENT_METHOD_LABELS } from '../../packages/domain/src/bursary';
import { apiToken, expect, expectAccessible, noSideways, signInViaUi, test, type Creds } from '../fixtures';
import {
  addFee,
  asAdmin,
  assignTeacher,
  createFormClass,
  createStaff,
  currentTerm,
  enterScores,
  runTag,
  type FormClass,
  type OwnStaff,
} from '../school';

// The staff home's dashboards (issue 36.2, 36.3) at 1280 and 360 px: a subject teacher's sheets with
// their entry progress, a form teacher's register today and cards still owed, and the bursar's
// money panels. Each "Show numbers" table holds the numbers the endpoint answers (which the API tests
// check against the reports); axe on each dashboard, no sideways scroll, the menu still below.
// Its own arm, teachers and bursar, made through the API; nothing of the demo school is changed.

const RUN = runTag();
const SIZES = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 360, height: 740 },
];

let form: FormClass;
let subjectTeacher: OwnStaff;
let bursar: OwnStaff;
let sessionId = 0;
let term = '';

async function dashboardOf<T>(request: APIRequestContext, who: Creds, path: string): Promise<T> {
  const token = await apiToken(request, 'staff', who);
  const res = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

/** The rows of a "Show numbers" table as text, header row excluded. */
async function tableRows(page: Page, testId: string): Promise<string[][]> {
  const table = page.getByTestId(testId);
  await expect(table).toBeVisible();
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.children, (c) => (c.textContent ?? '').trim())));
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const api = await asAdmin(request);
  const cur = await currentTerm(api);
  sessionId = cur.session_id;
  term = cur.term;
  // A JSS 1 arm of three with its form teacher; another teacher teaches it Mathematics, two scores entered.
  form = await createFormClass(api, 'JSS 1', RUN, { sessionId, students: 3 });
  subjectTeacher = await createStaff(api, `${RUN}M`);
  await assignTeacher(api, { sessionId, arm: form.arm, subject: 'Mathematics', staffId: subjectTeacher.staff_id });
  for (const [i, score] of [
    [0, 72],
    [1, 55],
  ] as const)
    await enterScores(api, {
      sessionId,
      term: cur.term,
      arm: form.arm,
      admission: form.students[i]!.admission_number,
      scores: { Mathematics: score },
    });
  await addFee(api, { arm: form.arm, sessionId, term: cur.term, naira: 30_000 });
  bursar = await createStaff(api, `${RUN}B`, ['bursar']);
});

for (const size of SIZES) {
  test(`a subject teacher sees their sheet's entry progress and average, and opens the sheet (${size.name})`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const d = await dashboardOf<StaffDashboard>(request, subjectTeacher, '/api/dashboards/staff/');
    const row = d.subjects.find((p) => p.student_class === form.arm && p.subject === 'Mathematics')!;
    expect(row).toMatchObject({ entered: 2, expected: 3, average: 63.5 });
    expect(d.form_classes).toEqual([]);

    await signInViaUi(page, 'staff', subjectTeacher);
    const dash = page.getByTestId('staff-dashboard');
    await expect(dash.getByRole('heading', { name: /This term at a glance/ })).toBeVisible();
    const link = dash.getByRole('link', { name: new RegExp(`Score sheet: ${form.arm} Mathematics`) });
    await expect(link).toContainText('2/3');
    await dash.getByRole('button', { name: 'Show numbers' }).click();
    expect(await tableRows(page, 'staff-subjects-table')).toContainEqual([`${form.arm} · Mathematics`, '2', '3', '63.5']);
    await expectAccessible(page);
    await noSideways(page);
    // The menu is still on the home, below the dashboard.
    await expect(page.getByRole('heading', { name: 'My classes' })).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/score-sheet\?/);
    await expect(page).toHaveURL(new RegExp(`subject=Mathematics`));
  });

  test(`a form teacher sees today's register, absentees and the cards still owed (${size.name})`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const d = await dashboardOf<StaffDashboard>(request, form.teacher, '/api/dashboards/staff/');
    const f = d.form_classes.find((x) => x.student_class === form.arm)!;
    expect(f).toMatchObject({ students: 3, cards: 2 });
    expect(d.subjects).toEqual([]);

    await signInViaUi(page, 'staff', form.teacher);
    const card = page.getByTestId('staff-form-class');
    await expect(card.getByRole('heading', { name: `Form class ${form.arm}` })).toBeVisible();
    await expect(card.getByTestId('staff-register-today')).toContainText(
      !f.school_day ? 'not a school day' : f.register_done ? 'is marked' : 'not marked yet',
    );
    await expect(card.getByTestId('staff-cards-owed')).toContainText(`Report cards (${f.cards})`);
    if (f.ratings_missing) await expect(card.getByTestId('staff-cards-owed')).toContainText(`${f.ratings_missing} students to rate`);
    await expect(card.getByRole('link', { name: `Open the register of ${form.arm}` })).toBeVisible();
    await expectAccessible(page);
    await noSideways(page);
    await expect(page.getByRole('heading', { name: 'My classes' })).toBeVisible();
  });

  test(`the bursar sees the term's money, debtors by age and waiting transfers, with the same numbers in the tables (${size.name})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(size);
    const d = await dashboardOf<BursarDashboard>(request, bursar, '/api/dashboards/bursar/');
    await signInViaUi(page, 'staff', bursar);
    const dash = page.getByTestId('bursar-dashboard');
    await expect(dash.getByRole('heading', { name: /Bursary this term/ })).toBeVisible();

    const ageing = page.getByTestId('bursar-ageing');
    await ageing.getByRole('button', { name: 'Show numbers' }).click();
    expect(await tableRows(page, 'bursar-ageing-table')).toEqual(
      d.debtors_ageing.map((a) => [a.label, String(a.debtors), formatNaira(a.balance)]),
    );

    const levels = page.getByTestId('bursar-by-level');
    await levels.getByRole('button', { name: 'Show numbers' }).click();
    expect(await tableRows(page, 'bursar-by-level-table')).toEqual(
      d.by_level.map((l) => [l.level, String(l.students), formatNaira(l.expected), formatNaira(l.collected), formatNaira(l.outstanding)]),
    );
    expect(d.by_level.some((l) => l.level === 'JSS 1')).toBe(true);

    if (d.collections_by_method.length) {
      await page.getByTestId('bursar-by-method').getByRole('button', { name: 'Show numbers' }).click();
      expect(await tableRows(page, 'bursar-by-method-table')).toEqual(
        d.collections_by_method.map((m) => [PAYMENT_METHOD_LABELS[m.method], String(m.count), formatNaira(m.amount)]),
      );
    }
    await expect(page.getByTestId('bursar-transfers')).toContainText(
      d.transfers_waiting.count ? `${d.transfers_waiting.count} reported` : 'No reported transfer',
    );
    await expectAccessible(page);
    await noSideways(page);
    // The bursar's menu is still on the home; the report link opens the debtors list.
    await expect(page.getByRole('heading', { name: 'Bursary', exact: true })).toBeVisible();
    await ageing.getByRole('link', { name: 'See the debtors list' }).click();
    await expect(page).toHaveURL(/\/bursary\/debtors$/);
  });
}

test('a staff member without the bursar capability gets no bursary panels, and the endpoint refuses them', async ({ page, request }) => {
  const token = await apiToken(request, 'staff', form.teacher);
  const res = await request.get('/api/dashboards/bursar/', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(403);
  await signInViaUi(page, 'staff', form.teacher);
  await expect(page.getByTestId('staff-dashboard')).toBeVisible();
  await expect(page.getByTestId('bursar-dashboard')).toHaveCount(0);
  expect(sessionId).toBeGreaterThan(0);
  expect(term).not.toBe('');
});
