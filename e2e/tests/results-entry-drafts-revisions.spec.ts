import type { APIRequestContext, Page } from '@playwright/test';
import type { GradeBandInput } from '../../packages/domain/src/grading';
import { RESULT_MESSAGES } from '../../packages/domain/src/result-messages';
import { apiToken, expect, expectAccessible, noSideways, signInViaApi, studentSubjects, submitSignIn, test } from '../fixtures';
import { asAdmin, createArm, createStaff, createStudentWithResults, currentSession, runTag, type OwnStaff } from '../school';

// Result entry that never carries one student's scores to another, the student's own class,
// released results changed only with a reason, drafts that survive reloads and expired sessions.
// Its own data (fixture school.ts): two JSS 2 arms of this run, four students in the first and two
// in the second, each with first and second term results in every subject they take in the current
// session (nothing in the third), and a teacher of this run.

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
const arms = { A: '', B: '' };
let TEACHER: OwnStaff;
/** Admission numbers: the first four in arm A, the last two in arm B. */
const adm = { s9: '', s10: '', s11: '', s12: '', s13: '', s14: '' };
const cal = { sessionId: 0, session: '' };
/** A subject s11 takes: its first-term result is cleared on Update Result. */
let CLEARED = '';

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  Object.assign(cal, await currentSession(api));
  arms.A = await createArm(api, 'JSS 2', RUN);
  arms.B = await createArm(api, 'JSS 2', `${RUN}B`);
  TEACHER = await createStaff(api, RUN);
  for (const [i, key] of (Object.keys(adm) as (keyof typeof adm)[]).entries()) {
    // One first-term score of 72: moving the JSS A band from 70 to 75 regrades it.
    const score = (j: number, term: string) =>
      i === 0 && j === 0 && term === '1st' ? 72 : 35 + ((i * 11 + j * 9 + (term === '1st' ? 0 : 4)) % 60);
    const student = await createStudentWithResults(api, i < 4 ? arms.A : arms.B, `${RUN}${key.toUpperCase()}`, {
      sessionId: cal.sessionId,
      terms: ['1st', '2nd'],
      score,
    });
    adm[key] = student.admission_number;
    if (key === 's11') CLEARED = student.subjects.at(-1)!;
  }
});

/** Opens Upload Results on the current session's 3rd term for a student of arm A. */
async function openThirdTermUpload(page: Page, admissionNumber: string) {
  await page.goto('/ResultUpload');
  await expect(page.getByLabel('Academic Session')).toHaveValue(/\d+/);
  await page.getByLabel('Academic Term').selectOption('3rd');
  await page.getByLabel('Admission Number').fill(admissionNumber);
  await expect(page.getByLabel('Class')).toHaveValue(arms.A);
}

/** Opens `path` (Update or Delete Result) on a student's term of the current session. */
async function searchStudentTerm(page: Page, path: string, admissionNumber: string, term: string) {
  await page.goto(path);
  await page.getByLabel('Admission Number').fill(admissionNumber);
  await page.getByLabel('Academic Term').selectOption(term);
  await page.getByRole('button', { name: 'Search' }).click();
}

async function termResults(request: APIRequestContext, token: string, admission: string, term: string) {
  const res = await request.get(`/api/results/?session_id=${cal.sessionId}&term=${term}&admission_number=${admission}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()) as { id: number; subject: string; score: number; version: number }[];
}

test.describe('results', () => {
  test.use({ viewport: PHONE });

  test('a new admission number clears the form, shows the name, takes the class from the record; the server refuses another class', async ({
    page,
    request,
  }) => {
    await signInViaApi(page, request, 'staff', TEACHER);
    const token = await apiToken(request, 'staff', TEACHER);
    const next = (await (await request.get(`/api/students/${adm.s10}/`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      first_name: string;
      last_name: string;
    };

    const [subjects9, subjects10] = [await studentSubjects(request, token, adm.s9), await studentSubjects(request, token, adm.s10)];
    await openThirdTermUpload(page, adm.s9);
    await expect(page.getByTestId('student-name')).toContainText(arms.A);
    for (const [i, s] of subjects9.entries()) await page.getByLabel(`${s} Score`).fill(String(50 + i));
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Results saved successfully!')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Update Results', level: 1 })).toBeVisible();

    // The scenario: the next student, who has no results yet.
    await page.getByLabel('Admission Number').fill(adm.s10);
    await expect(page.getByRole('heading', { name: 'Create Results', level: 1 })).toBeVisible();
    for (const s of subjects10) await expect(page.getByLabel(`${s} Score`)).toHaveValue('');
    await expect(page.getByTestId('student-name')).toHaveText(`${next.first_name} ${next.last_name} · ${arms.A}`);
    await expect(page.getByLabel('Class')).toHaveValue(arms.A);
    // Let the 500 ms lookup settle: the scores stay empty.
    await page.waitForTimeout(800);
    for (const s of subjects10) await expect(page.getByLabel(`${s} Score`)).toHaveValue('');
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Enter a score for at least one subject.')).toBeVisible();
    expect(await termResults(request, token, adm.s10, '3rd')).toEqual([]);
    await expectAccessible(page);
    await noSideways(page);

    // Item 2: another class is refused by the server, under the Class field.
    await page.getByLabel('Class').selectOption(arms.B);
    await page.getByLabel('Mathematics Score').fill('64');
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText(`This student is in ${arms.A}. Results can only be entered under the student's own class.`)).toBeVisible();
    expect(await termResults(request, token, adm.s10, '3rd')).toEqual([]);
    await expectAccessible(page);
  });

  test('one message per attempt, "e" is an invalid score of that subject, a cleared score deletes after confirmation', async ({
    page,
    request,
  }) => {
    await signInViaApi(page, request, 'staff', TEACHER);
    await openThirdTermUpload(page, adm.s11);
    await page.getByLabel('Mathematics Score').pressSequentially('e');
    await expect(page.getByLabel('Mathematics Score')).toHaveValue('e');
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Enter a number from 0 to 100 for Mathematics.')).toBeVisible();
    await expect(page.getByText('Failed to save results. Please check your inputs.')).toHaveCount(1);
    await expect(page.getByText('Enter a score for at least one subject.')).toHaveCount(0);
    await expectAccessible(page);

    // /UpdateResult: clearing a stored score asks, then deletes that subject's result.
    const token = await apiToken(request, 'staff', TEACHER);
    const before = await termResults(request, token, adm.s11, '1st');
    expect(before.some((r) => r.subject === CLEARED)).toBe(true);
    await searchStudentTerm(page, '/UpdateResult', adm.s11, '1st');
    await expect(page.getByLabel(`${CLEARED} Score`)).not.toHaveValue('');
    await page.getByLabel(`${CLEARED} Score`).fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Confirm deletion' });
    await expect(dialog).toContainText(`You cleared the score of ${CLEARED}. Saving deletes this result. Continue?`);
    await expectAccessible(page);
    await noSideways(page);
    await dialog.getByRole('button', { name: 'Delete and save' }).click();
    await expect(page.getByText('Results updated successfully!')).toBeVisible();
    const after = await termResults(request, token, adm.s11, '1st');
    expect(after.map((r) => r.subject).sort()).toEqual(
      before
        .map((r) => r.subject)
        .filter((s) => s !== CLEARED)
        .sort(),
    );
  });

  test('drafts survive a reload and an expired session, sign-in returns to the page, sign-out clears every draft', async ({
    page,
    request,
  }) => {
    await signInViaApi(page, request, 'staff', TEACHER);
    await openThirdTermUpload(page, adm.s12);
    await page.getByLabel('Mathematics Score').fill('71');
    await page.getByLabel('English Language Remarks').fill('Reads well');

    await page.reload();
    await expect(page.getByText('Your unsaved scores were restored.')).toBeVisible();
    await expect(page.getByLabel('Admission Number')).toHaveValue(adm.s12);
    await expect(page.getByLabel('Academic Term')).toHaveValue('3rd');
    await page.waitForTimeout(800); // the lookup runs and keeps the typed scores
    await expect(page.getByLabel('Mathematics Score')).toHaveValue('71');
    await expect(page.getByLabel('English Language Remarks')).toHaveValue('Reads well');
    await expectAccessible(page);

    // The session expires (tokens no longer accepted): sign in again, back on the same page with the scores.
    await page.evaluate(() => {
      localStorage.setItem('accessToken', 'expired');
      localStorage.setItem('refreshToken', 'expired');
    });
    await page.reload();
    await expect(page).toHaveURL(/\/StaffLogin\?expired=1&next=%2FResultUpload$/);
    await submitSignIn(page, TEACHER);
    await expect(page).toHaveURL(/\/ResultUpload$/);
    await expect(page.getByLabel('Mathematics Score')).toHaveValue('71');
    await expect(page.getByLabel('Admission Number')).toHaveValue(adm.s12);

    // UpdateResult keeps its own draft too.
    await searchStudentTerm(page, '/UpdateResult', adm.s12, '1st');
    await expect(page.getByLabel('Mathematics Score')).not.toHaveValue('');
    await page.getByLabel('Mathematics Score').fill('12');
    await page.reload();
    await expect(page.getByLabel('Mathematics Score')).toHaveValue('12');

    // Sign-out clears every draft, the payment form's included.
    await page.evaluate(() => localStorage.setItem('paymentFormDraft', JSON.stringify({ full_name: 'Left behind' })));
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/StaffLogin$/);
    const left = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:') || k === 'paymentFormDraft'));
    expect(left).toEqual([]);
  });

  test('after sign-in only paths of this site are followed', async ({ page }) => {
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      await page.goto(`/StaffLogin?next=${encodeURIComponent(next)}`);
      await submitSignIn(page, TEACHER);
      await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/staffHomePage$/);
      await page.evaluate(() => localStorage.clear());
    }
    await page.goto(`/StaffLogin?next=${encodeURIComponent('/UpdateResult')}`);
    await submitSignIn(page, TEACHER);
    await expect(page).toHaveURL(/\/UpdateResult$/);
  });

  test('a released result changes only with a reason, and the report card shows it as revised', async ({ page, request }) => {
    const adminToken = await apiToken(request, 'admin');
    const sid = cal.sessionId;
    const pub = await request.post('/api/results/publications/', {
      headers: { authorization: `Bearer ${adminToken}` },
      data: { session_id: sid, term: '1st', student_class: arms.B },
    });
    expect(pub.status()).toBe(201);
    const pubId = ((await pub.json()) as { id: number }).id;
    try {
      await signInViaApi(page, request, 'staff', TEACHER);
      await searchStudentTerm(page, '/UpdateResult', adm.s13, '1st');
      await expect(page.getByLabel('Mathematics Score')).not.toHaveValue('');
      await page.getByLabel('Mathematics Score').fill('88');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('These results have been released to the student: give a reason for the change.').first()).toBeVisible();
      await expect(page.getByLabel('Mathematics Score')).toHaveValue('88');
      await expectAccessible(page);
      await page.getByLabel('Reason for the change').fill('Script re-marked');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('Results updated successfully!')).toBeVisible();

      await page.goto(`/report-card?admission_number=${adm.s13}&session_id=${sid}&term=1st`);
      await expect(page.getByTestId('revised')).toContainText(/Revised on \d{4}-\d{2}-\d{2}/);
      await expect(page.getByTestId('revised')).toContainText('Mathematics');
      await expect(page.getByTestId('revised')).toContainText('Script re-marked');
      await expectAccessible(page);

      const card = await request.get(`/api/report-card/?admission_number=${adm.s13}&session_id=${sid}&term=1st`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(((await card.json()) as { revised_at: string | null }).revised_at).not.toBeNull();
    } finally {
      await request.delete(`/api/results/publications/${pubId}/`, { headers: { authorization: `Bearer ${adminToken}` } });
    }
  });

  test('Result History preselects the current session; Publish is off for a class without results', async ({ page, request }) => {
    await signInViaApi(page, request, 'admin');
    await page.goto('/result-audit');
    await expect(page.getByLabel('Academic Session')).toHaveValue(/\d+/);
    await expect(page.getByLabel('Academic Session').locator('option:checked')).toHaveText(/\(current\)/);
    await page.goto('/publish-results');
    await page.getByLabel('Academic Term').selectOption('3rd');
    await expect(page.getByRole('button', { name: `Publish ${arms.B}` })).toBeDisabled();
    await page.getByLabel('Academic Term').selectOption('1st');
    await expect(page.getByRole('button', { name: `Publish ${arms.B}` })).toBeEnabled();
    await expectAccessible(page);

    // The result sheet shows the scale's remark beside each grade, and the average with two decimals.
    await searchStudentTerm(page, '/DeleteResult', adm.s14, '1st');
    const math = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Mathematics' }) });
    await expect(math).toContainText(/[A-F](Excellent|Very good|Good|Fair|Pass|Fail)/);
    await expect(page.getByText(/^Average \d+\.\d{2}$/)).toBeVisible();
    await expectAccessible(page);
  });

  test("changing the current session's scale shows how many grades change and asks first; Cancel changes nothing", async ({
    page,
    request,
  }) => {
    const token = await apiToken(request, 'admin');
    const headers = { authorization: `Bearer ${token}` };
    const gradesOfSession = async () => {
      const res = await request.get(`/api/results/?session_id=${cal.sessionId}&student_class=${encodeURIComponent(arms.A)}`, { headers });
      return ((await res.json()) as { id: number; grade: string }[]).map((r) => `${r.id}:${r.grade}`).sort();
    };
    const original = (
      (await (await request.get('/api/grading-scales/', { headers })).json()) as { level: string; bands: GradeBandInput[] }[]
    ).find((s) => s.level === 'JSS')!.bands;
    const before = await gradesOfSession();
    // What the change regrades across the whole session (other specs' released cards included), as the server counts it.
    const preview = await request.post('/api/grading-scales/JSS/preview/', {
      headers,
      data: { bands: original.map((b, i) => ({ grade: b.grade, remark: b.remark, min: i === 0 ? 75 : b.min })) },
    });
    expect(preview.status(), await preview.text()).toBe(200);
    const counted = (await preview.json()) as { changes: number; released_changes: number };
    expect(counted.changes).toBeGreaterThan(0);

    await signInViaApi(page, request, 'admin');
    await page.goto('/grading-scales');
    await expect(page.getByText(`This scale grades ${cal.session}; past sessions keep their own.`).first()).toBeVisible();
    await page.getByLabel('From JSS band 1').fill('75');
    await page.getByRole('button', { name: 'Save JSS scale' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Confirm the JSS scale change' });
    await expect(dialog).toContainText(RESULT_MESSAGES.regradeNeedsConfirm(counted.changes, counted.released_changes, cal.session));
    await expectAccessible(page);
    await noSideways(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    expect(await gradesOfSession()).toEqual(before);

    await page.getByRole('button', { name: 'Save JSS scale' }).click();
    await page
      .getByRole('alertdialog', { name: 'Confirm the JSS scale change' })
      .getByRole('button', { name: 'Apply and regrade' })
      .click();
    await expect(page.getByText(RESULT_MESSAGES.scaleSavedForSession(cal.session, counted.changes))).toBeVisible();
    expect(await gradesOfSession()).not.toEqual(before);

    // Put the school's scale back for the other tests.
    const restore = await request.put('/api/grading-scales/JSS/', {
      headers,
      data: { bands: original.map((b) => ({ ...b, max: undefined })), confirm: true },
    });
    expect(restore.status()).toBe(200);
    expect(await gradesOfSession()).toEqual(before);
  });
});
