import type { ArmApproval } from '../../packages/domain/src/report-cards';
import { expect, expectAccessible, noSideways, PHONE, signInViaApi, test, openFromAdminMenu } from '../fixtures';
import { asAdmin, createStudent, currentSessionId, okJson as ok, runTag } from '../school';

// On a 360 px phone: the admin renames an arm whose report cards are approved, from
// the Classes and Subjects screen; the approvals screen then shows the arm under its new name, still
// approved (decision 016: the rename is one row, the database carries it). An arm of this run's own
// (JSS 2 R<run>) with one student (fixture school.ts) and a form-teacher comment, so no other spec's
// arm is touched.

const RUN = runTag();
const LEVEL = 'JSS 2';
const FROM = `${LEVEL} R${RUN}`;
const TO = `${LEVEL} X${RUN}`;
const TERM = '2nd';

let headers: Record<string, string> = {};
let sessionId = 0;

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  headers = api.headers;
  sessionId = await currentSessionId(api);
  await ok(await request.post('/api/classes/', { headers, data: { level: LEVEL, arm: `R${RUN}` } }), 201);
  const student = await createStudent(api, FROM, RUN, {
    first_name: 'Rena',
    email: `rename.${RUN.toLowerCase()}@e2e.school`,
    date_of_birth: '2012-03-01',
  });
  const key = { session_id: sessionId, term: TERM, student_class: FROM };
  await ok(
    await request.post('/api/results/', {
      headers,
      data: { ...key, admission_number: student.admission_number, subjects: [{ name: 'Mathematics', score: 72 }] },
    }),
    201,
  );
  await ok(
    await request.put('/api/class-comments/', {
      headers,
      data: { ...key, rows: [{ admission_number: student.admission_number, form_comment: 'A steady term.', version: 0 }] },
    }),
  );
  await ok(await request.post('/api/report-approvals/submit/', { headers, data: key }));
  await ok(await request.post('/api/report-approvals/approve/', { headers, data: key }));
});

test('renaming an approved arm from the admin screen keeps it approved', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'admin');
  await openFromAdminMenu(page, 'Classes and Subjects');
  await page.getByRole('button', { name: `Rename ${FROM}` }).click();
  await page.getByLabel(`New arm for ${FROM}`).fill(`X${RUN}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId(`arm-${TO}`)).toBeVisible();
  await expect(page.getByTestId(`arm-${FROM}`)).toHaveCount(0);
  await expectAccessible(page);

  await openFromAdminMenu(page, 'Report Card Approvals');
  await page.getByLabel('Academic Term').selectOption(TERM);
  const arm = page.getByTestId(`approval-${TO}`);
  await expect(arm.getByTestId('approval-status')).toHaveText('Approved');
  await expect(page.getByTestId(`approval-${FROM}`)).toHaveCount(0);
  await expectAccessible(page);
  await noSideways(page);

  // The form teacher's comment is still the arm's.
  const rows = await ok<ArmApproval[]>(await request.get(`/api/report-approvals/?session_id=${sessionId}&term=${TERM}`, { headers }));
  expect(rows.find((r) => r.student_class === TO)).toMatchObject({ status: 'approved', form_comments: 1, students: 1 });
});
