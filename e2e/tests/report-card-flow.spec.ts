import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { greyPng } from '../../apps/server/test/grey-png';
import { pdfText } from '../../apps/server/test/pdf-text';
import { CARD_CODES, REPORT_MESSAGES } from '../../packages/domain/src/report-card-rules';
import { CARD_SECTION_TITLES as T, type ArmApproval, type CommentSheet, type RatingSheet } from '../../packages/domain/src/report-cards';
import { type ReportTerm } from '../../packages/domain/src/report-card-schemas';
import type { ReportCard } from '../../packages/domain/src/report-cards';
import { apiToken, expect, expectAccessible, PHONE, signInViaApi, signInViaUi, test, noSideways, pasteText } from '../fixtures';
import { adminGet as getJson, asAdmin, createSheetClass, runTag, type OwnStaff, type OwnStudent, type SheetClass } from '../school';

// The whole report card, end to end, on the third-term card of an arm of this run (its four students
// have results in every term, so the card has the cumulative table and the promotion decision): the
// admin uploads the student's photo and sets the term's dates; the arm's form teacher rates the arm
// and writes comments on the sheets screens and submits on /report-approvals; the admin writes a
// principal's comment, approves and releases; the student signs in on a 360 px phone, sees every
// section and downloads the PDF, whose extracted text carries the same sections. axe on each screen.
// Its own data (fixture school.ts): the JSS 1 arm, its students (PUPIL does well, so is promoted) and
// a teacher of this run as its form teacher. The term's dates are put back.

const RUN = runTag();
const TERM = '3rd';
let ARM = '';
let PUPIL: OwnStudent;
let STUDENT = '';
let FORM_TEACHER: OwnStaff;
let CLASS: SheetClass;
const FORM_COMMENT = 'A careful worker who helps others in class.';
const PRINCIPAL_COMMENT = 'A fine session. Well done.';

const plan = { sessionId: 0, names: [] as string[], adms: [] as string[], dates: null as ReportTerm | null };

// One sign-in per role for the requests that write: the server limits sign-in attempts per minute.
const tokens: { admin?: string; staff?: string } = {};
const admin = async (request: APIRequestContext) => ({ authorization: `Bearer ${(tokens.admin ??= await apiToken(request, 'admin'))}` });
const formTeacher = async (request: APIRequestContext) => ({
  authorization: `Bearer ${(tokens.staff ??= await apiToken(request, 'staff', FORM_TEACHER))}`,
});
const query = () => CLASS.query;
const screen = (path: string) => CLASS.screen(path);

/** The served PDF is compressed: inflate each Flate stream so pdfText (tests' reader) can read it. */
/** One approval step on the arm's row (Submit, Approve): confirmed in its dialog, then its message and the arm's new status. */
async function confirmStep(page: Page, arm: Locator, step: string, message: string, status: string): Promise<void> {
  await arm.getByRole('button', { name: `${step} ${ARM}` }).click();
  await page
    .getByRole('alertdialog', { name: `${step} ${ARM}` })
    .getByRole('button', { name: step })
    .click();
  await expect(page.getByText(message)).toBeVisible();
  await expect(arm.getByTestId('approval-status')).toHaveText(status);
}

function inflatePdf(pdf: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  const src = pdf.toString('latin1');
  const re = /\bstream\r?\n/g; // not the end of "endstream"
  let m: RegExpExecArray | null;
  while ((m = re.exec(src))) {
    const dictStart = src.lastIndexOf('obj', m.index);
    const dict = src.slice(dictStart, m.index);
    const start = m.index + m[0].length;
    const end = src.indexOf('endstream', start);
    if (end < 0) break;
    if (!dict.includes('/FlateDecode')) {
      re.lastIndex = end + 9;
      continue;
    }
    const len = /\/Length (\d+)(?! \d+ R)/.exec(dict);
    const raw = pdf.subarray(start, len ? start + Number(len[1]) : end);
    let inflated: Buffer;
    try {
      inflated = inflateSync(raw);
    } catch {
      re.lastIndex = end + 9;
      continue;
    }
    parts.push(pdf.subarray(at, start), inflated, Buffer.from('\n'));
    at = end;
    re.lastIndex = end + 9;
  }
  parts.push(pdf.subarray(at));
  return Buffer.concat(parts);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  // Every term's scores: PUPIL (the first) does well, so is promoted; the others are spread.
  CLASS = await createSheetClass(api, RUN, TERM, {
    students: 4,
    results: { terms: ['1st', '2nd', '3rd'], score: (i, k) => (i === 0 ? 70 + (k % 20) : 40 + ((i * 7 + k * 3) % 50)) },
  });
  ({ arm: ARM, teacher: FORM_TEACHER, sessionId: plan.sessionId } = CLASS);
  PUPIL = CLASS.students[0]!;
  STUDENT = PUPIL.admission_number;
  plan.dates = (await getJson<ReportTerm[]>(request, `/api/report-terms/?session_id=${plan.sessionId}`)).find((t) => t.term === TERM)!;
  const sheet = CLASS.sheet;
  plan.names = sheet.rows.map((r) => r.name);
  plan.adms = sheet.rows.map((r) => r.admission_number);
  expect(plan.adms).toContain(STUDENT);
});

/** Puts the school back: the term's dates as they were (the arm, its cards and its students are this run's). */
test.afterAll(async ({ request }) => {
  await request.put('/api/report-terms/', {
    headers: await admin(request),
    data: {
      session_id: plan.sessionId,
      term: TERM,
      next_term_begins: plan.dates?.next_term_begins ?? null,
      times_opened: plan.dates?.times_opened ?? null,
    },
  });
});

test('the admin uploads a student photo and sets the term dates', async ({ page, request }) => {
  await signInViaApi(page, request, 'admin');
  await page.goto(`/UpdateStudentDetails?admission_number=${STUDENT}`);
  await expect(page.getByRole('button', { name: 'Save photo' })).toBeDisabled();
  await page.getByLabel(/^Photo \(PNG or JPEG/).setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: greyPng(240, 300) });
  await expect(page.getByRole('img', { name: 'Chosen photo (not saved yet)' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save photo' }).click();
  await expect(page.getByText(REPORT_MESSAGES.photoSaved)).toBeVisible();
  await expect(page.getByRole('img', { name: 'Current photo' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove photo' })).toBeVisible();

  // The third term's dates: times school opened, and when the next term (next session's first) begins.
  await page.goto('/report-card-settings');
  const term = page.getByTestId(`term-${TERM}`);
  await term.getByLabel(/Next term begins/).fill('2026-09-21');
  await term.getByLabel(/Times school opened/).fill('62');
  await term.getByRole('button', { name: 'Save term dates' }).click();
  await expect(page.getByText(REPORT_MESSAGES.termSaved)).toBeVisible();
  const terms = await getJson<ReportTerm[]>(request, `/api/report-terms/?session_id=${plan.sessionId}`);
  expect(terms.find((t) => t.term === TERM)).toMatchObject({ next_term_begins: '2026-09-21', times_opened: 62 });
});

test('the form teacher rates the arm, writes comments and submits', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', FORM_TEACHER);
  const { names, adms } = plan;

  // Every trait of every student as one pasted block, from the first cell.
  await page.goto(screen('/class-ratings'));
  await expect(page.getByTestId('ratings-grid')).toBeVisible();
  const sheet = await getJson<RatingSheet>(request, `/api/class-ratings/?${query()}`);
  const traits = [...sheet.traits.affective, ...sheet.traits.psychomotor];
  const block = names.map((_, i) => traits.map((_, k) => String(((i + k) % 5) + 1)).join('\t')).join('\n');
  const firstCell = `${traits[0]!.name} for ${names[0]}`;
  await pasteText(page, firstCell, block);
  await page.getByRole('button', { name: /Save all/ }).click();
  for (const adm of adms) await expect(page.getByTestId(`row-${adm}`).getByTestId('row-status')).toHaveText(/Saved$/);
  await expectAccessible(page);

  // Comments: the student's own words and attendance, the bank's suggestion for everyone else.
  await page.goto(screen('/class-comments'));
  await expect(page.getByTestId('comments-list')).toBeVisible();
  const row = page.getByTestId(`row-${STUDENT}`);
  await row.getByRole('textbox', { name: "Form teacher's comment" }).fill(FORM_COMMENT);
  await row.getByLabel('Days present').fill('58');
  await row.getByLabel('Days absent').fill('4');
  await page.getByRole('button', { name: /Save all/ }).click();
  await expect(row.getByTestId('row-status')).toContainText('Saved');
  await page.getByRole('button', { name: "Apply suggested form teacher's comments" }).click();
  await page.getByRole('alertdialog', { name: "Apply suggested form teacher's comments" }).getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(/Suggested comment applied to/)).toBeVisible();
  await expectAccessible(page);

  // Submit on the approvals page (reached from the staff menu).
  await page.goto('/staffHomePage');
  await page.getByRole('link', { name: /Report Card Approvals/ }).click();
  await page.getByLabel('Academic Term').selectOption(TERM);
  const arm = page.getByTestId(`approval-${ARM}`);
  await expect(arm.getByTestId('approval-status')).toHaveText('Draft');
  await expect(arm).toContainText(`${names.length} rated`);
  await expect(arm).toContainText(`${names.length} form teacher's comments`);
  await expectAccessible(page);

  // "Require both comments" (each step asks for its own writer's comments): approvals-changes.spec.ts.

  await confirmStep(page, arm, 'Submit', REPORT_MESSAGES.submitted(ARM), 'Submitted');
  await noSideways(page);

  // Locked now: a change to the sheet is refused with the lock message.
  const current = await getJson<CommentSheet>(request, `/api/class-comments/?${query()}`);
  const version = current.rows.find((r) => r.admission_number === STUDENT)!.version;
  const locked = await page.request.put('/api/class-comments/', {
    headers: await formTeacher(request),
    data: {
      session_id: plan.sessionId,
      term: TERM,
      student_class: ARM,
      rows: [{ admission_number: STUDENT, form_comment: 'Changed', version }],
    },
  });
  expect(locked.status()).toBe(409);
  expect(await locked.json()).toMatchObject({ code: CARD_CODES.locked });
});

test('the admin sends back with a reason, the teacher resubmits, the admin approves and releases', async ({ page, request }) => {
  await signInViaApi(page, request, 'admin');
  // The principal's comment for the student (the admin may write it while the arm is submitted).
  await page.goto(screen('/class-comments'));
  const row = page.getByTestId(`row-${STUDENT}`);
  await row.getByRole('textbox', { name: "Principal's comment" }).fill(PRINCIPAL_COMMENT);
  await row.getByRole('textbox', { name: "Principal's comment" }).blur();
  await expect(row.getByTestId('row-status')).toContainText('Saved');

  await page.goto('/adminHomePage');
  await page.getByRole('link', { name: /Report Card Approvals/ }).click();
  await page.getByLabel('Academic Term').selectOption(TERM);
  const arm = page.getByTestId(`approval-${ARM}`);
  await expect(arm.getByTestId('approval-status')).toHaveText('Submitted');
  await expect(arm).toContainText('Form teacher:');

  // Send back: a reason is required, then shown to the form teacher.
  await arm.getByRole('button', { name: `Send back ${ARM}` }).click();
  const back = page.getByRole('alertdialog', { name: `Send back ${ARM}` });
  await back.getByRole('button', { name: 'Send back' }).click();
  await expect(back).toContainText(REPORT_MESSAGES.returnReasonRequired);
  await expectAccessible(page);
  await back.getByLabel(/Reason for sending back/).fill('Check the attendance totals.');
  await back.getByRole('button', { name: 'Send back' }).click();
  await expect(page.getByText(REPORT_MESSAGES.returned(ARM))).toBeVisible();
  await expect(arm.getByTestId('approval-status')).toHaveText('Draft');
  await expect(arm.getByTestId('returned-reason')).toContainText('Check the attendance totals.');

  // The form teacher resubmits (through the API: the page's submit was covered above).
  const staff = await formTeacher(request);
  const resubmit = await request.post('/api/report-approvals/submit/', {
    headers: staff,
    data: { session_id: plan.sessionId, term: TERM, student_class: ARM },
  });
  expect(resubmit.status(), await resubmit.text()).toBe(200);
  await page.reload();
  await page.getByLabel('Academic Term').selectOption(TERM);
  await expect(arm.getByTestId('approval-status')).toHaveText('Submitted');

  // The principal reads the arm's cards as one PDF before approving.
  const [armPdf] = await Promise.all([page.waitForEvent('download'), arm.getByRole('button', { name: `Cards PDF of ${ARM}` }).click()]);
  expect(armPdf.suggestedFilename()).toBe(`report-cards-${ARM.replaceAll(' ', '-')}-${TERM}.pdf`);
  expect(
    readFileSync(await armPdf.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  await confirmStep(page, arm, 'Approve', REPORT_MESSAGES.approved(ARM), 'Approved');

  await arm.getByRole('checkbox', { name: `Select ${ARM} to release` }).check();
  await page.getByRole('button', { name: 'Release selected (1)' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Release report cards' });
  await expect(confirm).toContainText(ARM);
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Release' }).click();
  await expect(page.getByText(REPORT_MESSAGES.released(1))).toBeVisible();
  await expect(arm.getByTestId('approval-status')).toHaveText('Released');
  const rows = await getJson<ArmApproval[]>(request, `/api/report-approvals/?session_id=${plan.sessionId}&term=${TERM}`);
  expect(rows.find((r) => r.student_class === ARM)).toMatchObject({ status: 'released' });
});

test('the student on a phone sees every section of the third-term card and the same sections in the PDF', async ({
  browser,
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  await signInViaUi(page, 'student', PUPIL);
  await page.goto(`/report-card?session_id=${plan.sessionId}&term=${TERM}`);
  const card = page.getByRole('article', { name: 'Report card' });
  await expect(card).toBeVisible();
  const json = await getJson<ReportCard>(
    request,
    `/api/report-card/?admission_number=${STUDENT}&session_id=${plan.sessionId}&term=${TERM}`,
  );
  expect(json.status).toBe('released');
  expect(json.promotion).not.toBeNull();

  // Header and student.
  await expect(page.getByTestId('card-header')).toContainText(json.school.name);
  await expect(page.getByTestId('card-name')).toHaveText(`${json.student.first_name} ${json.student.last_name}`);
  await expect(page.getByTestId('card-student')).toContainText(STUDENT);
  await expect(page.getByTestId('card-student')).toContainText(ARM);
  await expect(page.getByTestId('card-photo')).toBeVisible();
  await expect(page.getByTestId('card-class-size')).toHaveText(String(json.class_size));
  // Attendance.
  const attendance = page.getByTestId('card-attendance');
  await expect(attendance).toContainText(`${T.timesOpened}: 62`);
  await expect(attendance).toContainText(`${T.present}: 58`);
  await expect(attendance).toContainText(`${T.absent}: 4`);
  // Subjects and summary.
  await expect(page.getByRole('region', { name: 'Subjects' })).toContainText(json.subjects[0]!.subject);
  const summary = page.getByTestId('card-summary');
  await expect(summary).toContainText(json.position_text);
  await expect(summary).toContainText(`${T.passed}: ${json.subjects_passed}`);
  await expect(summary).toContainText(`${T.failed}: ${json.subjects_failed}`);
  // Ratings and keys.
  await expect(page.getByTestId('card-ratings-affective')).toContainText(json.ratings.domains[0]!.traits[0]!.name);
  await expect(page.getByTestId('card-ratings-psychomotor')).toContainText(json.ratings.domains[1]!.traits[0]!.name);
  await expect(page.getByTestId('card-rating-key')).toContainText(`5 = ${json.ratings.labels[4]}`);
  await expect(page.getByTestId('card-grading-key')).toContainText(json.grading_key[0]!.grade);
  // Comments, next term, cumulative and promotion.
  await expect(page.getByTestId('card-form-comment')).toHaveText(FORM_COMMENT);
  await expect(page.getByTestId('card-comments')).toContainText(T.formTeacherComment);
  await expect(page.getByTestId('card-principal-comment')).toHaveText(PRINCIPAL_COMMENT);
  await expect(page.getByTestId('card-next-term-begins')).toHaveText('21 September 2026');
  await expect(page.getByTestId('card-next-term')).toContainText(T.outstanding);
  await expect(page.getByTestId('card-cumulative')).toContainText(T.cumulative);
  await expect(page.getByTestId('annual-average')).toBeVisible();
  await expect(page.getByTestId('card-promotion-label')).toHaveText(json.promotion!.label);
  // The student sees no approval status, and the card fits the phone.
  await expect(page.getByTestId('card-status')).toHaveCount(0);
  await noSideways(page);
  await expectAccessible(page);

  // Signed in, the server sends the card in the document itself (the page-view cookie), never cached:
  // readable before the app's JavaScript arrives, or without it; Download PDF is the server's link until the app starts.
  const address = new URL(`/report-card?session_id=${plan.sessionId}&term=${TERM}`, page.url()).href;
  const served = await page.request.get(address);
  expect(served.headers()['cache-control']).toBe('private, no-store');
  expect(await served.text()).toContain('data-testid="card-summary"');
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
    viewport: PHONE,
  });
  try {
    const bare = await noScript.newPage();
    await bare.goto(address);
    await expect(bare.getByTestId('card-principal-comment')).toHaveText(PRINCIPAL_COMMENT);
    await expect(bare.getByTestId('card-summary')).toContainText(json.position_text);
    // Styled without JavaScript (decision 049: the page's styles inline, the stylesheet in <noscript>).
    await expect(bare.locator('header.bg-brand-900')).toHaveCSS('background-color', 'rgb(20, 83, 45)');
    await expect(bare.getByRole('article', { name: 'Report card' })).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await noSideways(bare);
    // The PDF is a link the server answers for the page's user.
    const [early] = await Promise.all([bare.waitForEvent('download'), bare.getByRole('link', { name: 'Download PDF' }).click()]);
    expect(readFileSync(await early.path()).subarray(0, 5).toString()).toBe('%PDF-');
  } finally {
    await noScript.close();
  }

  // The PDF: the same sections in its extracted text.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  const pdf = readFileSync(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(inflatePdf(pdf)).replace(/\s+/g, ' ');
  for (const words of [
    json.school.name,
    json.student.last_name,
    STUDENT,
    T.attendance,
    T.summary,
    json.ratings.domains[0]!.title,
    json.ratings.domains[1]!.title,
    T.gradingKey,
    T.ratingKey,
    FORM_COMMENT,
    PRINCIPAL_COMMENT,
    T.nextTermBegins,
    T.outstanding,
    T.annualAverage,
    T.promotion,
    json.promotion!.label,
  ])
    expect(text, `PDF text has "${words}"`).toContain(words);
});

test('before the app starts, the card rendered on the server works: its links, Print and the PDF (decision 049)', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInViaUi(page, 'student', PUPIL);
  // The app never starts on this page: its entry module is refused, and so is its stylesheet.
  await page.route(/\/assets\/index-[\w-]+\.(js|css)$/, (route) => route.abort());
  await page.addInitScript(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void (window as unknown as { printed: number }).printed++;
  });
  await page.goto(`/report-card?session_id=${plan.sessionId}&term=${TERM}`);
  await expect(page.getByTestId('card-summary')).toBeVisible();
  await page.getByTestId('card-summary').click(); // an interaction: the app would start now, and cannot
  // Still the server's page: its Print button prints through the page's own script.
  const print = page.getByRole('button', { name: 'Print Report Card' });
  await expect(print).toHaveAttribute('data-print', '');
  await print.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  // Printed with the page's own styles (the app's stylesheet may not have arrived): the print rules travel inline.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('header.bg-brand-900')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print Report Card' })).toBeHidden();
  await expect(page.getByTestId('card-summary')).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PDF' }).click()]);
  expect(readFileSync(await download.path()).subarray(0, 5).toString()).toBe('%PDF-');
  await expect(page.getByRole('link', { name: 'Download PDF' })).toHaveAttribute('download', '');
  await noSideways(page);
  await expectAccessible(page);
  // Its links are links: home, with nothing of the app.
  await page.getByRole('link', { name: '← Back to home' }).click();
  await expect(page).toHaveURL(/\/StudentHomePage$/);
});

test('on a slow phone the card paints with its own styles first: the full stylesheet and the app come only after that paint', async ({ page, context }) => {
  await page.setViewportSize(PHONE);
  await signInViaUi(page, 'student', PUPIL);
  // When the app's stylesheet is added to the page (it is not in the served document; decision 055)
  // and when the app's entry module is, in the page's clock.
  await page.addInitScript(() => {
    const w = window as unknown as { sheetAllAt: number | null; appAt: number | null };
    w.sheetAllAt = null;
    w.appAt = null;
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of Array.from(r.addedNodes)) {
          if (w.sheetAllAt === null && n instanceof HTMLLinkElement && n.rel === 'stylesheet' && n.id === 'portal-sheet')
            w.sheetAllAt = performance.now();
          // The boot script adds the app's entry module when it starts the app.
          if (w.appAt === null && n instanceof HTMLScriptElement && n.type === 'module' && r.target === document.head) w.appAt = performance.now();
        }
    }).observe(document, { subtree: true, childList: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  try {
    await page.goto(`/report-card?session_id=${plan.sessionId}&term=${TERM}`);
    await expect(page.getByTestId('card-summary')).toBeVisible();
    await expect.poll(() => page.evaluate(() => (window as unknown as { sheetAllAt: number | null }).sheetAllAt), { timeout: 15_000 }).not.toBeNull();
    await expect.poll(() => page.evaluate(() => (window as unknown as { appAt: number | null }).appAt), { timeout: 15_000 }).not.toBeNull();
    const { sheetAllAt, appAt, fcp } = await page.evaluate(() => ({
      sheetAllAt: (window as unknown as { sheetAllAt: number }).sheetAllAt,
      appAt: (window as unknown as { appAt: number }).appAt,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    }));
    expect(fcp).not.toBeNull();
    // Before its first paint the page fetched nothing: no stylesheet, no image (the crest is drawn inline).
    const early = await page.evaluate((paint) => {
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime < paint && ['link', 'css', 'img'].includes((e as PerformanceResourceTiming).initiatorType))
        .map((e) => e.name);
    }, fcp!);
    expect(early).toEqual([]);
    // Added before it, the whole sheet would be matched and the page laid out twice before anything shows.
    expect(sheetAllAt).toBeGreaterThan(fcp!);
    // Started when idle (no interaction here): never before the page has shown its content.
    expect(appAt).toBeGreaterThan(fcp!);
    await expect(page.locator('header.bg-brand-900')).toHaveCSS('background-color', 'rgb(20, 83, 45)');
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
  // A return visit on a desktop: the app's modules are cached, so an idle moment before the first
  // frame would run the whole app ahead of the card's paint. Each of three visits paints first.
  await page.setViewportSize({ width: 1280, height: 900 });
  for (let visit = 0; visit < 3; visit++) {
    await page.goto(`/report-card?session_id=${plan.sessionId}&term=${TERM}`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { appAt: number | null }).appAt), { timeout: 15_000 }).not.toBeNull();
    const again = await page.evaluate(() => ({
      appAt: (window as unknown as { appAt: number }).appAt,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    }));
    expect(again.fcp).not.toBeNull();
    expect(again.appAt).toBeGreaterThan(again.fcp!);
  }
});

test('signing out ends the card’s rendering on the server in that browser, even when the server cannot be reached', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInViaUi(page, 'student', PUPIL);
  const address = new URL(`/report-card?session_id=${plan.sessionId}&term=${TERM}`, page.url()).href;
  expect(await (await page.request.get(address)).text()).toContain('data-testid="card-summary"');
  // A shared computer on a bad connection: the sign-out call never arrives.
  await page.route('**/api/logout/', (route) => route.abort('internetdisconnected'));
  await page.goto(address);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/(login|StudentLogin)/);
  const served = await page.request.get(address);
  expect(await served.text()).not.toContain('data-testid="card-summary"');
  expect(served.headers()['cache-control']).toBe('no-cache');
});
