import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { ATTENDANCE_LABELS, type Register } from '../../packages/domain/src/attendance';
import { ATTENDANCE_SCREEN_MESSAGES as SM } from '../../packages/domain/src/attendance-screens';
import { AUTOSAVE_MESSAGES as A } from '../../packages/domain/src/autosave-screens';
import type { ScoreSheet } from '../../packages/domain/src/assessment';
import type { CommentSheet, RatingSheet } from '../../packages/domain/src/report-cards';
import { RATING_FILL as F } from '../../packages/domain/src/report-sheet-screens';
import { GRID_SCREEN_MESSAGES as G } from '../../packages/domain/src/score-grid-screens';
import { apiToken, expect, expectAccessible, openOnPhone, PHONE, signInViaApi, test } from '../fixtures';
import { asAdmin, createArm, createStaff, createStudent, currentSessionId, runTag, setFormTeacher, type OwnStaff } from '../school';

// The entry sheets never lose work, on a 360 px phone: scores, ratings, comments and a register
// entered while the network is down are kept on the page, saved without a tap once it is back, and
// leaving with anything unsaved (a link inside the app, closing the tab) asks first. Also: the grid's
// number pad and ABS button, compact rows, ratings filled in bulk, confirmations that open in view
// with the focus, and register buttons named with the student. Its own data (fixture school.ts), all
// in arms of this run: six students imported into an SSS 3 arm (the grid), a JSS 2 arm of three
// students (first-term ratings and comments, the register of one past day), a JSS 1 arm whose form
// teacher is a teacher of this run (approvals, only opened), and a JSS 3 student's cash payment.

const SUBJECT = 'Mathematics';
const GRID_TERM = '3rd';
const SHEET_TERM = '1st';
const REGISTER_DAY = '2026-05-06'; // a Wednesday of the demo calendar's 2025/2026 third term
// Long single words, as Yoruba, Igbo and Hausa names often have: they must wrap at the space, not inside.
const NEW_STUDENTS = [
  ['Oluwaseunfunmi', 'Adebayo'],
  ['Chukwuemekaobi', 'Nwachukwu'],
  ['Abdulrahmanu', 'Ibrahim'],
  ['Oluwatimilehin', 'Ogunleye'],
  ['Chimamandanma', 'Okonkwo'],
  ['Ifeoluwapo', 'Balogun'],
] as const;
const RUN = runTag();

const plan = { sessionId: 0, created: [] as string[], payer: '', gridArm: '', sheetArm: '', approvalsArm: '' };
let formTeacher: OwnStaff;

const admin = async (request: APIRequestContext) => ({ authorization: `Bearer ${await apiToken(request, 'admin')}` });

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path, { headers: await admin(request) });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

const gridPath = () =>
  `score-sheet/?session_id=${plan.sessionId}&term=${GRID_TERM}&student_class=${encodeURIComponent(plan.gridArm)}&subject=${SUBJECT}`;
const sheetQuery = () => `session_id=${plan.sessionId}&term=${SHEET_TERM}&student_class=${encodeURIComponent(plan.sheetArm)}`;
const sheetScreen = (path: string) => `${path}?session_id=${plan.sessionId}&term=${SHEET_TERM}&class=${encodeURIComponent(plan.sheetArm)}`;
const registerPath = () => `/api/attendance/register/?student_class=${encodeURIComponent(plan.sheetArm)}&date=${REGISTER_DAY}`;
const status = (page: Page, adm: string) => page.getByTestId(`row-${adm}`).getByTestId('row-status');

/** Wholly inside the phone's screen. */
async function expectInView(page: Page, el: Locator) {
  const box = (await el.boundingBox())!;
  const height = page.viewportSize()!.height;
  expect(box.y, 'top edge inside the screen').toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, 'bottom edge inside the screen').toBeLessThanOrEqual(height);
}

/** The question asked when leaving inside the app: in view, focused, with the words for what is unsaved. */
async function expectLeaveQuestion(page: Page, words: string) {
  const dialog = page.getByRole('alertdialog', { name: A.leaveTitle });
  await expect(dialog).toContainText(words);
  await expect(dialog).toBeFocused();
  await expectInView(page, dialog);
  return dialog;
}

/** Closing the tab asks first (beforeunload); the teacher stays. */
async function expectCloseAsks(page: Page) {
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  expect(page.isClosed()).toBe(false);
}

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  plan.sessionId = await currentSessionId(api);
  plan.gridArm = await createArm(api, 'SSS 3', RUN);
  plan.sheetArm = await createArm(api, 'JSS 2', RUN);
  plan.approvalsArm = await createArm(api, 'JSS 1', RUN);
  const lines = ['first_name,last_name,email,phone_number,gender,date_of_birth,student_class,fathers_name,home_address'];
  NEW_STUDENTS.forEach(([first, last], i) =>
    lines.push(
      `${first},${last},offline${i}.${RUN.toLowerCase()}@sheets.e2e.school,0805${String(2000000 + i)},F,2009-03-1${i},${plan.gridArm},Mr ${last},2 School Road`,
    ),
  );
  const imported = await request.post('/api/students/import/', { headers: api.headers, data: { csv: lines.join('\n') } });
  expect(imported.status(), await imported.text()).toBe(201);
  plan.created = ((await imported.json()) as { accounts: { public_id: string }[] }).accounts.map((a) => a.public_id);
  for (const i of [1, 2, 3]) await createStudent(api, plan.sheetArm, `${RUN}S${i}`, { last_name: `Sheet${i}${RUN}` });
  await createStudent(api, plan.approvalsArm, `${RUN}A`);
  formTeacher = await createStaff(api, RUN);
  await setFormTeacher(api, { sessionId: plan.sessionId, arm: plan.approvalsArm, staffId: formTeacher.staff_id });
  plan.payer = (await createStudent(api, await createArm(api, 'JSS 3', RUN), `${RUN}P`, { first_name: 'Ledger' })).admission_number;
});

test('six scores typed offline save on their own when the network is back; leaving with a failed row asks first', async ({
  page,
  request,
}) => {
  await openOnPhone(
    page,
    'admin',
    `/score-sheet?session_id=${plan.sessionId}&term=${GRID_TERM}&class=${encodeURIComponent(plan.gridArm)}&subject=${SUBJECT}`,
  );
  await expect(page.getByTestId('score-grid')).toBeVisible();
  const sheet = await getJson<ScoreSheet>(request, `/api/${gridPath()}`);
  const mine = sheet.rows.filter((r) => plan.created.includes(r.admission_number));
  expect(mine).toHaveLength(6);
  const label = sheet.components[0]!.label;
  const cell = (name: string) => page.getByLabel(G.cellOf(label, name), { exact: true });

  // A number pad in every cell; ABS from the button, for the cell last touched.
  await expect(cell(mine[0]!.name)).toHaveAttribute('inputmode', 'decimal');
  await cell(mine[5]!.name).click();
  const absent = page.getByRole('button', { name: G.absentLabel(G.cellOf(label, mine[5]!.name)) });
  await expect(absent).toHaveAttribute('aria-pressed', 'false');
  await absent.click();
  await expect(cell(mine[5]!.name)).toHaveValue('ABS');
  await expect(cell(mine[5]!.name)).toBeFocused();
  await expect(absent).toHaveAttribute('aria-pressed', 'true');
  await expect(status(page, mine[5]!.admission_number)).toHaveText(/Saved$/, { timeout: 15_000 });

  // Compact rows: names wrap at spaces only, cells and the ABS button are 44 px targets.
  const broken = await page.getByTestId('score-grid').evaluate((table) =>
    Array.from(table.querySelectorAll('tbody th[scope=row] > span:first-child')).flatMap((span) => {
      const text = span.firstChild as Text;
      const out: string[] = [];
      let at = 0;
      for (const word of text.data.split(' ')) {
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + word.length);
        if (new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size > 1) out.push(word);
        at += word.length + 1;
      }
      return out;
    }),
  );
  expect(broken, 'words broken across lines').toEqual([]);
  for (const r of mine) {
    const row = (await page.getByTestId(`row-${r.admission_number}`).boundingBox())!;
    expect(row.height, `row of ${r.name}`).toBeLessThanOrEqual(66);
    expect((await cell(r.name).boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  expect((await absent.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectAccessible(page);

  // The network drops: six scores typed stay "Not saved" on the page.
  await page.context().setOffline(true);
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  const scores = ['15', '42', '67', '88', '9', '73'];
  for (const [i, r] of mine.entries()) {
    await cell(r.name).fill(scores[i]!);
    await cell(r.name).press('Enter');
  }
  for (const r of mine) await expect(status(page, r.admission_number)).toHaveText(/Not saved$/);
  await expect(page.getByTestId(`row-detail-${mine[0]!.admission_number}`)).toContainText(A.autoRetry);

  // Leaving inside the app asks; the teacher stays and nothing is lost.
  await page.getByRole('link', { name: 'Change class or subject' }).click();
  const dialog = await expectLeaveQuestion(page, A.leaveNotSaved(6));
  await expectAccessible(page);
  await dialog.getByRole('button', { name: A.stay }).click();
  await expect(page).toHaveURL(/subject=/);
  await expect(cell(mine[2]!.name)).toHaveValue('67');
  // Closing the tab asks too.
  await expectCloseAsks(page);

  // The network is back: all six are saved without a tap.
  await page.context().setOffline(false);
  for (const r of mine) await expect(status(page, r.admission_number)).toHaveText(/Saved$/);
  const stored = await getJson<ScoreSheet>(request, `/api/${gridPath()}`);
  expect(mine.map((r) => stored.rows.find((x) => x.admission_number === r.admission_number)!.result?.components[label])).toEqual(
    scores.map(Number),
  );
  // Nothing unsaved: leaving asks nothing.
  await page.getByRole('link', { name: 'Change class or subject' }).click();
  await expect(page).not.toHaveURL(/subject=/);
});

test('ratings: a whole sheet filled with one rating, exceptions changed, and a rating typed offline saved once back', async ({
  page,
  request,
}) => {
  await openOnPhone(page, 'admin', sheetScreen('/class-ratings'));
  await expect(page.getByTestId('ratings-grid')).toBeVisible();
  const sheet = await getJson<RatingSheet>(request, `/api/class-ratings/?${sheetQuery()}`);
  const traits = [...sheet.traits.affective, ...sheet.traits.psychomotor];
  const names = sheet.rows.map((r) => r.name);
  const cells = names.length * traits.length;

  // Every trait, rating 4: the whole sheet in three taps.
  const fill = page.getByTestId('rating-fill');
  await fill.getByLabel(F.trait).selectOption('');
  await fill.getByLabel(F.rating).selectOption('4');
  await fill.getByRole('button', { name: F.fill }).click();
  const rating4 = `4 ${sheet.rating_labels[3]}`;
  await expect(page.getByTestId('rating-fill-result')).toHaveText(F.filled(cells, rating4));
  // The exceptions by hand.
  await page.getByLabel(`${traits[0]!.name} for ${names[0]}`, { exact: true }).fill('2');
  for (const r of sheet.rows) await expect(status(page, r.admission_number)).toHaveText(/Saved$/, { timeout: 15_000 });
  let stored = await getJson<RatingSheet>(request, `/api/class-ratings/?${sheetQuery()}`);
  expect(stored.rows[0]!.ratings[traits[0]!.id]).toBe(2);
  expect(stored.rows.flatMap((r) => traits.map((t) => r.ratings[t.id])).filter((v) => v === 4)).toHaveLength(cells - 1);

  // One trait's column at 5: the cells already rated are kept, and replaced after a confirmation in view.
  await fill.getByLabel(F.trait).selectOption(traits[1]!.id);
  await fill.getByLabel(F.rating).selectOption('5');
  await fill.getByRole('button', { name: F.fill }).click();
  await expect(page.getByTestId('rating-fill-result')).toContainText(F.kept(names.length));
  await page.getByRole('button', { name: F.replace(names.length) }).click();
  const confirm = page.getByRole('alertdialog', { name: F.replaceTitle });
  await expect(confirm).toBeFocused();
  await expectInView(page, confirm);
  await confirm.getByRole('button', { name: F.replaceButton }).click();
  for (const n of names) await expect(page.getByLabel(`${traits[1]!.name} for ${n}`, { exact: true })).toHaveValue('5');
  for (const r of sheet.rows) await expect(status(page, r.admission_number)).toHaveText(/Saved$/, { timeout: 15_000 });
  await expectAccessible(page);

  // Offline: a rating typed is kept, leaving asks, and it is saved once the network is back.
  await page.context().setOffline(true);
  const cell = page.getByLabel(`${traits[2]!.name} for ${names[1]}`, { exact: true });
  await cell.fill('1');
  await cell.press('Tab');
  await expect(status(page, sheet.rows[1]!.admission_number)).toHaveText(/Not saved$/);
  await page.getByRole('link', { name: 'Change class or term' }).click();
  await (await expectLeaveQuestion(page, A.leaveNotSaved(1))).getByRole('button', { name: A.stay }).click();
  await expectCloseAsks(page);
  await page.context().setOffline(false);
  await expect(status(page, sheet.rows[1]!.admission_number)).toHaveText(/Saved$/);
  stored = await getJson<RatingSheet>(request, `/api/class-ratings/?${sheetQuery()}`);
  expect(stored.rows[1]!.ratings[traits[2]!.id]).toBe(1);
  expect(stored.rows.map((r) => r.ratings[traits[1]!.id])).toEqual(names.map(() => 5));
});

test('comments: one written offline is saved once back; Apply opens its confirmation in view', async ({ page, request }) => {
  await openOnPhone(page, 'admin', sheetScreen('/class-comments'));
  await expect(page.getByTestId('comments-list')).toBeVisible();
  const sheet = await getJson<CommentSheet>(request, `/api/class-comments/?${sheetQuery()}`);
  const adm = sheet.rows[0]!.admission_number;
  const field = page.getByLabel(`Form teacher's comment for ${sheet.rows[0]!.name}`, { exact: true });

  await page.context().setOffline(true);
  await field.fill('Careful and kind to classmates.');
  await field.blur();
  await expect(page.getByTestId(`row-${adm}`).getByTestId('row-status')).toContainText('Not saved');
  await page.getByRole('link', { name: 'Change class or term' }).click();
  await (await expectLeaveQuestion(page, A.leaveNotSaved(1))).getByRole('button', { name: A.stay }).click();
  await expectCloseAsks(page);
  await page.context().setOffline(false);
  await expect(page.getByTestId(`row-${adm}`).getByTestId('row-status')).toContainText('Saved');
  const stored = await getJson<CommentSheet>(request, `/api/class-comments/?${sheetQuery()}`);
  expect(stored.rows[0]!.form_comment).toBe('Careful and kind to classmates.');

  // "Apply suggested comments" tapped at the screen's bottom edge: the question opens in view, focused.
  const apply = page.getByRole('button', { name: "Apply suggested form teacher's comments" });
  await apply.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await apply.click();
  const confirm = page.getByRole('alertdialog', { name: "Apply suggested form teacher's comments" });
  await expect(confirm).toBeFocused();
  await expectInView(page, confirm);
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
});

test('the register saved offline is sent on its own when the network is back; its buttons name the student', async ({ page, request }) => {
  await openOnPhone(page, 'admin', `/attendance?class=${encodeURIComponent(plan.sheetArm)}&date=${REGISTER_DAY}`);
  await expect(page.getByTestId('register-list')).toBeVisible();
  const before = await getJson<Register>(request, registerPath());
  const first = before.rows[0]!;
  // Each button says whose mark it is.
  for (const label of ['Present', 'Late', 'Absent'])
    await expect(page.getByRole('button', { name: `${label}: ${first.name}`, exact: true })).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Absent', exact: true })).toHaveCount(0);

  await page.context().setOffline(true);
  await page.getByRole('button', { name: ATTENDANCE_LABELS.markAllPresent }).click();
  // Whatever is stored, this run's mark of the first student differs from it.
  const status = first.status === 'late' ? 'Absent' : 'Late';
  await page.getByRole('button', { name: `${status}: ${first.name}`, exact: true }).click();
  await page.getByRole('button', { name: ATTENDANCE_LABELS.save }).click();
  await expect(page.getByText(A.autoRetry)).toBeVisible();
  await page.getByRole('link', { name: /Back to home/ }).click();
  await (await expectLeaveQuestion(page, SM.leaveUnsaved)).getByRole('button', { name: A.stay }).click();
  await expectCloseAsks(page);
  await expectAccessible(page);

  await page.context().setOffline(false);
  await expect(page.getByText(SM.registerSaved)).toBeVisible();
  const after = await getJson<Register>(request, registerPath());
  expect(after.saved?.version).toBe((before.saved?.version ?? 0) + 1);
  expect(after.rows[0]!.status).toBe(status.toLowerCase());
  expect(after.rows.slice(1).every((r) => r.status === 'present')).toBe(true);
});

test('confirmations open in view with the focus: Submit on approvals, Reverse on the ledger', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  // Submit, as the arm's form teacher, tapped at the screen's bottom edge.
  await signInViaApi(page, request, 'staff', formTeacher);
  await page.goto('/report-approvals');
  await page.getByLabel('Academic Session').selectOption(String(plan.sessionId));
  await page.getByLabel('Academic Term').selectOption('2nd');
  const submit = page.getByRole('button', { name: `Submit ${plan.approvalsArm}` });
  await submit.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await submit.click();
  const panel = page.getByRole('alertdialog', { name: `Submit ${plan.approvalsArm}` });
  await expect(panel).toBeFocused();
  await expectInView(page, panel);
  await expectAccessible(page);
  await panel.getByRole('button', { name: 'Cancel' }).click();

  // Reverse, as the admin (a bursar), on a cash payment of this run.
  const headers = await admin(request);
  const paid = await request.post('/api/bursary/payments/', {
    headers,
    data: { admission_number: plan.payer, session_id: plan.sessionId, term: null, amount: 1500, method: 'cash', paid_on: '2026-05-06' },
  });
  expect(paid.status(), await paid.text()).toBe(201);
  await page.evaluate(() => localStorage.clear());
  await signInViaApi(page, request, 'admin');
  await page.goto(`/bursary/ledger?admission_number=${plan.payer}`);
  const reverse = page.getByRole('button', { name: /^Reverse R-\d{6}$/ });
  await reverse.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await reverse.click();
  const dialog = page.getByTestId('reverse-dialog');
  await expectInView(page, dialog);
  await expect(dialog.getByRole('textbox')).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});
