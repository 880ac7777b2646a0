import { expect } from 'vitest';
import type { ParentInvitationResult } from '@portal/domain';
import { changePassword, createStudent, TEST_PASSWORD, type SignedIn, type TestContext } from './helpers';

/** A parent signed in (after their first sign-in's password change): their token, phone and children's numbers. */
export type SignedInParent = SignedIn & { phone: string };

let n = 0;
/** A fresh Nigerian mobile number in E.164, unique per call. */
export function freshPhone(): string {
  n += 1;
  return `+23480${String(Date.now() % 1_000_000).padStart(6, '0')}${String(n % 100).padStart(2, '0')}`;
}

/** Students (factory: no linking) of `arm`, then linked by the admin to a new parent with `phone`. */
export async function family(
  ctx: TestContext,
  admin: SignedIn,
  o: { phone?: string; name?: string; children: { firstName: string; lastName?: string; arm?: string }[] },
): Promise<{ parentId: number; phone: string; children: { admissionNumber: string; id: number; userId: number }[] }> {
  const phone = o.phone ?? freshPhone();
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/parents/',
    headers: admin.auth,
    payload: { name: o.name ?? 'Emeka Okafor', phone },
  });
  expect(created.statusCode, created.body).toBe(201);
  const parentId = created.json<{ id: number }>().id;
  const children = [];
  for (const c of o.children) {
    const s = await createStudent(ctx.handle.db, {
      email: `kid-${Date.now().toString(36)}-${(n += 1)}@test.school`,
      password: TEST_PASSWORD,
      firstName: c.firstName,
      lastName: c.lastName ?? 'Okafor',
      arm: c.arm ?? 'JSS 1A',
    });
    const link = await ctx.app.inject({
      method: 'POST',
      url: `/api/parents/${parentId}/links/`,
      headers: admin.auth,
      payload: { admission_number: s.admissionNumber, relationship: 'father' },
    });
    expect(link.statusCode, link.body).toBe(201);
    children.push({ admissionNumber: s.admissionNumber, id: s.id, userId: s.userId });
  }
  return { parentId, phone, children };
}

/** Invites the parent (again) and returns the one-time password on their slip. */
export async function inviteAgain(ctx: TestContext, admin: SignedIn, phone: string, arm?: string): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/parents/invitations/',
    headers: admin.auth,
    payload: { again: true, ...(arm ? { arm } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  const slip = res.json<ParentInvitationResult>().slips.find((s) => s.phone === phone);
  expect(slip, `a slip for ${phone}`).toBeDefined();
  return slip!.password;
}

/** POST /api/parent/login/. */
export function parentLogin(ctx: TestContext, id: string, password: string, from: { remoteAddress?: string; cookie?: string } = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/parent/login/',
    payload: { email: id, password },
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
    ...(from.cookie ? { headers: { cookie: from.cookie } } : {}),
  });
}

/** Invites, signs in with the slip's password, changes it to TEST_PASSWORD: a parent ready to use the portal. */
export async function signInParent(ctx: TestContext, admin: SignedIn, phone: string): Promise<SignedInParent> {
  const once = await inviteAgain(ctx, admin, phone);
  const first = await parentLogin(ctx, phone, once);
  expect(first.statusCode, first.body).toBe(200);
  const data = first.json<{ data: { access: string; refresh: string; must_change_password: boolean } }>().data;
  expect(data.must_change_password).toBe(true);
  const changed = await changePassword(ctx, { authorization: `Bearer ${data.access}` }, once, TEST_PASSWORD);
  expect(changed.statusCode, changed.body).toBe(200);
  const pair = changed.json<{ access: string; refresh: string }>();
  const me = await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: { authorization: `Bearer ${pair.access}` } });
  return {
    access: pair.access,
    refresh: pair.refresh,
    userId: me.json<{ id: number }>().id,
    publicId: phone,
    email: '',
    phone,
    auth: { authorization: `Bearer ${pair.access}` },
  };
}
