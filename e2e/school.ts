import type { APIRequestContext, APIResponse, Page } from '@playwright/test';
import type { CurrentTerm } from '../packages/domain/src/current-term';
import type { SchoolCalendarView } from '../packages/domain/src/attendance';
import type { StaffCapability, Statement } from '../packages/domain/src/bursary';
import type { RatingSheet } from '../packages/domain/src/report-cards';
import { BURSARY_SCREEN_LABELS as L } from '../packages/domain/src/bursary-screens';
import type { Term } from '../packages/domain/src/constants';
import type { TermStarts } from '../packages/domain/src/fees-due';
import { armName, type ClassLevel } from '../packages/domain/src/teaching';
import { apiToken, expect, studentSubjects } from './fixtures';

/**
 * Data a spec builds for itself through the API (the admin signs in, then POSTs), so that it never
 * depends on the demo school's rows or on the order specs run in: an arm, students and staff of its
 * own, named for the run. The calendar (which session and term are current, when terms begin, the
 * school's today) is read from the server, never assumed from the demo seed; a spec does not make a
 * session current, since every spec of a run shares one server.
 */

/** A tag unique to this run and spec file: names, emails and arms carry it. */
export const runTag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 2).toString(36)}`.toUpperCase();

export interface AdminApi {
  request: APIRequestContext;
  headers: { authorization: string };
}

/** The admin's API access, for building a spec's data. */
export async function asAdmin(request: APIRequestContext): Promise<AdminApi> {
  return { request, headers: { authorization: `Bearer ${await apiToken(request, 'admin')}` } };
}

/** The answer's JSON, once its status is the expected one (the body is shown when it is not). */
export async function okJson<T>(res: APIResponse, status = 200): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** The session and term the server names current today, and the school's today (its time zone). */
export async function currentTerm(api: AdminApi): Promise<CurrentTerm & { session_id: number; term: Term }> {
  const current = await okJson<CurrentTerm>(await api.request.get('/api/current-term/', { headers: api.headers }));
  expect(current.session_id, 'a current session').not.toBeNull();
  expect(current.term, 'a current term').not.toBeNull();
  return current as CurrentTerm & { session_id: number; term: Term };
}

/** The current session's id and name, as a spec keeps them (its `cal`). */
export async function currentSession(api: AdminApi): Promise<{ sessionId: number; session: string }> {
  const current = await currentTerm(api);
  return { sessionId: current.session_id, session: current.session_name! };
}

/** The id of the session marked current. */
export async function currentSessionId(api: AdminApi): Promise<number> {
  const sessions = await okJson<{ id: number; is_current: boolean }[]>(await api.request.get('/api/sessions/', { headers: api.headers }));
  return sessions.find((s) => s.is_current)!.id;
}

/** The admin's GET of `path` (signed in for the call), its JSON once the answer is 200. */
export async function adminGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const api = await asAdmin(request);
  const res = await request.get(path, { headers: api.headers });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/**
 * A fee item for `arm` in a term of the session (a new arm has none): compulsory unless said
 * otherwise (an optional item, like a school bus, is shown but not owed).
 */
export async function addFee(
  api: AdminApi,
  fee: { arm: string; sessionId: number; term: Term; naira: number; name?: string; compulsory?: boolean },
): Promise<void> {
  const data = {
    student_class: fee.arm,
    session_id: fee.sessionId,
    term: fee.term,
    amount: fee.naira,
    name: fee.name ?? 'Tuition',
    ...(fee.compulsory === undefined ? {} : { compulsory: fee.compulsory }),
  };
  await okJson(await api.request.post('/api/payments/fee-schedules/', { headers: api.headers, data }), 201);
}

/**
 * The term fees a school sets an arm, as the payment screens expect them: tuition for the 1st and
 * 2nd terms (`tuition`, naira) and, when `bus` is given, an optional school bus item in each.
 */
export async function addTermFees(
  api: AdminApi,
  fees: { arm: string; sessionId: number; tuition: [number, number]; bus?: number },
): Promise<void> {
  for (const [i, term] of (['1st', '2nd'] as const).entries()) {
    await addFee(api, { arm: fees.arm, sessionId: fees.sessionId, term, naira: fees.tuition[i]! });
    if (fees.bus)
      await addFee(api, { arm: fees.arm, sessionId: fees.sessionId, term, naira: fees.bus, name: 'School bus', compulsory: false });
  }
}

/** When each term of a session begins, as the school's calendar says (terms without dates left out). */
export async function termStarts(api: AdminApi, sessionId: number): Promise<TermStarts> {
  const view = await okJson<SchoolCalendarView>(
    await api.request.get(`/api/attendance/calendar/?session_id=${sessionId}`, { headers: api.headers }),
  );
  const starts: TermStarts = {};
  for (const t of view.terms) if (t.starts_on) starts[t.term] = t.starts_on;
  return starts;
}

/** A new arm of `level` named for the run (e.g. "SSS 3 F1AB2C3D"): no other spec has rows in it. */
export async function createArm(api: AdminApi, level: ClassLevel, tag: string): Promise<string> {
  const arm = `F${tag.slice(-7)}`;
  await okJson(await api.request.post('/api/classes/', { headers: api.headers, data: { level, arm } }), 201);
  return armName(level, arm);
}

export interface OwnStudent {
  id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
}

/** What a spec may set on its own student or staff member (the rest is filled in). */
type PersonFields = Partial<Record<'first_name' | 'last_name' | 'email' | 'gender', string>>;

/** A student in `arm` who has chosen their password (so a spec can sign in as them). */
export async function createStudent(
  api: AdminApi,
  arm: string,
  tag: string,
  over: PersonFields & Partial<Record<'date_of_birth' | 'home_address' | 'fathers_name', string>> = {},
): Promise<OwnStudent> {
  const data = {
    first_name: 'Own',
    last_name: `Pupil${tag}`,
    email: `pupil.${tag.toLowerCase()}@e2e.school`,
    phone_number: '08031234567',
    gender: 'F',
    date_of_birth: '2010-03-01',
    student_class: arm,
    fathers_name: 'Mr Pupil',
    home_address: '3 Marina, Lagos',
    ...over,
  };
  const { id, admission_number, first_name, last_name, email, password } = await newAccount<{ id: number; admission_number: string }>(
    api,
    'student',
    data,
    tag,
  );
  return { id, admission_number, first_name, last_name, email, password };
}

export interface OwnStaff {
  id: number;
  staff_id: string;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
}

/** A staff member holding `capabilities` (e.g. the bursar's), who has chosen their password. */
export async function createStaff(
  api: AdminApi,
  tag: string,
  capabilities: StaffCapability[] = [],
  over: PersonFields & Partial<Record<'designation' | 'department', string>> = {},
): Promise<OwnStaff> {
  const data = {
    username: `own${tag.toLowerCase()}`,
    email: `staff.${tag.toLowerCase()}@e2e.school`,
    first_name: 'Own',
    last_name: `Staff${tag}`,
    phone_number: '08051234567',
    gender: 'F',
    designation: 'Teacher',
    department: 'General',
    marital_status: 'S',
    ...over,
  };
  const { id, staff_id, first_name, last_name, email, password } = await newAccount<{ id: number; staff_id: string }>(
    api,
    'staff',
    data,
    tag,
  );
  if (capabilities.length)
    await okJson(await api.request.put(`/api/staff-capabilities/${staff_id}/`, { headers: api.headers, data: { capabilities } }));
  return { id, staff_id, first_name, last_name, email, password };
}

/**
 * Registers a staff member's or student's record and, as a new account does once, signs in with its
 * one-time password and chooses its own (`Own-Staff-Pass-<tag>`, `Own-Pupil-Pass-<tag>`): the
 * record's `T` fields, its names and email, and that password.
 */
async function newAccount<T>(
  api: AdminApi,
  role: 'staff' | 'student',
  data: { first_name: string; last_name: string; email: string },
  tag: string,
): Promise<T & Omit<OwnStaff, 'id' | 'staff_id'>> {
  const created = await okJson<T & { one_time_password: string }>(
    await api.request.post(role === 'staff' ? '/api/staff/' : '/api/students/', { headers: api.headers, data }),
    201,
  );
  const password = `Own-${role === 'staff' ? 'Staff' : 'Pupil'}-Pass-${tag}`;
  await choosePassword(api.request, role, data.email, created.one_time_password, password);
  const { first_name, last_name, email } = data;
  return { ...created, first_name, last_name, email, password };
}

/** Signs in with the one-time password and chooses `password`, as a new account does once. */
async function choosePassword(request: APIRequestContext, role: 'staff' | 'student', email: string, otp: string, password: string) {
  const token = await apiToken(request, role, { email, password: otp });
  const changed = await request.post('/api/password/change/', {
    headers: { authorization: `Bearer ${token}` },
    data: { old_password: otp, new_password: password, confirm_password: password },
  });
  expect(changed.status(), await changed.text()).toBeLessThan(300);
}

/** A student's statement for a session, as the admin reads it. */
export async function statementOf(request: APIRequestContext, admission: string, sessionId: number): Promise<Statement> {
  const res = await request.get(`/api/bursary/statement/?admission_number=${admission}&session_id=${sessionId}`, {
    headers: { authorization: `Bearer ${await apiToken(request, 'admin')}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Statement;
}

/** The ids the teaching screens use for an arm, a subject and a staff member, found by their names. */
async function teachingIds(api: AdminApi, names: { arm: string; subject?: string; staffId: string }) {
  const get = async <T>(url: string) => okJson<T>(await api.request.get(url, { headers: api.headers }));
  const arms = await get<{ id: number; name: string }[]>('/api/classes/');
  const subjects = names.subject ? await get<{ id: number; name: string }[]>('/api/subjects/') : [];
  const staff = await get<{ id: number; staff_id: string }[]>('/api/staff/list/');
  return {
    armId: arms.find((a) => a.name === names.arm)!.id,
    subjectId: subjects.find((s) => s.name === names.subject)?.id ?? 0,
    staffId: staff.find((s) => s.staff_id === names.staffId)!.id,
  };
}

/** Makes `staffId` (e.g. "STF-0012") the teacher of `subject` in `arm` for the session (only that cell changes). */
export async function assignTeacher(
  api: AdminApi,
  cell: { sessionId: number; arm: string; subject: string; staffId: string },
): Promise<void> {
  const ids = await teachingIds(api, cell);
  const data = { session_id: cell.sessionId, cells: [{ arm_id: ids.armId, subject_id: ids.subjectId, staff_ids: [ids.staffId] }] };
  await okJson(await api.request.put('/api/teaching/assignments/', { headers: api.headers, data }));
}

/** Makes `staffId` the form teacher of `arm` for the session. */
export async function setFormTeacher(api: AdminApi, form: { sessionId: number; arm: string; staffId: string }): Promise<void> {
  const ids = await teachingIds(api, form);
  const data = { session_id: form.sessionId, arms: [{ arm_id: ids.armId, staff_id: ids.staffId }] };
  await okJson(await api.request.put('/api/teaching/form-teachers/', { headers: api.headers, data }));
}

/** Scores for a student in `arm`, as the admin enters them (subject name → score). */
export async function enterScores(
  api: AdminApi,
  entry: { sessionId: number; term: Term; arm: string; admission: string; scores: Record<string, number> },
): Promise<void> {
  const data = {
    admission_number: entry.admission,
    session_id: entry.sessionId,
    term: entry.term,
    student_class: entry.arm,
    subjects: Object.entries(entry.scores).map(([name, score]) => ({ name, score, remarks: '' })),
  };
  const res = await api.request.post('/api/results/', { headers: api.headers, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

/**
 * Fills the Record a Payment form for one of the spec's own students, as the bursar does: the
 * admission number (waiting for the student's name to show), then the term when given, the amount
 * and the method, and the bank fields for a banked method.
 */
export async function fillPayment(
  page: Page,
  p: { admission: string; name: string; term?: string; amount: number; method: string; bank?: string; reference?: string },
): Promise<void> {
  await page.getByLabel(L.admissionNumber).fill(p.admission);
  await expect(page.getByTestId('student-lookup')).toContainText(p.name);
  if (p.term !== undefined) await page.getByLabel(L.term).selectOption(p.term);
  await page.getByLabel(L.amount).fill(String(p.amount));
  await page.getByLabel(L.method).selectOption(p.method);
  if (p.bank !== undefined) {
    await page.getByLabel(L.bank, { exact: true }).fill(p.bank);
    await page.getByLabel(L.bankReference).fill(p.reference ?? '');
  }
}

/**
 * A student in `arm` (see createStudent) with a result in every subject they take this session, in
 * each of `terms`, scored by `score` (so each spec knows which marks, e.g. one on a grade boundary).
 */
export async function createStudentWithResults(
  api: AdminApi,
  arm: string,
  tag: string,
  results: { sessionId: number; terms: Term[]; score: (subjectIndex: number, term: Term) => number },
): Promise<OwnStudent & { subjects: string[] }> {
  const student = await createStudent(api, arm, tag);
  const subjects = await studentSubjects(api.request, api.headers.authorization.slice('Bearer '.length), student.admission_number);
  for (const term of results.terms) {
    const scores = Object.fromEntries(subjects.map((name, j) => [name, results.score(j, term)]));
    await enterScores(api, { sessionId: results.sessionId, term, arm, admission: student.admission_number, scores });
  }
  return { ...student, subjects };
}

export interface FormClass {
  arm: string;
  students: OwnStudent[];
  teacher: OwnStaff;
}

/**
 * A form class of the run: a new arm of `level` (createArm) with `students` students in it (tags
 * `${tag}S0`, `${tag}S1` …), each with results when `results` is given (createStudentWithResults,
 * scored by student, subject and term), and a teacher of the run (createStaff) as its form teacher in
 * the session, who also teaches it `teaches` when given.
 */
export async function createFormClass(
  api: AdminApi,
  level: ClassLevel,
  tag: string,
  c: {
    sessionId: number;
    students: number;
    teaches?: string;
    results?: { terms: Term[]; score: (student: number, subject: number, term: Term) => number };
  },
): Promise<FormClass> {
  const arm = await createArm(api, level, tag);
  const students: OwnStudent[] = [];
  for (let i = 0; i < c.students; i++) {
    const results = c.results;
    students.push(
      results
        ? await createStudentWithResults(api, arm, `${tag}S${i}`, {
            sessionId: c.sessionId,
            terms: results.terms,
            score: (subject, term) => results.score(i, subject, term),
          })
        : await createStudent(api, arm, `${tag}S${i}`),
    );
  }
  const teacher = await createStaff(api, tag);
  await setFormTeacher(api, { sessionId: c.sessionId, arm, staffId: teacher.staff_id });
  if (c.teaches) await assignTeacher(api, { sessionId: c.sessionId, arm, subject: c.teaches, staffId: teacher.staff_id });
  return { arm, students, teacher };
}

export interface SheetClass extends FormClass {
  sessionId: number;
  /** The class's term as its sheets' API calls ask for it (ratings, comments, approvals). */
  query: string;
  /** A sheet screen (`/class-ratings`, `/class-comments` …) opened on the class's term. */
  screen: (path: string) => string;
  /** The rating sheet as the admin first reads it (its rows: the students in sheet order). */
  sheet: RatingSheet;
}

/** A JSS 1 form class of the run (createFormClass) in the current session, and its report sheets of `term`. */
export async function createSheetClass(
  api: AdminApi,
  tag: string,
  term: Term,
  c: Omit<Parameters<typeof createFormClass>[3], 'sessionId'>,
): Promise<SheetClass> {
  const sessionId = await currentSessionId(api);
  const form = await createFormClass(api, 'JSS 1', tag, { ...c, sessionId });
  const where = `session_id=${sessionId}&term=${term}`;
  const query = `${where}&student_class=${encodeURIComponent(form.arm)}`;
  const sheet = await adminGet<RatingSheet>(api.request, `/api/class-ratings/?${query}`);
  return { ...form, sessionId, query, screen: (path) => `${path}?${where}&class=${encodeURIComponent(form.arm)}`, sheet };
}

// ---- Parents (issue 33) ----

/** A Nigerian mobile number of the run, as a parent writes it on a form ("0803 …"), unique to `tag`. */
export function runMobile(tag: string): string {
  let n = 0;
  for (const ch of tag) n = (n * 31 + ch.charCodeAt(0)) % 10_000_000;
  return `0803${String(n).padStart(7, '0')}`;
}

/** A student in `arm` whose father (name and phone) the form gives: the link to the parent comes from it. */
export async function createChildOf(
  api: AdminApi,
  arm: string,
  tag: string,
  father: { name: string; phone: string },
  over: PersonFields = {},
): Promise<{ admission_number: string; first_name: string; last_name: string }> {
  const data = {
    first_name: 'Child',
    last_name: `Of${tag}`,
    email: `child.${tag.toLowerCase()}@e2e.school`,
    phone_number: '08031234567',
    gender: 'M',
    date_of_birth: '2011-05-01',
    student_class: arm,
    fathers_name: father.name,
    fathers_phone: father.phone,
    home_address: '5 Broad Street, Lagos',
    ...over,
  };
  const created = await okJson<{ admission_number: string }>(await api.request.post('/api/students/', { headers: api.headers, data }), 201);
  return { admission_number: created.admission_number, first_name: data.first_name, last_name: data.last_name };
}

/** Publishes (releases) an arm's results of a term: its students (and their parents) read the card. */
export async function publishArm(api: AdminApi, p: { sessionId: number; term: Term; arm: string }): Promise<void> {
  const data = { session_id: p.sessionId, term: p.term, student_class: p.arm };
  const res = await api.request.post('/api/results/publications/', { headers: api.headers, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

// ---- Notices (issue 33) ----

export interface OwnParent {
  id: number;
  name: string;
  phone: string;
  password: string;
}

/**
 * A parent of `admissionNumbers` (created and linked by the admin), invited with the arm's parents and
 * signed in once to choose their own password (`Own-Parent-Pass-<tag>`), as a new parent does.
 */
export async function createParent(
  api: AdminApi,
  tag: string,
  links: { arm: string; admissionNumbers: string[]; relationship?: 'father' | 'mother' | 'guardian' },
): Promise<OwnParent> {
  const name = `Mrs Parent${tag}`;
  const phone = `+234${runMobile(tag).slice(1)}`;
  const created = await okJson<{ id: number }>(
    await api.request.post('/api/parents/', { headers: api.headers, data: { name, phone } }),
    201,
  );
  for (const admission_number of links.admissionNumbers)
    await okJson(
      await api.request.post(`/api/parents/${created.id}/links/`, {
        headers: api.headers,
        data: { admission_number, relationship: links.relationship ?? 'mother' },
      }),
      201,
    );
  const invited = await okJson<{ slips: { phone: string; password: string }[] }>(
    await api.request.post('/api/parents/invitations/', { headers: api.headers, data: { arm: links.arm } }),
  );
  const slip = invited.slips.find((s) => s.phone === phone);
  expect(slip, `an invitation slip for ${phone}`).toBeTruthy();
  const password = `Own-Parent-Pass-${tag}`;
  const login = await api.request.post('/api/parent/login/', { data: { email: phone, password: slip!.password } });
  expect(login.status(), await login.text()).toBe(200);
  const token = ((await login.json()) as { data: { access: string } }).data.access;
  const changed = await api.request.post('/api/password/change/', {
    headers: { authorization: `Bearer ${token}` },
    data: { old_password: slip!.password, new_password: password, confirm_password: password },
  });
  expect(changed.status(), await changed.text()).toBeLessThan(300);
  return { id: created.id, name, phone, password };
}

/** The school's notice settings as the admin reads them. */
export async function noticeSettings<T>(api: AdminApi): Promise<T> {
  return okJson<T>(await api.request.get('/api/notice-settings/', { headers: api.headers }));
}

/** Changes some notice settings (the rest kept as they are). */
export async function setNoticeSettings(api: AdminApi, change: Record<string, unknown>): Promise<void> {
  const { channels: _channels, ...now } = await noticeSettings<Record<string, unknown>>(api);
  await okJson(await api.request.put('/api/notice-settings/', { headers: api.headers, data: { ...now, ...change } }));
}

/**
 * Undoes every promotion run that can still be undone, newest first. A spec that promotes from the
 * shared school's current session ends with this: a promotion closes that session (decision 038),
 * and the specs after it add students to it.
 */
export async function undoPromotionRuns(api: AdminApi): Promise<void> {
  const runs = await okJson<{ id: number; undoable: boolean }[]>(await api.request.get('/api/promotion/runs/', { headers: api.headers }));
  for (const r of runs)
    if (r.undoable) await okJson(await api.request.post(`/api/promotion/runs/${r.id}/undo/`, { headers: api.headers, data: {} }));
}
