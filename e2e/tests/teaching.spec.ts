import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { termLabel } from '../../packages/domain/src/constants';
import { TEACHING_MESSAGES } from '../../packages/domain/src/teaching';
import { apiToken, expect, expectAccessible, signInViaApi, test } from '../fixtures';

// The teaching structure from the browser: the admin sets up an arm, a subject, offerings, a stream,
// assigns staff1 and turns enforcement on; staff1 sees the pair, scores it, is refused elsewhere and
// once the term's score entry is closed. The demo school is put back afterwards (spec files share
// one server): enforcement off, score entry open, staff1's extra pair and the new data removed.

const PHONE = { width: 360, height: 740 };
const TERM = '3rd'; // the demo school has no 3rd-term results: nothing released, nothing of other tests touched
const STAFF_EMAIL = 'staff1@demo.school';
const STUDENT = 'STU-0001'; // JSS 1A

interface Arm {
  id: number;
  name: string;
  level: string;
  retired: boolean;
}
interface Subject {
  id: number;
  name: string;
  code: string;
  retired: boolean;
}
interface Cell {
  arm_id: number;
  subject_id: number;
  staff: { id: number }[];
}

const plan = {
  sessionId: 0,
  staffId: 0,
  staffLabel: '',
  arm: { id: 0, name: 'JSS 1A' },
  /** A subject STU-0001 takes in JSS 1A that staff1 does not teach: assigned in the test. */
  assigned: { id: 0, name: '', before: [] as number[] },
  /** Another subject of STU-0001 staff1 does not teach: stays refused. */
  refused: '',
  /** A student in an arm where staff1 teaches nothing. */
  otherArmStudent: '',
  otherArm: '',
};

async function adminHeaders(request: APIRequestContext) {
  return { authorization: `Bearer ${await apiToken(request, 'admin')}` };
}

async function getJson<T>(request: APIRequestContext, path: string, headers: Record<string, string>): Promise<T> {
  const res = await request.get(path, { headers });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

test.beforeAll(async ({ request }) => {
  const headers = await adminHeaders(request);
  const sessions = await getJson<{ id: number; is_current: boolean }[]>(request, '/api/sessions/', headers);
  plan.sessionId = sessions.find((s) => s.is_current)!.id;
  const staff = await getJson<{ id: number; staff_id: string; email: string; first_name: string; last_name: string }[]>(
    request,
    '/api/staff/list/',
    headers,
  );
  const me = staff.find((s) => s.email === STAFF_EMAIL)!;
  plan.staffId = me.id;
  plan.staffLabel = `${me.first_name} ${me.last_name} (${me.staff_id})`;
  const arms = await getJson<Arm[]>(request, '/api/classes/', headers);
  const subjects = await getJson<Subject[]>(request, '/api/subjects/', headers);
  plan.arm.id = arms.find((a) => a.name === 'JSS 1A')!.id;
  const grid = await getJson<{ cells: Cell[] }>(request, `/api/teaching/assignments/?session_id=${plan.sessionId}`, headers);
  const mine = (armId: number, subjectId: number) =>
    grid.cells.some((c) => c.arm_id === armId && c.subject_id === subjectId && c.staff.some((s) => s.id === plan.staffId));
  const takes = await getJson<{ subjects: string[] }>(request, `/api/teaching/students/${STUDENT}/subjects/`, headers);
  const free = takes.subjects.filter((name) => !mine(plan.arm.id, subjects.find((s) => s.name === name)!.id));
  expect(free.length).toBeGreaterThanOrEqual(2);
  const first = subjects.find((s) => s.name === free[0])!;
  plan.assigned = {
    id: first.id,
    name: first.name,
    before: grid.cells.find((c) => c.arm_id === plan.arm.id && c.subject_id === first.id)?.staff.map((s) => s.id) ?? [],
  };
  plan.refused = free[1]!;
  const taught = new Set(grid.cells.filter((c) => c.staff.some((s) => s.id === plan.staffId)).map((c) => c.arm_id));
  const students = await getJson<
    { admission_number: string; student_class: string }[] | { results: { admission_number: string; student_class: string }[] }
  >(request, '/api/students/list/', headers);
  const list = Array.isArray(students) ? students : students.results;
  const other = list.find((s) => {
    const arm = arms.find((a) => a.name === s.student_class);
    return arm && !arm.retired && !taught.has(arm.id);
  })!;
  plan.otherArmStudent = other.admission_number;
  plan.otherArm = other.student_class;
});

/** Puts the demo school back whatever happened above. */
test.afterAll(async ({ request }) => {
  const headers = await adminHeaders(request);
  const put = (path: string, data: unknown) => request.put(path, { headers, data });
  await put('/api/teaching/windows/', { session_id: plan.sessionId, term: TERM, class_level: '', is_open: true });
  await put('/api/teaching/enforcement/', { session_id: plan.sessionId, enforce_assignments: false });
  if (plan.assigned.id)
    await put('/api/teaching/assignments/', {
      session_id: plan.sessionId,
      cells: [{ arm_id: plan.arm.id, subject_id: plan.assigned.id, staff_ids: plan.assigned.before }],
    });
  const results = await getJson<{ id: number; version: number }[]>(
    request,
    `/api/results/?session_id=${plan.sessionId}&term=${TERM}&admission_number=${STUDENT}`,
    headers,
  ).catch(() => []);
  for (const r of results) await request.delete(`/api/results/${r.id}/?version=${r.version}`, { headers });
  const arms = await getJson<Arm[]>(request, '/api/classes/', headers);
  for (const a of arms.filter((x) => x.name === 'JSS 1 Gold' || x.name === 'JSS 1D'))
    await request.patch(`/api/classes/${a.id}/`, { headers, data: { retired: true } });
  const structure = await getJson<{ streams: { id: number; name: string }[]; subjects: Subject[] }>(
    request,
    '/api/teaching/structure/',
    headers,
  );
  for (const s of structure.streams.filter((x) => x.name === 'Technical'))
    await request.delete(`/api/teaching/streams/${s.id}/`, { headers });
  const level = 'SSS 1';
  const offered = await getJson<{ offerings: { class_level: string; subjects: { subject_id: number; compulsory: boolean }[] }[] }>(
    request,
    '/api/teaching/structure/',
    headers,
  );
  const dpr = structure.subjects.find((s) => s.code === 'DPR');
  if (dpr) {
    const keep = offered.offerings.find((o) => o.class_level === level)?.subjects.filter((s) => s.subject_id !== dpr.id) ?? [];
    await put(`/api/teaching/offerings/${encodeURIComponent(level)}/`, { subjects: keep });
    await request.patch(`/api/subjects/${dpr.id}/`, { headers, data: { retired: true } });
  }
});

async function asStaff(browser: Browser, request: APIRequestContext): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: PHONE });
  const page = await context.newPage();
  await signInViaApi(page, request, 'staff');
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

  test('the admin sets up an arm, a subject, offerings and a stream on a phone', async ({ page, request }) => {
    await signInViaApi(page, request, 'admin');
    await page.goto('/adminHomePage');
    await page
      .locator('#admin-menu')
      .getByRole('link', { name: /Classes and Subjects/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Classes and Subjects', level: 1 })).toBeVisible();

    // An arm: added, then renamed.
    await page.getByLabel('Class level', { exact: true }).selectOption('JSS 1');
    await page.getByLabel('New arm').fill('D');
    await page.getByRole('button', { name: 'Add arm' }).click();
    await expect(page.getByTestId('arm-JSS 1D')).toBeVisible();
    await page.getByRole('button', { name: 'Rename JSS 1D' }).click();
    await page.getByLabel('New arm for JSS 1D').fill('Gold');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByTestId('arm-JSS 1 Gold')).toBeVisible();
    await expect(page.getByTestId('arm-JSS 1D')).toHaveCount(0);
    // The same arm again is refused in the server's words.
    await page.getByLabel('New arm').fill('Gold');
    await page.getByRole('button', { name: 'Add arm' }).click();
    await expect(page.getByText(TEACHING_MESSAGES.armTaken('JSS 1 Gold'))).toBeVisible();
    // An arm with students cannot be retired: the server says why.
    await page.getByRole('button', { name: 'Retire JSS 1A' }).click();
    await expect(page.getByText(/JSS 1A still has \d+ active students?\./)).toBeVisible();

    // A subject for the senior school.
    await page.getByLabel('Subject name', { exact: true }).fill('Data Processing');
    await page.getByLabel('Code', { exact: true }).fill('dpr');
    await page.getByLabel('Section', { exact: true }).selectOption('SSS');
    await page.getByRole('button', { name: 'Add subject' }).click();
    await expect(page.getByTestId('subject-DPR')).toContainText('Data Processing');

    // Offered as an elective in SSS 1; a senior-only subject cannot be offered in JSS.
    await expect(page.getByLabel('Data Processing in JSS 1')).toBeDisabled();
    await page.getByLabel('Data Processing in SSS 1').selectOption('elective');
    await expect(page.getByText('1 unsaved change.')).toBeVisible();
    await page.getByRole('button', { name: 'Save offerings' }).click();
    await expect(page.getByText('Subjects offered in SSS 1 saved.')).toBeVisible();

    // A stream with the new subject.
    const form = page.getByRole('form', { name: 'New stream' });
    await form.getByLabel('Stream name').fill('Technical');
    await form.getByLabel('Data Processing').check();
    await form.getByRole('button', { name: 'Create stream' }).click();
    await expect(page.getByTestId('stream-Technical')).toContainText('Data Processing');

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);

    // The new arm is in the class lists of other screens; the retired-looking rename is not left behind.
    await page.goto('/StudentReg');
    await expect(page.getByLabel('Class', { exact: true }).locator('option', { hasText: 'JSS 1 Gold' })).toHaveCount(1);
  });

  test('the admin assigns staff1 and turns enforcement on; the student subjects screen', async ({ page, request }) => {
    await signInViaApi(page, request, 'admin');
    await page.goto('/adminHomePage');
    await page
      .locator('#admin-menu')
      .getByRole('link', { name: /Teaching Assignments/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Teaching Assignments', level: 1 })).toBeVisible();
    await page.getByLabel('Class level', { exact: true }).selectOption('JSS 1');
    await page.getByLabel(`Add a teacher of ${plan.assigned.name} in JSS 1A`).selectOption({ label: plan.staffLabel });
    await expect(page.getByText('1 unsaved change.')).toBeVisible();
    await page.getByRole('button', { name: 'Save assignments' }).click();
    await expect(page.getByText(TEACHING_MESSAGES.assignmentsSaved)).toBeVisible();
    await expect(page.getByRole('list', { name: `Teachers of ${plan.assigned.name} in JSS 1A` })).toContainText(
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
    await expect(page.getByLabel(plan.assigned.name, { exact: true })).toBeChecked();
    await expectAccessible(page);
  });

  test('staff1 sees the pair, enters a score for it and is refused elsewhere', async ({ page, request }) => {
    await signInViaApi(page, request, 'staff');
    await page.goto('/staffHomePage');
    await page.getByRole('link', { name: /My Classes/ }).click();
    await expect(page.getByRole('heading', { name: 'My Classes', level: 1 })).toBeVisible();
    await expect(page.getByTestId(`pair-JSS 1A-${plan.assigned.name}`)).toBeVisible();
    await expect(page.getByTestId('pair-JSS 1A-Mathematics')).toBeVisible();
    await expect(page.getByTestId('enforcement-state')).toHaveText(TEACHING_MESSAGES.enforcementOn);
    await expectAccessible(page);

    await openScoreEntry(page, STUDENT);
    await expect(page.getByLabel(`${plan.assigned.name} Score`)).toBeEnabled();
    await expect(page.getByLabel(`${plan.refused} Score`)).toBeDisabled();
    await expect(page.getByTestId('subject-refusal')).toContainText(`You are not assigned to teach`);
    await expect(page.getByTestId('subject-refusal')).toContainText(plan.refused);
    await page.getByLabel(`${plan.assigned.name} Score`).fill('77');
    await page.getByRole('button', { name: 'Save All Results' }).click();
    await expect(page.getByText('Results saved successfully!')).toBeVisible();
    await expectAccessible(page);

    // A student of an arm where staff1 teaches nothing: every row read-only, with the reason.
    await page.getByLabel('Admission Number').fill(plan.otherArmStudent);
    await expect(page.getByTestId('subject-refusal')).toContainText(`You are not assigned to teach`);
    await expect(page.getByTestId('subject-refusal')).toContainText(plan.otherArm);
    await expect(page.locator('fieldset:not([disabled]) input')).toHaveCount(0);

    // Saving a subject that is not theirs is refused by the server with its message.
    const token = await apiToken(request, 'staff');
    const refused = await request.post('/api/results/', {
      headers: { authorization: `Bearer ${token}` },
      data: {
        admission_number: STUDENT,
        session_id: plan.sessionId,
        term: TERM,
        student_class: 'JSS 1A',
        subject: plan.refused,
        score: 50,
        remarks: '',
      },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).detail).toBe(TEACHING_MESSAGES.notYourSubject(plan.refused, 'JSS 1A'));
  });

  test('the admin closes score entry for the term; staff1 is refused with the closed message', async ({ browser, page, request }) => {
    const staff = await asStaff(browser, request);
    await openScoreEntry(staff, STUDENT);
    await expect(staff.getByLabel(`${plan.assigned.name} Score`)).toHaveValue('77');

    await signInViaApi(page, request, 'admin');
    await page.goto('/teaching-assignments');
    await page.getByLabel('Score entry term').selectOption(TERM);
    await page.getByLabel('Score entry level').selectOption('');
    await page.getByRole('button', { name: 'Close score entry' }).click();
    await expect(page.getByTestId('window-state')).toContainText('closed');

    // The page staff1 already had open: the save is refused with the server's reason.
    const closed = TEACHING_MESSAGES.entryClosed(termLabel(TERM), 'JSS 1');
    await staff.getByLabel(`${plan.assigned.name} Score`).fill('78');
    await staff.getByRole('button', { name: 'Save All Results' }).click();
    await expect(staff.getByRole('alert').filter({ hasText: closed })).toBeVisible();
    // Opened afresh, every row is read-only and the reason is shown once.
    await openScoreEntry(staff, STUDENT);
    await expect(staff.getByTestId('subject-refusal')).toContainText('is closed');
    await expect(staff.getByLabel(`${plan.assigned.name} Score`)).toBeDisabled();
    await staff.context().close();

    // Open again, enforcement off: the demo school as it was (afterAll also restores the rest).
    await page.getByRole('button', { name: 'Open score entry' }).click();
    await expect(page.getByTestId('window-state')).toContainText('open');
    await page.getByRole('switch', { name: 'Only assigned teachers may enter scores' }).uncheck();
    await expect(page.getByTestId('enforcement-state')).toHaveText(TEACHING_MESSAGES.enforcementOff);
  });
});
