import { RATING_DOMAIN_LABELS, REPORT_MESSAGES } from '../../packages/domain/src/report-card-rules';
import type { ReportSettings } from '../../packages/domain/src/report-card-schemas';
import type { ReportCard } from '../../packages/domain/src/report-cards';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M } from '../../packages/domain/src/report-sheet-screens';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, noSideways, PHONE, signInViaApi, test } from '../fixtures';
import { asAdmin, createArm, createStudentWithResults, okJson, runTag, type AdminApi, type OwnStudent } from '../school';

// Report card settings kept per session (decision 058), on a 360 px phone. The admin names the first
// affective trait on /report-card-settings; a new session becomes current on /sessions and its
// principal renames the trait again. The last session's card still shows the name it was released
// with, and when the last session is made current again the settings screen shows its own name.
// The school is put back: the current session as it was, then its settings as they were.

const RUN = runTag();
const Y = 3800 + Math.floor(Math.random() * 900);
const AHEAD = `${Y}/${Y + 1}`;
const LAST_YEARS = `Timekeeping ${RUN}`;
const THIS_YEARS = `Keeps time ${RUN}`;
const FIRST_TRAIT = `${RATING_DOMAIN_LABELS.affective}: trait 1`;

let api: AdminApi;
let current: { id: number; name: string };
let original: ReportSettings;
let student: OwnStudent;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  api = await asAdmin(request);
  const sessions = await okJson<{ id: number; name: string; is_current: boolean }[]>(
    await request.get('/api/sessions/', { headers: api.headers }),
  );
  current = sessions.find((s) => s.is_current)!;
  original = await okJson<ReportSettings>(await request.get('/api/report-settings/', { headers: api.headers }));
  const arm = await createArm(api, 'JSS 1', RUN);
  student = await createStudentWithResults(api, arm, RUN, { sessionId: current.id, terms: ['1st'], score: () => 70 });
  await okJson(await request.post('/api/sessions/', { headers: api.headers, data: { name: AHEAD } }), 201);
});

test.afterAll(async ({ request }) => {
  api = await asAdmin(request);
  await okJson(await request.patch(`/api/sessions/${current.id}/`, { headers: api.headers, data: { is_current: true } }));
  await okJson(await request.put('/api/report-settings/', { headers: api.headers, data: original }));
});

async function renameFirstTrait(page: Page, name: string) {
  await page.goto('/report-card-settings');
  await expect(page.getByText(M.settingsOfCurrentSession)).toBeVisible();
  await page.getByLabel(FIRST_TRAIT, { exact: true }).fill(name);
  await page.getByRole('button', { name: L.saveSettings }).click();
  await expect(page.getByText(REPORT_MESSAGES.settingsSaved)).toBeVisible();
}

async function makeCurrent(page: Page, name: string) {
  await page.goto('/sessions');
  await page.getByRole('button', { name: `Make ${name} current` }).click();
  await expect(page.getByRole('button', { name: `Make ${name} current` })).toHaveCount(0);
}

/** The first affective trait's name on the student's 1st-term card of the last session. */
async function cardsFirstTrait(page: Page): Promise<string> {
  const card = await okJson<ReportCard>(
    await page.request.get(`/api/report-card/?session_id=${current.id}&term=1st&admission_number=${student.admission_number}`, {
      headers: api.headers,
    }),
  );
  return card.ratings.domains[0]!.traits[0]!.name;
}

test('a new session’s settings leave the last session’s cards as they were; making it current again brings its own back', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'admin');
  await renameFirstTrait(page, LAST_YEARS);
  await noSideways(page);
  await expectAccessible(page);
  expect(await cardsFirstTrait(page)).toBe(LAST_YEARS);

  // The new session begins, and its principal renames the trait.
  await makeCurrent(page, AHEAD);
  await renameFirstTrait(page, THIS_YEARS);
  expect(await cardsFirstTrait(page)).toBe(LAST_YEARS);
  await page.goto(`/report-card?admission_number=${student.admission_number}&session_id=${current.id}&term=1st`);
  await expect(page.getByText(LAST_YEARS)).toBeVisible();
  await expect(page.getByText(THIS_YEARS)).toHaveCount(0);

  // Back to the last session for a late correction: the screen edits its own settings again.
  await makeCurrent(page, current.name);
  await page.goto('/report-card-settings');
  await expect(page.getByLabel(FIRST_TRAIT, { exact: true })).toHaveValue(LAST_YEARS);
  await makeCurrent(page, AHEAD);
  await page.goto('/report-card-settings');
  await expect(page.getByLabel(FIRST_TRAIT, { exact: true })).toHaveValue(THIS_YEARS);
});

test('a form opened before another admin made a session current is not saved over that session’s settings', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'admin');
  await page.goto('/report-card-settings');
  await expect(page.getByLabel(FIRST_TRAIT, { exact: true })).toHaveValue(THIS_YEARS);

  // Meanwhile, another admin makes the last session current again.
  await okJson(await page.request.patch(`/api/sessions/${current.id}/`, { headers: api.headers, data: { is_current: true } }));
  await page.getByLabel(FIRST_TRAIT, { exact: true }).fill(`Stale ${RUN}`);
  await page.getByRole('button', { name: L.saveSettings }).click();
  await expect(page.getByRole('alert').filter({ hasText: REPORT_MESSAGES.settingsChangedMeanwhile })).toBeVisible();
  await noSideways(page);
  await expectAccessible(page);
  const stored = await okJson<ReportSettings>(await page.request.get('/api/report-settings/', { headers: api.headers }));
  expect(stored.traits.affective[0]!.name).toBe(LAST_YEARS);

  // Reloaded, the form shows the now current session's settings and saves them.
  await page.getByRole('button', { name: L.reload }).click();
  await expect(page.getByLabel(FIRST_TRAIT, { exact: true })).toHaveValue(LAST_YEARS);
  await renameFirstTrait(page, LAST_YEARS);
});
