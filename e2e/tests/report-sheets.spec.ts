import type { APIRequestContext, Page } from '@playwright/test';
import { greyPng } from '../../apps/server/test/grey-png';
import { REPORT_MESSAGES, promotionLabel, suggestComment } from '../../packages/domain/src/report-card-rules';
import { type CommentSheet, type RatingSheet } from '../../packages/domain/src/report-cards';
import { type ReportSettings, type ReportTerm } from '../../packages/domain/src/report-card-schemas';
import { apiToken, expect, expectAccessible, PHONE, signInViaApi, test, noSideways, pasteText, openFromAdminMenu } from '../fixtures';
import { adminGet as getJson, asAdmin, createSheetClass, runTag, type OwnStaff, type SheetClass } from '../school';

// The screens that fill the report card, on a 360 px phone: the admin edits the traits, the rating
// key and the comment bank, uploads the principal's signature and sets the term's dates; the arm's
// form teacher rates the arm with the keyboard and a pasted block, writes comments and applies the
// bank's suggestions; the admin writes a principal's comment. A reload shows everything stored; axe
// passes on each screen. Its own data (fixture school.ts): a JSS 1 arm of this run with four
// students who have results in every term (averages, so suggestions; none released) and a teacher
// of this run who is its form teacher. The school's report settings and term dates are put back after.

const RUN = runTag();
const TERM = '2nd';
let ARM = '';
let FORM_TEACHER: OwnStaff;
let CLASS: SheetClass;

const plan = {
  sessionId: 0,
  settings: null as ReportSettings | null,
  terms: [] as ReportTerm[],
  names: [] as string[],
  adms: [] as string[],
};

const admin = async (request: APIRequestContext) => ({ authorization: `Bearer ${await apiToken(request, 'admin')}` });
const query = () => CLASS.query;
const screen = (path: string) => CLASS.screen(path);

const status = (page: Page, adm: string) => page.getByTestId(`row-${adm}`).getByTestId('row-status');

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  // Averages spread across the comment bank's bands: 45, 58, 71, 84.
  CLASS = await createSheetClass(api, RUN, TERM, { students: 4, results: { terms: ['1st', '2nd', '3rd'], score: (i) => 45 + 13 * i } });
  ({ arm: ARM, teacher: FORM_TEACHER, sessionId: plan.sessionId } = CLASS);
  plan.settings = await getJson<ReportSettings>(request, '/api/report-settings/');
  plan.terms = await getJson<ReportTerm[]>(request, `/api/report-terms/?session_id=${plan.sessionId}`);
  const sheet = CLASS.sheet;
  expect(sheet.rows.length).toBeGreaterThan(1);
  expect(sheet.status).toBe('draft');
  plan.names = sheet.rows.map((r) => r.name);
  plan.adms = sheet.rows.map((r) => r.admission_number);
});

/** Puts the school back: its report settings and the term dates as they were. */
test.afterAll(async ({ request }) => {
  const headers = await admin(request);
  if (plan.settings) await request.put('/api/report-settings/', { headers, data: { ...plan.settings, signature: '', stamp: '' } });
  for (const t of plan.terms) {
    const res = await request.put('/api/report-terms/', { headers, data: t });
    expect(res.status(), await res.text()).toBe(200);
  }
});

test.describe.configure({ mode: 'serial' });

test('the admin edits the traits, the rating key and the comment bank, uploads a signature and sets the term dates', async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'admin');
  await openFromAdminMenu(page, 'Report Card Settings');
  await expect(page.getByLabel('Affective domain: trait 1')).toHaveValue('Punctuality');

  // Traits: rename one (its ratings follow its id), add one, move one, remove one.
  await page.getByLabel('Affective domain: trait 1').fill('Timekeeping');
  await page.getByLabel('New trait (affective domain)').fill('Diligence');
  await page.getByRole('button', { name: 'Add trait' }).first().click();
  await page.getByRole('button', { name: 'Remove: Leadership' }).click();
  await page.getByRole('button', { name: 'Move up: Music' }).click();
  // The rating key and the bank: a label renamed, a principal's comment replaced.
  await page.getByLabel('Label of rating 5').fill('Outstanding');
  const bank = page.getByTestId('comment-bank').locator('li');
  const before = await bank.count();
  await page.getByRole('button', { name: `Remove: comment ${before}` }).click();
  await page.getByRole('button', { name: 'Add comment' }).click();
  await page.getByLabel(`Comment of (${before})`, { exact: true }).selectOption('principal');
  await page.getByLabel(`Average from (${before})`, { exact: true }).fill('0');
  await page.getByLabel(`Average to (${before})`, { exact: true }).fill('39.99');
  await page.getByLabel(`Comment (${before})`, { exact: true }).fill('Parents should see the principal early next term.');
  await page
    .getByLabel("Principal's signature (PNG or JPEG, under 2 MB)")
    .setInputFiles({ name: 'signature.png', mimeType: 'image/png', buffer: greyPng(300, 100) });
  await expect(page.getByRole('img', { name: "Current: Principal's signature" })).toBeVisible();
  await noSideways(page);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText(REPORT_MESSAGES.settingsSaved)).toBeVisible();

  // The term's dates: printed on the 2nd-term cards, and the comments screen shows times opened.
  const term = page.getByTestId(`term-${TERM}`);
  await term.getByLabel(/Next term begins/).fill('2026-04-28');
  await term.getByLabel(/Times school opened/).fill('60');
  await term.getByRole('button', { name: 'Save term dates' }).click();
  await expect(page.getByText(REPORT_MESSAGES.termSaved)).toBeVisible();

  // A reload shows what was stored.
  await page.reload();
  await expect(page.getByLabel('Affective domain: trait 1')).toHaveValue('Timekeeping');
  const affective = page.getByTestId('traits-affective').getByRole('textbox', { name: /^Affective domain: trait/ });
  await expect(affective).toHaveCount(8);
  await expect(affective.last()).toHaveValue('Diligence');
  const psychomotor = page.getByTestId('traits-psychomotor').getByRole('textbox', { name: /^Psychomotor skills: trait/ });
  expect(await psychomotor.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual([
    'Handwriting',
    'Sports and games',
    'Music',
    'Arts and crafts',
  ]);
  await expect(page.getByLabel('Label of rating 5')).toHaveValue('Outstanding');
  await expect(page.getByLabel(`Comment (${before})`, { exact: true })).toHaveValue('Parents should see the principal early next term.');
  await expect(page.getByRole('img', { name: "Current: Principal's signature" })).toBeVisible();
  await expect(page.getByTestId(`term-${TERM}`).getByLabel(/Times school opened/)).toHaveValue('60');
  await expect(page.getByTestId(`term-${TERM}`).getByLabel(/Next term begins/)).toHaveValue('2026-04-28');

  const stored = await getJson<ReportSettings>(request, '/api/report-settings/');
  expect(stored.traits.affective.map((t) => t.name)).toEqual([
    'Timekeeping',
    'Neatness',
    'Politeness',
    'Honesty',
    'Self-control',
    'Cooperation',
    'Attentiveness',
    'Diligence',
  ]);
  expect(stored.traits.affective[0]!.id).toBe('punctuality');
  expect(stored.rating_labels[4]).toBe('Outstanding');
  expect(stored.signature).toMatch(/^data:image\/(png|jpeg);base64,/);
});

test('the form teacher rates the arm on a phone with the keyboard and a pasted block; a reload shows them stored', async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', FORM_TEACHER);
  await page.goto('/staffHomePage');
  await page.getByRole('link', { name: /Class Ratings/ }).click();
  // The chooser offers the arms the teacher is form teacher of, and no other.
  const token = await apiToken(request, 'staff', FORM_TEACHER);
  const mine = (await (
    await request.get(`/api/teaching/my-classes/?session_id=${plan.sessionId}`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { form_classes: { class_name: string }[] };
  const formArms = mine.form_classes.map((c) => c.class_name);
  expect(formArms).toContain(ARM);
  const options = page.getByLabel('Class', { exact: true }).locator('option');
  await expect(options).toHaveText(['Select class', ...formArms]);
  await page.getByLabel('Academic Term').selectOption(TERM);
  await page.getByLabel('Class', { exact: true }).selectOption(ARM);
  await page.getByRole('button', { name: 'Open ratings' }).click();
  await expect(page.getByTestId('ratings-grid')).toBeVisible();
  await expect(page.getByTestId('rating-key')).toContainText('5 Outstanding');

  // Timekeeping down the arm by keyboard: a digit, then Enter to the next student.
  const { names, adms } = plan;
  const typed = names.map((_, i) => String((i % 5) + 1));
  await page.getByLabel(`Timekeeping for ${names[0]}`, { exact: true }).focus();
  for (const [i, v] of typed.entries()) {
    await page.keyboard.type(v);
    if (i < names.length - 1) await page.keyboard.press('Enter');
  }
  await expect(page.getByLabel(`Timekeeping for ${names.at(-1)}`, { exact: true })).toBeFocused();
  // A rating out of range is refused in the row before anything is sent.
  await page.keyboard.press('Backspace');
  await page.keyboard.type('7');
  await expect(page.getByTestId(`row-${adms.at(-1)}`).locator('xpath=following-sibling::tr[1]')).toContainText('whole number from 1 to 5');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(typed.at(-1)!);
  // Right arrow at the end of the cell moves across, to Neatness.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByLabel(`Neatness for ${names.at(-1)}`, { exact: true })).toBeFocused();

  // Neatness and Politeness pasted as a block from a spreadsheet, from the first student down.
  const block = names.map((_, i) => `${((i + 2) % 5) + 1}\t${((i + 3) % 5) + 1}`).join('\n');
  await pasteText(page, `Neatness for ${names[0]}`, block);
  await expect(page.getByLabel(`Politeness for ${names.at(-1)}`, { exact: true })).toHaveValue(String(((names.length - 1 + 3) % 5) + 1));
  await page.getByRole('button', { name: /Save all/ }).click();
  for (const adm of adms) await expect(status(page, adm)).toHaveText(/Saved$/);
  await noSideways(page);
  await expectAccessible(page);

  // The name column stays in view while the traits scroll sideways.
  const region = page.getByRole('region', { name: 'Ratings grid' });
  const name = region.locator('tbody th[scope=row]').first();
  const x = (await name.boundingBox())!.x;
  await region.evaluate((el) => el.scrollBy({ left: 400 }));
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(50);
  expect(Math.abs((await name.boundingBox())!.x - x)).toBeLessThan(2);
  await region.evaluate((el) => el.scrollTo({ left: 0 }));

  // Someone else (the admin) changes the first student's row meanwhile: the teacher's next save of
  // that row is refused with the message, kept as typed, and goes through after a reload.
  const before = await getJson<RatingSheet>(request, `/api/class-ratings/?${query()}`);
  const row0 = before.rows[0]!;
  const other = await request.put('/api/class-ratings/', {
    headers: await admin(request),
    data: {
      session_id: plan.sessionId,
      term: TERM,
      student_class: ARM,
      rows: [{ admission_number: row0.admission_number, ratings: { ...row0.ratings, honesty: 3 }, version: row0.version }],
    },
  });
  expect(other.status(), await other.text()).toBe(200);
  const cell0 = page.getByLabel(`Timekeeping for ${names[0]}`, { exact: true });
  await cell0.fill('2');
  await cell0.press('Enter'); // leaves the row: saved at once, refused as stale
  await expect(status(page, adms[0]!)).toHaveText(/Changed by someone else$/);
  await expect(page.getByTestId('row-problem')).toContainText('was changed by someone else since you loaded it');
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(status(page, adms[0]!)).toHaveText(/Not saved yet$/);
  await expect(cell0).toHaveValue('2');
  await expect(page.getByLabel(`Honesty for ${names[0]}`, { exact: true })).toHaveValue('3');
  await page.getByRole('button', { name: /Save all/ }).click();
  await expect(status(page, adms[0]!)).toHaveText(/Saved$/);
  typed[0] = '2';

  await page.reload();
  for (const [i, n] of names.entries()) {
    await expect(page.getByLabel(`Timekeeping for ${n}`, { exact: true })).toHaveValue(typed[i]!);
    await expect(page.getByLabel(`Neatness for ${n}`, { exact: true })).toHaveValue(String(((i + 2) % 5) + 1));
  }
  const stored = await getJson<RatingSheet>(request, `/api/class-ratings/?${query()}`);
  expect(stored.rows.map((r) => r.ratings.punctuality)).toEqual(typed.map(Number));
  expect(stored.rows.map((r) => r.ratings.politeness)).toEqual(names.map((_, i) => ((i + 3) % 5) + 1));
  expect(stored.rows[0]!.ratings.honesty).toBe(3);

  // Another arm's sheet is refused in the server's words.
  const notMine = (await getJson<{ name: string; retired: boolean }[]>(request, '/api/classes/')).find(
    (c) => !c.retired && !formArms.includes(c.name),
  )!.name;
  await page.goto(`/class-ratings?session_id=${plan.sessionId}&term=${TERM}&class=${encodeURIComponent(notMine)}`);
  await expect(page.getByTestId('alert-error')).toHaveText(REPORT_MESSAGES.formTeacherOnly(notMine));
});

test('the form teacher writes comments and attendance and applies suggestions; the admin writes a principal comment', async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  const { names, adms } = plan;
  await signInViaApi(page, request, 'staff', FORM_TEACHER);
  await page.goto(screen('/class-comments'));
  await expect(page.getByTestId('comments-list')).toBeVisible();
  await expect(page.getByTestId('times-opened')).toHaveText('Times school opened this term: 60.');
  const first = page.getByTestId(`row-${adms[0]}`);
  const second = page.getByTestId(`row-${adms[1]}`);
  const field = (label: string, i: number) => page.getByLabel(`${label} for ${names[i]}`, { exact: true });
  // The principal's comment is not the form teacher's to write.
  await expect(field("Principal's comment", 0)).toHaveAttribute('readonly', '');

  await field("Form teacher's comment", 0).fill('Steady and helpful in class.');
  await field('Days present', 0).fill('55');
  await field('Days absent', 0).fill('9');
  // Present and absent cannot exceed the times school opened.
  await expect(first).toContainText(REPORT_MESSAGES.attendanceOverOpened(60));
  await field('Days absent', 0).fill('5');
  // The suggestion for the second student's average, one tap away.
  const sheet = await getJson<CommentSheet>(request, `/api/class-comments/?${query()}`);
  const suggested = sheet.rows[1]!.suggested_form;
  expect(suggested).toBe(
    suggestComment((await getJson<ReportSettings>(request, '/api/report-settings/')).comment_bank, 'form', sheet.rows[1]!.average),
  );
  await second.getByRole('button', { name: `Use suggestion: Form teacher's comment for ${names[1]}` }).click();
  await expect(field("Form teacher's comment", 1)).toHaveValue(suggested);
  await page.getByRole('button', { name: /Save all/ }).click();
  await expect(first.getByTestId('row-status')).toContainText('Saved');
  await expect(second.getByTestId('row-status')).toContainText('Saved');

  // The bank's suggestion for everyone still without a form teacher's comment, after a confirm.
  await page.getByRole('button', { name: "Apply suggested form teacher's comments" }).click();
  const confirm = page.getByRole('alertdialog', { name: "Apply suggested form teacher's comments" });
  await expect(confirm).toContainText('Comments already written stay');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Apply' }).click();
  const withSuggestion = sheet.rows.slice(2).filter((r) => r.suggested_form).length;
  await expect(page.getByText(REPORT_MESSAGES.suggestionsApplied(withSuggestion))).toBeVisible();
  await expect(field("Form teacher's comment", 0)).toHaveValue('Steady and helpful in class.');
  if (sheet.rows[2]?.suggested_form) await expect(field("Form teacher's comment", 2)).toHaveValue(sheet.rows[2].suggested_form);
  await noSideways(page);
  await expectAccessible(page);

  // The principal (the admin) writes a principal's comment on the same sheet.
  await page.evaluate(() => localStorage.clear());
  await signInViaApi(page, request, 'admin');
  await page.goto('/adminHomePage');
  await page.getByRole('link', { name: /Class Comments/ }).click();
  await page.getByLabel('Academic Term').selectOption(TERM);
  await page.getByLabel('Class', { exact: true }).selectOption(ARM);
  await page.getByRole('button', { name: 'Open comments' }).click();
  const row = page.getByTestId(`row-${adms[0]}`);
  await field("Principal's comment", 0).fill('A good term. Keep it up.');
  await field("Principal's comment", 0).blur();
  await expect(row.getByTestId('row-status')).toContainText('Saved');
  await expectAccessible(page);

  await page.reload();
  await expect(field("Principal's comment", 0)).toHaveValue('A good term. Keep it up.');
  await expect(field("Form teacher's comment", 0)).toHaveValue('Steady and helpful in class.');
  await expect(field('Days present', 0)).toHaveValue('55');
  await expect(field('Days absent', 0)).toHaveValue('5');
  await expect(field("Form teacher's comment", 1)).toHaveValue(suggested);
  const stored = await getJson<CommentSheet>(request, `/api/class-comments/?${query()}`);
  expect(stored.rows[0]).toMatchObject({
    form_comment: 'Steady and helpful in class.',
    principal_comment: 'A good term. Keep it up.',
    days_present: 55,
    days_absent: 5,
  });
  expect(stored.rows.filter((r) => r.form_comment).length).toBe(2 + withSuggestion);
  expect(names.length).toBe(stored.rows.length);
});

test("third term: the rule's promotion decision shows; the principal overrides it with a reason, the form teacher cannot", async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  const { names } = plan;
  const path = `/class-comments?session_id=${plan.sessionId}&term=3rd&class=${encodeURIComponent(ARM)}`;
  const sheet = await getJson<CommentSheet>(request, `/api/class-comments/?${query().replace(`term=${TERM}`, 'term=3rd')}`);
  const computed = sheet.rows[0]!.promotion!.computed;
  const other = computed === 'promoted' ? 'repeat' : 'promoted';
  const field = (label: string) => page.getByLabel(`${label} for ${names[0]}`, { exact: true });

  await signInViaApi(page, request, 'admin');
  await page.goto(path);
  const row = page.getByTestId(`row-${plan.adms[0]}`);
  await expect(row.getByTestId('promotion-computed')).toHaveText(promotionLabel(computed, 'JSS 1'));
  await field('Decision').selectOption(other);
  // An override needs its reason: nothing is sent until it has one.
  await expect(row).toContainText(REPORT_MESSAGES.overrideReasonRequired);
  await field('Reason for the change').fill('Sat the exams while ill; the school board agreed.');
  await field('Reason for the change').blur();
  await expect(row.getByTestId('row-status')).toContainText('Saved');
  await noSideways(page);
  await expectAccessible(page);
  await page.reload();
  await expect(field('Decision')).toHaveValue(other);
  await expect(field('Reason for the change')).toHaveValue('Sat the exams while ill; the school board agreed.');

  // The form teacher sees the decision but cannot change it.
  await page.evaluate(() => localStorage.clear());
  await signInViaApi(page, request, 'staff', FORM_TEACHER);
  await page.goto(path);
  await expect(field('Decision')).toBeDisabled();
  await expect(field('Decision')).toHaveValue(other);
  await expectAccessible(page);
});
