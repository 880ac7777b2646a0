import type { APIRequestContext, Page } from '@playwright/test';
import {
  PROMOTION_SCREEN_LABELS as L,
  PROMOTION_SCREEN_MESSAGES as M,
  SESSION_END_MENU_TITLE,
  SESSION_END_SCREENS as S,
} from '../../packages/domain/src/session-end-screens';
import { ROLLOVER_SCREEN } from '../../packages/domain/src/rollover';
import { expect, expectAccessible, noSideways, PHONE, signInViaApi, studentSubjects, test } from '../fixtures';
import {
  asAdmin,
  createArm,
  createStudent,
  currentSessionId,
  currentTerm,
  enterScores,
  okJson,
  publishArm,
  runTag,
  undoPromotionRuns,
  type AdminApi,
} from '../school';

test.describe.configure({ mode: 'serial' });

// Its own data (school.ts): a JSS 1 arm of this run with three students, the JSS 2 arm it promotes
// into by default and a second JSS 2 arm, and a next session of its own (a name no other spec uses).
// The admin previews the arm's promotion, sends one student to the second arm, promotes, reads the
// summary and undoes the run (each student back in JSS 1); on a 360 px phone the same, then one
// student moved with a reason. Every screen checked with axe, the phone's without sideways scroll.

const RUN = runTag();
let API: AdminApi;
let FROM = 0;
let TO = 0;
let TO_NAME = '';
let FROM_ARM = '';
let TO_ARM = '';
let OTHER_ARM = '';
const KIDS: { admission_number: string; name: string }[] = [];

/** The student's arm now, asked with the test's own request context (the admin's token of beforeAll). */
const armOf = async (request: APIRequestContext, adm: string) =>
  (await okJson<{ student_class: string }>(await request.get(`/api/students/${adm}/`, { headers: API.headers }))).student_class;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  API = await asAdmin(request);
  FROM = await currentSessionId(API);
  FROM_ARM = await createArm(API, 'JSS 1', RUN);
  TO_ARM = await createArm(API, 'JSS 2', RUN);
  OTHER_ARM = await createArm(API, 'JSS 2', `${RUN}Z`);
  for (const i of [1, 2, 3]) {
    const s = await createStudent(API, FROM_ARM, `${RUN}P${i}`, { first_name: ['Ada', 'Bola', 'Chidi'][i - 1]! });
    KIDS.push({ admission_number: s.admission_number, name: `${s.first_name} ${s.last_name}` });
  }
  // A next session of this run's own: a year far from the demo school's.
  const year = 2100 + (parseInt(RUN.slice(-4), 36) % 700);
  TO_NAME = `${year}/${year + 1}`;
  TO = (await okJson<{ id: number }>(await API.request.post('/api/sessions/', { headers: API.headers, data: { name: TO_NAME } }), 201)).id;
});

/** Opens /promotion for this run's arm and previews it. */
async function preview(page: Page) {
  await page.getByLabel(L.fromSession).selectOption(String(FROM));
  await page.getByLabel(L.toSession).selectOption(String(TO));
  await page.getByLabel(L.arm, { exact: true }).selectOption(FROM_ARM);
  await page.getByRole('button', { name: L.preview, exact: true }).click();
  await expect(page.getByTestId('promotion-students').locator('tbody tr')).toHaveCount(3);
}

async function promoteAndSummarise(page: Page, students = 3) {
  await page.getByTestId('promote').click();
  const confirm = page.getByRole('alertdialog', { name: L.promote });
  await expect(confirm).toContainText(TO_NAME);
  await confirm.getByRole('button', { name: L.promoteConfirm }).click();
  const summary = page.getByTestId('promotion-summary');
  await expect(summary).toBeVisible({ timeout: 30_000 });
  const figures = await Promise.all(
    ['promoted', 'trial', 'repeat', 'graduated'].map(async (k) => Number(await page.getByTestId(`summary-${k}`).innerText())),
  );
  expect(figures.reduce((a, b) => a + b, 0)).toBe(students);
}

async function undoNewest(page: Page) {
  const runs = page.getByTestId('promotion-runs');
  const newest = runs.locator('tbody tr').first();
  await expect(newest.getByTestId('run-status')).toHaveText(L.statuses.done!);
  await newest.getByRole('button', { name: /^Undo run/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: L.undoConfirm }).click();
  await expect(page.getByText(L.undone)).toBeVisible();
  await expect(runs.locator('tbody tr').first().getByTestId('run-status')).toHaveText(L.statuses.undone!);
}

test('on a laptop: the menu group, the preview with one student sent to another arm, promote, summary, undo', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInViaApi(page, request, 'admin');
  await page.goto('/adminHomePage');
  await expect(page.locator('#admin-menu').getByRole('heading', { name: SESSION_END_MENU_TITLE })).toBeVisible();
  const headings = await page.locator('#admin-menu h2').allInnerTexts();
  expect(headings.at(-1)).toBe(SESSION_END_MENU_TITLE);
  const group = page.locator('#admin-menu section').filter({ has: page.getByRole('heading', { name: SESSION_END_MENU_TITLE }) });
  await expect(group.getByRole('link')).toHaveText([
    new RegExp(ROLLOVER_SCREEN.label),
    new RegExp(S.promotion.label),
    new RegExp(S.pins.label),
  ]);
  await group.getByRole('link', { name: new RegExp(S.promotion.label) }).click();
  await expect(page.getByRole('heading', { name: S.promotion.title, level: 1 })).toBeVisible();

  await preview(page);
  // The default mapping: JSS 1 X -> JSS 2 X.
  await expect(page.getByLabel(L.mappingOf(FROM_ARM))).toHaveValue(TO_ARM);
  // The third student goes to the other JSS 2 arm: the counts follow.
  // Each promoted (none has a card yet, whatever the rule says of that), the third to the other JSS 2 arm.
  const row = (i: number) => page.getByTestId('promotion-students').locator(`tr[data-admission="${KIDS[i]!.admission_number}"]`);
  for (const i of [0, 1, 2]) await row(i).getByTestId('decision').selectOption('promoted');
  await row(2).getByTestId('target').selectOption(OTHER_ARM);
  const counts = page.getByTestId('promotion-counts');
  await expect(counts.locator(`tr[data-target="${OTHER_ARM}"]`).getByTestId('count')).toHaveText('1');
  await expect(counts.locator(`tr[data-target="${TO_ARM}"]`).getByTestId('count')).toHaveText('2');
  await expectAccessible(page);

  await promoteAndSummarise(page);
  expect(await armOf(request, KIDS[0]!.admission_number)).toBe(TO_ARM);
  expect(await armOf(request, KIDS[2]!.admission_number)).toBe(OTHER_ARM);
  await expectAccessible(page);

  await undoNewest(page);
  for (const k of KIDS) expect(await armOf(request, k.admission_number)).toBe(FROM_ARM);
  await expectAccessible(page);
});

test('on a 360 px phone: preview, promote, summary, undo, then one student moved with a reason', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'admin');
  await page.goto(S.promotion.to);
  await expect(page.getByRole('heading', { name: S.promotion.title, level: 1 })).toBeVisible();
  await preview(page);
  await noSideways(page);
  await expectAccessible(page);

  await promoteAndSummarise(page);
  await noSideways(page);
  await expectAccessible(page);
  await undoNewest(page);
  await noSideways(page);

  // One student moved, with a reason, from the student's details page.
  const kid = KIDS[1]!;
  await page.goto(`/students/${kid.admission_number}`);
  await page.getByRole('link', { name: S.move.label }).click();
  await expect(page.getByRole('heading', { name: S.move.title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('student-arm')).toHaveText(FROM_ARM);
  await page.getByRole('button', { name: L.move }).click();
  await expect(page.getByText(M.targetRequired)).toBeVisible();
  await page.getByLabel(L.target).selectOption(OTHER_ARM);
  await page.getByLabel(L.reason).fill('Moved by the parents’ request after the first week');
  await page.getByRole('button', { name: L.move }).click();
  await expect(page.getByText(L.moved(kid.name, OTHER_ARM))).toBeVisible();
  await expect(page.getByTestId('student-arm')).toHaveText(OTHER_ARM);
  expect(await armOf(request, kid.admission_number)).toBe(OTHER_ARM);
  await noSideways(page);
  await expectAccessible(page);
});

test('on a laptop: an SSS 3 arm graduates; its graduate’s transcript; once the new session has scores, undo is refused with the reason', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const api = { request, headers: API.headers };
  const finalArm = await createArm(api, 'SSS 3', `${RUN}G`);
  const leaver = await createStudent(api, finalArm, `${RUN}G1`, { first_name: 'Dayo' });
  // A released card of this term: the transcript has one card at least.
  const term = (await currentTerm(api)).term;
  const taken = await studentSubjects(request, API.headers.authorization.slice('Bearer '.length), leaver.admission_number);
  const scores = Object.fromEntries(taken.map((n, i) => [n, 60 + (i % 30)]));
  await enterScores(api, { sessionId: FROM, term, arm: finalArm, admission: leaver.admission_number, scores });
  await publishArm(api, { sessionId: FROM, term, arm: finalArm });
  await signInViaApi(page, request, 'admin');
  await page.goto(S.promotion.to);
  await page.getByLabel(L.fromSession).selectOption(String(FROM));
  await page.getByLabel(L.toSession).selectOption(String(TO));
  await page.getByLabel(L.arm, { exact: true }).selectOption(finalArm);
  await page.getByRole('button', { name: L.preview, exact: true }).click();
  const row = page.getByTestId('promotion-students').locator(`tr[data-admission="${leaver.admission_number}"]`);
  await expect(row.getByTestId('decision')).toHaveValue('graduated');
  await expect(row.getByTestId('target')).toHaveValue(/graduate/);
  await expect(page.getByTestId('mapping-row')).toContainText(L.graduate);
  await promoteAndSummarise(page, 1);
  await expect(page.getByTestId('summary-graduated')).toHaveText('1');
  await expectAccessible(page);

  // The new session gets a score: no promotion into it can be undone any more, and the list says why.
  const token = API.headers.authorization.slice('Bearer '.length);
  const subjects = await studentSubjects(request, token, KIDS[0]!.admission_number);
  const h = { authorization: API.headers.authorization };
  const res = await request.post('/api/results/', {
    headers: h,
    data: {
      admission_number: KIDS[0]!.admission_number,
      session_id: TO,
      term: '1st',
      student_class: FROM_ARM,
      subjects: [{ name: subjects[0], score: 70, remarks: '' }],
      reason: 'Entered early for the next session',
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const created = (await res.json()) as { id: number; version: number } | { id: number; version: number }[];
  const early = Array.isArray(created) ? created[0]! : created;
  await page.reload();
  const newest = page.getByTestId('promotion-runs').locator('tbody tr').first();
  await expect(newest.getByTestId('undo-blocked')).toContainText('scores');
  await expect(newest.getByRole('button', { name: /^Undo run/ })).toHaveCount(0);
  await expectAccessible(page);

  // The graduate: no move, the transcript instead (from the student's details page).
  await page.goto(`/students/${leaver.admission_number}`);
  await page.getByRole('link', { name: L.transcript }).click();
  await expect(page.getByText(M.graduateNote)).toBeVisible();
  await expect(page.getByRole('button', { name: L.move })).toHaveCount(0);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: L.transcript }).click();
  expect((await download).suggestedFilename()).toBe(`transcript-${leaver.admission_number}.pdf`);
  await expectAccessible(page);

  // The shared school's session is left live for the specs after this one: the early score goes, then the run.
  const removed = await request.delete(
    `/api/results/${early.id}/?version=${early.version}&reason=${encodeURIComponent('Entered too early')}`,
    {
      headers: h,
    },
  );
  expect(removed.status(), await removed.text()).toBeLessThan(300);
  await undoPromotionRuns(api);
});
