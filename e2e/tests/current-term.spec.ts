import type { APIRequestContext, Page } from '@playwright/test';
import { ATTENDANCE_LABELS, type Register } from '../../packages/domain/src/attendance';
import { weekdayName } from '../../packages/domain/src/attendance-rules';
import type { CurrentTerm } from '../../packages/domain/src/current-term';
import { formatDate } from '../../packages/domain/src/datetime';
import type { ReportCard } from '../../packages/domain/src/report-cards';
import { apiToken, expect, expectAccessible, noSideways, signInViaApi, studentSubjects, test } from '../fixtures';
import { asAdmin, assignTeacher, createArm, createStaff, createStudent, runTag, type OwnStaff, type OwnStudent } from '../school';

// On a 360 px phone. Every term-based screen opens on the current session and
// term, as the server computes it from the demo calendar and today (2025/2026 is the session marked
// current: its third term, the nearest; 2026/2027's first, dated too, holds November 2026 and becomes
// the current term once marked current), and My Classes' links carry it. The register page lists the
// term's days nobody marked, and a card counted from the register says how many times were never
// marked. Its own data (fixture school.ts): a JSS 3 arm of this run with a student in it, and a
// teacher of this run who teaches the arm Mathematics.

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
const SUBJECT = 'Mathematics';
let ARM = '';
let teacher: OwnStaff;
let pupil: OwnStudent;
const DAY = '2026-07-24'; // the last day (a Friday) of 2025/2026's third term in the demo's calendar

let current: CurrentTerm;
let token = '';

async function apiGet<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

/** The session and term selects show the current term. */
async function opensOnCurrentTerm(page: Page) {
  await expect(page.getByLabel('Academic Session', { exact: true })).toHaveValue(String(current.session_id));
  await expect(page.getByLabel('Academic Term', { exact: true })).toHaveValue(current.term!);
}

test.beforeAll(async ({ request }) => {
  token = await apiToken(request, 'admin');
  current = await apiGet<CurrentTerm>(request, '/api/current-term/');
  const api = await asAdmin(request);
  ARM = await createArm(api, 'JSS 3', RUN);
  pupil = await createStudent(api, ARM, RUN);
  teacher = await createStaff(api, RUN);
  await assignTeacher(api, { sessionId: current.session_id!, arm: ARM, subject: SUBJECT, staffId: teacher.staff_id });
});

test('every term-based screen opens on the current term; My Classes links carry it', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  // A real term of the demo calendar, named by the server.
  expect(current).toMatchObject({ session_name: '2025/2026', term: '3rd', starts_on: '2026-04-27', ends_on: DAY });

  await signInViaApi(page, request, 'admin');
  for (const path of ['/score-sheet', '/broadsheet', '/report-approvals', '/report-card', '/class-ratings', '/class-comments']) {
    await page.goto(path);
    await opensOnCurrentTerm(page);
    await noSideways(page);
    await expectAccessible(page);
  }

  // A teacher's My Classes: the term is chosen, and "Enter scores" opens that term's grid.
  await signInViaApi(page, request, 'staff', teacher);
  await page.goto('/my-classes');
  await expect(page.getByLabel('Term', { exact: true })).toHaveValue(current.term!);
  const enter = page.getByRole('link', { name: `Enter ${SUBJECT} scores for ${ARM}` });
  await expect(enter).toHaveAttribute('href', new RegExp(`session_id=${current.session_id}&term=${current.term}&`));
  await expectAccessible(page);
  await enter.click();
  await expect(page).toHaveURL(new RegExp(`/score-sheet\\?session_id=${current.session_id}&term=${current.term}&`));
  await expect(page.getByTestId('score-grid')).toBeVisible();

  // A student's own card opens on the current term too.
  await signInViaApi(page, request, 'student', pupil);
  await page.goto('/report-card');
  await opensOnCurrentTerm(page);
  await expectAccessible(page);
});

test('the register lists the days not marked yet, and the card says how many times were never marked', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const headers = { authorization: `Bearer ${token}` };
  const q = `student_class=${encodeURIComponent(ARM)}`;
  // One day of the arm's register marked (everyone present); the term's other past school days are not.
  const before = await apiGet<Register>(request, `/api/attendance/register/?${q}&date=${DAY}`);
  expect(before.unmarked_days).toContain(DAY);
  const saved = await request.put('/api/attendance/register/', {
    headers,
    data: {
      student_class: ARM,
      date: DAY,
      period: 'morning',
      version: 0,
      marks: before.rows.map((r) => ({ admission_number: r.admission_number, status: 'present' })),
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const reg = (await saved.json()) as Register;
  expect(reg.unmarked_days).not.toContain(DAY);
  expect(reg.unmarked_days[0]).toBe(current.starts_on);

  await signInViaApi(page, request, 'admin');
  await page.goto(`/attendance?class=${encodeURIComponent(ARM)}&date=${DAY}`);
  const list = page.getByTestId('unmarked-days');
  await expect(page.getByRole('heading', { name: ATTENDANCE_LABELS.unmarkedDaysTitle(reg.unmarked_days.length) })).toBeVisible();
  await expect(list.getByRole('link')).toHaveCount(reg.unmarked_days.length);
  const first = reg.unmarked_days[0]!;
  await expect(list.getByRole('link').first()).toHaveText(`${weekdayName(first)} ${formatDate(first)}`);
  await noSideways(page);
  await expectAccessible(page);
  // A listed day opens its register.
  await list.getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`date=${first}`));

  // A card counted from the register: one time present, the rest never marked, and said so.
  const student = reg.rows[0]!.admission_number;
  const subject = (await studentSubjects(request, token, student))[0]!;
  // One result so there is a card (removed at the end: the arm is left as it was found).
  const result = await request.post('/api/results/', {
    headers,
    data: {
      admission_number: student,
      session_id: current.session_id,
      term: current.term,
      student_class: ARM,
      subjects: [{ name: subject, score: 66, remarks: '' }],
    },
  });
  expect(result.status(), await result.text()).toBeLessThan(300);
  const resultIds = ((await result.json()) as { id: number }[]).map((r) => r.id);
  const cardQuery = `admission_number=${student}&session_id=${current.session_id}&term=${current.term}`;
  const card = await apiGet<ReportCard>(request, `/api/report-card/?${cardQuery}`);
  expect(card.attendance.source).toBe('register');
  expect(card.attendance.present).toBe(1);
  expect(card.attendance.unmarked).toBe(card.attendance.times_opened! - 1);
  await page.goto(`/report-card?${cardQuery}`);
  await expect(page.getByTestId('card-attendance-unmarked')).toHaveText(String(card.attendance.unmarked));
  await noSideways(page);
  await expectAccessible(page);
  for (const id of resultIds) expect((await request.delete(`/api/results/${id}/`, { headers })).status()).toBeLessThan(300);
});
