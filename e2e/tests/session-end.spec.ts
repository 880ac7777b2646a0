import type { Page } from '@playwright/test';
import { termLabel, type Term } from '../../packages/domain/src/constants';
import { ROLLOVER_LABELS as RL, ROLLOVER_SCREEN } from '../../packages/domain/src/rollover';
import {
  PROMOTION_SCREEN_LABELS as L,
  SESSION_END_MENU_TITLE,
  SESSION_END_SCREENS as S,
} from '../../packages/domain/src/session-end-screens';
import { expect, expectAccessible, noSideways, PHONE, signInViaApi, studentSubjects, test } from '../fixtures';
import {
  asAdmin,
  createArm,
  createStudent,
  currentTerm,
  enterScores,
  okJson,
  publishArm,
  runTag,
  undoPromotionRuns,
  type AdminApi,
} from '../school';

test.describe.configure({ mode: 'serial' });

// A whole session end in the browser (issue 34), on a laptop and on a 360 px phone, each with its own
// data (school.ts): a JSS 1 arm of the run and the JSS 2 arm it moves into, a student with a released
// card of this term. The admin starts the next session (/session-rollover: a name far in the future,
// its terms), promotes the arm into it (/promotion), makes the new session current (/sessions), and
// then finds the student in the JSS 2 arm while the old card still says JSS 1. The old session is made
// current again at the end: every spec of a run shares one server.

const TERMS: Term[] = ['1st', '2nd', '3rd'];
let API: AdminApi;
let OLD = { id: 0, term: '1st' as Term };

test.beforeAll(async ({ request }) => {
  const current = await currentTerm(await asAdmin(request));
  OLD = { id: current.session_id, term: current.term };
});

/** After each walk the old session is current again, whatever happened. */
test.afterEach(async ({ request }) => {
  const api = await asAdmin(request);
  await okJson(await api.request.patch(`/api/sessions/${OLD.id}/`, { headers: api.headers, data: { is_current: true } }));
  await undoPromotionRuns(api);
});

interface Walk {
  fromArm: string;
  toArm: string;
  student: { admission_number: string; name: string };
  name: string;
  year: number;
}

async function prepare(tag: string): Promise<Walk> {
  const fromArm = await createArm(API, 'JSS 1', tag);
  const toArm = await createArm(API, 'JSS 2', tag);
  const s = await createStudent(API, fromArm, `${tag}S`, { first_name: 'Kemi' });
  const token = API.headers.authorization.slice('Bearer '.length);
  const subjects = await studentSubjects(API.request, token, s.admission_number);
  await enterScores(API, {
    sessionId: OLD.id,
    term: OLD.term,
    arm: fromArm,
    admission: s.admission_number,
    scores: Object.fromEntries(subjects.map((n, i) => [n, 55 + (i % 30)])),
  });
  await publishArm(API, { sessionId: OLD.id, term: OLD.term, arm: fromArm });
  const year = 2100 + (parseInt(tag.slice(-4), 36) % 700);
  return {
    fromArm,
    toArm,
    student: { admission_number: s.admission_number, name: `${s.first_name} ${s.last_name}` },
    name: `${year}/${year + 1}`,
    year,
  };
}

async function startNextSession(page: Page, w: Walk, phone: boolean): Promise<number> {
  await page.goto('/adminHomePage');
  const group = page.locator('#admin-menu section').filter({ has: page.getByRole('heading', { name: SESSION_END_MENU_TITLE }) });
  await group.getByRole('link', { name: new RegExp(ROLLOVER_SCREEN.label) }).click();
  await expect(page.getByRole('heading', { name: ROLLOVER_SCREEN.label, level: 1 })).toBeVisible();
  await page.getByLabel(RL.name).fill(w.name);
  const y = w.year;
  const dates = [
    [`${y}-09-07`, `${y}-12-11`, `${y + 1}-01-04`],
    [`${y + 1}-01-04`, `${y + 1}-04-02`, `${y + 1}-04-26`],
    [`${y + 1}-04-26`, `${y + 1}-07-23`, `${y + 1}-09-13`],
  ];
  for (const [i, t] of TERMS.entries()) {
    const label = termLabel(t);
    await page.getByLabel(RL.termStarts(label), { exact: true }).fill(dates[i]![0]!);
    await page.getByLabel(RL.termEnds(label), { exact: true }).fill(dates[i]![1]!);
    await page.getByLabel(RL.nextTermBegins(label), { exact: true }).fill(dates[i]![2]!);
  }
  if (phone) await noSideways(page);
  await page.getByRole('button', { name: RL.start }).click();
  await expect(page.getByRole('heading', { name: RL.resultTitle })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);
  const sessions = await okJson<{ id: number; name: string }[]>(await API.request.get('/api/sessions/', { headers: API.headers }));
  return sessions.find((s) => s.name === w.name)!.id;
}

async function promote(page: Page, w: Walk, newId: number, phone: boolean) {
  await page.goto('/adminHomePage');
  const group = page.locator('#admin-menu section').filter({ has: page.getByRole('heading', { name: SESSION_END_MENU_TITLE }) });
  await group.getByRole('link', { name: new RegExp(S.promotion.label) }).click();
  await expect(page.getByRole('heading', { name: S.promotion.title, level: 1 })).toBeVisible();
  await page.getByLabel(L.fromSession).selectOption(String(OLD.id));
  await page.getByLabel(L.toSession).selectOption(String(newId));
  await page.getByLabel(L.arm, { exact: true }).selectOption(w.fromArm);
  await page.getByRole('button', { name: L.preview, exact: true }).click();
  const row = page.getByTestId('promotion-students').locator(`tr[data-admission="${w.student.admission_number}"]`);
  await expect(row).toBeVisible();
  await row.getByTestId('decision').selectOption('promoted');
  await expect(row.getByTestId('target')).toHaveValue(w.toArm);
  if (phone) await noSideways(page);
  await expectAccessible(page);
  await page.getByTestId('promote').click();
  await page.getByRole('alertdialog', { name: L.promote }).getByRole('button', { name: L.promoteConfirm }).click();
  await expect(page.getByTestId('promotion-summary')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('summary-promoted')).toHaveText('1');
  if (phone) await noSideways(page);
  await expectAccessible(page);
}

async function makeCurrent(page: Page, w: Walk) {
  await page.goto('/sessions');
  await page.getByRole('button', { name: `Make ${w.name} current` }).click();
  await expect(page.getByRole('button', { name: `Make ${w.name} current` })).toHaveCount(0);
}

async function checkAfter(page: Page, w: Walk, phone: boolean) {
  // The student is in the new arm now...
  await page.goto(`/students/${w.student.admission_number}`);
  await expect(page.getByRole('heading', { name: w.student.name })).toBeVisible();
  await expect(page.getByText(w.toArm, { exact: true })).toBeVisible();
  if (phone) await noSideways(page);
  // ...and the old session's card keeps the arm it was made in.
  await page.goto(`/report-card?admission_number=${w.student.admission_number}&session_id=${OLD.id}&term=${OLD.term}`);
  await expect(page.getByTestId('card-student')).toContainText(`Class: ${w.fromArm}`);
  if (phone) await noSideways(page);
  await expectAccessible(page);
}

for (const device of ['laptop', 'phone'] as const) {
  test(`on a ${device === 'laptop' ? 'laptop' : '360 px phone'}: start the next session, promote, make it current; the student in the new arm, the old card in the old`, async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const phone = device === 'phone';
    await page.setViewportSize(phone ? PHONE : { width: 1280, height: 900 });
    API = await asAdmin(request);
    const w = await prepare(runTag());
    await signInViaApi(page, request, 'admin');
    const newId = await startNextSession(page, w, phone);
    await promote(page, w, newId, phone);
    await makeCurrent(page, w);
    await checkAfter(page, w, phone);
  });
}
