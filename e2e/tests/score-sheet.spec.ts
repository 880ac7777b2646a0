import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { ASSESSMENT_MESSAGES, subjectStatistics, type ComponentScores, type ScoreSheet } from '../../packages/domain/src/assessment';
import { bandFor, type GradeBand } from '../../packages/domain/src/grading';
import { GRID_SCREEN_MESSAGES as G } from '../../packages/domain/src/score-grid-screens';
import { apiToken, expect, expectAccessible, noSideways, signInViaApi, test, pasteText } from '../fixtures';
import { asAdmin, assignTeacher, createArm, createStaff, currentSessionId, okJson, runTag, type OwnStaff } from '../school';

// The class score grid on a 360 px phone: the admin sets CA1 20 / CA2 20 / Exam 60 for senior
// classes; the arm's Mathematics teacher fills a 40-student arm from My Classes with the keyboard
// and a pasted block, is refused an invalid cell, survives a conflict keeping both values in view,
// and round-trips the CSV template. Totals, grades and positions on screen are checked against the
// domain's rules. Its own data (fixture school.ts): an SSS 1 arm of this run with 40 students
// imported, and a teacher of this run assigned its Mathematics. The school's SSS scheme is put back
// afterwards (spec files share one server).

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
const TERM = '3rd'; // the sheet starts empty
let ARM = '';
const SUBJECT = 'Mathematics';
const ARM_SIZE = 40;
const SCHEME = [
  { name: 'First Continuous Assessment', label: 'CA1', max: 20 },
  { name: 'Second Continuous Assessment', label: 'CA2', max: 20 },
  { name: 'Examination', label: 'Exam', max: 60 },
];
let TEACHER: OwnStaff;

const plan = {
  sessionId: 0,
  bands: [] as GradeBand[],
};

const auth = async (request: APIRequestContext) => ({ authorization: `Bearer ${await apiToken(request, 'admin')}` });

async function getJson<T>(request: APIRequestContext, path: string, headers: Record<string, string>): Promise<T> {
  const res = await request.get(path, { headers });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

const sheetPath = () =>
  `/api/score-sheet/?session_id=${plan.sessionId}&term=${TERM}&student_class=${encodeURIComponent(ARM)}&subject=${SUBJECT}`;
const storedSheet = async (request: APIRequestContext) => getJson<ScoreSheet>(request, sheetPath(), await auth(request));

// The marks typed: CA1 by keyboard (one absent), then CA2 and Exam pasted as a block.
const ca1 = (i: number): string => (i === 4 ? 'a' : String((i * 7) % 21));
const ca2 = (i: number) => (i * 5) % 21;
const exam = (i: number) => (i * 13) % 61;

test.beforeAll(async ({ request }) => {
  const headers = await auth(request);
  const api = await asAdmin(request);
  plan.sessionId = await currentSessionId(api);
  ARM = await createArm(api, 'SSS 1', RUN);

  const scheme = await request.put('/api/assessment-schemes/SSS/', {
    headers,
    data: { session_id: plan.sessionId, components: SCHEME, precision: 'one_decimal', confirm: true },
  });
  expect(scheme.status(), await scheme.text()).toBe(200);

  // A real class of 40, imported as the school would.
  const lines = ['first_name,last_name,email,phone_number,gender,date_of_birth,student_class,fathers_name,home_address'];
  for (let i = 1; i <= ARM_SIZE; i++)
    lines.push(
      `Grid${String(i).padStart(2, '0')},Learner,grid${i}.${RUN.toLowerCase()}@sheet.e2e.school,0803${String(1000000 + i)},${i % 2 ? 'F' : 'M'},2010-02-${String((i % 27) + 1).padStart(2, '0')},${ARM},Mr Learner,1 School Road`,
    );
  await okJson(await request.post('/api/students/import/', { headers, data: { csv: lines.join('\n') } }), 201);

  // The arm's Mathematics teacher.
  TEACHER = await createStaff(api, RUN);
  await assignTeacher(api, { sessionId: plan.sessionId, arm: ARM, subject: SUBJECT, staffId: TEACHER.staff_id });

  const scales = await getJson<{ level: string; bands: GradeBand[] }[]>(
    request,
    `/api/grading-scales/?session_id=${plan.sessionId}`,
    headers,
  );
  plan.bands = scales.find((s) => s.level === 'SSS')!.bands;
});

/** Puts the school's SSS scheme back: the arm's scores are cleared, then one score of 100 again. */
test.afterAll(async ({ request }) => {
  const headers = await auth(request);
  const sheet = await storedSheet(request).catch(() => null);
  const rows = (sheet?.rows ?? [])
    .filter((r) => r.result)
    .map((r) => ({ admission_number: r.admission_number, components: {}, version: r.result!.version }));
  if (rows.length)
    await request.put('/api/score-sheet/', {
      headers,
      data: { session_id: plan.sessionId, term: TERM, student_class: ARM, subject: SUBJECT, rows },
    });
  await request.put('/api/assessment-schemes/SSS/', {
    headers,
    data: { session_id: plan.sessionId, components: [{ name: 'Score', label: 'Score', max: 100 }], confirm: true },
  });
});

const input = (page: Page, label: string, name: string) => page.getByLabel(`${label} for ${name}`, { exact: true });
const status = (page: Page, adm: string) => page.getByTestId(`row-${adm}`).getByTestId('row-status');
const savedRows = (page: Page) => page.getByTestId('row-status').filter({ hasText: /^\W*Saved$/ });

const pasteInto = (page: Page, label: string, name: string, text: string) => pasteText(page, `${label} for ${name}`, text);

/** Totals, grades and positions on screen are the domain's, over what is stored. */
async function expectFigures(page: Page, request: APIRequestContext) {
  const sheet = await storedSheet(request);
  const totals = sheet.rows.map((r, i) => ({ student_id: i, score: r.result?.score ?? null }));
  const { positions } = subjectStatistics(totals.filter((t): t is { student_id: number; score: number } => t.score !== null));
  const rows = page.getByTestId('score-grid').locator('tbody tr[data-testid^="row-"]');
  await expect(rows.getByTestId('row-total')).toHaveText(sheet.rows.map((r) => String(r.result?.score ?? '–')));
  await expect(rows.getByTestId('row-grade')).toHaveText(
    sheet.rows.map((r) => (r.result ? bandFor(r.result.score, plan.bands).grade : '')),
  );
  await expect(rows.getByTestId('row-position')).toHaveText(sheet.rows.map((_, i) => String(positions.get(i) ?? '')));
  // The server agrees (grade and position as stored).
  for (const [i, r] of sheet.rows.entries()) {
    expect(r.result?.grade).toBe(bandFor(r.result!.score, plan.bands).grade);
    expect(r.position).toBe(positions.get(i));
  }
}

test('a teacher fills a 40-student SSS arm on a phone: keyboard, paste, refusal, conflict, CSV', async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', TEACHER);
  const first = await storedSheet(request);
  const rows = first.rows.filter((r) => r.takes);
  expect(rows.length).toBe(ARM_SIZE);
  const names = rows.map((r) => r.name);

  // From My Classes to the pair's grid.
  await page.goto('/my-classes');
  await page.getByLabel('Term', { exact: true }).selectOption(TERM);
  await page.getByRole('link', { name: `Enter ${SUBJECT} scores for ${ARM}` }).click();
  await expect(page).toHaveURL(/\/score-sheet\?/);
  await expect(page.getByTestId('score-grid')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'CA1 /20' })).toBeVisible();
  // One component column at a time on a phone.
  await expect(page.getByRole('columnheader', { name: 'CA2 /20' })).toHaveCount(0);
  await expectAccessible(page);

  // CA1 by keyboard, Enter moving down; row 2 first gets 25 and is refused.
  await input(page, 'CA1', names[0]!).click();
  for (let i = 0; i < rows.length; i++) {
    if (i === 1) {
      await page.keyboard.type('25');
      const bad = input(page, 'CA1', names[1]!);
      await expect(bad).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByTestId(`row-detail-${rows[1]!.admission_number}`)).toHaveText(ASSESSMENT_MESSAGES.componentRange('CA1', 20));
      await page.waitForTimeout(3000); // past the autosave delay: still not sent
      await expect(status(page, rows[1]!.admission_number)).toHaveText(/Unsaved/);
      expect((await storedSheet(request)).rows.find((r) => r.admission_number === rows[1]!.admission_number)!.result).toBeNull();
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Backspace');
    }
    await page.keyboard.type(ca1(i));
    await page.keyboard.press(i === rows.length - 1 ? 'ArrowUp' : 'Enter');
  }
  await expect(input(page, 'CA1', names[rows.length - 2]!)).toBeFocused();
  await expect(savedRows(page)).toHaveCount(ARM_SIZE);
  // At the end of a cell, ArrowRight steps to the next component: on a phone it comes into view.
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByLabel('Component', { exact: true })).toHaveValue('CA2');
  await expect(input(page, 'CA2', names[rows.length - 2]!)).toBeFocused();

  // CA2 and Exam pasted as one block from a spreadsheet; a third column falls outside the sheet.
  await page.getByLabel('Component', { exact: true }).selectOption('CA2');
  const block = rows.map((_, i) => `${ca2(i)}\t${exam(i)}\t99`).join('\n');
  await pasteInto(page, 'CA2', names[0]!, block);
  // Exam is filled though the phone shows CA2 only, and the words say so.
  await expect(page.getByTestId('grid-status')).toHaveText(
    `${ASSESSMENT_MESSAGES.gridPasteTooBig(ARM_SIZE, 3)} ${G.pastedHidden(['Exam'])}`,
  );
  await expect(input(page, 'CA2', names[3]!)).toHaveValue(String(ca2(3)));
  await expect(savedRows(page)).toHaveCount(ARM_SIZE, { timeout: 20_000 });

  const stored = await storedSheet(request);
  for (const [i, r] of rows.entries()) {
    const want: ComponentScores = { CA1: i === 4 ? 'ABS' : Number(ca1(i)), CA2: ca2(i), Exam: exam(i) };
    expect(stored.rows.find((x) => x.admission_number === r.admission_number)!.result!.components).toEqual(want);
  }
  await expectFigures(page, request);

  // A conflict: the admin changes row 3 meanwhile; the teacher's edit meets it.
  const adm = rows[2]!.admission_number;
  const headers = await auth(request);
  const before = stored.rows.find((x) => x.admission_number === adm)!.result!;
  const theirs = await request.put('/api/score-sheet/', {
    headers,
    data: {
      session_id: plan.sessionId,
      term: TERM,
      student_class: ARM,
      subject: SUBJECT,
      rows: [{ admission_number: adm, components: { CA1: 10, CA2: 10, Exam: 30 }, version: before.version }],
    },
  });
  expect(theirs.status(), await theirs.text()).toBe(200);
  await page.getByLabel('Component', { exact: true }).selectOption('CA1');
  await input(page, 'CA1', names[2]!).fill('17');
  await page.keyboard.press('Enter'); // leaves the row: saved at once, refused as stale
  const conflict = page.getByTestId(`row-detail-${adm}`).getByTestId('conflict');
  await expect(conflict).toContainText(`Yours: CA1 17, CA2 ${ca2(2)}, Exam ${exam(2)}`);
  await expect(conflict).toContainText(/Theirs \(changed by .+\): CA1 10, CA2 10, Exam 30/);
  await expect(status(page, adm)).toHaveText(new RegExp(ASSESSMENT_MESSAGES.gridConflict));
  await expectAccessible(page);
  await conflict.getByRole('button', { name: ASSESSMENT_MESSAGES.gridKeepMine }).click();
  await expect(status(page, adm)).toHaveText(/^\W*Saved$/);
  const kept = (await storedSheet(request)).rows.find((x) => x.admission_number === adm)!.result!;
  expect(kept.components).toEqual({ CA1: 17, CA2: ca2(2), Exam: exam(2) });
  expect(kept.version).toBe(before.version + 2);
  await expectFigures(page, request);

  // The CSV template: downloaded, filled with one mistake, previewed, fixed, applied.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download template' }).click()]);
  const template = readFileSync(await download.path(), 'utf8');
  const lines = template
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split(/\r?\n/);
  expect(lines[0]).toBe('admission_number,name,CA1,CA2,Exam,remarks');
  expect(lines).toHaveLength(ARM_SIZE + 1);
  const lineOf = (a: string) => lines.findIndex((l) => l.startsWith(`${a},`));
  const [a5, a6] = [rows[5]!.admission_number, rows[6]!.admission_number];
  const edit = (ca2Of5: string) =>
    lines
      .map((l, k) => {
        const cells = l.split(',');
        if (k === lineOf(a5)) cells[3] = ca2Of5;
        if (k === lineOf(a6)) cells[4] = 'ABS';
        return cells.join(',');
      })
      .join('\n');
  const upload = page.getByLabel('Upload filled sheet');
  await upload.setInputFiles({ name: 'scores.csv', mimeType: 'text/csv', buffer: Buffer.from(edit('25')) });
  const preview = page.getByTestId('import-preview');
  await expect(preview.getByRole('list', { name: 'Errors in the file' })).toContainText(
    `Line ${lineOf(a5) + 1}, CA2: ${ASSESSMENT_MESSAGES.componentRange('CA2', 20)}`,
  );
  await expect(preview.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await upload.setInputFiles({ name: 'scores-fixed.csv', mimeType: 'text/csv', buffer: Buffer.from(edit('12')) });
  await expect(preview.getByRole('list', { name: 'Errors in the file' })).toHaveCount(0);
  await expect(preview.getByRole('button', { name: 'Apply' })).toBeEnabled();
  await expectAccessible(page);
  await preview.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(ASSESSMENT_MESSAGES.csvApplied(2))).toBeVisible();
  await page.getByLabel('Component', { exact: true }).selectOption('CA2');
  await expect(input(page, 'CA2', names[5]!)).toHaveValue('12');
  const after = await storedSheet(request);
  expect(after.rows.find((x) => x.admission_number === a5)!.result!.components.CA2).toBe(12);
  expect(after.rows.find((x) => x.admission_number === a6)!.result!.components.Exam).toBe('ABS');
  await expectFigures(page, request);

  await noSideways(page);
});
