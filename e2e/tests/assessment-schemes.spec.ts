import type { APIRequestContext, Page } from '@playwright/test';
import { ASSESSMENT_MESSAGES } from '../../packages/domain/src/assessment';
import { RESULT_MESSAGES } from '../../packages/domain/src/result-messages';
import { apiToken, expect, expectAccessible, noSideways, signInViaApi, studentSubjects, test, openFromAdminMenu } from '../fixtures';
import { asAdmin, createArm, createStudent, runTag } from '../school';

// Assessment components from the browser: the admin sets CA1 20 / CA2 20 / Exam 60 for senior
// classes, converting a result entered as one total after a confirmation; scores are then entered,
// corrected and shown by component. Everything happens in a session of its own (created here), so
// the demo school's current session, and every other spec file, keep the default one-score scheme.
// Its results are deleted afterwards; the session itself cannot be deleted and stays, not current.
// The student is the spec's own, in an SSS 1 arm of this run (fixture school.ts); their subjects are
// the ones the school offers SSS 1.

const PHONE = { width: 360, height: 740 };
const SESSION = '2035/2036';
const TERM = '1st';
const RUN = runTag();
let STUDENT = '';

const plan = { sessionId: 0, arm: '', subjects: [] as string[] };

async function headers(request: APIRequestContext) {
  return { authorization: `Bearer ${await apiToken(request, 'admin')}` };
}

test.beforeAll(async ({ request }) => {
  const h = await headers(request);
  const api = await asAdmin(request);
  STUDENT = (await createStudent(api, await createArm(api, 'SSS 1', RUN), RUN)).admission_number;
  const created = await request.post('/api/sessions/', { headers: h, data: { name: SESSION } });
  expect(created.status(), await created.text()).toBe(201);
  plan.sessionId = ((await created.json()) as { id: number }).id;
  const student = await request.get(`/api/students/${STUDENT}/`, { headers: h });
  plan.arm = ((await student.json()) as { student_class: string }).student_class;
  expect(plan.arm).toMatch(/^SSS/);
  plan.subjects = await studentSubjects(request, h.authorization.slice('Bearer '.length), STUDENT);
  expect(plan.subjects.length).toBeGreaterThanOrEqual(3);
  // One result entered as one total on the default scheme: the scheme change has to convert it.
  const total = await request.post('/api/results/', {
    headers: h,
    data: {
      admission_number: STUDENT,
      session_id: plan.sessionId,
      term: TERM,
      student_class: plan.arm,
      subject: plan.subjects[1],
      score: 55,
      remarks: '',
      // Not the current session: the admin gives a reason.
      reason: 'Scheme test set-up',
    },
  });
  expect(total.status(), await total.text()).toBe(201);
});

test.afterAll(async ({ request }) => {
  const h = await headers(request);
  const res = await request.get(`/api/results/?session_id=${plan.sessionId}&term=${TERM}&admission_number=${STUDENT}`, { headers: h });
  if (res.status() !== 200) return;
  for (const r of (await res.json()) as { id: number; version: number }[])
    await request.delete(`/api/results/${r.id}/?version=${r.version}&reason=Clean-up`, { headers: h });
});

async function chooseSessionAndTerm(page: Page) {
  await expect(page.getByLabel('Academic Session')).toHaveValue(/\d+/);
  await page.getByLabel('Academic Session').selectOption({ label: SESSION });
  await page.getByLabel('Academic Term').selectOption(TERM);
}

test.describe.serial('assessment schemes', () => {
  test.use({ viewport: PHONE });

  test('the admin sets CA1 20 / CA2 20 / Exam 60 for SSS: a wrong sum is refused live, the conversion is confirmed', async ({
    page,
    request,
  }) => {
    await signInViaApi(page, request, 'admin');
    await openFromAdminMenu(page, 'Assessment Schemes');
    await page.getByLabel('Academic Session').selectOption({ label: SESSION });
    const sss = page.getByRole('region', { name: 'Senior (SSS)' });
    await expect(sss.getByTestId('scheme-counts-SSS')).toContainText(ASSESSMENT_MESSAGES.schemeCounts(0, 1));
    await expect(sss.getByLabel('Maximum SSS component 1')).toHaveValue('100');

    await sss.getByRole('button', { name: 'CA1 20 + CA2 20 + Exam 60' }).click();
    await expect(sss.getByLabel('Short label SSS component 1')).toHaveValue('CA1');
    await expect(sss.getByLabel('Short label SSS component 3')).toHaveValue('Exam');
    await expect(sss.getByTestId('scheme-sum-SSS')).toHaveText(ASSESSMENT_MESSAGES.schemeSum(100));

    // A wrong sum is refused as it is typed, and by Save.
    await sss.getByLabel('Maximum SSS component 3').fill('50');
    await expect(sss.getByTestId('scheme-sum-SSS')).toHaveText(ASSESSMENT_MESSAGES.schemeSum(90));
    await expect(sss.getByRole('alert')).toHaveText(ASSESSMENT_MESSAGES.sumNot100(90));
    await sss.getByRole('button', { name: 'Save SSS scheme' }).click();
    await expect(sss.getByRole('alertdialog')).toHaveCount(0);
    await sss.getByLabel('Maximum SSS component 3').fill('60');
    await expect(sss.getByRole('alert')).toHaveCount(0);
    await noSideways(page);
    await expectAccessible(page);

    // The result entered as one total: the admin is told what happens, and confirms.
    await sss.getByRole('button', { name: 'Save SSS scheme' }).click();
    const confirm = sss.getByRole('alertdialog', { name: 'Confirm the SSS scheme change' });
    await expect(confirm).toContainText(ASSESSMENT_MESSAGES.schemeNeedsConfirm(1, 'SSS', SESSION));
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText(ASSESSMENT_MESSAGES.schemeSaved('SSS', SESSION))).toBeVisible();
    await expect(sss.getByLabel('Maximum SSS component 2')).toHaveValue('20');
    // Junior classes keep the default.
    await expect(page.getByRole('region', { name: 'Junior (JSS)' }).getByLabel('Maximum JSS component 1')).toHaveValue('100');
  });

  test('scores by component on ResultUpload, UpdateResult, the report card and the broadsheet', async ({ page, request }) => {
    const [withScores, totalOnly, withAbsence] = plan.subjects as [string, string, string];
    await signInViaApi(page, request, 'admin');
    await page.goto('/ResultUpload');
    await chooseSessionAndTerm(page);
    await page.getByLabel('Admission Number').fill(STUDENT);
    await expect(page.getByLabel('Class')).toHaveValue(plan.arm);

    // One input per component; the total is computed as they are typed.
    await expect(page.getByLabel(`${withScores} Score`)).toHaveCount(0);
    await page.getByLabel(`${withScores} CA1 (max 20)`).fill('15');
    await page.getByLabel(`${withScores} CA2 (max 20)`).fill('12');
    await page.getByLabel(`${withScores} Exam (max 60)`).fill('50');
    await expect(page.getByLabel(`${withScores} Total`)).toHaveValue('77');
    // The result entered as one total keeps it, components empty.
    await expect(page.getByLabel(`${totalOnly} Total`)).toHaveValue('55');
    await expect(page.getByText(ASSESSMENT_MESSAGES.totalOnly)).toBeVisible();
    // Absent from a test: ABS, counted as no marks.
    await page.getByLabel(`${withAbsence} CA1 (max 20)`).fill('10');
    await page.getByLabel(`${withAbsence} CA2 (max 20)`).fill('abs');
    await page.getByLabel(`${withAbsence} Exam (max 60)`).fill('40');
    await expect(page.getByLabel(`${withAbsence} Total`)).toHaveValue('50');

    // A value over the component's maximum is refused, with its message, as typed and on save.
    await page.getByLabel(`${withScores} Exam (max 60)`).fill('65');
    await expect(page.getByText(ASSESSMENT_MESSAGES.componentRange('Exam', 60))).toBeVisible();
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByRole('alert').filter({ hasText: RESULT_MESSAGES.saveFailed })).toBeVisible();
    await page.getByLabel(`${withScores} Exam (max 60)`).fill('50');
    await expect(page.getByText(ASSESSMENT_MESSAGES.componentRange('Exam', 60))).toHaveCount(0);
    await noSideways(page);
    await expectAccessible(page);
    // Typed components survive a reload, as a single score does.
    await page.reload();
    await expect(page.getByText(RESULT_MESSAGES.draftRestored)).toBeVisible();
    await expect(page.getByLabel(`${withScores} CA2 (max 20)`)).toHaveValue('12');
    await expect(page.getByLabel(`${withScores} Total`)).toHaveValue('77');
    await expect(page.getByLabel(`${withAbsence} CA2 (max 20)`)).toHaveValue('abs');
    await page.getByRole('button', { name: 'Save All Results' }).click();
    // A session that is not the current one: the admin's change keeps a reason.
    await page.getByLabel('Reason for the change').fill('Entered for a session of its own');
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText(RESULT_MESSAGES.saved)).toBeVisible();

    // UpdateResult loads the components.
    await page.goto('/UpdateResult');
    await page.getByLabel('Admission Number').fill(STUDENT);
    await chooseSessionAndTerm(page);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByLabel(`${withScores} CA1 (max 20)`)).toHaveValue('15');
    await expect(page.getByLabel(`${withScores} CA2 (max 20)`)).toHaveValue('12');
    await expect(page.getByLabel(`${withScores} Exam (max 60)`)).toHaveValue('50');
    await expect(page.getByLabel(`${withScores} Total`)).toHaveValue('77');
    await expect(page.getByLabel(`${withAbsence} CA2 (max 20)`)).toHaveValue('ABS');
    await expect(page.getByLabel(`${totalOnly} Total`)).toHaveValue('55');
    // A correction: the new total is saved.
    await page.getByLabel(`${withScores} CA2 (max 20)`).fill('14');
    await expect(page.getByLabel(`${withScores} Total`)).toHaveValue('79');
    await noSideways(page);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByLabel('Reason for the change').fill('A corrected CA2');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText(RESULT_MESSAGES.updated)).toBeVisible();

    // The report card has the component columns before the total, ABS apart from a zero.
    await page.goto(`/report-card?admission_number=${STUDENT}&session_id=${plan.sessionId}&term=${TERM}`);
    const table = page.getByRole('region', { name: 'Subjects' });
    for (const heading of ['CA1', 'CA2', 'Exam', 'Total', 'Position', 'Highest'])
      await expect(table.getByRole('columnheader', { name: heading, exact: true })).toHaveCount(1);
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: withScores }) });
    await expect(row.getByRole('cell')).toContainText(['15', '14', '50', '79']);
    const absentRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: withAbsence }) });
    await expect(absentRow.getByRole('cell').nth(1)).toContainText('ABS');
    await expect(page.getByTestId('absent-note')).toHaveText(ASSESSMENT_MESSAGES.absentNote);
    await noSideways(page);
    await expectAccessible(page);

    // The broadsheet: each score with the student's subject position and its components.
    await page.goto('/broadsheet');
    await chooseSessionAndTerm(page);
    await page.getByLabel('Class').selectOption(plan.arm);
    await page.getByRole('button', { name: 'Load Broadsheet' }).click();
    const sheet = page.getByRole('region', { name: `Broadsheet ${plan.arm}` });
    const cell = sheet.getByRole('cell').filter({ hasText: '15+14+50' });
    await expect(cell).toHaveCount(1);
    await expect(cell.getByTestId('subject-position')).toHaveText('1st');
    await expect(cell).toHaveAttribute('title', ASSESSMENT_MESSAGES.componentsTitle('CA1 15 · CA2 14 · Exam 50'));
    await noSideways(page);
    await expectAccessible(page);

    // Component scores exist now: labels and maxima are fixed for the session, names still change.
    await page.goto('/assessment-schemes');
    await page.getByLabel('Academic Session').selectOption({ label: SESSION });
    const sss = page.getByRole('region', { name: 'Senior (SSS)' });
    await expect(sss.getByText(/already have component scores/)).toBeVisible();
    await expect(sss.getByLabel('Maximum SSS component 3')).toHaveAttribute('readonly', '');
    await expect(sss.getByLabel('Short label SSS component 3')).toHaveAttribute('readonly', '');
    await expect(sss.getByRole('button', { name: 'CA1 20 + CA2 20 + Exam 60' })).toHaveCount(0);
    await sss.getByLabel('Name SSS component 3').fill('Final Examination');
    await sss.getByRole('button', { name: 'Save SSS scheme' }).click();
    await expect(page.getByText(ASSESSMENT_MESSAGES.schemeSaved('SSS', SESSION))).toBeVisible();
    await expect(sss.getByLabel('Name SSS component 3')).toHaveValue('Final Examination');
    await noSideways(page);
    await expectAccessible(page);
  });
});
