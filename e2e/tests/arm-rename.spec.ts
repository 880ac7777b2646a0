import type { APIRequestContext } from '@playwright/test';
import type { ArmApproval } from '../../packages/domain/src/report-cards';
import { apiToken, expect, expectAccessible, noSideways, signInViaApi, test } from '../fixtures';

// On a 360 px phone: the admin renames an arm whose report cards are approved, from
// the Classes and Subjects screen; the approvals screen then shows the arm under its new name, still
// approved (decision 016: the rename is one row, the database carries it). An arm of this run's own
// (JSS 2 R<run>) with one student and a form-teacher comment, so no other spec's arm is touched.

const PHONE = { width: 360, height: 740 };
const RUN = Date.now().toString(36).toUpperCase();
const LEVEL = 'JSS 2';
const FROM = `${LEVEL} R${RUN}`;
const TO = `${LEVEL} X${RUN}`;
const TERM = '2nd';

let headers: Record<string, string> = {};
let sessionId = 0;

async function ok(res: Awaited<ReturnType<APIRequestContext['get']>>, status = 200) {
  expect(res.status(), await res.text()).toBe(status);
  return res.json();
}

test.beforeAll(async ({ request }) => {
  headers = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
  const sessions = (await ok(await request.get('/api/sessions/', { headers }))) as { id: number; is_current: boolean }[];
  sessionId = sessions.find((s) => s.is_current)!.id;
  await ok(await request.post('/api/classes/', { headers, data: { level: LEVEL, arm: `R${RUN}` } }), 201);
  const student = (await ok(
    await request.post('/api/students/', {
      headers,
      data: {
        first_name: 'Rena',
        last_name: `Pupil${RUN}`,
        email: `rename.${RUN.toLowerCase()}@e2e.school`,
        phone_number: '08031234567',
        gender: 'F',
        date_of_birth: '2012-03-01',
        student_class: FROM,
        fathers_name: 'Mr Pupil',
        home_address: '3 Marina, Lagos',
      },
    }),
    201,
  )) as { admission_number: string };
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
  await page.goto('/adminHomePage');
  await page
    .locator('#admin-menu')
    .getByRole('link', { name: /Classes and Subjects/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Classes and Subjects', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: `Rename ${FROM}` }).click();
  await page.getByLabel(`New arm for ${FROM}`).fill(`X${RUN}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId(`arm-${TO}`)).toBeVisible();
  await expect(page.getByTestId(`arm-${FROM}`)).toHaveCount(0);
  await expectAccessible(page);

  await page.goto('/adminHomePage');
  await page
    .locator('#admin-menu')
    .getByRole('link', { name: /Report Card Approvals/ })
    .click();
  await page.getByLabel('Academic Term').selectOption(TERM);
  const arm = page.getByTestId(`approval-${TO}`);
  await expect(arm.getByTestId('approval-status')).toHaveText('Approved');
  await expect(page.getByTestId(`approval-${FROM}`)).toHaveCount(0);
  await expectAccessible(page);
  await noSideways(page);

  // The form teacher's comment is still the arm's.
  const rows = (await ok(await request.get(`/api/report-approvals/?session_id=${sessionId}&term=${TERM}`, { headers }))) as ArmApproval[];
  expect(rows.find((r) => r.student_class === TO)).toMatchObject({ status: 'approved', form_comments: 1, students: 1 });
});
