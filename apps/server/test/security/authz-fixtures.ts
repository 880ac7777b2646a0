import type { InjectOptions } from 'fastify';
import { SUBJECTS } from '@portal/domain';
import { createResults } from '../../src/db/factories';
import '../../src/modules/results/results.tables';
import { makeFormTeacher } from '../teaching-fixtures';
import {
  createSession,
  createStudent,
  signInAdmin,
  signInStaff,
  signInStudent,
  TEST_PASSWORD,
  withTestContext,
  type SignedIn,
  type TestContext,
  type TestDialect,
} from '../helpers';

/** A payment date inside the allowed window (a year before the first term .. today): a few days ago. */
export const RECENT_DAY = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);

/** The cast of the authorization matrix: two students (own / someone else's), a teacher, an admin. */
export interface Cast {
  admin: SignedIn;
  /** Form teacher of JSS 2A in `session`. */
  staff: SignedIn & { staffId: string; id: number };
  /** The student acting; "own" records are theirs. */
  student: SignedIn & { admissionNumber: string; id: number };
  /** Someone else's records. */
  other: SignedIn & { admissionNumber: string; id: number };
  otherStaff: { staffId: string; id: number };
  /** A staff member holding the bursar capability (form teacher of no arm). */
  bursar: SignedIn & { staffId: string; id: number };
  /** An offline payment of the other student, recorded by the bursar with a teller scan. */
  offlineReference: string;
  session: { id: number; name: string };
  /** Result row ids of each student. */
  resultIds: { own: number; other: number };
  /** Payment references of each student. */
  references: { own: string; other: string };
  /** Simulator checkout codes of those (already paid) payments. */
  accessCodes: { own: string; other: string };
  feeScheduleId: number;
  publicationId: number;
}

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

export async function newStudentRecord(ctx: TestContext, arm: 'JSS 1A' | 'JSS 2A' = 'JSS 2A') {
  return createStudent(ctx.handle.db, {
    email: `fresh-${unique()}@matrix.test`,
    password: TEST_PASSWORD,
    firstName: 'Fresh',
    lastName: 'Record',
    arm,
  });
}

export function paymentBody(s: { admissionNumber: string; email: string }, cls: string, session: string) {
  return {
    admission_number: s.admissionNumber,
    full_name: 'Ada Eze',
    current_class: cls,
    current_session: session,
    email: s.email,
    phone_number: '08031234567',
    amount: '15000',
    term: '1st',
    // Authorization, not balances: paying a term already paid is confirmed.
    confirm: true,
  };
}

async function ok(ctx: TestContext, opts: InjectOptions) {
  const res = await ctx.app.inject(opts);
  if (res.statusCode >= 300) throw new Error(`fixture ${String(opts.method)} ${JSON.stringify(opts.url)}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A describe block's own database with the cast in it, handed to `ready` (which may add to it). */
export function withCast(
  dialect: TestDialect,
  ready: (school: { ctx: TestContext; c: Cast }) => unknown,
  overrides: Parameters<typeof withTestContext>[2] = {},
): void {
  withTestContext(dialect, async (ctx) => ready({ ctx, c: await buildCast(ctx) }), overrides);
}

export async function buildCast(ctx: TestContext): Promise<Cast> {
  const session = await createSession(ctx.handle.db, '2025/2026', true);
  const admin = await signInAdmin(ctx);
  const staff = await signInStaff(ctx);
  const otherStaff = await signInStaff(ctx);
  const bursar = await signInStaff(ctx, { firstName: 'Bola', lastName: 'Bursar' });
  const student = await signInStudent(ctx, { arm: 'JSS 1A' });
  const other = await signInStudent(ctx, { arm: 'JSS 2A' });
  // The staff member is the form teacher of JSS 2A (the report card sheets); otherStaff of no arm.
  await makeFormTeacher(ctx.handle.db, session.id, 'JSS 2A', staff.id);
  await createResults(
    ctx.handle.db,
    [student, other].flatMap((s, k) =>
      SUBJECTS.slice(0, 3).map((subject, i) => ({
        studentId: s.id,
        sessionId: session.id,
        term: '1st' as const,
        arm: k === 0 ? ('JSS 1A' as const) : ('JSS 2A' as const),
        subject,
        score: 50 + i,
      })),
    ),
  );
  const ids = await ctx.handle.db.selectFrom('results').select(['id', 'student_id']).orderBy('id').execute();
  const resultIds = { own: ids.find((r) => r.student_id === student.id)!.id, other: ids.find((r) => r.student_id === other.id)!.id };
  // Results are visible to students once published: publish both classes so refusals are about ownership.
  // (Rows written directly: the matrix itself exercises POST /api/results/publications/.)
  let publicationId = 0;
  for (const cls of ['JSS 1A', 'JSS 2A']) {
    const p = await ctx.handle.db
      .insertInto('result_publications')
      .values({
        session_id: session.id,
        term: '1st',
        student_class: cls,
        published_by: admin.userId,
        published_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    publicationId = p.id;
  }
  const fee = await ok(ctx, {
    method: 'POST',
    url: '/api/payments/fee-schedules/',
    headers: admin.auth,
    payload: { student_class: 'JSS 1A', session_id: session.id, term: '1st', amount: '15000', description: 'Tuition' },
  });
  const own = await ok(ctx, {
    method: 'POST',
    url: '/api/payments/initiate/',
    headers: student.auth,
    payload: paymentBody(student, 'JSS 1A', session.name),
  });
  const theirs = await ok(ctx, {
    method: 'POST',
    url: '/api/payments/initiate/',
    headers: other.auth,
    payload: paymentBody(other, 'JSS 2A', session.name),
  });
  const code = (b: unknown) => (b as { data: { access_code: string } }).data.access_code;
  const ref = (b: unknown) => {
    const x = b as { reference?: string; data?: { reference?: string } };
    return x.data?.reference ?? x.reference ?? '';
  };
  // Both pay through the simulator and verify, so receipts exist.
  for (const [body, who] of [
    [own, student],
    [theirs, other],
  ] as const) {
    // The simulator's checkout is completed by the payer, signed in.
    await ok(ctx, {
      method: 'POST',
      url: `/api/payments/simulator/${code(body)}/`,
      headers: who.auth,
      payload: { outcome: 'pay' },
    });
    await ok(ctx, { method: 'POST', url: '/api/payments/verify/', headers: who.auth, payload: { reference: ref(body) } });
  }
  await ok(ctx, {
    method: 'PUT',
    url: `/api/staff-capabilities/${bursar.staffId}/`,
    headers: admin.auth,
    payload: { capabilities: ['bursar'] },
  });
  const offline = await ok(ctx, {
    method: 'POST',
    url: '/api/bursary/payments/',
    headers: admin.auth,
    payload: {
      admission_number: other.admissionNumber,
      session_id: session.id,
      term: '1st',
      amount: '5000',
      method: 'bank_teller',
      bank: 'First Bank',
      bank_reference: `CAST-${unique()}`,
      paid_on: RECENT_DAY,
      scan: `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF').toString('base64')}`,
    },
  });
  return {
    admin,
    staff,
    bursar,
    offlineReference: (offline as { reference: string }).reference,
    student,
    other,
    otherStaff: { staffId: otherStaff.staffId, id: otherStaff.id },
    session,
    resultIds,
    references: { own: ref(own), other: ref(theirs) },
    accessCodes: { own: code(own), other: code(theirs) },
    feeScheduleId: (fee as { id: number }).id,
    publicationId,
  };
}

/** Parents (issue 33): one parent per cast (made once, by the admin), for the admin rows of the matrix. */
const castParents = new WeakMap<Cast, Promise<{ id: number; phone: string }>>();
let parentSeq = 0;
/** A fresh Nigerian mobile number in E.164. */
export function matrixPhone(): string {
  parentSeq += 1;
  return `+23481${String(Date.now() % 100_000).padStart(5, '0')}${String(parentSeq % 1000).padStart(3, '0')}`;
}
export function castParent(ctx: TestContext, c: Cast): Promise<{ id: number; phone: string }> {
  let p = castParents.get(c);
  if (!p) {
    const phone = matrixPhone();
    p = ctx.app
      .inject({ method: 'POST', url: '/api/parents/', headers: c.admin.auth, payload: { name: 'Matrix Parent', phone } })
      .then((res) => {
        if (res.statusCode !== 201) throw new Error(`castParent: ${res.statusCode} ${res.body}`);
        return { id: res.json<{ id: number }>().id, phone };
      });
    castParents.set(c, p);
  }
  return p;
}
