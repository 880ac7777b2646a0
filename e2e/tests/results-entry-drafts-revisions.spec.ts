import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, expect, expectAccessible, signInViaApi, studentSubjects, test } from '../fixtures';

// Result entry that never carries one student's scores to another, the student's own class,
// released results changed only with a reason, drafts that survive reloads and expired sessions.
// The demo school has 4 students per class: STU-0009..0012 are in JSS 2A, STU-0013..0016 in JSS 2B
// (the earlier twelve classes first, then the C arms); each takes their own subjects;
// 2025/2026 is current with 1st and 2nd term results for everyone, nothing in the 3rd term.

const PHONE = { width: 360, height: 740 };

/** Opens Upload Results on the current session's 3rd term for a JSS 2A student. */
async function openThirdTermUpload(page: Page, admissionNumber: string) {
  await page.goto('/ResultUpload');
  await expect(page.getByLabel('Academic Session')).toHaveValue(/\d+/);
  await page.getByLabel('Academic Term').selectOption('3rd');
  await page.getByLabel('Admission Number').fill(admissionNumber);
  await expect(page.getByLabel('Class')).toHaveValue('JSS 2A');
}

async function currentSessionId(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.get('/api/sessions/', { headers: { authorization: `Bearer ${token}` } });
  const list = (await res.json()) as { id: number; is_current: boolean }[];
  return list.find((s) => s.is_current)!.id;
}

async function termResults(request: APIRequestContext, token: string, adm: string, term: string) {
  const sid = await currentSessionId(request, token);
  const res = await request.get(`/api/results/?session_id=${sid}&term=${term}&admission_number=${adm}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()) as { id: number; subject: string; score: number; version: number }[];
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

test.describe('results', () => {
  test.use({ viewport: PHONE });

  test('a new admission number clears the form, shows the name, takes the class from the record; the server refuses another class', async ({
    page,
    request,
  }) => {
    await signInViaApi(page, request, 'staff');
    const token = await apiToken(request, 'staff');
    const next = (await (await request.get('/api/students/STU-0010/', { headers: { authorization: `Bearer ${token}` } })).json()) as {
      first_name: string;
      last_name: string;
    };

    const [subjects9, subjects10] = [await studentSubjects(request, token, 'STU-0009'), await studentSubjects(request, token, 'STU-0010')];
    await page.goto('/ResultUpload');
    await expect(page.getByLabel('Academic Session')).toHaveValue(/\d+/);
    await page.getByLabel('Academic Term').selectOption('3rd');
    await page.getByLabel('Admission Number').fill('STU-0009');
    await expect(page.getByTestId('student-name')).toContainText('JSS 2A');
    await expect(page.getByLabel('Class')).toHaveValue('JSS 2A');
    for (const [i, s] of subjects9.entries()) await page.getByLabel(`${s} Score`).fill(String(50 + i));
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Results saved successfully!')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Update Results', level: 1 })).toBeVisible();

    // The scenario: the next student, who has no results yet.
    await page.getByLabel('Admission Number').fill('STU-0010');
    await expect(page.getByRole('heading', { name: 'Create Results', level: 1 })).toBeVisible();
    for (const s of subjects10) await expect(page.getByLabel(`${s} Score`)).toHaveValue('');
    await expect(page.getByTestId('student-name')).toHaveText(`${next.first_name} ${next.last_name} · JSS 2A`);
    await expect(page.getByLabel('Class')).toHaveValue('JSS 2A');
    // Let the 500 ms lookup settle: the scores stay empty.
    await page.waitForTimeout(800);
    for (const s of subjects10) await expect(page.getByLabel(`${s} Score`)).toHaveValue('');
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Enter a score for at least one subject.')).toBeVisible();
    expect(await termResults(request, token, 'STU-0010', '3rd')).toEqual([]);
    await expectAccessible(page);
    await noSidewaysScroll(page);

    // Item 2: another class is refused by the server, under the Class field.
    await page.getByLabel('Class').selectOption('JSS 1A');
    await page.getByLabel('Mathematics Score').fill('64');
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText("This student is in JSS 2A. Results can only be entered under the student's own class.")).toBeVisible();
    expect(await termResults(request, token, 'STU-0010', '3rd')).toEqual([]);
    await expectAccessible(page);
  });

  test('one message per attempt, "e" is an invalid score of that subject, a cleared score deletes after confirmation', async ({
    page,
    request,
  }) => {
    await signInViaApi(page, request, 'staff');
    await openThirdTermUpload(page, 'STU-0011');
    await page.getByLabel('Mathematics Score').pressSequentially('e');
    await expect(page.getByLabel('Mathematics Score')).toHaveValue('e');
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Enter a number from 0 to 100 for Mathematics.')).toBeVisible();
    await expect(page.getByText('Failed to save results. Please check your inputs.')).toHaveCount(1);
    await expect(page.getByText('Enter a score for at least one subject.')).toHaveCount(0);
    await expectAccessible(page);

    // /UpdateResult: clearing a stored score asks, then deletes that subject's result.
    const token = await apiToken(request, 'staff');
    const before = await termResults(request, token, 'STU-0011', '1st');
    expect(before.some((r) => r.subject === 'French')).toBe(true);
    await page.goto('/UpdateResult');
    await page.getByLabel('Admission Number').fill('STU-0011');
    await page.getByLabel('Academic Term').selectOption('1st');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByLabel('French Score')).not.toHaveValue('');
    await page.getByLabel('French Score').fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Confirm deletion' });
    await expect(dialog).toContainText('You cleared the score of French. Saving deletes this result. Continue?');
    await expectAccessible(page);
    await noSidewaysScroll(page);
    await dialog.getByRole('button', { name: 'Delete and save' }).click();
    await expect(page.getByText('Results updated successfully!')).toBeVisible();
    const after = await termResults(request, token, 'STU-0011', '1st');
    expect(after.map((r) => r.subject).sort()).toEqual(
      before
        .map((r) => r.subject)
        .filter((s) => s !== 'French')
        .sort(),
    );
  });

  test('drafts survive a reload and an expired session, sign-in returns to the page, sign-out clears every draft', async ({
    page,
    request,
  }) => {
    await signInViaApi(page, request, 'staff');
    await openThirdTermUpload(page, 'STU-0012');
    await page.getByLabel('Mathematics Score').fill('71');
    await page.getByLabel('English Language Remarks').fill('Reads well');

    await page.reload();
    await expect(page.getByText('Your unsaved scores were restored.')).toBeVisible();
    await expect(page.getByLabel('Admission Number')).toHaveValue('STU-0012');
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
    await page.getByLabel('Email').fill('staff1@demo.school');
    await page.getByLabel('Password', { exact: true }).fill('Teach-Demo-2026');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/ResultUpload$/);
    await expect(page.getByLabel('Mathematics Score')).toHaveValue('71');
    await expect(page.getByLabel('Admission Number')).toHaveValue('STU-0012');

    // UpdateResult keeps its own draft too.
    await page.goto('/UpdateResult');
    await page.getByLabel('Admission Number').fill('STU-0012');
    await page.getByLabel('Academic Term').selectOption('1st');
    await page.getByRole('button', { name: 'Search' }).click();
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
      await page.getByLabel('Email').fill('staff1@demo.school');
      await page.getByLabel('Password', { exact: true }).fill('Teach-Demo-2026');
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/staffHomePage$/);
      await page.evaluate(() => localStorage.clear());
    }
    await page.goto(`/StaffLogin?next=${encodeURIComponent('/UpdateResult')}`);
    await page.getByLabel('Email').fill('staff1@demo.school');
    await page.getByLabel('Password', { exact: true }).fill('Teach-Demo-2026');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/UpdateResult$/);
  });

  test('a released result changes only with a reason, and the report card shows it as revised', async ({ page, request }) => {
    const adminToken = await apiToken(request, 'admin');
    const sid = await currentSessionId(request, adminToken);
    const pub = await request.post('/api/results/publications/', {
      headers: { authorization: `Bearer ${adminToken}` },
      data: { session_id: sid, term: '1st', student_class: 'JSS 2B' },
    });
    expect(pub.status()).toBe(201);
    const pubId = ((await pub.json()) as { id: number }).id;
    try {
      await signInViaApi(page, request, 'staff');
      await page.goto('/UpdateResult');
      await page.getByLabel('Admission Number').fill('STU-0013');
      await page.getByLabel('Academic Term').selectOption('1st');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByLabel('Mathematics Score')).not.toHaveValue('');
      await page.getByLabel('Mathematics Score').fill('88');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('These results have been released to the student: give a reason for the change.').first()).toBeVisible();
      await expect(page.getByLabel('Mathematics Score')).toHaveValue('88');
      await expectAccessible(page);
      await page.getByLabel('Reason for the change').fill('Script re-marked');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByText('Results updated successfully!')).toBeVisible();

      await page.goto(`/report-card?admission_number=STU-0013&session_id=${sid}&term=1st`);
      await expect(page.getByTestId('revised')).toContainText(/Revised on \d{4}-\d{2}-\d{2}/);
      await expect(page.getByTestId('revised')).toContainText('Mathematics');
      await expect(page.getByTestId('revised')).toContainText('Script re-marked');
      await expectAccessible(page);

      const card = await request.get(`/api/report-card/?admission_number=STU-0013&session_id=${sid}&term=1st`, {
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
    await expect(page.getByRole('button', { name: 'Publish JSS 1B' })).toBeDisabled();
    await page.getByLabel('Academic Term').selectOption('1st');
    await expect(page.getByRole('button', { name: 'Publish JSS 1B' })).toBeEnabled();
    await expectAccessible(page);

    // The result sheet shows the scale's remark beside each grade, and the average with two decimals.
    await page.goto('/DeleteResult');
    await page.getByLabel('Admission Number').fill('STU-0014');
    await page.getByLabel('Academic Term').selectOption('1st');
    await page.getByRole('button', { name: 'Search' }).click();
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
    const sid = await currentSessionId(request, token);
    const gradesOfSession = async () => {
      const res = await request.get(`/api/results/?session_id=${sid}&student_class=JSS%202A`, { headers });
      return ((await res.json()) as { id: number; grade: string }[]).map((r) => `${r.id}:${r.grade}`).sort();
    };
    const original = ((await (await request.get('/api/grading-scales/', { headers })).json()) as { level: string; bands: object[] }[]).find(
      (s) => s.level === 'JSS',
    )!.bands;
    const before = await gradesOfSession();

    await signInViaApi(page, request, 'admin');
    await page.goto('/grading-scales');
    await expect(page.getByText(/This scale grades 2025\/2026; past sessions keep their own\./).first()).toBeVisible();
    await page.getByLabel('From JSS band 1').fill('75');
    await page.getByRole('button', { name: 'Save JSS scale' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Confirm the JSS scale change' });
    await expect(dialog).toContainText(
      /This change regrades \d+ results? of 2025\/2026\. Confirm to apply it; past sessions keep their grades\./,
    );
    await expectAccessible(page);
    await noSidewaysScroll(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    expect(await gradesOfSession()).toEqual(before);

    await page.getByRole('button', { name: 'Save JSS scale' }).click();
    await page
      .getByRole('alertdialog', { name: 'Confirm the JSS scale change' })
      .getByRole('button', { name: 'Apply and regrade' })
      .click();
    await expect(page.getByText(/Grading scale saved for 2025\/2026; \d+ results? regraded\./)).toBeVisible();
    expect(await gradesOfSession()).not.toEqual(before);

    // Put the demo scale back for the other tests.
    const restore = await request.put('/api/grading-scales/JSS/', {
      headers,
      data: { bands: original.map((b) => ({ ...(b as { grade: string; min: number; remark: string }), max: undefined })), confirm: true },
    });
    expect(restore.status()).toBe(200);
    expect(await gradesOfSession()).toEqual(before);
  });
});
