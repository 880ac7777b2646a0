import type { APIRequestContext, Page } from '@playwright/test';
import { REPORT_MESSAGES } from '../../packages/domain/src/report-card-rules';
import { type CommentSheet } from '../../packages/domain/src/report-cards';
import { type ReportSettings } from '../../packages/domain/src/report-card-schemas';
import { REPORT_CARD_SCREEN_MESSAGES as M } from '../../packages/domain/src/report-card-screens';
import { apiToken, expect, expectAccessible, noSideways, signInViaApi, test } from '../fixtures';
import { asAdmin, createFormClass, currentSessionId, enterScores, runTag, type OwnStaff } from '../school';

// On the second term of a JSS 1 arm of this run (its own data, fixture school.ts: two students with
// scores, and a teacher of this run who is its form teacher and teaches it Mathematics): with
// "require both comments" on, the form teacher submits once their own comments are in, and the
// principal is told theirs are missing before approval; an arm sent back shows on the form
// teacher's home with the reason and a link; a score changed after approval marks the arm on the
// approvals page, and the release confirmation lists the change. 360 px and axe on each screen. The
// school's report settings are put back afterwards.

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
const TERM = '2nd';
const REASON = 'Check the attendance of the last week.';
let ARM = '';
let FORM_TEACHER: OwnStaff;

const plan = {
  sessionId: 0,
  adms: [] as string[],
  settings: null as ReportSettings | null,
};
const tokens: { admin?: string; staff?: string } = {};
const admin = async (request: APIRequestContext) => ({ authorization: `Bearer ${(tokens.admin ??= await apiToken(request, 'admin'))}` });
const teacher = async (request: APIRequestContext) => ({
  authorization: `Bearer ${(tokens.staff ??= await apiToken(request, 'staff', FORM_TEACHER))}`,
});
const arm = { session_id: 0, term: TERM, student_class: '' };
const query = () => `session_id=${plan.sessionId}&term=${TERM}&student_class=${encodeURIComponent(ARM)}`;

async function comments(request: APIRequestContext, kind: 'form_comment' | 'principal_comment', text: (i: number) => string, skip = -1) {
  const headers = await admin(request);
  const sheet = (await (await request.get(`/api/class-comments/?${query()}`, { headers })).json()) as CommentSheet;
  const rows = sheet.rows
    .map((r, i) => ({ admission_number: r.admission_number, [kind]: i === skip ? '' : text(i), version: r.version }))
    .filter((_, i) => i !== skip);
  const res = await request.put('/api/class-comments/', { headers, data: { ...arm, rows } });
  expect(res.status(), await res.text()).toBe(200);
}

async function openApprovals(page: Page) {
  await page.goto('/report-approvals');
  await page.getByLabel('Academic Term').selectOption(TERM);
  return page.getByTestId(`approval-${ARM}`);
}

// Three screens with axe each, on a shared machine: more than the default minute.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async ({ request }) => {
  const headers = await admin(request);
  const api = await asAdmin(request);
  plan.sessionId = await currentSessionId(api);
  const form = await createFormClass(api, 'JSS 1', RUN, { sessionId: plan.sessionId, students: 2, teaches: 'Mathematics' });
  ({ arm: ARM, teacher: FORM_TEACHER } = form);
  Object.assign(arm, { session_id: plan.sessionId, student_class: ARM });
  for (const [i, { admission_number }] of form.students.entries()) {
    await enterScores(api, {
      sessionId: plan.sessionId,
      term: TERM,
      arm: ARM,
      admission: admission_number,
      scores: { Mathematics: 61 + i * 9 },
    });
  }
  plan.settings = (await (await request.get('/api/report-settings/', { headers })).json()) as ReportSettings;
  const strict = await request.put('/api/report-settings/', { headers, data: { ...plan.settings, require_comments: true } });
  expect(strict.status(), await strict.text()).toBe(200);
  const sheet = (await (await request.get(`/api/class-comments/?${query()}`, { headers })).json()) as CommentSheet;
  plan.adms = sheet.rows.map((r) => r.admission_number);
  expect(plan.adms.length).toBeGreaterThan(1);
});

// The arm is this run's own: only the school-wide setting is put back.
test.afterAll(async ({ request }) => {
  if (plan.settings) await request.put('/api/report-settings/', { headers: await admin(request), data: plan.settings });
});

test("the form teacher submits once their own comments are in; the principal's are asked of the principal", async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  // Every form comment but the last one.
  await comments(request, 'form_comment', (i) => `Steady work ${i}.`, plan.adms.length - 1);
  await signInViaApi(page, request, 'staff', FORM_TEACHER);
  let row = await openApprovals(page);
  await expect(row.getByTestId('approval-status')).toHaveText('Draft');
  const submit = async () => {
    await row.getByRole('button', { name: `Submit ${ARM}` }).click();
    await page
      .getByRole('alertdialog', { name: `Submit ${ARM}` })
      .getByRole('button', { name: 'Submit' })
      .click();
  };
  await submit();
  // The message says what is missing and who adds it: one form teacher's comment, theirs.
  await expect(row.getByRole('alert')).toHaveText(REPORT_MESSAGES.formCommentsMissing(1, ARM));
  await expectAccessible(page);
  // All form comments in, no principal's comment yet: the submission goes through.
  await comments(request, 'form_comment', (i) => `Steady work ${i}.`);
  await page.reload();
  row = await openApprovals(page);
  await submit();
  await expect(page.getByText(REPORT_MESSAGES.submitted(ARM))).toBeVisible();
  await expect(row.getByTestId('approval-status')).toHaveText('Submitted');

  // The principal cannot approve before writing theirs, and is told so.
  await signInViaApi(page, request, 'admin');
  row = await openApprovals(page);
  await row.getByRole('button', { name: `Approve ${ARM}` }).click();
  await page
    .getByRole('alertdialog', { name: `Approve ${ARM}` })
    .getByRole('button', { name: 'Approve' })
    .click();
  await expect(row.getByRole('alert')).toHaveText(REPORT_MESSAGES.principalCommentsMissing(plan.adms.length, ARM, 'approval'));
  await expect(row.getByTestId('approval-status')).toHaveText('Submitted');
  await expectAccessible(page);
});

test("an arm sent back shows on the form teacher's home, with the reason and a link to its comments", async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  const back = await request.post('/api/report-approvals/return/', { headers: await admin(request), data: { ...arm, reason: REASON } });
  expect(back.status(), await back.text()).toBe(200);
  await signInViaApi(page, request, 'staff', FORM_TEACHER);
  await page.goto('/staffHomePage');
  const notice = page.getByTestId('sent-back-notice');
  await expect(notice).toContainText(M.sentBackNoticeTitle);
  await expect(notice).toContainText(REASON);
  await expect(notice).toContainText(`${ARM}, Second Term`);
  await expectAccessible(page);
  await noSideways(page);
  await notice.getByRole('link', { name: M.sentBackOpenComments(ARM) }).click();
  await expect(page).toHaveURL(/\/class-comments\?/);
  await expect(page.getByTestId('comments-list')).toBeVisible();
  // Resubmitted, the notice goes.
  const again = await request.post('/api/report-approvals/submit/', { headers: await teacher(request), data: arm });
  expect(again.status(), await again.text()).toBe(200);
  await page.goto('/staffHomePage');
  await expect(page.getByRole('heading', { name: 'Staff Dashboard' })).toBeVisible();
  await expect(page.getByTestId('sent-back-notice')).toHaveCount(0);
});

test('a score changed after approval marks the arm, and the release confirmation lists it', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  const headers = await admin(request);
  await comments(request, 'principal_comment', () => 'A good term.');
  const approved = await request.post('/api/report-approvals/approve/', { headers, data: arm });
  expect(approved.status(), await approved.text()).toBe(200);
  // The form teacher teaches the arm Mathematics: they re-mark the first student's score after the approval.
  const adm = plan.adms[0]!;
  const results = (await (
    await request.get(`/api/results/?session_id=${plan.sessionId}&term=${TERM}&admission_number=${adm}`, { headers })
  ).json()) as { subject: string; score: number }[];
  const maths = results.find((r) => r.subject === 'Mathematics')!;
  const next = maths.score >= 50 ? maths.score - 7 : maths.score + 7;
  const changed = await request.post('/api/results/', {
    headers: await teacher(request),
    data: { ...arm, admission_number: adm, subjects: [{ name: 'Mathematics', score: next }] },
  });
  expect(changed.status(), await changed.text()).toBeLessThan(300);

  await signInViaApi(page, request, 'admin');
  const row = await openApprovals(page);
  await expect(row.getByTestId('approval-status')).toHaveText('Approved');
  const mark = row.getByTestId('changed-since-approval');
  await expect(mark).toContainText(M.changedSinceApproval(1));
  await expect(mark).toContainText(`Mathematics: ${maths.score} → ${next}`);
  await expectAccessible(page);
  await noSideways(page);

  // Releasing asks the principal to look first, listing the change.
  await row.getByRole('checkbox', { name: `Select ${ARM} to release` }).check();
  await page.getByRole('button', { name: /Release selected/ }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Release report cards' });
  await expect(confirm.getByTestId('release-changes')).toContainText(M.releaseLookFirst(1));
  await expect(confirm.getByTestId('release-changes')).toContainText(`${ARM}: `);
  await expect(confirm.getByTestId('release-changes')).toContainText(`Mathematics: ${maths.score} → ${next}`);
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Release' }).click();
  await expect(page.getByText(REPORT_MESSAGES.released(1))).toBeVisible();
  await expect(row.getByTestId('approval-status')).toHaveText('Released');
  await expect(row.getByTestId('changed-since-approval')).toHaveCount(0);
});
