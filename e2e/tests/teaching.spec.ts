import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { termLabel } from '../../packages/domain/src/constants';
import { TEACHING_MESSAGES } from '../../packages/domain/src/teaching';
import { apiToken, expect, expectAccessible, PHONE, signInViaApi, test, openFromAdminMenu } from '../fixtures';
import {
  adminGet as getJson,
  asAdmin,
  assignTeacher,
  createArm,
  createStaff,
  createStudent,
  currentSessionId,
  runTag,
  type OwnStaff,
} from '../school';

// The teaching structure from the browser: the admin sets up an arm, a subject, offerings, a stream,
// assigns the spec's teacher and turns enforcement on; the teacher sees the pair, scores it, is
// refused elsewhere and once the term's score entry is closed. Its own data (fixture school.ts): a
// JSS 1 arm of this run with a student, a JSS 2 arm of this run with a student, and a teacher of this
// run who teaches the JSS 1 arm Mathematics. The school-wide switches are put back afterwards (spec
// files share one server): enforcement off, score entry open, the new arm, stream and subject removed.

const TERM = '3rd'; // the current term
const RUN = runTag();
// The names this spec creates carry the run's tag: a retry (a fresh worker, a new tag) meets the first
// attempt's retired arm, subject and stream, and must not be refused as a duplicate of them.
const TAG = RUN.slice(-4);
const ADDED_ARM = `D${TAG}`;
const RENAMED_ARM = `Gold${TAG}`;
const SUBJECT = { name: `Data Processing ${TAG}`, code: `DPR${TAG}` };
const STREAM = `Technical ${TAG}`;
let TEACHER: OwnStaff;
let STUDENT = ''; // in plan.arm

interface Subject {
  id: number;
  name: string;
  code: string;
  retired: boolean;
}

const plan = {
  sessionId: 0,
  staffLabel: '',
  arm: '',
  /** A subject STUDENT takes that the teacher does not teach: assigned in the test. */
  assigned: '',
  /** Another subject of STUDENT the teacher does not teach: stays refused. */
  refused: '',
  /** A student in an arm where the teacher teaches nothing. */
  otherArmStudent: '',
  otherArm: '',
};

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  plan.sessionId = await currentSessionId(api);
  plan.arm = await createArm(api, 'JSS 1', RUN);
  STUDENT = (await createStudent(api, plan.arm, RUN)).admission_number;
  plan.otherArm = await createArm(api, 'JSS 2', RUN);
  plan.otherArmStudent = (await createStudent(api, plan.otherArm, `${RUN}O`)).admission_number;
  TEACHER = await createStaff(api, RUN);
  plan.staffLabel = `${TEACHER.first_name} ${TEACHER.last_name} (${TEACHER.staff_id})`;
  await assignTeacher(api, { sessionId: plan.sessionId, arm: plan.arm, subject: 'Mathematics', staffId: TEACHER.staff_id });
  const takes = await getJson<{ subjects: string[] }>(request, `/api/teaching/students/${STUDENT}/subjects/`);
  const free = takes.subjects.filter((name) => name !== 'Mathematics');
  expect(free.length).toBeGreaterThanOrEqual(2);
  plan.assigned = free[0]!;
  plan.refused = free[1]!;
});

/** Puts the school-wide settings back whatever happened above. */
test.afterAll(async ({ request }) => {
  const headers = (await asAdmin(request)).headers;
  const put = (path: string, data: unknown) => request.put(path, { headers, data });
  await put('/api/teaching/windows/', { session_id: plan.sessionId, term: TERM, class_level: '', is_open: true });
  await put('/api/teaching/enforcement/', { session_id: plan.sessionId, enforce_assignments: false });
  const arms = await getJson<{ id: number; name: string }[]>(request, '/api/classes/');
  for (const a of arms.filter((x) => x.name === `JSS 1 ${RENAMED_ARM}` || x.name === `JSS 1 ${ADDED_ARM}`))
    await request.patch(`/api/classes/${a.id}/`, { headers, data: { retired: true } });
  const structure = await getJson<{
    streams: { id: number; name: string }[];
    subjects: Subject[];
    offerings: { class_level: string; subjects: { subject_id: number; compulsory: boolean }[] }[];
  }>(request, '/api/teaching/structure/');
  for (const s of structure.streams.filter((x) => x.name === STREAM)) await request.delete(`/api/teaching/streams/${s.id}/`, { headers });
  const level = 'SSS 1';
  const dpr = structure.subjects.find((s) => s.code === SUBJECT.code);
  if (dpr) {
    const keep = structure.offerings.find((o) => o.class_level === level)?.subjects.filter((s) => s.subject_id !== dpr.id) ?? [];
    await put(`/api/teaching/offerings/${encodeURIComponent(level)}/`, { subjects: keep });
    await request.patch(`/api/subjects/${dpr.id}/`, { headers, data: { retired: true } });
  }
});

async function asStaff(browser: Browser, request: APIRequestContext): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: PHONE });
  const page = await context.newPage();
  await signInViaApi(page, request, 'staff', TEACHER);
  return page;
}

async function openScoreEntry(page: Page, admission: string) {
  await page.goto('/ResultUpload');
  await expect(page.getByLabel('Academic Session')).toHaveValue(/\d+/);
  await page.getByLabel('Academic Term').selectOption(TERM);
  await page.getByLabel('Admission Number').fill(admission);
}

test.describe.serial('teaching structure', () => {
  test.use({ viewport: PHONE });
  // The JSS 1 screens list every JSS 1 arm of the run (other specs make theirs too), and axe reads
  // them all: on a shared machine that takes more than the default minute.
  test.describe.configure({ timeout: 120_000 });

  test('the admin sets up an arm, a subject, offerings and a stream on a phone', async ({ page, request }) => {
    await signInViaApi(page, request, 'admin');
    await openFromAdminMenu(page, 'Classes and Subjects');

    // An arm: added, then renamed.
    const added = `JSS 1 ${ADDED_ARM}`;
    const renamed = `JSS 1 ${RENAMED_ARM}`;
    await page.getByLabel('Class level', { exact: true }).selectOption('JSS 1');
    await page.getByLabel('New arm').fill(ADDED_ARM);
    await page.getByRole('button', { name: 'Add arm' }).click();
    await expect(page.getByTestId(`arm-${added}`)).toBeVisible();
    await page.getByRole('button', { name: `Rename ${added}` }).click();
    await page.getByLabel(`New arm for ${added}`).fill(RENAMED_ARM);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByTestId(`arm-${renamed}`)).toBeVisible();
    await expect(page.getByTestId(`arm-${added}`)).toHaveCount(0);
    // The same arm again is refused in the server's words.
    await page.getByLabel('New arm').fill(RENAMED_ARM);
    await page.getByRole('button', { name: 'Add arm' }).click();
    await expect(page.getByText(TEACHING_MESSAGES.armTaken(renamed))).toBeVisible();
    // An arm with students cannot be retired: the server says why.
    await page.getByRole('button', { name: `Retire ${plan.arm}` }).click();
    await expect(page.getByText(new RegExp(`${plan.arm} still has \\d+ active students?\\.`))).toBeVisible();

    // A subject for the senior school.
    await page.getByLabel('Subject name', { exact: true }).fill(SUBJECT.name);
    await page.getByLabel('Code', { exact: true }).fill(SUBJECT.code.toLowerCase());
    await page.getByLabel('Section', { exact: true }).selectOption('SSS');
    await page.getByRole('button', { name: 'Add subject' }).click();
    await expect(page.getByTestId(`subject-${SUBJECT.code}`)).toContainText(SUBJECT.name);

    // Offered as an elective in SSS 1; a senior-only subject cannot be offered in JSS.
    await expect(page.getByLabel(`${SUBJECT.name} in JSS 1`)).toBeDisabled();
    await page.getByLabel(`${SUBJECT.name} in SSS 1`).selectOption('elective');
    await expect(page.getByText('1 unsaved change.')).toBeVisible();
    await page.getByRole('button', { name: 'Save offerings' }).click();
    await expect(page.getByText('Subjects offered in SSS 1 saved.')).toBeVisible();

    // A stream with the new subject.
    const form = page.getByRole('form', { name: 'New stream' });
    await form.getByLabel('Stream name').fill(STREAM);
    await form.getByLabel(SUBJECT.name).check();
    await form.getByRole('button', { name: 'Create stream' }).click();
    await expect(page.getByTestId(`stream-${STREAM}`)).toContainText(SUBJECT.name);

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);

    // The new arm is in the class lists of other screens; the retired-looking rename is not left behind.
    await page.goto('/StudentReg');
    await expect(page.getByLabel('Class', { exact: true }).locator('option', { hasText: `JSS 1 ${RENAMED_ARM}` })).toHaveCount(1);
  });

  test('the admin assigns the teacher and turns enforcement on; the student subjects screen', async ({ page, request }) => {
    await signInViaApi(page, request, 'admin');
    await openFromAdminMenu(page, 'Teaching Assignments');
    await page.getByLabel('Class level', { exact: true }).selectOption('JSS 1');
    // A cell's list of staff is drawn when its select is reached for (focused or pressed), as a person does.
    const add = page.getByLabel(`Add a teacher of ${plan.assigned} in ${plan.arm}`);
    await expect(add.locator('option')).toHaveCount(1);
    await add.focus();
    await add.selectOption({ label: plan.staffLabel });
    // Pressed with a pointer, a list is there before the browser opens it.
    const form = page.getByLabel(`Form teacher of JSS 1 ${RENAMED_ARM}`);
    await expect(form.locator('option')).toHaveCount(1);
    await form.click();
    await expect(form.locator('option', { hasText: plan.staffLabel })).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(page.getByText('1 unsaved change.')).toBeVisible();
    await page.getByRole('button', { name: 'Save assignments' }).click();
    await expect(page.getByText(TEACHING_MESSAGES.assignmentsSaved)).toBeVisible();
    await expect(page.getByRole('list', { name: `Teachers of ${plan.assigned} in ${plan.arm}` })).toContainText(
      plan.staffLabel.replace(/ \(.*$/, ''),
    );

    const enforce = page.getByRole('switch', { name: 'Only assigned teachers may enter scores' });
    await expect(enforce).not.toBeChecked();
    await enforce.check();
    await expect(page.getByTestId('enforcement-state')).toHaveText(TEACHING_MESSAGES.enforcementOn);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);

    // The student's subjects, reached from the student's page.
    await page.goto(`/students/${STUDENT}`);
    await page.getByRole('link', { name: 'Subjects' }).click();
    await expect(page.getByRole('heading', { name: 'Student Subjects', level: 1 })).toBeVisible();
    await expect(page.getByTestId('derived-subjects')).toContainText('Mathematics');
    await expect(page.getByLabel(plan.assigned, { exact: true })).toBeChecked();
    await expectAccessible(page);
  });

  test('the teacher sees the pair, enters a score for it and is refused elsewhere', async ({ page, request }) => {
    await signInViaApi(page, request, 'staff', TEACHER);
    await page.goto('/staffHomePage');
    await page.getByRole('link', { name: /My Classes/ }).click();
    await expect(page.getByRole('heading', { name: 'My Classes', level: 1 })).toBeVisible();
    await expect(page.getByTestId(`pair-${plan.arm}-${plan.assigned}`)).toBeVisible();
    await expect(page.getByTestId(`pair-${plan.arm}-Mathematics`)).toBeVisible();
    await expect(page.getByTestId('enforcement-state')).toHaveText(TEACHING_MESSAGES.enforcementOn);
    await expectAccessible(page);

    await openScoreEntry(page, STUDENT);
    await expect(page.getByLabel(`${plan.assigned} Score`)).toBeEnabled();
    await expect(page.getByLabel(`${plan.refused} Score`)).toBeDisabled();
    await expect(page.getByTestId('subject-refusal')).toContainText(`You are not assigned to teach`);
    await expect(page.getByTestId('subject-refusal')).toContainText(plan.refused);
    await page.getByLabel(`${plan.assigned} Score`).fill('77');
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Results saved successfully!')).toBeVisible();
    await expectAccessible(page);

    // A student of an arm where the teacher teaches nothing: every row read-only, with the reason.
    await page.getByLabel('Admission Number').fill(plan.otherArmStudent);
    await expect(page.getByTestId('subject-refusal')).toContainText(`You are not assigned to teach`);
    await expect(page.getByTestId('subject-refusal')).toContainText(plan.otherArm);
    await expect(page.locator('fieldset:not([disabled]) input')).toHaveCount(0);

    // Saving a subject that is not theirs is refused by the server with its message.
    const token = await apiToken(request, 'staff', TEACHER);
    const refused = await request.post('/api/results/', {
      headers: { authorization: `Bearer ${token}` },
      data: {
        admission_number: STUDENT,
        session_id: plan.sessionId,
        term: TERM,
        student_class: plan.arm,
        subject: plan.refused,
        score: 50,
        remarks: '',
      },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).detail).toBe(TEACHING_MESSAGES.notYourSubject(plan.refused, plan.arm));
  });

  test('the admin closes score entry for the term; the teacher is refused with the closed message', async ({ browser, page, request }) => {
    const staff = await asStaff(browser, request);
    await openScoreEntry(staff, STUDENT);
    await expect(staff.getByLabel(`${plan.assigned} Score`)).toHaveValue('77');

    await signInViaApi(page, request, 'admin');
    await page.goto('/teaching-assignments');
    await page.getByLabel('Score entry term').selectOption(TERM);
    await page.getByLabel('Score entry level').selectOption('');
    await page.getByRole('button', { name: 'Close score entry' }).click();
    await expect(page.getByTestId('window-state')).toContainText('closed');

    // The page the teacher already had open: the save is refused with the server's reason.
    const closed = TEACHING_MESSAGES.entryClosed(termLabel(TERM), 'JSS 1');
    await staff.getByLabel(`${plan.assigned} Score`).fill('78');
    await staff.getByRole('button', { name: 'Save All Results' }).click();
    await expect(staff.getByRole('alert').filter({ hasText: closed })).toBeVisible();
    // Opened afresh, every row is read-only and the reason is shown once.
    await openScoreEntry(staff, STUDENT);
    await expect(staff.getByTestId('subject-refusal')).toContainText('is closed');
    await expect(staff.getByLabel(`${plan.assigned} Score`)).toBeDisabled();
    await staff.context().close();

    // Open again, enforcement off: the school as it was (afterAll also restores the rest).
    await page.getByRole('button', { name: 'Open score entry' }).click();
    await expect(page.getByTestId('window-state')).toContainText('open');
    await page.getByRole('switch', { name: 'Only assigned teachers may enter scores' }).uncheck();
    await expect(page.getByTestId('enforcement-state')).toHaveText(TEACHING_MESSAGES.enforcementOff);
  });
});
