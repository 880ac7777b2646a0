import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { BURSARY_MESSAGES, type LedgerEntry } from '@portal/domain';
import { signInStaff, signInStudent, withSchool, type SignedIn, type TestContext, type TestDialect, type TestSchool } from './helpers';
import { greyPng } from './grey-png';

/** A signed-in student as the payments tests use one. */
export type Student = SignedIn & { admissionNumber: string; id: number };

/** The school's date `days` from today (Africa/Lagos, the default zone). */
export function lagosDay(days = 0): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

/** A small PNG as a data URL (a teller scan or a transfer proof). */
export const pngDataUrl = (bytes: Buffer = greyPng(4, 4)) => `data:image/png;base64,${bytes.toString('base64')}`;

/**
 * A scan (a teller scan or a transfer slip) is checked by its bytes and size: `send` each one that
 * is refused (a PNG labelled PDF, HTML labelled PNG, a PNG over 2 MB) and expect a 400 with its message.
 */
export async function expectScansRefused(send: (over: { scan: string }) => Promise<LightMyRequestResponse>): Promise<void> {
  const html = Buffer.from('<html><script>alert(1)</script></html>').toString('base64');
  const refused: [string, string, string][] = [
    ['a PNG labelled PDF', `data:application/pdf;base64,${greyPng(4, 4).toString('base64')}`, BURSARY_MESSAGES.scanInvalid],
    ['HTML labelled PNG', `data:image/png;base64,${html}`, BURSARY_MESSAGES.scanInvalid],
    ['over 2 MB', pngDataUrl(Buffer.concat([greyPng(4, 4), Buffer.alloc(2 * 1024 * 1024)])), BURSARY_MESSAGES.scanTooLarge],
  ];
  for (const [name, scan, message] of refused) {
    const res = await send({ scan });
    expect(res.statusCode, name).toBe(400);
    expect(res.json(), name).toEqual({ scan: [message] });
  }
}

/**
 * POST /api/payments/initiate/ with `payload` as `student` on the context given, with the request's
 * own `headers` (Host, X-Forwarded-Host...) beside the student's token; the answer unchecked.
 */
export function initiateAt(ctx: TestContext, student: SignedIn, payload: object, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'POST', url: '/api/payments/initiate/', headers: { ...student.auth, ...headers }, payload });
}

/** A 10% sibling discount on the tuition of every term of the session, as the bursar gives one. */
export const siblingDiscount = (admissionNumber: string, sessionId: number) => ({
  admission_number: admissionNumber,
  session_id: sessionId,
  term: null,
  kind: 'sibling',
  basis: 'percent',
  percent: 10,
  items: ['Tuition'],
  reason: 'Elder sister in SSS 2',
});

/** Signs in a staff member, Bola Bursar, whom the admin has given the bursar capability. */
export async function signInBursar(ctx: TestContext, admin: SignedIn): Promise<SignedIn & { staffId: string; id: number }> {
  const bursar = await signInStaff(ctx, { firstName: 'Bola', lastName: 'Bursar' });
  const granted = await ctx.app.inject({
    method: 'PUT',
    url: `/api/staff-capabilities/${bursar.staffId}/`,
    headers: admin.auth,
    payload: { capabilities: ['bursar'] },
  });
  expect(granted.statusCode, granted.body).toBe(200);
  return bursar;
}

/** The bursary tests' school: `withSchool`'s, with Bola Bursar and a student of one arm signed in. */
export interface BursarySchool extends TestSchool {
  bursar: SignedIn & { staffId: string; id: number };
  pupil: Student;
}

/** A block's `withSchool` with the `sessions` given, Bola Bursar and a student of `arm`, before `ready`. */
export function withBursary(
  dialect: TestDialect,
  opts: { sessions: string[]; arm: string },
  ready: (school: BursarySchool) => unknown = () => undefined,
): void {
  withSchool(dialect, { sessions: opts.sessions }, async (school) => {
    const bursar = await signInBursar(school.ctx, school.admin);
    const pupil = await signInStudent(school.ctx, { arm: opts.arm });
    await ready({ ...school, bursar, pupil });
  });
}

/**
 * The bursar records a payment (by default a bank transfer at First Bank for the whole session, no
 * term) and gets its ledger entry; anything but 201 fails the test.
 */
export async function recordPayment(
  ctx: TestContext,
  bursar: SignedIn,
  payment: { admission_number: string; session_id: number; amount: number; bank_reference: string; paid_on: string } & Record<
    string,
    unknown
  >,
): Promise<LedgerEntry> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/bursary/payments/',
    headers: bursar.auth,
    payload: { term: null, method: 'bank_transfer', bank: 'First Bank', ...payment },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<LedgerEntry>();
}
