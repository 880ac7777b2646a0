import type { InjectOptions } from 'fastify';
import { expect, it } from 'vitest';
import {
  ATTENDANCE_MESSAGES,
  AUTH_MESSAGES,
  BURSARY_MESSAGES,
  CARD_CODES,
  DEFAULT_NOTICE_SETTINGS,
  DEFAULT_NOTICE_TEMPLATES,
  DEFAULT_REPORT_SETTINGS,
  NOT_YOUR_SUBJECT_CODE,
  PARENT_MESSAGES,
  REPORT_MESSAGES,
  RESULT_MESSAGES,
  SCHEME_PRESETS,
  SESSION_CLOSED_CODE,
  SUBJECTS,
} from '@portal/domain';
import { createResults } from '../../src/db/factories';
import { routeTable } from '../../src/http/auth';
import {
  createSession,
  createStaff,
  describeEachDatabase,
  login,
  rowWhere,
  signInAdmin,
  signInStaff,
  signInStudent,
  TEST_PASSWORD,
  type SignedIn,
  type TestContext,
  withAdmin,
} from '../helpers';
import '../../src/modules/payments/payments.tables';
import '../../src/modules/results/report-cards.tables';
import '../../src/modules/attendance/attendance.tables';
import { assign, enforceAssignments, makeFormTeacher } from '../teaching-fixtures';
import { accessScope, reaches, reachesArm, type Purpose, type ScopeActor } from '../../src/modules/access/scope.service';
import { castParent, matrixPhone, newStudentRecord, paymentBody, RECENT_DAY, withCast, type Cast } from './authz-fixtures';
import { addParent, BLAST_BODY, freshBlast } from '../notice-fixtures';

/**
 * The authorization matrix: every /api route x {anonymous, student on their own record,
 * student on someone else's record, staff, admin}. Staff and admin act on someone else's record.
 * Generated from the live route table: a route without an entry fails, so a new route must be added here.
 */

type Actor = 'anon' | 'own' | 'other' | 'staff' | 'bursar' | 'admin';
const ACTORS: Actor[] = ['anon', 'own', 'other', 'staff', 'bursar', 'admin'];
/** `bursar` (staff holding the capability, form teacher of no arm) answers as plain staff unless said. */
type Expect = Record<Exclude<Actor, 'bursar'>, number> & { bursar?: number };

interface Target {
  admissionNumber: string;
  id: number;
  email: string;
  arm: 'JSS 1A' | 'JSS 2A';
}
interface Cell {
  actor: Actor;
  c: Cast;
  ctx: TestContext;
  /** The student whose records the request is about (own: the acting student's; else someone else's). */
  t: Target;
  /** A fresh sign-in of the acting user (for calls that end the session). */
  fresh: () => Promise<Record<string, string>>;
}
type Req = Omit<InjectOptions, 'method'> & { url: string };
interface Entry {
  req(cell: Cell): Req | Promise<Req>;
  expect: Expect;
}

// Shorthands for the common shapes.
const everyone = (s: number): Expect => ({ anon: s, own: s, other: s, staff: s, admin: s });
const signedIn = (s: number): Expect => ({ anon: 401, own: s, other: s, staff: s, admin: s });
const ownOnly = (s: number, refused: number): Expect => ({ anon: 401, own: s, other: refused, staff: s, admin: s });
const staffAndAdmin = (s: number): Expect => ({ anon: 401, own: 403, other: 403, staff: s, admin: s });
const adminOnly = (s: number): Expect => ({ anon: 401, own: 403, other: 403, staff: 403, admin: s });
/** The admin and staff holding the bursar capability; plain staff 403. */
const bursarAndAdmin = (s: number): Expect => ({ anon: 401, own: 403, other: 403, staff: 403, bursar: s, admin: s });

/** A small sibling discount for the cast's JSS 1A student (their class has the cast's fee item; payments confirm, so balances do not matter). */
const discountBody = (c: Cast) => ({
  admission_number: c.student.admissionNumber,
  session_id: c.session.id,
  term: null,
  kind: 'sibling',
  basis: 'percent',
  percent: 5,
  items: [],
  reason: 'Matrix check',
});

let n = 0;
let schemeSessions = 0;
let rolloverSessions = 0;
let transcriptSessions = 0;
const uniq = () => `${Date.now().toString(36)}${(n++).toString(36)}`;
const q = (o: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, String(v)])).toString();
const term = (c: Cast, t: Target) => q({ session_id: c.session.id, term: '1st', student_class: t.arm });
const card = (c: Cast, t: Target) => q({ admission_number: t.admissionNumber, session_id: c.session.id, term: '1st' });
const sheet = (c: Cast, t: Target) => q({ session_id: c.session.id, term: '1st', student_class: t.arm, subject: SUBJECTS[0] });
/** The stored version of a target's result (0: none), so a grid save is never stale. */
async function versionOf(ctx: TestContext, t: Target, subject: string): Promise<number> {
  const row = await ctx.handle.db
    .selectFrom('results')
    .select('version')
    .where('student_id', '=', t.id)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.version ?? 0;
}

/** The stored version of a target's 3rd-term card entry (0: none), so a sheet save is never stale. */
async function entryVersion(ctx: TestContext, c: Cast, t: Target): Promise<number> {
  const row = await ctx.handle.db
    .selectFrom('report_card_entries')
    .select('version')
    .where('student_id', '=', t.id)
    .where('session_id', '=', c.session.id)
    .where('term', '=', '3rd')
    .executeTakeFirst();
  return row?.version ?? 0;
}
// The 3rd term: the cast's 1st term is published (released, which locks the form teacher's writes) and the 2nd is by the matrix.
const cardSheetBody = (c: Cast, t: Target) => ({ session_id: c.session.id, term: '3rd', student_class: t.arm });
const cardSheet = (c: Cast, t: Target) => q(cardSheetBody(c, t));

async function freshStaff(ctx: TestContext) {
  return createStaff(ctx.handle.db, { email: `st-${uniq()}@matrix.test`, password: TEST_PASSWORD, firstName: 'Fresh', lastName: 'Staff' });
}
/** An arm with results in a session of its own (1st term), its cards in `status`. */
async function freshArm(ctx: TestContext, status?: 'submitted') {
  const year = 2600 + schemeSessions++;
  const session = await createSession(ctx.handle.db, `${year}/${year + 1}`);
  const s = await newStudentRecord(ctx);
  await createResults(ctx.handle.db, [
    { studentId: s.id, sessionId: session.id, term: '1st', arm: 'JSS 2A', subject: SUBJECTS[0], score: 50 },
  ]);
  const key = { session_id: session.id, term: '1st', student_class: 'JSS 2A' };
  if (status)
    await ctx.handle.db
      .insertInto('report_card_status')
      .values({ ...key, status, updated_at: new Date().toISOString() })
      .execute();
  return key;
}

async function freshResultId(ctx: TestContext, c: Cast) {
  const s = await newStudentRecord(ctx);
  await createResults(ctx.handle.db, [
    { studentId: s.id, sessionId: c.session.id, term: '1st', arm: 'JSS 2A', subject: SUBJECTS[0], score: 40 },
  ]);
  const row = await rowWhere(ctx, 'results', ['id'], ['student_id', s.id]);
  return row.id;
}
const TINY_PDF = Buffer.from('%PDF-1.4\n%%EOF');
function transferReportBody(c: Cast) {
  return {
    session_id: c.session.id,
    term: '1st',
    amount: '2500',
    method: 'bank_transfer',
    bank: 'Access Bank',
    bank_reference: `TR-${uniq()}`,
    paid_on: RECENT_DAY,
    scan: `data:application/pdf;base64,${TINY_PDF.toString('base64')}`,
  };
}
/** A waiting transfer report of the target, written directly (the POST row above exercises reporting). */
async function waitingReport(ctx: TestContext, c: Cast, t: Target): Promise<number> {
  const key = `044|MX${uniq().toUpperCase()}`;
  const row = await ctx.handle.db
    .insertInto('transfer_reports')
    .values({
      student_id: t.id,
      session_id: c.session.id,
      term: '1st',
      amount_kobo: 250_000,
      method: 'bank_transfer',
      bank: 'Access Bank',
      bank_reference: key.split('|')[1]!,
      bank_reference_key: key,
      paid_on: RECENT_DAY,
      note: '',
      scan_mime: 'application/pdf',
      scan_data: TINY_PDF.toString('base64'),
      scan_bytes: TINY_PDF.length,
      reported_by: null,
      reported_at: new Date().toISOString(),
      waiting_key: key,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
function studentBody() {
  return {
    first_name: 'New',
    last_name: 'Pupil',
    email: `new-${uniq()}@matrix.test`,
    phone_number: '08031234567',
    gender: 'F',
    date_of_birth: '2012-03-04',
    student_class: 'JSS 3A',
    fathers_name: 'Mr Pupil',
    home_address: '1 School Road, Lagos',
  };
}
function staffBody() {
  return {
    first_name: 'New',
    last_name: 'Teacher',
    username: `nt${uniq()}`,
    email: `nt-${uniq()}@matrix.test`,
    phone_number: '08031234567',
    gender: 'M',
    designation: 'Teacher',
    department: 'Sciences',
  };
}
function streamBody() {
  return { name: `Stream ${uniq()}`, subject_ids: [1] };
}
async function freshStreamId(ctx: TestContext, c: Cast): Promise<number> {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/teaching/streams/', headers: c.admin.auth, payload: streamBody() });
  return res.json<{ id: number }>().id;
}
function assignmentBody(c: Cast) {
  return { session_id: c.session.id, cells: [{ arm_id: 1, subject_id: 1, staff_ids: [c.otherStaff.id] }] };
}
/** Export, import template, preview and import of one kind of record: export for staff and admin, the rest for `importers`. */
function csvRoutes(kind: 'students' | 'staff', importers: (s: number) => Expect): Record<string, Entry> {
  const csv = (url: string, status: number): Entry => ({
    req: async ({ ctx, c }) => ({ url, payload: { csv: await csvFor(ctx, c, kind) } }),
    expect: importers(status),
  });
  return {
    [`GET /api/${kind}/export/`]: { req: () => ({ url: `/api/${kind}/export/` }), expect: staffAndAdmin(200) },
    [`GET /api/${kind}/import/template/`]: { req: () => ({ url: `/api/${kind}/import/template/` }), expect: importers(200) },
    [`POST /api/${kind}/import/preview/`]: csv(`/api/${kind}/import/preview/`, 200),
    [`POST /api/${kind}/import/`]: csv(`/api/${kind}/import/`, 201),
  };
}

async function csvFor(ctx: TestContext, c: Cast, kind: 'students' | 'staff') {
  const tpl = await ctx.app.inject({ method: 'GET', url: `/api/${kind}/import/template/`, headers: c.admin.auth });
  const header = tpl.body.split(/\r?\n/)[0]!;
  const b: Record<string, string> = kind === 'students' ? studentBody() : staffBody();
  return `${header}\n${header
    .split(',')
    .map((h) => b[h.trim()] ?? '')
    .join(',')}\n`;
}

export const MATRIX: Record<string, Entry> = {
  // ---------- health, auth, settings ----------
  'GET /api/health': { req: () => ({ url: '/api/health' }), expect: everyone(200) },
  'GET /api/health/live': { req: () => ({ url: '/api/health/live' }), expect: everyone(200) },
  'GET /api/health/ready': { req: () => ({ url: '/api/health/ready' }), expect: everyone(200) },
  // The operator's (METRICS_TOKEN, set for this matrix): no account's token opens it, the admin's included.
  'GET /metrics': { req: () => ({ url: '/metrics' }), expect: everyone(401) },
  'POST /api/admin/login/': {
    req: ({ c }) => ({ url: '/api/admin/login/', payload: { email: c.admin.email, password: TEST_PASSWORD } }),
    expect: everyone(200),
  },
  'POST /api/staff/login/': {
    req: ({ c }) => ({ url: '/api/staff/login/', payload: { email: c.staff.email, password: TEST_PASSWORD } }),
    expect: everyone(200),
  },
  'POST /api/student/login/': {
    req: ({ c }) => ({ url: '/api/student/login/', payload: { email: c.student.email, password: TEST_PASSWORD } }),
    expect: everyone(200),
  },
  'POST /api/token/refresh/': {
    req: async ({ ctx, c }) => ({
      url: '/api/token/refresh/',
      payload: { refresh: (await login(ctx.app, 'student', c.student.email)).json().data.refresh },
    }),
    expect: everyone(200),
  },
  'POST /api/logout/': { req: async ({ fresh }) => ({ url: '/api/logout/', headers: await fresh(), payload: {} }), expect: signedIn(200) },
  'POST /api/password/change/': {
    // A real change (200), by a fresh account of the caller's role so the cast keeps its passwords.
    req: async ({ ctx, actor }) => {
      const payload = { old_password: TEST_PASSWORD, new_password: 'Some-New-Pass-42' };
      if (actor === 'anon') return { url: '/api/password/change/', payload };
      const who = actor === 'admin' ? await signInAdmin(ctx) : actor === 'staff' ? await signInStaff(ctx) : await signInStudent(ctx);
      return { url: '/api/password/change/', headers: who.auth, payload };
    },
    expect: signedIn(200),
  },
  'GET /api/me/': { req: () => ({ url: '/api/me/' }), expect: signedIn(200) },
  'GET /api/sign-in-blocks/': { req: () => ({ url: '/api/sign-in-blocks/' }), expect: adminOnly(200) },
  'POST /api/sign-in-blocks/clear/': {
    req: ({ c }) => ({ url: '/api/sign-in-blocks/clear/', payload: { email: c.student.email } }),
    expect: adminOnly(200),
  },
  'GET /api/settings/': { req: () => ({ url: '/api/settings/' }), expect: everyone(200) },
  'PUT /api/settings/': {
    req: async ({ ctx }) => ({ url: '/api/settings/', payload: (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json() }),
    expect: adminOnly(200),
  },
  // The admission page: public text, written by the admin only.
  'GET /api/admission/': { req: () => ({ url: '/api/admission/' }), expect: everyone(200) },
  // The installable app's manifest (decision 045): the school's name, public like /api/settings/.
  'GET /manifest.webmanifest': { req: () => ({ url: '/manifest.webmanifest' }), expect: everyone(200) },
  'PUT /api/admission/': {
    req: async ({ ctx }) => ({ url: '/api/admission/', payload: (await ctx.app.inject({ method: 'GET', url: '/api/admission/' })).json() }),
    expect: adminOnly(200),
  },
  // The first-run checklist: the admin's alone. Hiding it is refused (409) while steps are open.
  'GET /api/setup-checklist/': { req: () => ({ url: '/api/setup-checklist/' }), expect: adminOnly(200) },
  'POST /api/setup-checklist/dismiss/': { req: () => ({ url: '/api/setup-checklist/dismiss/' }), expect: adminOnly(409) },

  // ---------- people ----------
  'POST /api/students/': { req: () => ({ url: '/api/students/', payload: studentBody() }), expect: staffAndAdmin(201) },
  'GET /api/students/list/': { req: () => ({ url: '/api/students/list/' }), expect: signedIn(200) },
  'GET /api/students/search/': { req: ({ t }) => ({ url: `/api/students/search/?${q({ q: t.admissionNumber })}` }), expect: signedIn(200) },
  ...csvRoutes('students', staffAndAdmin),
  'GET /api/students/:admission_number/': { req: ({ t }) => ({ url: `/api/students/${t.admissionNumber}/` }), expect: ownOnly(200, 403) },
  'PUT /api/students/:admission_number/photo/': {
    req: ({ t }) => ({ url: `/api/students/${t.admissionNumber}/photo/`, payload: { photo: '' } }),
    expect: adminOnly(200),
  },
  'PUT /api/students/:admission_number/': {
    req: async ({ ctx, actor, t }) => {
      const target = actor === 'own' || actor === 'other' ? t : await newStudentRecord(ctx);
      return {
        url: `/api/students/${target.admissionNumber}/`,
        payload: { first_name: 'Renamed', last_name: 'Pupil', email: target.email },
      };
    },
    expect: staffAndAdmin(200),
  },
  'DELETE /api/students/:admission_number/': {
    req: async ({ ctx, actor, t }) => ({
      url: `/api/students/${(actor === 'own' || actor === 'other' ? t : await newStudentRecord(ctx)).admissionNumber}/`,
    }),
    expect: staffAndAdmin(204),
  },
  'POST /api/students/:admission_number/reset-password/': {
    req: async ({ ctx, actor, t }) => ({
      url: `/api/students/${(actor === 'own' || actor === 'other' ? t : await newStudentRecord(ctx)).admissionNumber}/reset-password/`,
      payload: {},
    }),
    expect: staffAndAdmin(200),
  },
  // The day's new sign-ins and a student's history
  'GET /api/people/new-accounts/': { req: () => ({ url: '/api/people/new-accounts/' }), expect: staffAndAdmin(200) },
  'GET /api/students/:admission_number/history/': {
    req: ({ t }) => ({ url: `/api/students/${t.admissionNumber}/history/` }),
    expect: staffAndAdmin(200),
  },
  // Every released card of the student as one PDF (alumni; decision 038): the admin's alone.
  'GET /api/students/:admission_number/transcript/pdf/': {
    req: async ({ ctx, actor, t }) => {
      if (actor === 'admin') {
        // A released card of the target in a session of its own, so the admin's answer is the PDF.
        const year = 2700 + transcriptSessions++;
        const session = await createSession(ctx.handle.db, `${year}/${year + 1}`);
        await createResults(ctx.handle.db, [
          { studentId: t.id, sessionId: session.id, term: '1st', arm: t.arm, subject: SUBJECTS[0], score: 64 },
        ]);
        await ctx.handle.db
          .insertInto('result_publications')
          .values({ session_id: session.id, term: '1st', student_class: t.arm, published_by: null, published_at: new Date().toISOString() })
          .execute();
      }
      return { url: `/api/students/${t.admissionNumber}/transcript/pdf/` };
    },
    expect: adminOnly(200),
  },
  'POST /api/students/:admission_number/withdraw/': {
    req: async ({ ctx, actor, t }) => ({
      url: `/api/students/${(actor === 'own' || actor === 'other' ? t : await newStudentRecord(ctx)).admissionNumber}/withdraw/`,
      payload: {},
    }),
    expect: staffAndAdmin(200),
  },
  'POST /api/students/:admission_number/readmit/': {
    req: async ({ ctx, actor, c, t }) => {
      if (actor === 'own' || actor === 'other') return { url: `/api/students/${t.admissionNumber}/readmit/`, payload: {} };
      const s = await newStudentRecord(ctx);
      await ctx.app.inject({ method: 'POST', url: `/api/students/${s.admissionNumber}/withdraw/`, headers: c.admin.auth });
      return { url: `/api/students/${s.admissionNumber}/readmit/`, payload: {} };
    },
    expect: staffAndAdmin(200),
  },
  'GET /api/studentBase/:id': { req: ({ t }) => ({ url: `/api/studentBase/${t.id}` }), expect: ownOnly(200, 403) },
  'DELETE /api/studentBase/:id': {
    req: async ({ ctx, actor, t }) => ({
      url: `/api/studentBase/${(actor === 'own' || actor === 'other' ? t : await newStudentRecord(ctx)).id}`,
    }),
    expect: staffAndAdmin(204),
  },
  'POST /api/staff/': { req: () => ({ url: '/api/staff/', payload: staffBody() }), expect: adminOnly(201) },
  'POST /api/api/staff/': { req: () => ({ url: '/api/api/staff/', payload: staffBody() }), expect: adminOnly(201) },
  'GET /api/staff/list/': { req: () => ({ url: '/api/staff/list/' }), expect: staffAndAdmin(200) },
  ...csvRoutes('staff', adminOnly),
  'GET /api/staff/id/:id/': { req: ({ c }) => ({ url: `/api/staff/id/${c.otherStaff.id}/` }), expect: staffAndAdmin(200) },
  'GET /api/staff/:staff_id/': { req: ({ c }) => ({ url: `/api/staff/${c.otherStaff.staffId}/` }), expect: staffAndAdmin(200) },
  'PUT /api/staff/:staff_id/': {
    req: async ({ ctx }) => ({ url: `/api/staff/${(await freshStaff(ctx)).staffId}/`, payload: { designation: 'Head of Sciences' } }),
    expect: adminOnly(200),
  },
  'DELETE /api/staff/:staff_id/': {
    req: async ({ ctx }) => ({ url: `/api/staff/${(await freshStaff(ctx)).staffId}/` }),
    expect: adminOnly(204),
  },
  'POST /api/staff/:staff_id/reset-password/': {
    req: async ({ ctx }) => ({ url: `/api/staff/${(await freshStaff(ctx)).staffId}/reset-password/`, payload: {} }),
    expect: adminOnly(200),
  },
  'GET /api/staffBase/:id': { req: ({ c }) => ({ url: `/api/staffBase/${c.otherStaff.id}` }), expect: staffAndAdmin(200) },
  'DELETE /api/staffBase/:id': {
    req: async ({ ctx }) => ({ url: `/api/staffBase/${(await freshStaff(ctx)).id}` }),
    expect: adminOnly(204),
  },

  // ---------- sessions, results, report cards ----------
  'GET /api/sessions/': { req: () => ({ url: '/api/sessions/' }), expect: signedIn(200) },
  'POST /api/sessions/': { req: () => ({ url: '/api/sessions/', payload: { name: '2030/2031' } }), expect: adminOnly(201) },
  // Starting the next session (decision 040): the admin's alone; each admin call a session of its own.
  'GET /api/session-rollover/preview/': {
    req: ({ c }) => ({ url: `/api/session-rollover/preview/?from_session_id=${c.session.id}` }),
    expect: adminOnly(200),
  },
  'POST /api/session-rollover/': {
    req: ({ c }) => {
      const y = 2800 + rolloverSessions++;
      return {
        url: '/api/session-rollover/',
        payload: {
          from_session_id: c.session.id,
          name: `${y}/${y + 1}`,
          terms: [
            { term: '1st', starts_on: `${y}-09-07`, ends_on: `${y}-12-11`, next_term_begins: null },
            { term: '2nd', starts_on: `${y + 1}-01-04`, ends_on: `${y + 1}-04-02`, next_term_begins: null },
            { term: '3rd', starts_on: `${y + 1}-04-26`, ends_on: `${y + 1}-07-23`, next_term_begins: null },
          ],
          copy: {
            calendar_events: true,
            fee_items: true,
            fee_increase_percent: 5,
            assessment_schemes: true,
            grading_scales: true,
            report_card_settings: true,
            teaching_assignments: true,
            form_teachers: true,
            enforcement_and_windows: true,
          },
        },
      };
    },
    expect: adminOnly(201),
  },
  'PATCH /api/sessions/:id/': {
    req: ({ c }) => ({ url: `/api/sessions/${c.session.id}/`, payload: { is_current: true } }),
    expect: adminOnly(200),
  },
  'POST /api/results/': {
    req: ({ c, t }) => ({
      url: '/api/results/',
      payload: {
        admission_number: t.admissionNumber,
        session_id: c.session.id,
        term: '1st',
        student_class: t.arm,
        subject: SUBJECTS[5],
        score: 66,
        // The target's class is published: a change to a released result carries a reason.
        reason: 'Matrix check',
      },
    }),
    // Staff creates the row (201); the admin's save of the same subject then updates it (200).
    expect: { ...staffAndAdmin(201), bursar: 200, admin: 200 },
  },
  'GET /api/results/': { req: ({ c, t }) => ({ url: `/api/results/?${card(c, t)}` }), expect: ownOnly(200, 403) },
  'PATCH /api/results/:id/': {
    req: ({ c, actor }) => ({
      url: `/api/results/${actor === 'own' ? c.resultIds.own : c.resultIds.other}/`,
      payload: { score: 71, reason: 'Matrix check' },
    }),
    expect: staffAndAdmin(200),
  },
  'DELETE /api/results/:id/': {
    req: async ({ ctx, c, actor }) => ({
      url: `/api/results/${actor === 'own' ? c.resultIds.own : await freshResultId(ctx, c)}/?reason=Matrix%20check`,
    }),
    expect: staffAndAdmin(204),
  },
  'GET /api/results/students/': { req: ({ c, t }) => ({ url: `/api/results/students/?${term(c, t)}` }), expect: staffAndAdmin(200) },
  'GET /api/results/terms/': {
    req: ({ t }) => ({ url: `/api/results/terms/?${q({ admission_number: t.admissionNumber })}` }),
    expect: ownOnly(200, 403),
  },
  'GET /api/results/audit/': {
    req: ({ t }) => ({ url: `/api/results/audit/?${q({ admission_number: t.admissionNumber })}` }),
    expect: adminOnly(200),
  },
  'GET /api/results/publications/': { req: () => ({ url: '/api/results/publications/' }), expect: staffAndAdmin(200) },
  'POST /api/results/publications/': {
    req: async ({ ctx, c }) => {
      // A class is published only once it has results.
      const s = await newStudentRecord(ctx);
      await createResults(ctx.handle.db, [
        { studentId: s.id, sessionId: c.session.id, term: '2nd', arm: 'JSS 2A', subject: SUBJECTS[0], score: 40 },
      ]);
      return { url: '/api/results/publications/', payload: { session_id: c.session.id, term: '2nd', student_class: 'JSS 2A' } };
    },
    expect: adminOnly(201),
  },
  'DELETE /api/results/publications/:id/': {
    req: ({ c }) => ({ url: `/api/results/publications/${c.publicationId}/` }),
    expect: adminOnly(204),
  },
  // ---------- report card approvals (an arm of its own per request: each step starts from a known status) ----------
  'GET /api/report-approvals/': {
    req: ({ c }) => ({ url: `/api/report-approvals/?${q({ session_id: c.session.id, term: '1st' })}` }),
    expect: staffAndAdmin(200),
  },
  // The matrix's staff member is no form teacher: only the admin may submit here.
  'POST /api/report-approvals/submit/': {
    req: async ({ ctx }) => ({ url: '/api/report-approvals/submit/', payload: await freshArm(ctx) }),
    expect: adminOnly(200),
  },
  'POST /api/report-approvals/approve/': {
    req: async ({ ctx }) => ({ url: '/api/report-approvals/approve/', payload: await freshArm(ctx) }),
    expect: adminOnly(200),
  },
  'POST /api/report-approvals/return/': {
    req: async ({ ctx }) => ({
      url: '/api/report-approvals/return/',
      payload: { ...(await freshArm(ctx, 'submitted')), reason: 'Matrix check' },
    }),
    expect: adminOnly(200),
  },
  'POST /api/report-approvals/release/': {
    req: async ({ ctx }) => {
      const arm = await freshArm(ctx);
      return {
        url: '/api/report-approvals/release/',
        payload: { session_id: arm.session_id, term: arm.term, student_classes: [arm.student_class] },
      };
    },
    expect: adminOnly(200),
  },
  'GET /api/grading-scales/': { req: () => ({ url: '/api/grading-scales/' }), expect: signedIn(200) },
  'PUT /api/grading-scales/:level/': {
    req: async ({ ctx, c }) => {
      const scales = (await ctx.app.inject({ method: 'GET', url: '/api/grading-scales/', headers: c.admin.auth })).json();
      const jss =
        (Array.isArray(scales) ? scales : Object.values(scales as object)).find((s: { level?: string }) => s.level === 'JSS') ?? {};
      return { url: '/api/grading-scales/JSS/', payload: { bands: (jss as { bands?: unknown }).bands } };
    },
    expect: adminOnly(200),
  },
  'POST /api/grading-scales/:level/preview/': {
    req: () => ({ url: '/api/grading-scales/JSS/preview/', payload: { bands: [{ grade: 'A', min: 0, remark: 'Pass' }] } }),
    expect: adminOnly(200),
  },
  'GET /api/assessment-schemes/': { req: () => ({ url: '/api/assessment-schemes/' }), expect: signedIn(200) },
  'PUT /api/assessment-schemes/:level/': {
    // A session of its own per request, so the admin's save needs no confirmation and touches no other row.
    req: async ({ ctx }) => {
      const year = 2500 + schemeSessions++;
      const session = await createSession(ctx.handle.db, `${year}/${year + 1}`);
      return { url: '/api/assessment-schemes/SSS/', payload: { session_id: session.id, components: SCHEME_PRESETS[0]!.components } };
    },
    expect: adminOnly(200),
  },
  'POST /api/assessment-schemes/:level/preview/': {
    req: () => ({ url: '/api/assessment-schemes/JSS/preview/', payload: { components: SCHEME_PRESETS[0]!.components } }),
    expect: adminOnly(200),
  },
  // JSS 2A's term is unpublished by an earlier row: its unreleased cards are its form teacher's (the
  // cast's staff) and the admin's, not the bursar's (its own block below has every case).
  'GET /api/report-card/': {
    req: ({ c, t }) => ({ url: `/api/report-card/?${card(c, t)}` }),
    expect: { ...ownOnly(200, 403), bursar: 403 },
  },
  'GET /api/report-card/pdf/': {
    req: ({ c, t }) => ({ url: `/api/report-card/pdf/?${card(c, t)}` }),
    expect: { ...ownOnly(200, 403), bursar: 403 },
  },
  'GET /api/report-cards/': {
    req: ({ c, t }) => ({ url: `/api/report-cards/?${term(c, t)}` }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },
  'GET /api/report-cards/pdf/': {
    req: ({ c, t }) => ({ url: `/api/report-cards/pdf/?${term(c, t)}` }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },
  // The stored report-card PDFs' size (decision 050): the admin's.
  'GET /api/report-card-pdfs/storage/': { req: () => ({ url: '/api/report-card-pdfs/storage/' }), expect: adminOnly(200) },
  // Cards opened regardless of fees (decision 042): a fresh student per request, so each opening is a new one.
  'POST /api/report-card/fee-releases/': {
    req: async ({ ctx, c }) => {
      const s = await newStudentRecord(ctx);
      return {
        url: '/api/report-card/fee-releases/',
        payload: { admission_number: s.admissionNumber, session_id: c.session.id, term: '1st', reason: 'Matrix check' },
      };
    },
    expect: bursarAndAdmin(201),
  },
  'GET /api/report-card/fee-releases/': {
    req: ({ c }) => ({ url: `/api/report-card/fee-releases/?session_id=${c.session.id}&term=1st` }),
    expect: bursarAndAdmin(200),
  },
  'GET /api/broadsheet/': { req: ({ c, t }) => ({ url: `/api/broadsheet/?${term(c, t)}` }), expect: staffAndAdmin(200) },
  'GET /api/broadsheet/csv/': { req: ({ c, t }) => ({ url: `/api/broadsheet/csv/?${term(c, t)}` }), expect: staffAndAdmin(200) },
  // The class score grid (a JSS class: the default one-component scheme).
  'GET /api/score-sheet/': { req: ({ c, t }) => ({ url: `/api/score-sheet/?${sheet(c, t)}` }), expect: staffAndAdmin(200) },
  'PUT /api/score-sheet/': {
    req: async ({ ctx, c, t }) => ({
      url: '/api/score-sheet/',
      payload: {
        session_id: c.session.id,
        term: '1st',
        student_class: t.arm,
        subject: SUBJECTS[6],
        rows: [
          { admission_number: t.admissionNumber, components: { Score: 40 + (n++ % 50) }, version: await versionOf(ctx, t, SUBJECTS[6]) },
        ],
        reason: 'Matrix check',
      },
    }),
    expect: staffAndAdmin(200),
  },
  'GET /api/score-sheet/csv/': { req: ({ c, t }) => ({ url: `/api/score-sheet/csv/?${sheet(c, t)}` }), expect: staffAndAdmin(200) },
  'POST /api/score-sheet/import/': {
    req: ({ c, t }) => ({
      url: '/api/score-sheet/import/',
      payload: {
        session_id: c.session.id,
        term: '1st',
        student_class: t.arm,
        subject: SUBJECTS[0],
        csv: `admission_number,Score\n${t.admissionNumber},55\n`,
        dry_run: true,
      },
    }),
    expect: staffAndAdmin(200),
  },

  // ---------- report card sheets (the cast's staff is the form teacher of JSS 2A; see the block below for others) ----------
  'GET /api/report-settings/': { req: () => ({ url: '/api/report-settings/' }), expect: staffAndAdmin(200) },
  'PUT /api/report-settings/': { req: () => ({ url: '/api/report-settings/', payload: DEFAULT_REPORT_SETTINGS }), expect: adminOnly(200) },
  'GET /api/report-terms/': { req: ({ c }) => ({ url: `/api/report-terms/?session_id=${c.session.id}` }), expect: staffAndAdmin(200) },
  'PUT /api/report-terms/': {
    req: ({ c }) => ({
      url: '/api/report-terms/',
      payload: { session_id: c.session.id, term: '2nd', next_term_begins: '2026-04-27', times_opened: 100 },
    }),
    expect: adminOnly(200),
  },
  'GET /api/class-ratings/': {
    req: ({ c, t }) => ({ url: `/api/class-ratings/?${cardSheet(c, t)}` }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },
  'PUT /api/class-ratings/': {
    req: async ({ ctx, c, t }) => ({
      url: '/api/class-ratings/',
      payload: {
        ...cardSheetBody(c, t),
        rows: [{ admission_number: t.admissionNumber, ratings: { neatness: 1 + (n++ % 5) }, version: await entryVersion(ctx, c, t) }],
      },
    }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },
  'GET /api/class-comments/': {
    req: ({ c, t }) => ({ url: `/api/class-comments/?${cardSheet(c, t)}` }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },
  'PUT /api/class-comments/': {
    req: async ({ ctx, c, t }) => ({
      url: '/api/class-comments/',
      payload: {
        ...cardSheetBody(c, t),
        rows: [{ admission_number: t.admissionNumber, form_comment: `Matrix ${uniq()}`, version: await entryVersion(ctx, c, t) }],
      },
    }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },
  'POST /api/class-comments/suggestions/': {
    req: ({ c, t }) => ({ url: '/api/class-comments/suggestions/', payload: { ...cardSheetBody(c, t), kind: 'form', overwrite: true } }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },

  // ---------- attendance (no term dates here: a date is outside any term; the cast's staff is JSS 2A's form teacher) ----------
  'GET /api/current-term/': { req: () => ({ url: '/api/current-term/' }), expect: signedIn(200) },
  'GET /api/attendance/calendar/': {
    req: ({ c }) => ({ url: `/api/attendance/calendar/?session_id=${c.session.id}` }),
    expect: staffAndAdmin(200),
  },
  'PUT /api/attendance/settings/': {
    req: () => ({ url: '/api/attendance/settings/', payload: { periods_per_day: 1, saturday_classes: false } }),
    expect: adminOnly(200),
  },
  'PUT /api/attendance/terms/': {
    req: ({ c }) => ({
      url: '/api/attendance/terms/',
      payload: { session_id: c.session.id, term: '3rd', starts_on: '2040-04-27', ends_on: '2040-07-24' },
    }),
    expect: adminOnly(200),
  },
  'POST /api/attendance/events/': {
    req: () => ({
      url: '/api/attendance/events/',
      payload: { name: `Holiday ${uniq()}`, kind: 'holiday', starts_on: '2041-01-01', ends_on: '2041-01-01' },
    }),
    expect: adminOnly(201),
  },
  'DELETE /api/attendance/events/:id/': {
    req: async ({ ctx }) => {
      const row = await ctx.handle.db
        .insertInto('calendar_events')
        .values({
          name: 'Matrix',
          kind: 'holiday',
          starts_on: '2041-02-02',
          ends_on: '2041-02-02',
          created_by: null,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { url: `/api/attendance/events/${row.id}/` };
    },
    expect: adminOnly(204),
  },
  'GET /api/attendance/register/': {
    req: ({ t }) => ({ url: `/api/attendance/register/?${q({ student_class: t.arm, date: '2025-10-08' })}` }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },
  'PUT /api/attendance/register/': {
    req: ({ t }) => ({
      url: '/api/attendance/register/',
      payload: {
        student_class: t.arm,
        date: '2025-10-08',
        marks: [{ admission_number: t.admissionNumber, status: 'present' }],
        version: 0,
      },
    }),
    // Past the role and form-teacher checks, the date is outside any term: 400.
    expect: { anon: 401, own: 403, other: 403, staff: 400, bursar: 403, admin: 400 },
  },
  'GET /api/attendance/month/': {
    req: ({ t }) => ({ url: `/api/attendance/month/?${q({ student_class: t.arm, month: '2025-10' })}` }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },
  'GET /api/attendance/student/': {
    // A student always gets their own (the admission number is ignored).
    req: ({ t }) => ({ url: `/api/attendance/student/?admission_number=${t.admissionNumber}` }),
    // The bursar is no form teacher.
    expect: { ...signedIn(200), bursar: 403 },
  },
  'GET /api/attendance/absent/': { req: () => ({ url: '/api/attendance/absent/' }), expect: adminOnly(200) },
  'GET /api/attendance/totals/': {
    req: ({ c, t }) => ({ url: `/api/attendance/totals/?${term(c, t)}` }),
    expect: { ...staffAndAdmin(200), bursar: 403 },
  },
  'POST /api/attendance/carried/import/': {
    req: ({ c, t }) => ({
      url: '/api/attendance/carried/import/',
      payload: { session_id: c.session.id, term: '1st', csv: `admission_number,days_present,days_absent\n${t.admissionNumber},1,1\n` },
    }),
    expect: adminOnly(200),
  },

  // ---------- payments ----------
  'POST /api/payments/initiate/': {
    req: ({ c, t }) => ({ url: '/api/payments/initiate/', payload: paymentBody(t, t.arm, c.session.name) }),
    expect: ownOnly(200, 403),
  },
  'POST /api/payments/verify/': {
    req: ({ c, actor }) => ({
      url: '/api/payments/verify/',
      payload: { reference: actor === 'own' ? c.references.own : c.references.other },
    }),
    expect: ownOnly(200, 403),
  },
  'GET /api/payments/history/': {
    req: ({ t }) => ({ url: `/api/payments/history/?${q({ admission_number: t.admissionNumber })}` }),
    expect: ownOnly(200, 403),
  },
  'GET /api/payments/report/': {
    req: ({ t }) => ({ url: `/api/payments/report/?${q({ class: t.arm })}` }),
    expect: staffAndAdmin(200),
  },
  'GET /api/payments/report/summary/': {
    req: ({ t }) => ({ url: `/api/payments/report/summary/?${q({ class: t.arm })}` }),
    expect: staffAndAdmin(200),
  },
  'GET /api/payments/report/csv/': {
    req: ({ t }) => ({ url: `/api/payments/report/csv/?${q({ class: t.arm })}` }),
    expect: staffAndAdmin(200),
  },
  'GET /api/payments/context/': { req: () => ({ url: '/api/payments/context/' }), expect: signedIn(200) },
  'GET /api/payments/receipt/:reference/': {
    req: ({ c, actor }) => ({ url: `/api/payments/receipt/${actor === 'own' ? c.references.own : c.references.other}/` }),
    expect: ownOnly(200, 403),
  },
  'GET /api/payments/receipt/:reference/pdf/': {
    req: ({ c, actor }) => ({ url: `/api/payments/receipt/${actor === 'own' ? c.references.own : c.references.other}/pdf/` }),
    expect: ownOnly(200, 403),
  },
  'GET /api/payments/fee-schedules/': { req: () => ({ url: '/api/payments/fee-schedules/' }), expect: signedIn(200) },
  'POST /api/payments/fee-schedules/': {
    req: ({ c }) => ({
      url: '/api/payments/fee-schedules/',
      payload: {
        student_class: 'SSS 3A',
        session_id: c.session.id,
        term: '2nd',
        amount: '20000',
        description: 'Tuition',
        name: `Tuition ${uniq()}`,
      },
    }),
    expect: bursarAndAdmin(201),
  },
  'PUT /api/payments/fee-schedules/:id/': {
    req: ({ c }) => ({ url: `/api/payments/fee-schedules/${c.feeScheduleId}/`, payload: { amount: '16000', description: 'Tuition' } }),
    expect: bursarAndAdmin(200),
  },
  'DELETE /api/payments/fee-schedules/:id/': {
    req: async ({ ctx, c }) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/fee-schedules/',
        headers: c.admin.auth,
        payload: { student_class: 'SSS 2A', session_id: c.session.id, term: '3rd', amount: '1000', description: uniq() },
      });
      // A second create of the same class/term may conflict: fall back to the existing one.
      const id = res.statusCode < 300 ? res.json().id : c.feeScheduleId;
      return { url: `/api/payments/fee-schedules/${id}/` };
    },
    expect: bursarAndAdmin(204),
  },
  'GET /api/payments/provider/': { req: () => ({ url: '/api/payments/provider/' }), expect: signedIn(200) },
  // The simulator's checkout: the payer (the student, or who started it) or an admin; staff
  // here act on a payment someone else started.
  'GET /api/payments/simulator/:code/': {
    req: ({ c, actor }) => ({ url: `/api/payments/simulator/${actor === 'own' ? c.accessCodes.own : c.accessCodes.other}/` }),
    expect: { ...ownOnly(200, 403), staff: 403 },
  },
  'POST /api/payments/simulator/:code/': {
    // A fresh pending checkout each time, started by the student it is for: 200 is a real payment.
    req: async ({ ctx, c, actor }) => {
      const who = actor === 'own' ? c.student : c.other;
      const started = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/initiate/',
        headers: who.auth,
        payload: paymentBody(who, actor === 'own' ? 'JSS 1A' : 'JSS 2A', c.session.name),
      });
      return { url: `/api/payments/simulator/${started.json().data.access_code}/`, payload: { outcome: 'pay' } };
    },
    expect: { ...ownOnly(200, 403), staff: 403 },
  },
  'POST /api/payments/fee-items/bulk/': {
    req: ({ c }) => ({
      url: '/api/payments/fee-items/bulk/',
      payload: { session_id: c.session.id, term: '3rd', classes: ['SSS 1A', 'SSS 1B'], items: [{ name: 'PTA levy', amount: '2500' }] },
    }),
    expect: bursarAndAdmin(200),
  },
  'POST /api/payments/fee-items/copy/': {
    req: ({ c }) => ({
      url: '/api/payments/fee-items/copy/',
      payload: { from_session_id: c.session.id, from_term: '1st', to_session_id: c.session.id, to_term: '2nd', classes: ['JSS 1A'] },
    }),
    expect: bursarAndAdmin(200),
  },
  // ---------- the bursar's office: the admin grants the capability; the bursar (or the admin) keeps the books ----------
  'GET /api/staff-capabilities/': { req: () => ({ url: '/api/staff-capabilities/' }), expect: adminOnly(200) },
  'PUT /api/staff-capabilities/:staff_id/': {
    req: ({ c }) => ({ url: `/api/staff-capabilities/${c.otherStaff.staffId}/`, payload: { capabilities: [] } }),
    expect: adminOnly(200),
  },
  'GET /api/me/capabilities/': { req: () => ({ url: '/api/me/capabilities/' }), expect: staffAndAdmin(200) },
  'POST /api/bursary/payments/': {
    req: ({ c, t }) => ({
      url: '/api/bursary/payments/',
      payload: {
        admission_number: t.admissionNumber,
        session_id: c.session.id,
        term: '1st',
        amount: '2000',
        method: 'bank_transfer',
        bank: 'Access Bank',
        bank_reference: `MX-${uniq()}`,
        paid_on: RECENT_DAY,
        // The bursar's choice of what the payment settles first (decision 041).
        allocation: 'current_first',
      },
    }),
    expect: bursarAndAdmin(201),
  },
  'POST /api/bursary/payments/:reference/reverse/': {
    // A fresh payment each time, recorded by the admin, so 201 is a real reversal.
    req: async ({ ctx, c, t }) => {
      const paid = await ctx.app.inject({
        method: 'POST',
        url: '/api/bursary/payments/',
        headers: c.admin.auth,
        payload: {
          admission_number: t.admissionNumber,
          session_id: c.session.id,
          term: null,
          amount: '1500',
          method: 'cash',
          paid_on: RECENT_DAY,
          // The same cash amount again that day: a deliberate second payment.
          confirm: true,
        },
      });
      return { url: `/api/bursary/payments/${paid.json().reference}/reverse/`, payload: { reason: 'Matrix check' } };
    },
    expect: bursarAndAdmin(201),
  },
  'GET /api/bursary/payments/': {
    req: ({ t }) => ({ url: `/api/bursary/payments/?${q({ admission_number: t.admissionNumber })}` }),
    expect: bursarAndAdmin(200),
  },
  'GET /api/bursary/payments/:reference/scan/': {
    req: ({ c }) => ({ url: `/api/bursary/payments/${c.offlineReference}/scan/` }),
    expect: bursarAndAdmin(200),
  },
  'GET /api/bursary/ledger.csv': { req: () => ({ url: '/api/bursary/ledger.csv?from=2025-01-01' }), expect: bursarAndAdmin(200) },
  // A student always gets their own statement (the admission number sent is ignored for them).
  'GET /api/bursary/statement/': {
    req: ({ t }) => ({ url: `/api/bursary/statement/?${q({ admission_number: t.admissionNumber })}` }),
    expect: { anon: 401, own: 200, other: 200, staff: 403, bursar: 200, admin: 200 },
  },
  // ---------- the bursar's reports (reports): debtors and collections ----------
  'GET /api/bursary/debtors/': {
    req: ({ c, t }) => ({ url: `/api/bursary/debtors/?${q({ session_id: c.session.id, student_class: t.arm, sort: 'name' })}` }),
    expect: bursarAndAdmin(200),
  },
  'GET /api/bursary/debtors.csv': {
    req: ({ c }) => ({ url: `/api/bursary/debtors.csv?${q({ session_id: c.session.id, level: 'JSS 1' })}` }),
    expect: bursarAndAdmin(200),
  },
  'GET /api/bursary/debtors.pdf': {
    req: ({ c, t }) => ({ url: `/api/bursary/debtors.pdf?${q({ session_id: c.session.id, student_class: t.arm })}` }),
    expect: bursarAndAdmin(200),
  },
  'GET /api/bursary/collections/': {
    req: ({ c }) => ({
      url: `/api/bursary/collections/?${q({ session_id: c.session.id, term: '1st', from: '2025-01-01', to: '2025-12-31' })}`,
    }),
    expect: bursarAndAdmin(200),
  },
  // ---------- reported transfers: the student reports their own; the bursar decides ----------
  'POST /api/bursary/transfer-reports/': {
    req: ({ c }) => ({ url: '/api/bursary/transfer-reports/', payload: transferReportBody(c) }),
    expect: { anon: 401, own: 201, other: 201, staff: 403, bursar: 403, admin: 403 },
  },
  'GET /api/bursary/transfer-reports/mine/': {
    req: () => ({ url: '/api/bursary/transfer-reports/mine/' }),
    expect: { anon: 401, own: 200, other: 200, staff: 403, bursar: 403, admin: 403 },
  },
  'GET /api/bursary/transfer-reports/': {
    req: () => ({ url: '/api/bursary/transfer-reports/?status=to_confirm' }),
    expect: bursarAndAdmin(200),
  },
  // A fresh waiting report of the target each time, so 200 is a real decision.
  'POST /api/bursary/transfer-reports/:id/confirm/': {
    req: async ({ ctx, c, t }) => ({ url: `/api/bursary/transfer-reports/${await waitingReport(ctx, c, t)}/confirm/`, payload: {} }),
    expect: bursarAndAdmin(200),
  },
  'POST /api/bursary/transfer-reports/:id/reject/': {
    req: async ({ ctx, c, t }) => ({
      url: `/api/bursary/transfer-reports/${await waitingReport(ctx, c, t)}/reject/`,
      payload: { reason: 'Matrix check' },
    }),
    expect: bursarAndAdmin(200),
  },
  // The slip: its reporter and the bursar; another student hears it does not exist.
  'GET /api/bursary/transfer-reports/:id/scan/': {
    req: async ({ ctx, c, t }) => ({ url: `/api/bursary/transfer-reports/${await waitingReport(ctx, c, t)}/scan/` }),
    expect: { anon: 401, own: 200, other: 404, staff: 403, bursar: 200, admin: 200 },
  },
  // ---------- discounts and scholarships: the bursar or the admin; a student never, not even their own ----------
  'GET /api/bursary/discounts/': {
    req: ({ t }) => ({ url: `/api/bursary/discounts/?${q({ admission_number: t.admissionNumber, include_revoked: 'true' })}` }),
    expect: bursarAndAdmin(200),
  },
  'POST /api/bursary/discounts/': {
    req: ({ c }) => ({ url: '/api/bursary/discounts/', payload: discountBody(c) }),
    expect: bursarAndAdmin(201),
  },
  'POST /api/bursary/discounts/:id/revoke/': {
    // A fresh discount each time, given by the admin, so 200 is a real revoke.
    req: async ({ ctx, c }) => {
      const given = await ctx.app.inject({
        method: 'POST',
        url: '/api/bursary/discounts/',
        headers: c.admin.auth,
        payload: discountBody(c),
      });
      return { url: `/api/bursary/discounts/${given.json().id}/revoke/`, payload: { reason: 'Matrix check' } };
    },
    expect: bursarAndAdmin(200),
  },
  // ---------- the list of banks: everyone signed in reads it (the forms offer it); the admin adds one ----------
  'GET /api/bursary/banks/': { req: () => ({ url: '/api/bursary/banks/' }), expect: signedIn(200) },
  'POST /api/bursary/banks/': {
    req: () => ({ url: '/api/bursary/banks/', payload: { code: String(700000 + (n++ % 99999)), name: `Matrix Bank ${uniq()}` } }),
    expect: adminOnly(201),
  },
  'GET /api/bursary/reference-reviews/': { req: () => ({ url: '/api/bursary/reference-reviews/' }), expect: bursarAndAdmin(200) },
  // ---------- teaching structure: lists for everyone signed in, the structure for staff, changes for the admin ----------
  'GET /api/classes/': { req: () => ({ url: '/api/classes/' }), expect: signedIn(200) },
  'POST /api/classes/': { req: () => ({ url: '/api/classes/', payload: { level: 'SSS 3', arm: `M${uniq()}` } }), expect: adminOnly(201) },
  'PATCH /api/classes/:id/': { req: () => ({ url: '/api/classes/1/', payload: { retired: false } }), expect: adminOnly(200) },
  'GET /api/subjects/': { req: () => ({ url: '/api/subjects/' }), expect: signedIn(200) },
  'POST /api/subjects/': {
    req: () => ({ url: '/api/subjects/', payload: { name: `Subject ${uniq()}`, code: `S${uniq().slice(-8)}`, section: 'SSS' } }),
    expect: adminOnly(201),
  },
  'PATCH /api/subjects/:id/': { req: () => ({ url: '/api/subjects/1/', payload: { retired: false } }), expect: adminOnly(200) },
  'GET /api/teaching/structure/': { req: () => ({ url: '/api/teaching/structure/' }), expect: staffAndAdmin(200) },
  'PUT /api/teaching/offerings/:level/': {
    req: () => ({ url: '/api/teaching/offerings/SSS%203/', payload: { subjects: [{ subject_id: 1, compulsory: true }] } }),
    expect: adminOnly(200),
  },
  'PUT /api/teaching/subjects/:id/offerings/': {
    req: () => ({ url: '/api/teaching/subjects/1/offerings/', payload: { offering: 'compulsory', levels: ['JSS 1', 'JSS 2'] } }),
    expect: adminOnly(200),
  },
  'POST /api/teaching/streams/': { req: () => ({ url: '/api/teaching/streams/', payload: streamBody() }), expect: adminOnly(201) },
  'PUT /api/teaching/streams/:id/': {
    req: async ({ ctx, c }) => ({ url: `/api/teaching/streams/${await freshStreamId(ctx, c)}/`, payload: streamBody() }),
    expect: adminOnly(200),
  },
  'DELETE /api/teaching/streams/:id/': {
    req: async ({ ctx, c }) => ({ url: `/api/teaching/streams/${await freshStreamId(ctx, c)}/` }),
    expect: adminOnly(204),
  },
  'GET /api/teaching/students/:admission_number/subjects/': {
    req: ({ t }) => ({ url: `/api/teaching/students/${t.admissionNumber}/subjects/` }),
    expect: staffAndAdmin(200),
  },
  'PUT /api/teaching/students/:admission_number/subjects/': {
    req: ({ t }) => ({ url: `/api/teaching/students/${t.admissionNumber}/subjects/`, payload: { stream_id: null, add: [], drop: [] } }),
    expect: adminOnly(200),
  },
  'GET /api/teaching/assignments/': {
    req: ({ c }) => ({ url: `/api/teaching/assignments/?${q({ session_id: c.session.id })}` }),
    expect: adminOnly(200),
  },
  'PUT /api/teaching/assignments/': {
    req: ({ c }) => ({ url: '/api/teaching/assignments/', payload: assignmentBody(c) }),
    expect: adminOnly(200),
  },
  'PUT /api/teaching/form-teachers/': {
    req: ({ c }) => ({
      url: '/api/teaching/form-teachers/',
      payload: { session_id: c.session.id, arms: [{ arm_id: 1, staff_id: c.otherStaff.id }] },
    }),
    expect: adminOnly(200),
  },
  'POST /api/teaching/assignments/copy/': {
    // The admin copies into a new later session; the earlier one is given an assignment first.
    req: async ({ ctx, c, actor }) => {
      if (actor !== 'admin') return { url: '/api/teaching/assignments/copy/', payload: { session_id: c.session.id } };
      await ctx.app.inject({ method: 'PUT', url: '/api/teaching/assignments/', headers: c.admin.auth, payload: assignmentBody(c) });
      const next = await createSession(ctx.handle.db, `2026/2027-${uniq()}`);
      return { url: '/api/teaching/assignments/copy/', payload: { session_id: next.id } };
    },
    expect: adminOnly(200),
  },
  'PUT /api/teaching/windows/': {
    req: ({ c }) => ({ url: '/api/teaching/windows/', payload: { session_id: c.session.id, term: '3rd', class_level: '', is_open: true } }),
    expect: adminOnly(200),
  },
  'PUT /api/teaching/enforcement/': {
    req: ({ c }) => ({ url: '/api/teaching/enforcement/', payload: { session_id: c.session.id, enforce_assignments: false } }),
    expect: adminOnly(200),
  },
  'GET /api/teaching/my-classes/': { req: () => ({ url: '/api/teaching/my-classes/' }), expect: staffAndAdmin(200) },
  // Public, authenticated by its HMAC signature instead: an unsigned call is refused for everyone.
  'POST /api/payments/webhook/': {
    req: () => ({ url: '/api/payments/webhook/', headers: { 'content-type': 'application/json' }, payload: '{"event":"charge.success"}' }),
    expect: everyone(401),
  },
  // ---------- parents (issue 33) ----------
  'POST /api/parent/login/': {
    req: () => ({ url: '/api/parent/login/', payload: { email: matrixPhone(), password: TEST_PASSWORD } }),
    expect: everyone(401),
  },
  // A parent's own home: no other role reaches it (the parents' block below signs a parent in).
  'GET /api/parent/children/': { req: () => ({ url: '/api/parent/children/' }), expect: { ...adminOnly(403), admin: 403 } },
  'GET /api/parents/': { req: () => ({ url: '/api/parents/?search=Matrix' }), expect: adminOnly(200) },
  // ---------- dashboards (issue 36) ----------
  // The student dashboard: a student their own (another's number refused), a parent a linked child, the admin any; staff never.
  'GET /api/dashboards/student/': {
    req: ({ t }) => ({ url: `/api/dashboards/student/?${q({ student: t.admissionNumber })}` }),
    expect: { anon: 401, own: 200, other: 403, staff: 403, admin: 200 },
  },
  'GET /api/parents/conflicts/': { req: () => ({ url: '/api/parents/conflicts/' }), expect: adminOnly(200) },
  'GET /api/parents/:id/': {
    req: async ({ ctx, c }) => ({ url: `/api/parents/${(await castParent(ctx, c)).id}/` }),
    expect: adminOnly(200),
  },
  'POST /api/parents/': {
    req: () => ({ url: '/api/parents/', payload: { name: 'New Parent', phone: matrixPhone() } }),
    expect: adminOnly(201),
  },
  'POST /api/parents/:id/links/': {
    req: async ({ ctx, c }) => ({
      url: `/api/parents/${(await castParent(ctx, c)).id}/links/`,
      payload: { admission_number: c.other.admissionNumber, relationship: 'guardian' },
    }),
    expect: adminOnly(201),
  },
  'DELETE /api/parents/:id/links/:admission_number/': {
    // Linked first (by the admin), so the admin's call removes a link that exists.
    req: async ({ ctx, c }) => {
      const { id } = await castParent(ctx, c);
      const s = await newStudentRecord(ctx);
      await ctx.app.inject({
        method: 'POST',
        url: `/api/parents/${id}/links/`,
        headers: c.admin.auth,
        payload: { admission_number: s.admissionNumber, relationship: 'mother' },
      });
      return { url: `/api/parents/${id}/links/${s.admissionNumber}/` };
    },
    expect: adminOnly(204),
  },
  // Nothing open to settle: the admin hears 404; everyone else is refused before.
  'POST /api/parents/conflicts/resolve/': {
    req: ({ c }) => ({
      url: '/api/parents/conflicts/resolve/',
      payload: { phone: matrixPhone(), admission_number: c.other.admissionNumber, action: 'dismiss' },
    }),
    expect: adminOnly(404),
  },
  'POST /api/parents/invitations/': {
    req: () => ({ url: '/api/parents/invitations/', payload: { arm: 'JSS 2A' } }),
    expect: adminOnly(200),
  },
  'POST /api/parents/invitations/pdf/': {
    req: () => ({ url: '/api/parents/invitations/pdf/', payload: { arm: 'JSS 2A' } }),
    expect: adminOnly(200),
  },
  'POST /api/parents/backfill/': { req: () => ({ url: '/api/parents/backfill/', payload: {} }), expect: adminOnly(200) },
  // Notices (issue 33, docs/decisions/036): every account's inbox and preferences; the admin's settings and log.
  'GET /api/notices/': { req: () => ({ url: '/api/notices/' }), expect: signedIn(200) },
  // Nobody reaches a notice that is not theirs: an id of no notice of theirs is 404 for everyone signed in.
  'POST /api/notices/:id/read/': { req: () => ({ url: '/api/notices/999999/read/' }), expect: signedIn(404) },
  'GET /api/notice-preferences/': { req: () => ({ url: '/api/notice-preferences/' }), expect: signedIn(200) },
  'PUT /api/notice-preferences/': {
    req: () => ({ url: '/api/notice-preferences/', payload: { kinds: [{ kind: 'custom', opted_out: false }] } }),
    expect: signedIn(200),
  },
  'GET /api/notice-settings/': { req: () => ({ url: '/api/notice-settings/' }), expect: adminOnly(200) },
  'PUT /api/notice-settings/': { req: () => ({ url: '/api/notice-settings/', payload: DEFAULT_NOTICE_SETTINGS }), expect: adminOnly(200) },
  'GET /api/notice-messages/': { req: () => ({ url: '/api/notice-messages/' }), expect: adminOnly(200) },
  // Public, verified by NOTICE_WEBHOOK_SECRET instead; the matrix's app has none, so it is not there.
  'POST /api/notices/delivery/:provider/': {
    req: () => ({ url: '/api/notices/delivery/fake/', headers: { 'content-type': 'application/json' }, payload: '{}' }),
    expect: everyone(404),
  },

  // ---------- notice templates, reminders and blasts (notices-product, decision record 037) ----------
  'GET /api/notice-templates/': { req: () => ({ url: '/api/notice-templates/' }), expect: adminOnly(200) },
  'PUT /api/notice-templates/:kind/': {
    req: () => ({ url: '/api/notice-templates/custom/', payload: DEFAULT_NOTICE_TEMPLATES.custom }),
    expect: adminOnly(200),
  },
  'GET /api/notice-reminders/': { req: () => ({ url: '/api/notice-reminders/' }), expect: adminOnly(200) },
  'PUT /api/notice-reminders/': {
    req: () => ({ url: '/api/notice-reminders/', payload: { days_after_due: [7, 30] } }),
    expect: adminOnly(200),
  },
  'POST /api/notice-blasts/estimate/': {
    req: () => ({ url: '/api/notice-blasts/estimate/', payload: BLAST_BODY }),
    expect: adminOnly(200),
  },
  'POST /api/notice-blasts/': {
    req: async ({ ctx, c, actor }) => {
      if (actor === 'admin') await addParent(ctx.handle.db, { name: 'Matrix Parent', studentIds: [c.student.id] });
      return { url: '/api/notice-blasts/', payload: BLAST_BODY };
    },
    expect: adminOnly(201),
  },
  'GET /api/notice-blasts/': { req: () => ({ url: '/api/notice-blasts/' }), expect: adminOnly(200) },
  'GET /api/notice-blasts/:id/': {
    req: async ({ ctx, c }) => ({ url: `/api/notice-blasts/${await freshBlast(ctx, c.admin.auth, c.student.id)}/` }),
    expect: adminOnly(200),
  },
  'POST /api/notice-blasts/:id/pause/': {
    req: async ({ ctx, c }) => ({ url: `/api/notice-blasts/${await freshBlast(ctx, c.admin.auth, c.student.id)}/pause/` }),
    expect: adminOnly(200),
  },
  'POST /api/notice-blasts/:id/resume/': {
    req: async ({ ctx, c }) => ({ url: `/api/notice-blasts/${await freshBlast(ctx, c.admin.auth, c.student.id, 'paused')}/resume/` }),
    expect: adminOnly(200),
  },
  'POST /api/notice-blasts/:id/cancel/': {
    req: async ({ ctx, c }) => ({ url: `/api/notice-blasts/${await freshBlast(ctx, c.admin.auth, c.student.id)}/cancel/` }),
    expect: adminOnly(200),
  },

  // ---------- end-of-session promotion (issue 34, decision record 039): the admin's only ----------
  // The admin's writes are refused by validation (a session that does not exist, a student already in the arm), so the
  // matrix's school is never promoted; the preview reads into a session made for it.
  'GET /api/promotion/preview/': {
    req: async ({ ctx, c }) => ({
      url: `/api/promotion/preview/?from_session_id=${c.session.id}&to_session_id=${await matrixNextSession(ctx)}&arm=JSS%201A`,
    }),
    expect: adminOnly(200),
  },
  'POST /api/promotion/preview/': {
    req: async ({ ctx, c }) => ({
      url: '/api/promotion/preview/',
      payload: { from_session_id: c.session.id, to_session_id: await matrixNextSession(ctx), arm: 'JSS 1A' },
    }),
    expect: adminOnly(200),
  },
  'POST /api/promotion/runs/': {
    req: ({ c }) => ({ url: '/api/promotion/runs/', payload: { from_session_id: c.session.id, to_session_id: 999_999 } }),
    expect: adminOnly(400),
  },
  'GET /api/promotion/runs/': { req: () => ({ url: '/api/promotion/runs/' }), expect: adminOnly(200) },
  'GET /api/promotion/runs/:id/': { req: () => ({ url: '/api/promotion/runs/999999/' }), expect: adminOnly(404) },
  'POST /api/promotion/runs/:id/undo/': { req: () => ({ url: '/api/promotion/runs/999999/undo/', payload: {} }), expect: adminOnly(404) },
  'POST /api/promotion/moves/': {
    req: ({ t }) => ({ url: '/api/promotion/moves/', payload: { admission_number: t.admissionNumber, to_arm: t.arm, reason: 'Matrix' } }),
    expect: adminOnly(400),
  },
  // Result-checker PINs (decision 043): batches for the admin, lists and sales for the bursar too;
  // the check is public (its setting is off in the cast: a bad body is a 400 for every caller).
  'POST /api/result-pins/batches/': {
    req: ({ c }) => ({ url: '/api/result-pins/batches/', payload: { session_id: c.session.id, term: '1st', count: 2 } }),
    expect: adminOnly(201),
  },
  'GET /api/result-pins/batches/': { req: () => ({ url: '/api/result-pins/batches/' }), expect: bursarAndAdmin(200) },
  'GET /api/result-pins/batches/:id/': {
    req: async ({ ctx, c }) => ({ url: `/api/result-pins/batches/${(await freshPinBatch(ctx, c)).id}/` }),
    expect: bursarAndAdmin(200),
  },
  'GET /api/result-pins/batches/:id/pins/': {
    req: async ({ ctx, c }) => ({ url: `/api/result-pins/batches/${(await freshPinBatch(ctx, c)).id}/pins/?state=unused` }),
    expect: bursarAndAdmin(200),
  },
  'POST /api/result-pins/batches/:id/sold/': {
    req: async ({ ctx, c }) => {
      const b = await freshPinBatch(ctx, c);
      return { url: `/api/result-pins/batches/${b.id}/sold/`, payload: { serials: [b.serial], price: 300 } };
    },
    expect: bursarAndAdmin(200),
  },
  'POST /api/result-pins/batches/:id/seal/': {
    req: async ({ ctx, c }) => ({ url: `/api/result-pins/batches/${(await freshPinBatch(ctx, c)).id}/seal/`, payload: {} }),
    expect: adminOnly(200),
  },
  'GET /api/result-pins/batches/:id/sheet.pdf': {
    req: async ({ ctx, c }) => ({ url: `/api/result-pins/batches/${(await freshPinBatch(ctx, c)).id}/sheet.pdf` }),
    expect: adminOnly(200),
  },
  'GET /api/result-pins/batches/:id/cards.csv': {
    req: async ({ ctx, c }) => ({ url: `/api/result-pins/batches/${(await freshPinBatch(ctx, c)).id}/cards.csv` }),
    expect: adminOnly(200),
  },
  'GET /api/check-result/options/': { req: () => ({ url: '/api/check-result/options/' }), expect: everyone(200) },
  'POST /api/check-result/': {
    req: ({ c, t }) => ({
      url: '/api/check-result/',
      payload: { admission_number: t.admissionNumber, pin: '12', session_id: c.session.id, term: '1st' },
    }),
    expect: everyone(400),
  },
  'GET /api/check-result/pdf/': { req: () => ({ url: '/api/check-result/pdf/?token=not-a-link' }), expect: everyone(400) },
  // ---------- dashboards (issue 36): the bursar's (capability), the staff's (each their own arms) ----------
  'GET /api/dashboards/bursar/': { req: () => ({ url: '/api/dashboards/bursar/' }), expect: bursarAndAdmin(200) },
  'GET /api/dashboards/staff/': { req: () => ({ url: '/api/dashboards/staff/' }), expect: staffAndAdmin(200) },
  // Dashboards (issue 36, decision 046): each home's figures, one endpoint per role.
  'GET /api/dashboards/admin/': { req: ({ c }) => ({ url: `/api/dashboards/admin/?session_id=${c.session.id}&term=1st` }), expect: adminOnly(200) },
};

/** The session after the matrix's, made once: the promotion preview reads into it. */
async function matrixNextSession(ctx: TestContext): Promise<number> {
  const found = await ctx.handle.db.selectFrom('academic_sessions').select('id').where('name', '=', '2098/2099').executeTakeFirst();
  return found ? found.id : (await createSession(ctx.handle.db, '2098/2099')).id;
}

/** A new PIN batch of one card (the admin's), for a route that acts on a batch: its id and the card's serial. */
async function freshPinBatch(ctx: TestContext, c: Cast): Promise<{ id: number; serial: string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/result-pins/batches/',
    headers: c.admin.auth,
    payload: { session_id: c.session.id, term: null, count: 1 },
  });
  if (res.statusCode !== 201) throw new Error(`PIN batch: ${res.statusCode} ${res.body}`);
  const id = res.json<{ id: number }>().id;
  return { id, serial: `${String(id).padStart(4, '0')}-00001` };
}

/** A hung request (e.g. a transaction waiting on itself) fails the matrix instead of hanging it. */
async function withTimeout<T>(p: Promise<T>, what: string, ms = 8000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The operator's token for /metrics in the matrix's app: every signed-in caller still gets 401. */
const MATRIX_METRICS_TOKEN = 'matrix-operator-token-0123456789abcdef';

describeEachDatabase('authorization matrix', (dialect) => {
  let ctx: TestContext;
  let c: Cast;
  withCast(dialect, (s) => ({ ctx, c } = s), { metricsToken: MATRIX_METRICS_TOKEN });

  it('every /api route has an entry (add one for each new route)', () => {
    const keys = routeTable(ctx.app).map((r) => `${r.method} ${r.url}`);
    const missing = keys.filter((k) => !(k in MATRIX));
    expect(missing, 'routes without an authorization-matrix entry').toEqual([]);
    const stale = Object.keys(MATRIX).filter((k) => !keys.includes(k));
    expect(stale, 'matrix entries for routes that no longer exist').toEqual([]);
  });

  it('every route x caller answers as the matrix says, and no student ever sees another student', async () => {
    const failures: string[] = [];
    const headersOf = (actor: Actor): Record<string, string> =>
      actor === 'anon'
        ? {}
        : actor === 'staff'
          ? c.staff.auth
          : actor === 'bursar'
            ? c.bursar.auth
            : actor === 'admin'
              ? c.admin.auth
              : c.student.auth;
    const signInAgain = async (actor: Actor): Promise<Record<string, string>> => {
      if (actor === 'anon') return {};
      const who: SignedIn = actor === 'staff' ? c.staff : actor === 'bursar' ? c.bursar : actor === 'admin' ? c.admin : c.student;
      const role = actor === 'staff' || actor === 'bursar' ? 'staff' : actor === 'admin' ? 'admin' : 'student';
      return { authorization: `Bearer ${(await login(ctx.app, role, who.email)).json().data.access}` };
    };
    const targetOf = (actor: Actor): Target =>
      actor === 'own'
        ? { admissionNumber: c.student.admissionNumber, id: c.student.id, email: c.student.email, arm: 'JSS 1A' }
        : { admissionNumber: c.other.admissionNumber, id: c.other.id, email: c.other.email, arm: 'JSS 2A' };

    for (const route of routeTable(ctx.app)) {
      const key = `${route.method} ${route.url}`;
      const entry = MATRIX[key];
      if (!entry) continue; // reported by the test above
      for (const actor of ACTORS) {
        const t = targetOf(actor);
        // No way to skip a route here: a row that cannot pass must be fixed, never left out.
        const req = await entry.req({ actor, c, ctx, t, fresh: () => signInAgain(actor) });
        const res = await withTimeout(
          ctx.app.inject({
            ...req,
            method: route.method,
            headers: { ...headersOf(actor), ...(req.headers as Record<string, string> | undefined) },
          } as InjectOptions),
          `${key} as ${actor}`,
        );
        const want = actor === 'bursar' ? (entry.expect.bursar ?? entry.expect.staff) : entry.expect[actor];
        if (res.statusCode !== want) failures.push(`${key} as ${actor}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
        // Whatever the status: no password hash ever leaves the server, and a student's answer
        // never carries another student's admission number or email.
        if (res.body.includes('$argon2')) failures.push(`${key} as ${actor}: password hash in the response`);
        if ((actor === 'own' || actor === 'other') && res.statusCode < 300) {
          const leak = [c.other.admissionNumber, c.other.email].find((s) => res.body.includes(s));
          if (leak) failures.push(`${key} as ${actor}: response contains another student's ${leak}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('the rows of the routes that name a student read the access scope: whom each caller reaches is what the row expects', async () => {
    const scope = accessScope(ctx.handle.db);
    const callers: Record<Exclude<Actor, 'anon'>, ScopeActor> = {
      own: { id: c.student.userId, role: 'student' },
      other: { id: c.student.userId, role: 'student' },
      staff: { id: c.staff.userId, role: 'staff' },
      // The guard sets `capable` on the bursar's routes for the capability's holders.
      bursar: { id: c.bursar.userId, role: 'staff', capable: true },
      admin: { id: c.admin.userId, role: 'admin' },
    };
    const failures: string[] = [];
    for (const [key, { purpose, otherwise }] of Object.entries(SCOPED_ROUTES)) {
      const entry = MATRIX[key];
      if (!entry) {
        failures.push(`${key}: not in the matrix`);
        continue;
      }
      for (const [actor, caller] of Object.entries(callers) as [Exclude<Actor, 'anon'>, ScopeActor][]) {
        const target = actor === 'own' ? c.student : c.other;
        const reached = reaches(await scope.scopeOf(caller, purpose, c.session.id), {
          id: target.id,
          user_id: target.userId,
          student_class: actor === 'own' ? 'JSS 1A' : 'JSS 2A',
        });
        // Reached: the record; a student naming someone else: their own where the scope says `otherwise: 'own'`.
        const want = reached || (caller.role === 'student' && otherwise === 'own') ? 200 : 403;
        const row = actor === 'bursar' ? (entry.expect.bursar ?? entry.expect.staff) : entry.expect[actor];
        if (row !== want) failures.push(`${key} as ${actor}: the matrix expects ${row}, the scope (${purpose}) says ${want}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/**
 * The routes that name one student, with the access scope's purpose each asks for and what a
 * student naming another student gets (docs/decisions/026): refused, or their own record.
 */
const SCOPED_ROUTES: Record<string, { purpose: Purpose; otherwise: 'own' | 'refuse' }> = {
  'GET /api/students/:admission_number/': { purpose: 'records', otherwise: 'refuse' },
  'GET /api/results/': { purpose: 'records', otherwise: 'refuse' },
  'GET /api/results/terms/': { purpose: 'records', otherwise: 'refuse' },
  'POST /api/payments/initiate/': { purpose: 'records', otherwise: 'refuse' },
  'POST /api/payments/verify/': { purpose: 'records', otherwise: 'refuse' },
  'GET /api/payments/history/': { purpose: 'records', otherwise: 'refuse' },
  'GET /api/payments/receipt/:reference/': { purpose: 'records', otherwise: 'refuse' },
  'GET /api/payments/receipt/:reference/pdf/': { purpose: 'records', otherwise: 'refuse' },
  'GET /api/attendance/student/': { purpose: 'attendance', otherwise: 'own' },
  'GET /api/bursary/statement/': { purpose: 'statement', otherwise: 'own' },
};

/**
 * Broken object-level authorization probes: a student asking for another student's card,
 * statement, receipt, results, payments and attendance; a teacher asking for a student outside
 * their arms and subjects. Each answer is checked, and so is the scope's own word on the pair.
 */
describeEachDatabase('BOLA probes: another student, a teacher outside their arms', (dialect) => {
  let ctx: TestContext;
  let c: Cast;
  let teacher: SignedIn & { staffId: string; id: number };
  withCast(dialect, async (s) => {
    ({ ctx, c } = s);
    // A subject teacher of JSS 1A (Mathematics), form teacher of no arm.
    teacher = await signInStaff(ctx);
    await assign(ctx.handle.db, c.session.id, 'JSS 1A', SUBJECTS[0], teacher.id);
    // JSS 2A's term is not released: its cards are its teachers' and the admin's only.
    await ctx.handle.db.deleteFrom('result_publications').where('student_class', '=', 'JSS 2A').execute();
  });

  interface Probe {
    name: string;
    as: 'student' | 'teacher';
    url: (c: Cast) => string;
    method?: 'GET' | 'POST';
    payload?: (c: Cast) => Record<string, unknown>;
    purpose: Purpose;
    /** The student the request names. */
    target: 'other' | 'own';
    /** 403 with this message, or 200 with the caller's own record (the scope's `otherwise: 'own'`). */
    want: { refused: string } | 'own' | 200;
  }
  const one = (c: Cast, n: string) => q({ admission_number: n, session_id: c.session.id, term: '1st' });
  const PROBES: Probe[] = [
    // A student asking for another student's records.
    {
      name: 'card',
      as: 'student',
      url: (c) => `/api/report-card/?${one(c, c.other.admissionNumber)}`,
      purpose: 'records',
      target: 'other',
      want: { refused: AUTH_MESSAGES.ownRecordOnly },
    },
    {
      name: 'card PDF',
      as: 'student',
      url: (c) => `/api/report-card/pdf/?${one(c, c.other.admissionNumber)}`,
      purpose: 'records',
      target: 'other',
      want: { refused: AUTH_MESSAGES.ownRecordOnly },
    },
    {
      name: 'results',
      as: 'student',
      url: (c) => `/api/results/?${one(c, c.other.admissionNumber)}`,
      purpose: 'records',
      target: 'other',
      want: { refused: AUTH_MESSAGES.ownRecordOnly },
    },
    {
      name: 'profile',
      as: 'student',
      url: (c) => `/api/students/${c.other.admissionNumber}/`,
      purpose: 'records',
      target: 'other',
      want: { refused: AUTH_MESSAGES.ownRecordOnly },
    },
    {
      name: 'receipt',
      as: 'student',
      url: (c) => `/api/payments/receipt/${c.references.other}/`,
      purpose: 'records',
      target: 'other',
      want: { refused: AUTH_MESSAGES.ownRecordOnly },
    },
    {
      name: 'receipt PDF',
      as: 'student',
      url: (c) => `/api/payments/receipt/${c.references.other}/pdf/`,
      purpose: 'records',
      target: 'other',
      want: { refused: AUTH_MESSAGES.ownRecordOnly },
    },
    {
      name: 'payment history',
      as: 'student',
      url: (c) => `/api/payments/history/?${q({ admission_number: c.other.admissionNumber })}`,
      purpose: 'records',
      target: 'other',
      want: { refused: AUTH_MESSAGES.ownRecordOnly },
    },
    {
      name: 'verify',
      as: 'student',
      method: 'POST',
      url: () => '/api/payments/verify/',
      payload: (c) => ({ reference: c.references.other }),
      purpose: 'records',
      target: 'other',
      want: { refused: AUTH_MESSAGES.ownRecordOnly },
    },
    {
      name: 'statement',
      as: 'student',
      url: (c) => `/api/bursary/statement/?${q({ admission_number: c.other.admissionNumber })}`,
      purpose: 'statement',
      target: 'other',
      want: 'own',
    },
    {
      name: 'attendance',
      as: 'student',
      url: (c) => `/api/attendance/student/?${q({ admission_number: c.other.admissionNumber })}`,
      purpose: 'attendance',
      target: 'other',
      want: 'own',
    },
    // A teacher asking for students outside their arms and subjects.
    {
      name: "another arm's student's attendance",
      as: 'teacher',
      url: (c) => `/api/attendance/student/?${q({ admission_number: c.other.admissionNumber })}`,
      purpose: 'attendance',
      target: 'other',
      want: { refused: ATTENDANCE_MESSAGES.notStudentOfYours },
    },
    {
      name: 'attendance of a student they teach but are not form teacher of',
      as: 'teacher',
      url: (c) => `/api/attendance/student/?${q({ admission_number: c.student.admissionNumber })}`,
      purpose: 'attendance',
      target: 'own',
      want: { refused: ATTENDANCE_MESSAGES.notStudentOfYours },
    },
    {
      name: "another arm's unreleased card",
      as: 'teacher',
      url: (c) => `/api/report-card/?${one(c, c.other.admissionNumber)}`,
      purpose: 'unreleased_cards',
      target: 'other',
      want: { refused: REPORT_MESSAGES.unreleasedCardsOnly('JSS 2A') },
    },
    {
      name: "another arm's unreleased cards",
      as: 'teacher',
      url: (c) => `/api/report-cards/?${q({ session_id: c.session.id, term: '1st', student_class: 'JSS 2A' })}`,
      purpose: 'unreleased_cards',
      target: 'other',
      want: { refused: REPORT_MESSAGES.unreleasedCardsOnly('JSS 2A') },
    },
    {
      name: "another arm's month of attendance",
      as: 'teacher',
      url: () => `/api/attendance/month/?${q({ student_class: 'JSS 2A', month: '2025-10' })}`,
      purpose: 'attendance',
      target: 'other',
      want: { refused: ATTENDANCE_MESSAGES.viewFormTeacherOnly('JSS 2A') },
    },
    {
      name: "a statement without the bursar's capability",
      as: 'teacher',
      url: (c) => `/api/bursary/statement/?${q({ admission_number: c.other.admissionNumber })}`,
      purpose: 'statement',
      target: 'other',
      want: { refused: BURSARY_MESSAGES.bursarOnly },
    },
    // Within their reach: the card of a student of the arm they teach.
    {
      name: 'the card of a student they teach',
      as: 'teacher',
      url: (c) => `/api/report-card/?${one(c, c.student.admissionNumber)}`,
      purpose: 'unreleased_cards',
      target: 'own',
      want: 200,
    },
  ];

  it("refuses each with the one message of its purpose, or answers with the caller's own record; the scope agrees", async () => {
    const scope = accessScope(ctx.handle.db);
    const failures: string[] = [];
    for (const p of PROBES) {
      const who = p.as === 'student' ? c.student : teacher;
      const res = await ctx.app.inject({
        method: p.method ?? 'GET',
        url: p.url(c),
        headers: who.auth,
        ...(p.payload ? { payload: p.payload(c) } : {}),
      });
      const label = `${p.as}: ${p.name}`;
      if (typeof p.want === 'object') {
        if (res.statusCode !== 403 || res.json().detail !== p.want.refused)
          failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      } else if (res.statusCode !== 200) failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      else if (
        p.want === 'own' &&
        (res.json().admission_number !== c.student.admissionNumber || res.body.includes(c.other.admissionNumber))
      )
        failures.push(`${label}: not the caller's own record: ${res.body.slice(0, 160)}`);
      // The scope's word on the pair: never reached where refused or substituted; reached where answered.
      const actor: ScopeActor = { id: who.userId, role: p.as === 'student' ? 'student' : 'staff' };
      const target =
        p.target === 'other'
          ? { id: c.other.id, user_id: c.other.userId, student_class: 'JSS 2A' }
          : { id: c.student.id, user_id: c.student.userId, student_class: 'JSS 1A' };
      if (reaches(await scope.scopeOf(actor, p.purpose, c.session.id), target) !== (p.want === 200))
        failures.push(`${label}: the scope says ${p.want === 200 ? 'not reached' : 'reached'}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

describeEachDatabase('no mass assignment (field-level authorization)', (dialect) => {
  let ctx: TestContext;
  let c: Cast;
  withCast(dialect, (s) => ({ ctx, c } = s));

  const privileged = {
    role: 'admin',
    user_type: 'admin',
    is_admin: true,
    user_id: 1,
    must_change_password: false,
    disabled: 0,
    token_version: 99,
  };

  it('a student update cannot set role, admission number, ids or the account flags', async () => {
    const s = await newStudentRecord(ctx);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/students/${s.admissionNumber}/`,
      headers: c.staff.auth,
      payload: { first_name: 'Kept', last_name: 'Pupil', email: s.email, admission_number: 'STU-9999', id: c.other.id, ...privileged },
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await rowWhere(ctx, 'students', ['id', 'admission_number', 'user_id'], ['id', s.id]);
    expect(row).toEqual({ id: s.id, admission_number: s.admissionNumber, user_id: s.userId });
    const user = await rowWhere(ctx, 'users', ['role', 'token_version', 'disabled'], ['id', s.userId]);
    expect(user.role).toBe('student');
    expect(user.token_version).not.toBe(99);
    expect(
      await ctx.handle.db.selectFrom('students').select('id').where('admission_number', '=', 'STU-9999').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('a registration gets a server-assigned admission number and the student role, whatever the body says', async () => {
    const email = `mass-${uniq()}@matrix.test`;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/students/',
      headers: c.staff.auth,
      payload: { ...studentBody(), email, admission_number: 'STU-9998', ...privileged },
    });
    expect(res.statusCode, res.body).toBe(201);
    const user = await rowWhere(ctx, 'users', ['id', 'role', 'must_change_password'], ['email', email]);
    expect(user.role).toBe('student');
    expect(user.must_change_password).toBe(1);
    expect(
      await ctx.handle.db.selectFrom('students').select('id').where('admission_number', '=', 'STU-9998').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('a staff update cannot set the staff id or the role', async () => {
    const st = await freshStaff(ctx);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/staff/${st.staffId}/`,
      headers: c.admin.auth,
      payload: { designation: 'Bursar', staff_id: 'STAFF-9999', id: c.otherStaff.id, ...privileged },
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await rowWhere(ctx, 'staff', ['staff_id', 'user_id'], ['id', st.id]);
    expect(row).toEqual({ staff_id: st.staffId, user_id: st.userId });
    const user = await rowWhere(ctx, 'users', ['role'], ['id', st.userId]);
    expect(user.role).toBe('staff');
  });

  it('a result save or patch cannot set the grade, the student or the version; the server grades', async () => {
    const s = await newStudentRecord(ctx);
    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/results/',
      headers: c.staff.auth,
      payload: {
        admission_number: s.admissionNumber,
        session_id: c.session.id,
        term: '1st',
        student_class: 'JSS 2A',
        subject: SUBJECTS[0],
        score: 12,
        grade: 'A',
        student_id: c.other.id,
        created_by: 1,
        reason: 'Released class',
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const row = await rowWhere(ctx, 'results', ['id', 'grade', 'student_id'], ['student_id', s.id]);
    expect(row.grade).not.toBe('A');
    expect(row.grade).toBe('F'); // JSS scale: F is 0-39
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/results/${row.id}/`,
      headers: c.staff.auth,
      payload: { score: 15, grade: 'A', student_id: c.other.id, id: c.resultIds.other, reason: 'Released class' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = await rowWhere(ctx, 'results', ['grade', 'student_id'], ['id', row.id]);
    expect(after).toEqual({ grade: 'F', student_id: s.id });
    const other = await rowWhere(ctx, 'results', ['score', 'student_id'], ['id', c.resultIds.other]);
    expect(other.student_id).toBe(c.other.id);
  });

  it('a payment initiation cannot set its status, amount in kobo, reference or paid date', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/initiate/',
      headers: c.student.auth,
      payload: {
        ...paymentBody(c.student, 'JSS 1A', c.session.name),
        status: 'success',
        amount_kobo: 1,
        paid_at: '2025-01-01T00:00:00.000Z',
        reference: 'FORGED-REF-1',
        provider_status: 'success',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      await ctx.handle.db.selectFrom('payments').select('id').where('reference', '=', 'FORGED-REF-1').executeTakeFirst(),
    ).toBeUndefined();
    const reference = res.json().data.reference as string;
    const row = await rowWhere(ctx, 'payments', ['status', 'amount_kobo', 'paid_at'], ['reference', reference]);
    expect(row).toEqual({ status: 'pending', amount_kobo: 1_500_000, paid_at: null });
  });

  it('a fee schedule update cannot move the schedule to another class, session or term', async () => {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/payments/fee-schedules/${c.feeScheduleId}/`,
      headers: c.admin.auth,
      payload: { amount: '17000', description: 'Tuition', student_class: 'SSS 3B', term: '3rd', session_id: 999 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await rowWhere(ctx, 'fee_items', ['student_class', 'term', 'session_id'], ['id', c.feeScheduleId]);
    expect(row).toEqual({ student_class: 'JSS 1A', term: '1st', session_id: c.session.id });
  });
});

/**
 * Score writes x the teaching assignments: with assignments enforced for the session, a staff
 * member writes only the arm-subject pairs they teach (403 not_assigned otherwise); the admin is never
 * restricted; without enforcement every staff member writes as before. Every score-writing route is here.
 */
describeEachDatabase('authorization matrix: score writes follow teaching assignments', (dialect) => {
  type Writer = 'assigned' | 'unassigned' | 'admin';
  const SCORE_WRITES = [
    'POST /api/results/ (bulk)',
    'POST /api/results/ (single)',
    'PATCH /api/results/:id/',
    'DELETE /api/results/:id/',
  ] as const;
  type ScoreWrite = (typeof SCORE_WRITES)[number];
  const allowed: Record<ScoreWrite, number> = {
    'POST /api/results/ (bulk)': 201,
    'POST /api/results/ (single)': 201,
    'PATCH /api/results/:id/': 200,
    'DELETE /api/results/:id/': 204,
  };
  /**
   * `past`: a session that is not the current one, enforced or not: closed to every
   * teacher (403 session_closed), and the admin's write without a reason is a 400 asking for one.
   */
  const EXPECT: Record<'enforced' | 'open' | 'past', Record<Writer, (w: ScoreWrite) => number>> = {
    enforced: { assigned: (w) => allowed[w], unassigned: () => 403, admin: (w) => allowed[w] },
    open: { assigned: (w) => allowed[w], unassigned: (w) => allowed[w], admin: (w) => allowed[w] },
    past: { assigned: () => 403, unassigned: () => 403, admin: () => 400 },
  };
  const CODE: Record<'enforced' | 'open' | 'past', string> = {
    enforced: NOT_YOUR_SUBJECT_CODE,
    open: NOT_YOUR_SUBJECT_CODE,
    past: SESSION_CLOSED_CODE,
  };

  let ctx: TestContext;
  let admin: SignedIn;
  let assigned: SignedIn & { id: number };
  let unassigned: SignedIn & { id: number };
  withAdmin(dialect, async (s) => {
    ({ ctx, admin } = s);
    assigned = await signInStaff(ctx);
    unassigned = await signInStaff(ctx);
  });

  it('every score-writing route is in this block', () => {
    const keys = routeTable(ctx.app).map((r) => `${r.method} ${r.url}`);
    const writes = keys.filter((k) => /^(POST|PUT|PATCH|DELETE) \/api\/results\/(:id\/)?$/.test(k));
    expect(writes.sort()).toEqual([...new Set(SCORE_WRITES.map((w) => w.replace(/ \(.*\)$/, '')))].sort());
  });

  it('answers each writer as the assignments say, with and without enforcement', async () => {
    const failures: string[] = [];
    let year = 2300;
    for (const mode of ['enforced', 'open', 'past'] as const) {
      // The mode's session is the current one; `past` writes into the previous mode's once a newer is current.
      const session = await createSession(ctx.handle.db, `${year}/${++year}`, true);
      // The issue's case: assignments enforced in the current session, none set in the previous one.
      if (mode === 'past')
        await enforceAssignments(ctx.handle.db, (await createSession(ctx.handle.db, `${year}/${++year}`, true)).id, true);
      if (mode === 'enforced') await enforceAssignments(ctx.handle.db, session.id, true);
      await assign(ctx.handle.db, session.id, 'JSS 2A', 'Mathematics', assigned.id);
      for (const writer of ['assigned', 'unassigned', 'admin'] as const) {
        const who = writer === 'admin' ? admin : writer === 'assigned' ? assigned : unassigned;
        const s = await newStudentRecord(ctx);
        await createResults(ctx.handle.db, [
          { studentId: s.id, sessionId: session.id, term: '2nd', arm: 'JSS 2A', subject: 'Mathematics', score: 40 },
        ]);
        const stored = await rowWhere(ctx, 'results', ['id'], ['student_id', s.id]);
        const head = { admission_number: s.admissionNumber, session_id: session.id, student_class: 'JSS 2A' };
        const requests: Record<ScoreWrite, InjectOptions> = {
          'POST /api/results/ (bulk)': {
            method: 'POST',
            url: '/api/results/',
            payload: { ...head, term: '1st', subjects: [{ name: 'Mathematics', score: 60 }] },
          },
          'POST /api/results/ (single)': {
            method: 'POST',
            url: '/api/results/',
            payload: { ...head, term: '3rd', subject: 'Mathematics', score: 61 },
          },
          'PATCH /api/results/:id/': { method: 'PATCH', url: `/api/results/${stored.id}/`, payload: { score: 45 } },
          'DELETE /api/results/:id/': { method: 'DELETE', url: `/api/results/${stored.id}/` },
        };
        for (const w of SCORE_WRITES) {
          const res = await ctx.app.inject({ ...requests[w], headers: who.auth });
          const want = EXPECT[mode][writer](w);
          if (res.statusCode !== want)
            failures.push(`${w} by ${writer} (${mode}): expected ${want}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
          if (want === 403 && res.json().code !== CODE[mode]) failures.push(`${w} by ${writer} (${mode}): code ${res.body}`);
          if (want === 400 && res.json().reason?.[0] !== RESULT_MESSAGES.reasonRequiredPastSession)
            failures.push(`${w} by ${writer} (${mode}): ${res.body}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

/**
 * The report card sheets x form teachers: the form teacher of the arm (the cast's staff, JSS 2A) and
 * the admin read and write an arm's ratings and comments; another staff member, or the form teacher
 * on another arm, is 403; the principal's part (principal comments, their suggestions) is the admin's.
 */
describeEachDatabase('authorization matrix: report card sheets follow form teachers', (dialect) => {
  let ctx: TestContext;
  let c: Cast;
  let notFormTeacher: SignedIn;
  withCast(dialect, async (s) => {
    ({ ctx, c } = s);
    notFormTeacher = await signInStaff(ctx);
  });

  it('every report card sheet route is in this block', () => {
    const keys = routeTable(ctx.app).map((r) => `${r.method} ${r.url}`);
    expect(keys.filter((k) => /\/api\/class-(ratings|comments)\//.test(k)).sort()).toEqual(
      [
        'GET /api/class-ratings/',
        'PUT /api/class-ratings/',
        'GET /api/class-comments/',
        'PUT /api/class-comments/',
        'POST /api/class-comments/suggestions/',
      ].sort(),
    );
  });

  it('answers each caller on each arm as the form teachers say', async () => {
    const failures: string[] = [];
    const arms = {
      'JSS 2A': { admissionNumber: c.other.admissionNumber, id: c.other.id, email: c.other.email, arm: 'JSS 2A' as const },
      'JSS 1A': { admissionNumber: c.student.admissionNumber, id: c.student.id, email: c.student.email, arm: 'JSS 1A' as const },
    };
    const callers = { formTeacher: c.staff, notFormTeacher, admin: c.admin };
    for (const [armName, t] of Object.entries(arms)) {
      for (const [name, who] of Object.entries(callers)) {
        const allowed = name === 'admin' || (name === 'formTeacher' && armName === 'JSS 2A');
        const read = (url: string) => () => Promise.resolve<InjectOptions>({ method: 'GET', url: `${url}?${cardSheet(c, t)}` });
        // The version is read when the request is made: an earlier row of this loop may have written the entry.
        const save = (url: string, row: Record<string, unknown>) => async (): Promise<InjectOptions> => ({
          method: 'PUT',
          url,
          payload: {
            ...cardSheetBody(c, t),
            rows: [{ admission_number: t.admissionNumber, ...row, version: await entryVersion(ctx, c, t) }],
          },
        });
        const suggest = (kind: string) => () =>
          Promise.resolve<InjectOptions>({
            method: 'POST',
            url: '/api/class-comments/suggestions/',
            payload: { ...cardSheetBody(c, t), kind },
          });
        const requests: [string, () => Promise<InjectOptions>, number][] = [
          ['GET ratings', read('/api/class-ratings/'), 200],
          ['PUT ratings', save('/api/class-ratings/', { ratings: { neatness: 1 + (n++ % 5) } }), 200],
          ['GET comments', read('/api/class-comments/'), 200],
          ['PUT form comment', save('/api/class-comments/', { form_comment: `F ${uniq()}` }), 200],
          ['PUT principal comment', save('/api/class-comments/', { principal_comment: `P ${uniq()}` }), name === 'admin' ? 200 : 403],
          ['POST form suggestions', suggest('form'), 200],
          ['POST principal suggestions', suggest('principal'), name === 'admin' ? 200 : 403],
        ];
        for (const [label, req, ok] of requests) {
          const want = allowed ? ok : 403;
          const res = await ctx.app.inject({ ...(await req()), headers: who.auth });
          if (res.statusCode !== want)
            failures.push(`${label} on ${armName} by ${name}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
          else if (want === 403) {
            const detail = allowed ? REPORT_MESSAGES.principalOnly : REPORT_MESSAGES.formTeacherOnly(armName);
            if (res.json().detail !== detail) failures.push(`${label} on ${armName} by ${name}: ${res.body}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it("the form teacher's writes on a released term are 409 cards_locked; the admin's are not", async () => {
    // The cast's 1st term of JSS 2A is published.
    const t = c.other;
    const body = { session_id: c.session.id, term: '1st', student_class: 'JSS 2A' };
    const row = { admission_number: t.admissionNumber, ratings: { neatness: 3 }, version: 0 };
    const locked = await ctx.app.inject({
      method: 'PUT',
      url: '/api/class-ratings/',
      headers: c.staff.auth,
      payload: { ...body, rows: [row] },
    });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().code).toBe(CARD_CODES.locked);
    const admin = await ctx.app.inject({
      method: 'PUT',
      url: '/api/class-ratings/',
      headers: c.admin.auth,
      payload: { ...body, rows: [row] },
    });
    expect(admin.statusCode, admin.body).toBe(200);
  });
});

/**
 * Report cards before release: an arm's unreleased cards (comments, ratings, attendance,
 * fee balance) are for its form teacher, its subject teachers and the admin. A teacher with no subject
 * in the arm and not its form teacher (the cast's staff, form teacher of JSS 2A), and the bursar, are
 * 403 on the card, the arm's cards, and their PDFs; once released every staff member reads them.
 */
describeEachDatabase('authorization matrix: unreleased report cards follow form and subject teachers', (dialect) => {
  let ctx: TestContext;
  let c: Cast;
  let formTeacher: SignedIn;
  let subjectTeacher: SignedIn;
  withCast(dialect, async (s) => {
    ({ ctx, c } = s);
    const ft = await signInStaff(ctx);
    const st = await signInStaff(ctx);
    formTeacher = ft;
    subjectTeacher = st;
    await makeFormTeacher(ctx.handle.db, c.session.id, 'JSS 1A', ft.id);
    await assign(ctx.handle.db, c.session.id, 'JSS 1A', SUBJECTS[0], st.id);
    // The cast's 2nd term of JSS 1A is not released (its 1st term is).
    await createResults(ctx.handle.db, [
      { studentId: c.student.id, sessionId: c.session.id, term: '2nd', arm: 'JSS 1A', subject: SUBJECTS[0], score: 55 },
    ]);
  });

  const CARD_READS = [
    'GET /api/report-card/',
    'GET /api/report-card/pdf/',
    'GET /api/report-cards/',
    'GET /api/report-cards/pdf/',
  ] as const;
  it('every report card read is in this block', () => {
    const keys = routeTable(ctx.app).map((r) => `${r.method} ${r.url}`);
    // The list of cards opened regardless of fees is the bursar's (its own row above), not a card.
    const reads = keys.filter((k) => /^GET \/api\/report-cards?\//.test(k) && !k.startsWith('GET /api/report-card/fee-releases/'));
    expect(reads.sort()).toEqual([...CARD_READS].sort());
  });

  it('answers each caller on the unreleased and the released term as the arm says', async () => {
    const failures: string[] = [];
    const urls = (term: string): Record<(typeof CARD_READS)[number], string> => {
      const one = q({ admission_number: c.student.admissionNumber, session_id: c.session.id, term });
      const arm = q({ session_id: c.session.id, term, student_class: 'JSS 1A' });
      return {
        'GET /api/report-card/': `/api/report-card/?${one}`,
        'GET /api/report-card/pdf/': `/api/report-card/pdf/?${one}`,
        'GET /api/report-cards/': `/api/report-cards/?${arm}`,
        'GET /api/report-cards/pdf/': `/api/report-cards/pdf/?${arm}`,
      };
    };
    const callers: Record<string, { who: SignedIn; unreleased: number }> = {
      admin: { who: c.admin, unreleased: 200 },
      formTeacher: { who: formTeacher, unreleased: 200 },
      subjectTeacher: { who: subjectTeacher, unreleased: 200 },
      otherTeacher: { who: c.staff, unreleased: 403 },
      bursar: { who: c.bursar, unreleased: 403 },
    };
    const scope = accessScope(ctx.handle.db);
    for (const [name, { who, unreleased }] of Object.entries(callers)) {
      // The access scope names the same arms: the row's unreleased answer is its `unreleased_cards` reach.
      const role = who === c.admin ? 'admin' : 'staff';
      if (reachesArm(await scope.scopeOf({ id: who.userId, role }, 'unreleased_cards', c.session.id), 'JSS 1A') !== (unreleased === 200))
        failures.push(`${name}: the scope's unreleased_cards reach disagrees with ${unreleased}`);
      for (const [term, want] of [
        ['2nd', unreleased],
        ['1st', 200],
      ] as const) {
        for (const [route, url] of Object.entries(urls(term))) {
          const res = await ctx.app.inject({ method: 'GET', url, headers: who.auth });
          if (res.statusCode !== want)
            failures.push(`${route} ${term} by ${name}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
          else if (want === 403 && res.json().detail !== REPORT_MESSAGES.unreleasedCardsOnly('JSS 1A'))
            failures.push(`${route} ${term} by ${name}: ${res.body.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

/**
 * Parents (issue 33, decision 035): a parent linked to the cast's student (and a sibling) is refused
 * by every route but the few that admit parents; on those, the child answers as the child would
 * (the matrix's "own" row), and another family's child, or a number naming nobody, is 403 with the
 * one message. Generated from the live route table: a new route is refused to parents unless listed.
 */
const PARENT_ROUTES = [
  'GET /api/report-card/',
  'GET /api/report-card/pdf/',
  'GET /api/results/',
  'GET /api/attendance/student/',
  'GET /api/payments/context/',
  'GET /api/payments/history/',
  'POST /api/payments/initiate/',
  'POST /api/payments/verify/',
  'GET /api/payments/receipt/:reference/',
  'GET /api/payments/receipt/:reference/pdf/',
  'GET /api/bursary/statement/',
  'GET /api/bursary/transfer-reports/mine/',
  'POST /api/bursary/transfer-reports/',
] as const;
/** Admitting parents with rules of their own (tested in the parents' and notices' own tests): the parent's checkout, the accounts' routes, the parent home, school-wide lists, notices. */
const PARENT_OTHER_ROUTES = [
  'GET /api/payments/simulator/:code/',
  'POST /api/payments/simulator/:code/',
  'GET /api/me/',
  'POST /api/logout/',
  'POST /api/password/change/',
  'GET /api/parent/children/',
  // The student dashboard names the child as `student=` (dashboards/student.test.ts: another family's child or nobody is 403 alike).
  'GET /api/dashboards/student/',
  // School-wide lists the child's screens need (no child's data in them).
  'GET /api/sessions/',
  'GET /api/current-term/',
  'GET /api/classes/',
  'GET /api/payments/provider/',
  'GET /api/bursary/banks/',
  // Every account's own notices and preferences (notices.routes.test.ts: another's notice is 404).
  'GET /api/notices/',
  'POST /api/notices/:id/read/',
  'GET /api/notice-preferences/',
  'PUT /api/notice-preferences/',
];

describeEachDatabase('authorization matrix: a parent reaches their own children only', (dialect) => {
  let ctx: TestContext;
  let c: Cast;
  let parent: Record<string, string>;
  withCast(dialect, async (s) => {
    ({ ctx, c } = s);
    const phone = matrixPhone();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/parents/',
      headers: c.admin.auth,
      payload: { name: 'Ada Parent', phone },
    });
    const id = created.json<{ id: number }>().id;
    const sibling = await newStudentRecord(ctx, 'JSS 1A');
    for (const admission_number of [c.student.admissionNumber, sibling.admissionNumber])
      await ctx.app.inject({
        method: 'POST',
        url: `/api/parents/${id}/links/`,
        headers: c.admin.auth,
        payload: { admission_number, relationship: 'mother' },
      });
    const invited = await ctx.app.inject({
      method: 'POST',
      url: '/api/parents/invitations/',
      headers: c.admin.auth,
      payload: { arm: 'JSS 1A', again: true },
    });
    const password = invited.json<{ slips: { phone: string; password: string }[] }>().slips.find((x) => x.phone === phone)!.password;
    const first = (await ctx.app.inject({ method: 'POST', url: '/api/parent/login/', payload: { email: phone, password } })).json().data
      .access;
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/password/change/',
      headers: { authorization: `Bearer ${first}` },
      payload: { old_password: password, new_password: TEST_PASSWORD },
    });
    parent = { authorization: `Bearer ${changed.json().access}` };
  });

  /** The matrix row's request for `who`'s record, naming the student (query or body) as a parent must. */
  async function asParent(key: string, who: 'own' | 'other'): Promise<Req> {
    const t: Target =
      who === 'own'
        ? { admissionNumber: c.student.admissionNumber, id: c.student.id, email: c.student.email, arm: 'JSS 1A' }
        : { admissionNumber: c.other.admissionNumber, id: c.other.id, email: c.other.email, arm: 'JSS 2A' };
    const req = await MATRIX[key]!.req({ actor: who, c, ctx, t, fresh: () => Promise.resolve(parent) });
    if (key.startsWith('GET ')) {
      const url = new URL(req.url, 'http://x');
      url.searchParams.set('admission_number', t.admissionNumber);
      return { ...req, url: `${url.pathname}${url.search}` };
    }
    return { ...req, payload: { ...(req.payload as Record<string, unknown>), admission_number: t.admissionNumber } };
  }

  it('every other route refuses a parent (403), whatever it is', async () => {
    const failures: string[] = [];
    for (const route of routeTable(ctx.app)) {
      const key = `${route.method} ${route.url}`;
      if (route.auth === 'public' || route.auth === 'operator') continue;
      if ((PARENT_ROUTES as readonly string[]).includes(key) || PARENT_OTHER_ROUTES.includes(key)) {
        if (!Array.isArray(route.auth) || !route.auth.includes('parent'))
          failures.push(`${key}: listed for parents but does not admit them`);
        continue;
      }
      const req = await MATRIX[key]!.req({
        actor: 'own',
        c,
        ctx,
        t: { admissionNumber: c.student.admissionNumber, id: c.student.id, email: c.student.email, arm: 'JSS 1A' },
        fresh: () => Promise.resolve(parent),
      });
      const res = await ctx.app.inject({
        ...req,
        method: route.method,
        headers: { ...parent, ...(req.headers as Record<string, string> | undefined) },
      } as InjectOptions);
      if (res.statusCode !== 403) failures.push(`${key}: expected 403, got ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it("the child's screens answer as the child's own; another family's child is 403 with the one message", async () => {
    const failures: string[] = [];
    for (const key of PARENT_ROUTES) {
      const method = key.split(' ')[0] as 'GET' | 'POST';
      for (const who of ['own', 'other'] as const) {
        const req = await asParent(key, who);
        const res = await ctx.app.inject({
          ...req,
          method,
          headers: { ...parent, ...(req.headers as Record<string, string> | undefined) },
        } as InjectOptions);
        const want = who === 'own' ? MATRIX[key]!.expect.own : 403;
        if (res.statusCode !== want) failures.push(`${key} for ${who}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
        else if (want === 403 && res.json().detail !== PARENT_MESSAGES.notYourChild)
          failures.push(`${key} for ${who}: ${res.body.slice(0, 160)}`);
        if (who === 'own' && res.statusCode < 300 && [c.other.admissionNumber, c.other.email].some((x) => res.body.includes(x)))
          failures.push(`${key}: a parent's answer carries another family's child`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('the access scope resolves a parent to their children for every purpose but unreleased cards', async () => {
    const scope = accessScope(ctx.handle.db);
    const me = (await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: parent })).json<{ id: number; children: unknown[] }>();
    expect(me.children).toHaveLength(2);
    for (const purpose of ['records', 'statement', 'attendance'] as Purpose[]) {
      const s = await scope.scopeOf({ id: me.id, role: 'parent' }, purpose, c.session.id);
      expect(s.kind).toBe('students');
      expect(reaches(s, { id: c.student.id, user_id: c.student.userId, student_class: 'JSS 1A' })).toBe(true);
      expect(reaches(s, { id: c.other.id, user_id: c.other.userId, student_class: 'JSS 2A' })).toBe(false);
    }
    expect((await scope.scopeOf({ id: me.id, role: 'parent' }, 'unreleased_cards', c.session.id)).kind).toBe('none');
  });
});
