import type { APIRequestContext, Page } from '@playwright/test';
import {
  ATTENDANCE_LABELS,
  ATTENDANCE_SCREENS,
  type AbsentToday,
  type Register,
  type SchoolCalendarView,
  type StudentAttendance,
} from '../../packages/domain/src/attendance';
import { ATTENDANCE_MESSAGES, addDays, todayIn, weekdayOf } from '../../packages/domain/src/attendance-rules';
import { ATTENDANCE_SCREEN_LABELS as SL, ATTENDANCE_SCREEN_MESSAGES as SM } from '../../packages/domain/src/attendance-screens';
import { CARD_SECTION_TITLES as T } from '../../packages/domain/src/report-cards';
import { TEACHING_MESSAGES } from '../../packages/domain/src/teaching';
import { apiToken, expect, expectAccessible, noSideways, PHONE, signInViaApi, studentSubjects, test } from '../fixtures';
import {
  adminGet as getJson,
  asAdmin,
  createArm,
  createFormClass,
  createStudent,
  currentSessionId,
  runTag,
  setFormTeacher,
  type OwnStaff,
  type OwnStudent,
} from '../school';

// The attendance register on a 360 px phone: the arm's form teacher fills in a missed day of
// 2025/2026's third term in a few taps and corrects it; a holiday and a weekend are refused with their
// messages; today's register is marked (today's term set up through the API) and the admin sees the
// absentee on Absent Today; the month grid, the student's term and the report card show the register's
// totals. Axe on every new screen. Its own data (fixture school.ts): a JSS 1 arm of this run with four
// students, a second JSS 1 arm of two (the form class in a past school year of its own), and a
// teacher of this run who is the form teacher of both; the calendar is the server's (the demo's
// 2025/2026 terms, holidays and weekends) with a term for today's school year added when missing.

const RUN = runTag();
let ARM = '';
const PAST_DAY = '2026-05-04'; // a Monday of the demo's 2025/2026 third term
const HOLIDAY = '2026-05-01';
const WEEKEND = '2026-05-09'; // a Saturday
const ZONE = 'Africa/Lagos';
// A past school year of its own (no other spec reads it): twice-a-day registers and carried-in totals.
const OWN_YEAR = { name: '2019/2020', term: '1st', starts_on: '2019-09-16', ends_on: '2019-12-13' } as const;
const OWN_DAY = '2019-10-09'; // a Wednesday of that term
let OWN_ARM = ''; // the teacher's form class there (ARM in the current session)
let TEACHER: OwnStaff;
let PUPIL: OwnStudent; // the absent student of PAST_DAY, who signs in to see their own attendance

const plan = {
  currentSessionId: 0,
  todaySessionId: 0,
  today: '',
  rows: [] as Register['rows'],
  absent: '',
  late: '',
  absentToday: '',
  ownSessionId: 0,
};

const admin = async (request: APIRequestContext) => ({ authorization: `Bearer ${await apiToken(request, 'admin')}` });

async function send(request: APIRequestContext, method: 'post' | 'put', path: string, data: unknown, ok: number[] = [200, 201]) {
  const res = await request[method](path, { headers: await admin(request), data });
  expect(ok, `${method} ${path}: ${await res.text()}`).toContain(res.status());
  return res;
}

const registerPath = (date: string) => `/api/attendance/register/?student_class=${encodeURIComponent(ARM)}&date=${date}`;
const row = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
/** A student's mark button, named with the student ("Absent: Ebere Balogun"), not one of forty "Absent" buttons. */
const mark = (page: Page, name: string, status: string) => row(page, name).getByRole('button', { name: `${status}: ${name}`, exact: true });

/** The school year a date falls in (September to August) and the term its month usually belongs to. */
function schoolYearOf(date: string): { name: string; term: '1st' | '2nd' | '3rd' } {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const name = m >= 9 ? `${y}/${y + 1}` : `${y - 1}/${y}`;
  return { name, term: m >= 9 ? '1st' : m <= 4 ? '2nd' : '3rd' };
}

/**
 * Today's register needs a term holding today and the teacher as ARM's form teacher in its session: the
 * school year's session is created (not current) when missing, given a term of today ± 20 days, and
 * today made an extra school day when it is not one.
 */
async function setUpToday(request: APIRequestContext) {
  plan.today = todayIn(ZONE);
  let reg = await getJson<Register>(request, registerPath(plan.today));
  if (reg.day.session_id === null) {
    const year = schoolYearOf(plan.today);
    const sessions = await getJson<{ id: number; name: string }[]>(request, '/api/sessions/');
    const found = sessions.find((s) => s.name === year.name);
    const id = found
      ? found.id
      : ((await (await send(request, 'post', '/api/sessions/', { name: year.name })).json()) as { id: number }).id;
    await send(request, 'put', '/api/attendance/terms/', {
      session_id: id,
      term: year.term,
      starts_on: addDays(plan.today, -20),
      ends_on: addDays(plan.today, 20),
    });
    reg = await getJson<Register>(request, registerPath(plan.today));
  }
  plan.todaySessionId = reg.day.session_id!;
  if (!reg.day.school_day)
    await send(request, 'post', '/api/attendance/events/', {
      name: `Extra school day ${plan.today}`,
      kind: 'school_day',
      starts_on: plan.today,
      ends_on: plan.today,
    });
  // The teacher is ARM's form teacher in the current session: the same in today's.
  await setFormTeacher(await asAdmin(request), { sessionId: plan.todaySessionId, arm: ARM, staffId: TEACHER.staff_id });
}

/** The dedicated school year: its session, one term's dates, and the teacher as form teacher of OWN_ARM only. */
async function setUpOwnYear(request: APIRequestContext) {
  const sessions = await getJson<{ id: number; name: string }[]>(request, '/api/sessions/');
  plan.ownSessionId =
    sessions.find((s) => s.name === OWN_YEAR.name)?.id ??
    ((await (await send(request, 'post', '/api/sessions/', { name: OWN_YEAR.name })).json()) as { id: number }).id;
  await send(request, 'put', '/api/attendance/terms/', {
    session_id: plan.ownSessionId,
    term: OWN_YEAR.term,
    starts_on: OWN_YEAR.starts_on,
    ends_on: OWN_YEAR.ends_on,
  });
  await setFormTeacher(await asAdmin(request), { sessionId: plan.ownSessionId, arm: OWN_ARM, staffId: TEACHER.staff_id });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  plan.currentSessionId = await currentSessionId(api);
  const form = await createFormClass(api, 'JSS 1', RUN, { sessionId: plan.currentSessionId, students: 4 });
  ({ arm: ARM, teacher: TEACHER } = form);
  OWN_ARM = await createArm(api, 'JSS 1', `${RUN}B`);
  for (const i of [0, 1]) await createStudent(api, OWN_ARM, `${RUN}O${i}`);
  // The demo seed gives 2025/2026 its calendar (terms, mid-term breaks, public holidays).
  const reg = await getJson<Register>(request, registerPath(PAST_DAY));
  expect(reg.day).toMatchObject({ school_day: true, session_id: plan.currentSessionId, term: '3rd' });
  expect(reg.rows.length).toBeGreaterThan(3);
  plan.rows = reg.rows;
  plan.absent = reg.rows[0]!.admission_number;
  plan.late = reg.rows[1]!.admission_number;
  plan.absentToday = reg.rows[2]!.admission_number;
  PUPIL = form.students.find((p) => p.admission_number === plan.absent)!;
  await setUpToday(request);
  await setUpOwnYear(request);
});

const nameOf = (adm: string) => plan.rows.find((r) => r.admission_number === adm)!.name;

/**
 * Registers a day can change only while the term holding today has no register, so this runs before
 * any register of this spec is saved; a re-run on a database that already has today's register skips.
 */
test('twice a day: on a phone the form teacher reaches a day in another session (closed to them), the admin saves its afternoon register', async ({
  page,
  request,
}) => {
  const headers = await admin(request);
  const settings = (await getJson<SchoolCalendarView>(request, `/api/attendance/calendar/?session_id=${plan.currentSessionId}`)).settings;
  const twice = await request.put('/api/attendance/settings/', { headers, data: { ...settings, periods_per_day: 2 } });
  if (twice.status() === 400) {
    expect(await twice.json()).toEqual({ periods_per_day: [ATTENDANCE_MESSAGES.periodsLocked] });
    test.skip(true, "today's term already has a register (a re-run): registers a day cannot change");
  }
  expect(twice.status(), await twice.text()).toBe(200);
  try {
    const path = (period: string) =>
      `/api/attendance/register/?student_class=${encodeURIComponent(OWN_ARM)}&date=${OWN_DAY}&period=${period}`;
    const rows = (await getJson<Register>(request, path('afternoon'))).rows;
    expect(rows.length).toBeGreaterThan(1);
    await page.setViewportSize(PHONE);
    await signInViaApi(page, request, 'staff', TEACHER);
    await page.goto('/attendance');
    await expect(page.getByLabel(SL.arm, { exact: true })).toHaveValue(ARM);
    // A day of another session: the class list follows it (the teacher's form class there is OWN_ARM).
    await page.getByLabel(SL.date, { exact: true }).fill(OWN_DAY);
    await expect(page.getByLabel(SL.arm, { exact: true })).toHaveValue(OWN_ARM);
    await expect(page.getByLabel(SL.arm, { exact: true }).locator('option:not([value=""])')).toHaveText([OWN_ARM]);
    await expect(page.getByTestId('register-list')).toBeVisible();
    // A day of a session that is not the current one is closed to teachers: read only, saying why.
    await expect(page.getByText(TEACHING_MESSAGES.sessionClosed)).toBeVisible();
    await expectAccessible(page);
    // The admin marks it instead.
    await signInViaApi(page, request, 'admin');
    await page.goto('/attendance');
    await page.getByLabel(SL.date, { exact: true }).fill(OWN_DAY);
    await page.getByLabel(SL.arm, { exact: true }).selectOption(OWN_ARM);
    await expect(page.getByTestId('register-list')).toBeVisible();
    const picker = page.getByLabel(SL.period, { exact: true });
    await expect(picker).toHaveValue('morning');
    await picker.selectOption('afternoon');
    await expect(page.getByText(`${OWN_ARM} · Wednesday`)).toContainText('Afternoon');
    await expect(picker).toHaveValue('afternoon');
    await page.getByRole('button', { name: ATTENDANCE_LABELS.markAllPresent }).click();
    await mark(page, rows[0]!.name, 'Absent').click();
    // The sticky Save sits inside the phone's screen, and a tap there hits it.
    const save = page.getByRole('button', { name: ATTENDANCE_LABELS.save });
    const box = (await save.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    expect(box.height).toBeGreaterThanOrEqual(44);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page.getByText(SM.registerSaved)).toBeVisible();
    const afternoon = await getJson<Register>(request, path('afternoon'));
    expect(afternoon.saved).not.toBeNull();
    expect(afternoon.rows.find((r) => r.admission_number === rows[0]!.admission_number)?.status).toBe('absent');
    expect(afternoon.rows.filter((r) => r.status === 'present')).toHaveLength(rows.length - 1);
    await expectAccessible(page);
    await noSideways(page);
  } finally {
    const once = await request.put('/api/attendance/settings/', { headers, data: { ...settings, periods_per_day: 1 } });
    expect(once.status(), await once.text()).toBe(200);
  }
});

test('the form teacher fills in a missed day on a phone in a few taps, then corrects it', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', TEACHER);
  await page.goto('/staffHomePage');
  await page.getByRole('link', { name: new RegExp(ATTENDANCE_SCREENS.register.label) }).click();
  await expect(page.getByRole('heading', { name: ATTENDANCE_SCREENS.register.title, level: 1 })).toBeVisible();
  // The one form class is chosen; the date starts at the school's today.
  await expect(page.getByLabel(SL.arm, { exact: true })).toHaveValue(ARM);
  await expect(page.getByLabel(SL.date, { exact: true })).toHaveValue(plan.today);
  await page.getByLabel(SL.date, { exact: true }).fill(PAST_DAY);
  await expect(page.getByTestId('register-list')).toBeVisible();
  const n = plan.rows.length;

  // Save with nobody marked names who is missing.
  if (!(await page.getByTestId('register-saved').isVisible())) {
    await page.getByRole('button', { name: ATTENDANCE_LABELS.save }).click();
    await expect(page.getByText(SM.notMarked(plan.rows.map((r) => r.name)))).toBeVisible();
    await expect(page.getByTestId('register-summary')).toContainText(ATTENDANCE_LABELS.unmarked(n));
  }
  await expectAccessible(page);
  await noSideways(page);

  // Mark all present, then A and L: three taps and Save.
  await page.getByRole('button', { name: ATTENDANCE_LABELS.markAllPresent }).click();
  await mark(page, nameOf(plan.absent), 'Absent').click();
  await mark(page, nameOf(plan.late), 'Late').click();
  await expect(mark(page, nameOf(plan.absent), 'Absent')).toHaveAttribute('aria-pressed', 'true');
  await expect(mark(page, nameOf(plan.absent), 'Present')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('register-summary')).toHaveText(
    ATTENDANCE_LABELS.summary({ present: n - 2, late: 1, absent: 1, excused: 0 }),
  );
  await page.getByRole('button', { name: ATTENDANCE_LABELS.save }).click();
  await expect(page.getByText(SM.registerSaved)).toBeVisible();
  await expect(page.getByTestId('register-saved')).toContainText('Saved');
  let stored = await getJson<Register>(request, registerPath(PAST_DAY));
  expect(stored.saved).not.toBeNull();
  expect(stored.rows.find((r) => r.admission_number === plan.absent)?.status).toBe('absent');
  expect(stored.rows.find((r) => r.admission_number === plan.late)?.status).toBe('late');
  expect(stored.rows.filter((r) => r.status === 'present')).toHaveLength(n - 2);

  // The same day, the teacher corrects one mark: absent with permission.
  await mark(page, nameOf(plan.absent), 'Absent with permission').click();
  await page.getByRole('button', { name: ATTENDANCE_LABELS.save }).click();
  await expect(page.getByTestId('register-summary')).toHaveText(
    ATTENDANCE_LABELS.summary({ present: n - 2, late: 1, absent: 0, excused: 1 }),
  );
  await expect.poll(async () => (await getJson<Register>(request, registerPath(PAST_DAY))).saved?.version).toBe(stored.saved!.version + 1);
  stored = await getJson<Register>(request, registerPath(PAST_DAY));
  expect(stored.rows.find((r) => r.admission_number === plan.absent)?.status).toBe('excused');
  // A reload shows what was saved.
  await page.reload();
  await expect(mark(page, nameOf(plan.absent), 'Absent with permission')).toHaveAttribute('aria-pressed', 'true');
});

test('a holiday and a weekend are not school days, with the reason and no Save', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', TEACHER);
  for (const date of [HOLIDAY, WEEKEND]) {
    const day = (await getJson<Register>(request, registerPath(date))).day;
    expect(day.school_day).toBe(false);
    await page.goto(`/attendance?class=${encodeURIComponent(ARM)}&date=${date}`);
    await expect(page.getByTestId('not-school-day')).toHaveText((day as { message: string }).message);
    await expect(page.getByRole('button', { name: ATTENDANCE_LABELS.save })).toHaveCount(0);
  }
  expect((await getJson<Register>(request, registerPath(WEEKEND))).day).toMatchObject({
    reason: 'weekend',
    message: ATTENDANCE_MESSAGES.weekend(WEEKEND, 'Saturday'),
  });
  expect(weekdayOf(WEEKEND)).toBe(6);
  await expectAccessible(page);
});

test("today's register on the phone, and the admin sees the absentee on Absent Today", async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', TEACHER);
  await page.goto('/attendance');
  await expect(page.getByLabel(SL.arm, { exact: true })).toHaveValue(ARM);
  await expect(page.getByLabel(SL.date, { exact: true })).toHaveValue(plan.today);
  await page.getByRole('button', { name: ATTENDANCE_LABELS.markAllPresent }).click();
  await mark(page, nameOf(plan.absentToday), 'Absent').click();
  await page.getByRole('button', { name: ATTENDANCE_LABELS.save }).click();
  await expect(page.getByText(SM.registerSaved)).toBeVisible();

  await signInViaApi(page, request, 'admin');
  await page.goto('/adminHomePage');
  await page.getByRole('link', { name: new RegExp(ATTENDANCE_SCREENS.absent.label) }).click();
  await expect(page.getByRole('heading', { name: ATTENDANCE_SCREENS.absent.title, level: 1 })).toBeVisible();
  await expect(page.getByLabel(SL.date, { exact: true })).toHaveValue(plan.today);
  const absentee = page.getByTestId(`absent-${plan.absentToday}`);
  await expect(absentee).toContainText(nameOf(plan.absentToday));
  await expect(absentee).toContainText('Absent');
  const api = await getJson<AbsentToday>(request, '/api/attendance/absent/');
  expect(api.date).toBe(plan.today);
  expect(api.arms_not_marked).not.toContain(ARM);
  await expectAccessible(page);
  await noSideways(page);
});

test('the month grid, the student view and the report card show the register', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'admin');
  await page.goto(`/attendance/month?class=${encodeURIComponent(ARM)}&month=${PAST_DAY.slice(0, 7)}`);
  const grid = page.getByTestId('month-grid');
  await expect(grid).toBeVisible();
  const absentRow = page.getByTestId(`month-row-${plan.absent}`);
  await expect(absentRow.getByRole('cell').nth(Number(PAST_DAY.slice(8)) - 1)).toHaveText('E');
  await expect(
    page
      .getByTestId(`month-row-${plan.late}`)
      .getByRole('cell')
      .nth(Number(PAST_DAY.slice(8)) - 1),
  ).toHaveText('L');
  // The holiday's column is greyed with its note.
  await expect(grid.getByRole('columnheader').nth(Number(HOLIDAY.slice(8)))).toHaveAttribute('title', /.+/);
  await expectAccessible(page);
  await noSideways(page);

  // The name leads to the student's term.
  await absentRow.getByRole('link', { name: nameOf(plan.absent) }).click();
  await expect(page.getByRole('heading', { name: ATTENDANCE_SCREENS.student.title, level: 1 })).toBeVisible();
  // The name opens the student's term of that month (2025/2026's third), not the current term.
  await expect(page).toHaveURL(new RegExp(`session_id=${plan.currentSessionId}&term=3rd$`));
  await expect(page.getByTestId('times-present')).toBeVisible();
  const term = await getJson<StudentAttendance>(
    request,
    `/api/attendance/student/?admission_number=${plan.absent}&session_id=${plan.currentSessionId}&term=3rd`,
  );
  await page.goto(`/attendance/student?admission_number=${plan.absent}&session_id=${plan.currentSessionId}&term=3rd`);
  await expect(page.getByTestId('times-present')).toHaveText(String(term.present));
  await expect(page.getByTestId('times-absent')).toHaveText(String(term.absent));
  expect(term.absent).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('days-not-present')).toContainText('Absent with permission');
  await expectAccessible(page);
  await noSideways(page);

  // The comment sheet offers the register's totals where the form teacher types none.
  await page.goto(`/class-comments?session_id=${plan.currentSessionId}&term=3rd&class=${encodeURIComponent(ARM)}`);
  const commentRow = page.getByTestId(`row-${plan.absent}`);
  await expect(commentRow.getByLabel(/Days present/)).toHaveAttribute('placeholder', String(term.present));
  await expect(commentRow.getByLabel(/Days absent/)).toHaveAttribute('placeholder', String(term.absent));
  await expect(commentRow.getByText(ATTENDANCE_LABELS.fromRegister).first()).toBeVisible();

  // The report card of 2025/2026's third term (one result so there is a card): the register's
  // totals, and says so.
  const token = (await admin(request)).authorization.slice('Bearer '.length);
  const subject = (await studentSubjects(request, token, plan.absent))[0]!;
  await send(request, 'post', '/api/results/', {
    admission_number: plan.absent,
    session_id: plan.currentSessionId,
    term: '3rd',
    student_class: ARM,
    subjects: [{ name: subject, score: 65, remarks: '' }],
  });
  await page.goto(`/report-card?admission_number=${plan.absent}&session_id=${plan.currentSessionId}&term=3rd`);
  const attendance = page.getByTestId('card-attendance');
  await expect(attendance).toContainText(`${T.present}: ${term.present}`);
  await expect(attendance).toContainText(`${T.absent}: ${term.absent}`);
  await expect(page.getByTestId('card-attendance-source')).toHaveText(ATTENDANCE_LABELS.fromRegister);
});

test('the school calendar: terms with their counts, an event added and deleted, a carried-in file previewed', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'admin');
  await page.goto(`/school-calendar?session_id=${plan.currentSessionId}`);
  await expect(page.getByRole('heading', { name: ATTENDANCE_SCREENS.calendar.title, level: 1 })).toBeVisible();
  const cal = await getJson<SchoolCalendarView>(request, `/api/attendance/calendar/?session_id=${plan.currentSessionId}`);
  const third = cal.terms.find((t) => t.term === '3rd')!;
  await expect(page.getByTestId('term-3rd').getByLabel(/First day/)).toHaveValue(third.starts_on!);
  await expect(page.getByTestId('term-3rd').getByTestId('term-counts')).toHaveText(SL.schoolDays(third.school_days, third.registers));
  await expectAccessible(page);
  await noSideways(page);

  // An event in today's term, where no register is marked yet: added, then deleted behind a confirm.
  await page.goto(`/school-calendar?session_id=${plan.todaySessionId}`);
  const name = `Inter-house sports ${plan.today}`;
  const day = addDays(plan.today, 10);
  await page.getByLabel(SL.eventName).fill(name);
  await page.getByLabel(SL.startsOn, { exact: true }).fill(day);
  await page.getByLabel(SL.endsOn, { exact: true }).fill(addDays(day, 1));
  await page.getByRole('button', { name: SL.addEvent, exact: true }).click();
  await expect(page.getByText(SM.eventAdded)).toBeVisible();
  await page.getByRole('button', { name: `${SL.deleteEvent}: ${name}` }).click();
  await expectAccessible(page);
  await page
    .getByRole('alertdialog', { name: `${SL.deleteEvent}: ${name}` })
    .getByRole('button', { name: SL.deleteEvent })
    .click();
  await expect(page.getByText(SM.eventDeleted)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);

  // Carried-in totals: a file with an unknown student shows the line's error and cannot be applied.
  await page.getByLabel(SL.term, { exact: true }).last().selectOption('1st');
  await page.getByLabel(SL.carriedFile).setInputFiles({
    name: 'carried.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`admission_number,days_present,days_absent\n${plan.absent},20,2\nSTU-9999,10,1\n`),
  });
  const preview = page.getByTestId('carried-preview');
  await expect(preview).toContainText(ATTENDANCE_MESSAGES.csvUnknownStudent('STU-9999'));
  await expect(preview.getByRole('button', { name: SL.apply })).toBeDisabled();
  await expectAccessible(page);
});

test("carried-in totals: a valid file is previewed, applied, and counted in the student's term", async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'admin');
  const query = `admission_number=${plan.absent}&session_id=${plan.ownSessionId}&term=3rd`;
  const before = await getJson<StudentAttendance>(request, `/api/attendance/student/?${query}`);
  // Totals unlike what is stored, so a re-run applies a change too.
  const present = before.carried?.present === 41 ? 42 : 41;
  const absent = 3;
  await page.goto(`/school-calendar?session_id=${plan.ownSessionId}`);
  await page.getByLabel(SL.term, { exact: true }).last().selectOption('3rd');
  await page.getByLabel(SL.carriedFile).setInputFiles({
    name: 'carried.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`admission_number,days_present,days_absent,note\n${plan.absent},${present},${absent},from the old register\n`),
  });
  const preview = page.getByTestId('carried-preview');
  const line = preview.getByRole('row', { name: new RegExp(nameOf(plan.absent)) });
  await expect(line).toContainText(String(present));
  await expect(line).toContainText(before.carried ? 'Update' : 'New');
  await expectAccessible(page);
  await noSideways(page);
  await preview.getByRole('button', { name: SL.apply }).click();
  await expect(page.getByText(ATTENDANCE_MESSAGES.csvApplied(1))).toBeVisible();
  await expect(preview).toHaveCount(0);

  // The student's term shows them, and counts them (no register in that term).
  await page.goto(`/attendance/student?${query}`);
  await expect(page.getByText(`${present} present · ${absent} absent`)).toBeVisible();
  await expect(page.getByTestId('times-present')).toHaveText(String(before.present - (before.carried?.present ?? 0) + present));
  await expect(page.getByTestId('times-absent')).toHaveText(String(before.absent - (before.carried?.absent ?? 0) + absent));
});

test('a student sees their own attendance for a term on a phone', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  const { access } = await signInViaApi(page, request, 'student', PUPIL);
  await page.goto('/StudentHomePage');
  await page.getByRole('link', { name: new RegExp(ATTENDANCE_SCREENS.mine.label) }).click();
  await expect(page.getByRole('heading', { name: ATTENDANCE_SCREENS.mine.title, level: 1 })).toBeVisible();
  await page.getByLabel(SL.session, { exact: true }).selectOption(String(plan.currentSessionId));
  await page.getByLabel(SL.term, { exact: true }).selectOption('3rd');
  const res = await request.get(`/api/attendance/student/?session_id=${plan.currentSessionId}&term=3rd`, {
    headers: { authorization: `Bearer ${access}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  const mine = (await res.json()) as StudentAttendance;
  await expect(page.getByTestId('times-present')).toHaveText(String(mine.present));
  await expect(page.getByTestId('times-absent')).toHaveText(String(mine.absent));
  await expectAccessible(page);
  await noSideways(page);
});
