import { expect } from 'vitest';
import type { LedgerEntry } from '@portal/domain';
import { signInStaff, type SignedIn, type TestContext } from './helpers';
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
