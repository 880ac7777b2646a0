import { afterAll, beforeAll, expect, it } from 'vitest';
import { GENERAL_MESSAGES, PEOPLE_MESSAGES } from '@portal/domain';
import { createTestContext, describeEachDatabase, signInAdmin, signInStudent, type SignedIn, type TestContext } from '../../test/helpers';

describeEachDatabase('path params: a malformed id is refused before any service', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    admin = await signInAdmin(ctx);
  });
  afterAll(() => ctx.close());

  it.each([
    ['GET', '/api/staff/id/abc/'],
    ['GET', '/api/staff/id/-1/'],
    ['GET', '/api/staff/id/1.5/'],
    ['DELETE', '/api/payments/fee-schedules/99999999999/'],
    ['PATCH', '/api/sessions/0/'],
    ['DELETE', '/api/results/1e99/'],
    ['DELETE', '/api/results/publications/x/'],
  ])('%s %s: 400 with the id message', async (method, url) => {
    const res = await ctx.app.inject({ method: method as 'GET', url, headers: admin.auth, payload: method === 'GET' ? undefined : {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ id: [GENERAL_MESSAGES.invalidId] });
  });

  it('an admission number with characters no number has is a 400 with the admission number rule', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/students/${encodeURIComponent('STU 0001')}/`, headers: admin.auth });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ admission_number: [PEOPLE_MESSAGES.invalidAdmissionNumber] });
  });

  it('a well-formed admission number in lower case still finds the student; an unknown one is a 404', async () => {
    const student = await signInStudent(ctx, { firstName: 'Lower', lastName: 'Case' });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/students/${student.admissionNumber.toLowerCase()}/`,
      headers: admin.auth,
    });
    expect(res.statusCode).toBe(200);
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/students/NOPE-0000/', headers: admin.auth });
    expect(missing.statusCode).toBe(404);
  });

  it('a staff ID with characters no staff ID has is a 400; digits stay a 404 (the screens then try the internal id)', async () => {
    const bad = await ctx.app.inject({ method: 'GET', url: `/api/staff/${encodeURIComponent('<b>')}/`, headers: admin.auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ staff_id: [PEOPLE_MESSAGES.invalidStaffId] });
    const digits = await ctx.app.inject({ method: 'GET', url: '/api/staff/12345/', headers: admin.auth });
    expect(digits.statusCode).toBe(404);
    expect(digits.json()).toEqual({ detail: PEOPLE_MESSAGES.staffNotFound });
  });
});
