import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { apiToken, expect, expectAccessible, noSideways, schoolClasses, signInViaApi, test } from '../fixtures';
import {
  asAdmin,
  createArm,
  createStaff,
  createStudentWithResults,
  currentSession,
  okJson,
  runTag,
  type OwnStaff,
  type OwnStudent,
} from '../school';

// Its own data (fixture school.ts): a JSS 1 arm of this run with four students, each with first and
// second term results in every subject they take in the current session (none in the third), and a
// teacher of this run. The session names on screen are the server's.

const RUN = runTag();
let ARM = '';
let TEACHER: OwnStaff;
/** The arm's students: A signs in, B is entered and audited, C updated, D has a result deleted. */
const S: Record<'A' | 'B' | 'C' | 'D', OwnStudent & { subjects: string[] }> = {} as never;
const cal = { sessionId: 0, session: '', otherSession: '' };
/** A subject D takes, given a third-term result that is then deleted. */
let D_SUBJECT = '';

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  Object.assign(cal, await currentSession(api));
  const sessions = await okJson<{ name: string; is_current: boolean }[]>(await request.get('/api/sessions/', { headers: api.headers }));
  cal.otherSession = sessions.find((x) => !x.is_current)!.name;
  ARM = await createArm(api, 'JSS 1', RUN);
  TEACHER = await createStaff(api, RUN);
  for (const [i, key] of (['A', 'B', 'C', 'D'] as const).entries()) {
    const score = (j: number, term: string) => 40 + ((i * 13 + j * 7 + (term === '1st' ? 0 : 5)) % 55);
    S[key] = await createStudentWithResults(api, ARM, `${RUN}${key}`, { sessionId: cal.sessionId, terms: ['1st', '2nd'], score });
    D_SUBJECT = S[key].subjects.at(-1)!;
  }
});

/** A search screen: refused without its fields, then a student's term searched for. */
async function search(page: Page, button: string, prompt: string, admission: string, term: string) {
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByText(prompt)).toBeVisible();
  await page.getByLabel('Admission Number').fill(admission);
  await page.getByLabel('Academic Term').selectOption(term);
  await page.getByRole('button', { name: button }).click();
}

test.describe('results', () => {
  test('a teacher enters a class member’s scores; the lookup then switches to Update Results', async ({ page, request }) => {
    await signInViaApi(page, request, 'staff', TEACHER);
    await page.goto('/ResultUpload');
    await expect(page.getByRole('heading', { name: 'Create Results', level: 1 })).toBeVisible();
    const sessionSelect = page.getByLabel('Academic Session');
    const termSelect = page.getByLabel('Academic Term');
    await expect(sessionSelect).toHaveValue(/\d+/); // the current session is preselected
    await sessionSelect.selectOption('');
    await expect(termSelect).toBeDisabled();
    await sessionSelect.selectOption({ label: `${cal.session} (current)` });
    await expect(termSelect).toBeEnabled();

    await page.getByLabel('Admission Number').fill(S.B.admission_number.toLowerCase());
    await expect(page.getByLabel('Admission Number')).toHaveValue(S.B.admission_number);
    await termSelect.selectOption('3rd');
    await page.getByLabel('Class').selectOption(ARM);
    await page.getByLabel('Mathematics Score').fill('150');
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Score cannot exceed 100')).toBeVisible();
    await expect(page.getByText('Failed to save results. Please check your inputs.')).toBeVisible();

    await page.getByLabel('Mathematics Score').fill('77');
    await page.getByLabel('Mathematics Remarks').fill('Strong term');
    await page.getByLabel('English Language Score').fill('64');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Results saved successfully!')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Update Results', level: 1 })).toBeVisible();

    // A fresh form: the 500 ms lookup finds the saved results, fills subjects and class.
    await page.goto('/ResultUpload');
    await expect(page.getByLabel('Academic Session')).toHaveValue(/\d+/);
    await page.getByLabel('Academic Term').selectOption('3rd');
    await page.getByLabel('Admission Number').fill(S.B.admission_number);
    await expect(page.getByRole('heading', { name: 'Update Results', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Mathematics Score')).toHaveValue('77');
    await expect(page.getByLabel('Mathematics Remarks')).toHaveValue('Strong term');
    await expect(page.getByLabel('Class')).toHaveValue(ARM);
    // Changing the session clears the term.
    await page.getByLabel('Academic Session').selectOption({ label: cal.otherSession });
    await expect(page.getByLabel('Academic Term')).toHaveValue('');
    await expect(page.getByRole('heading', { name: 'Create Results', level: 1 })).toBeVisible();
  });

  test('class results: filters, student cards, a student’s results, back to the list', async ({ page, request }) => {
    await signInViaApi(page, request, 'staff', TEACHER);
    await page.goto('/ResultsCheck');
    await expect(page.getByLabel('Class')).toHaveValue('All');
    // Every class of the school, not only the spec's own arm.
    const classes = await schoolClasses(request, await apiToken(request, 'staff', TEACHER));
    await expect(page.getByLabel('Class').locator('option')).toHaveText(['All', ...classes]);
    await page.getByRole('button', { name: 'Fetch Students' }).click();
    await expect(page.getByText('Please select a session and term.')).toBeVisible();
    await page.getByLabel('Academic Term').selectOption('1st');
    await page.getByLabel('Class').selectOption(ARM);
    await page.getByRole('button', { name: 'Fetch Students' }).click();
    const cards = page.getByRole('list', { name: 'Students' }).getByRole('listitem');
    await expect(cards).toHaveCount(4);
    await expectAccessible(page);
    await cards
      .first()
      .getByRole('button', { name: /View Results/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Student Results' })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: 'Mathematics' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Print Results' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Back to List' }).click();
    await expect(cards).toHaveCount(4);
  });

  test('update result: search, edit, save in parallel, reset; empty rows for a term without results', async ({ page, request }) => {
    await signInViaApi(page, request, 'staff', TEACHER);
    await page.goto('/UpdateResult');
    const C = S.C.admission_number;
    await search(page, 'Search', 'Please enter admission number, select session, and term to search.', C.toLowerCase(), '1st');
    await expect(page.getByLabel('Mathematics Score')).not.toHaveValue('');
    await expect(page.getByLabel('Class')).toHaveValue(ARM);
    await expectAccessible(page);
    await page.getByLabel('Mathematics Score').fill('91');
    await page.getByLabel('English Language Remarks').fill('Très bien');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Results updated successfully!')).toBeVisible();
    await expect(page.getByLabel('Admission Number')).toHaveValue('');
    await expect(page.getByLabel('Mathematics Score')).toHaveCount(0);

    const token = await apiToken(request, 'staff', TEACHER);
    const stored = await request.get(`/api/results/?session_id=${cal.sessionId}&term=1st&admission_number=${C}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const rows = (await stored.json()) as { subject: string; score: number; remarks: string }[];
    expect(rows.find((r) => r.subject === 'Mathematics')?.score).toBe(91);
    expect(rows.find((r) => r.subject === 'English Language')?.remarks).toBe('Très bien');

    await page.getByLabel('Admission Number').fill(C);
    await page.getByLabel('Academic Term').selectOption('3rd');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText(`No results found for ${C} in the selected session and term.`)).toBeVisible();
    await expect(page.getByLabel('Mathematics Score')).toHaveValue('');
    await page.getByLabel('Civic Education Score').fill('58');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Results updated successfully!')).toHaveCount(2); // the earlier toast is still up
    await expect(page.getByLabel('Admission Number')).toHaveValue('');

    await page.getByLabel('Admission Number').fill('STU-9999');
    await page.getByLabel('Academic Term').selectOption('1st');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(
      page.getByText('Student with admission number STU-9999 not found, or no results found for the given criteria.'),
    ).toBeVisible();
  });

  test('delete result: confirm, delete, search repeated, print', async ({ page, request }) => {
    const token = await apiToken(request, 'staff', TEACHER);
    const created = await request.post('/api/results/', {
      headers: { authorization: `Bearer ${token}` },
      data: {
        admission_number: S.D.admission_number,
        session_id: cal.sessionId,
        term: '3rd',
        student_class: ARM,
        subject: D_SUBJECT,
        score: 55,
        remarks: '',
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    await signInViaApi(page, request, 'staff', TEACHER);
    await page.goto('/DeleteResult');
    await search(page, 'Search', 'Please enter admission number, select session, and term.', S.D.admission_number, '3rd');
    await expect(page.getByRole('rowheader', { name: D_SUBJECT })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Print Results' })).toBeVisible();
    await expectAccessible(page);

    let confirmText = '';
    page.once('dialog', (d) => {
      confirmText = d.message();
      void d.dismiss();
    });
    await page.getByRole('button', { name: `Delete ${D_SUBJECT} result` }).click();
    await expect(page.getByRole('rowheader', { name: D_SUBJECT })).toBeVisible();
    expect(confirmText).toBe('Are you sure you want to delete this result?');

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: `Delete ${D_SUBJECT} result` }).click();
    await expect(page.getByText('Result deleted successfully')).toBeVisible();
    await expect(page.getByText('No results found for the given criteria.')).toBeVisible();
  });

  test('check a result: the sheet with Print Result; admin screens for sessions, scales, broadsheet and history', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await signInViaApi(page, request, 'admin');
    await page.goto('/check-a-result');
    await search(page, 'Check Result', 'Please enter admission number, select session, and term.', S.A.admission_number, '2nd');
    await expect(page.getByRole('rowheader', { name: 'Civic Education' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Print Result' })).toBeVisible();
    await expectAccessible(page);

    await page.goto('/sessions');
    await page.getByLabel('Session name').fill('2026/2028');
    await page.getByRole('button', { name: 'Create Session' }).click();
    await expect(page.getByText('Session name must look like 2025/2026 (two consecutive years)')).toBeVisible();
    // Far ahead, and new on every run (attendance.spec.ts creates the session of the run day's school year).
    const year = 3000 + Math.floor(Math.random() * 5000);
    const session = `${year}/${year + 1}`;
    await page.getByLabel('Session name').fill(session);
    await page.getByRole('button', { name: 'Create Session' }).click();
    await expect(page.getByText('Session created')).toBeVisible();
    await expect(page.getByText(session, { exact: true })).toBeVisible();
    await expectAccessible(page);

    await page.goto('/grading-scales');
    await expect(page.getByLabel('Grade SSS band 1')).toHaveValue('A1');
    await expect(page.getByLabel('From JSS band 1')).toHaveValue('70');
    await expectAccessible(page);
    await page.getByLabel('Remark JSS band 2').fill('Very good');
    await page.getByRole('button', { name: 'Save JSS scale' }).click();
    await expect(page.getByText(/Grading scale saved/)).toBeVisible();

    await page.goto('/broadsheet');
    await page.getByLabel('Academic Term').selectOption('1st');
    await page.getByLabel('Class').selectOption(ARM);
    await page.getByRole('button', { name: 'Load Broadsheet' }).click();
    const region = page.getByRole('region', { name: `Broadsheet ${ARM}` });
    await expect(region.getByRole('row')).toHaveCount(1 + 4 + 3);
    // The subject statistics under the students: class average, highest, lowest.
    await expect(region.getByRole('rowheader', { name: 'Highest' })).toBeVisible();
    await expect(region.getByRole('rowheader', { name: 'Lowest' })).toBeVisible();
    await expectAccessible(page);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);

    await page.goto('/result-audit');
    await page.getByLabel('Admission Number').fill(S.B.admission_number);
    await page.getByRole('button', { name: 'Show History' }).click();
    await expect(page.getByRole('cell', { name: 'Mathematics' }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Created' }).first()).toBeVisible();
    await expectAccessible(page);
  });

  test('publishing: a student sees “not yet released”, an admin publishes, the student sees and downloads the report card on a phone', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const A = S.A.admission_number;
    await page.setViewportSize({ width: 360, height: 740 });
    await signInViaApi(page, request, 'student', S.A);
    await page.goto('/check-a-result');
    await expect(page.getByRole('heading', { name: 'My Current Result' })).toBeVisible();
    await expect(page.getByLabel('Admission Number')).toHaveValue(A);
    await expect(page.getByText('Results for this term have not been released yet. Please check back later.')).toBeVisible();
    await expectAccessible(page);

    // The admin publishes the arm's first term (a fresh sign-in replaces the stored role record).
    await page.evaluate(() => localStorage.clear());
    await signInViaApi(page, request, 'admin');
    await page.goto('/publish-results');
    await page.getByLabel('Academic Term').selectOption('1st');
    await expect(page.getByTestId(`publication-${ARM}`)).toContainText('Not published');
    await expectAccessible(page);
    await page.getByRole('button', { name: `Publish ${ARM}` }).click();
    await expect(page.getByTestId(`publication-${ARM}`)).toContainText('Published');

    // The student, on a 360 px phone: all their results, then the first-term report card.
    await page.evaluate(() => localStorage.clear());
    await signInViaApi(page, request, 'student', S.A);
    await page.goto('/ResultsCheck');
    await expect(page.getByRole('heading', { name: 'My Results' })).toBeVisible();
    await expect(page.getByText('Not yet released').first()).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: `View report card: First Term, ${cal.session}` }).click();
    await expect(page.getByRole('heading', { name: 'Report Card', level: 1 })).toBeVisible();
    await expect(page.getByTestId('card-name')).toHaveText(/\S+ \S+/);
    await expect(page.getByTestId('card-position')).toHaveText(/^\d+(st|nd|rd|th) out of 4$/);
    await expect(page.getByText('Role Models College').first()).toBeVisible();
    await expect(page.getByRole('rowheader', { name: 'Mathematics' })).toBeVisible();
    await expectAccessible(page);
    await noSideways(page);

    // Print stylesheet: controls are hidden when printing.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Download PDF' })).toBeHidden();
    await expect(page.getByRole('article', { name: 'Report card' })).toBeVisible();
    await page.emulateMedia({ media: 'screen' });

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`report-card-${A}-${cal.session.replace('/', '-')}-1st.pdf`);
    const path = await download.path();
    const pdf = readFileSync(path);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBe(1);
    expect(pdf.toString('latin1')).toContain(`Report card ${A} ${cal.session} First Term`);

    // The student cannot reach staff screens, and the API refuses another student's card.
    await page.goto('/ResultUpload');
    await expect(page).toHaveURL(/\/StudentHomePage$/);
    const token = await apiToken(request, 'student', S.A);
    const other = await request.get(`/api/report-card/?admission_number=${S.B.admission_number}&session_id=${cal.sessionId}&term=1st`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(other.status()).toBe(403);
  });
});
