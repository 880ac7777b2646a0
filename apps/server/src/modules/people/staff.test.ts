import { afterAll, beforeAll, expect, it } from 'vitest';
import { AUTH_MESSAGES, PEOPLE_MESSAGES as M, dateDoesNotExist } from '@portal/domain';
import {
  createTestContext,
  describeEachDatabase,
  login,
  signInAdmin,
  signInStaff,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';

let seq = 0;
function staffBody(over: Record<string, unknown> = {}) {
  seq++;
  const tag = `${seq}${Date.now().toString(36)}`;
  return {
    username: `tutor${tag}`,
    email: `tutor${tag}@staff.school`,
    first_name: 'Kunle',
    last_name: 'Ajayi',
    phone_number: '08051112222',
    gender: 'M',
    password: '',
    designation: 'Physics Teacher',
    marital_status: 'M',
    department: 'Sciences',
    user_type: 2,
    ...over,
  };
}

describeEachDatabase('staff API', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let teacher: SignedIn & { staffId: string; id: number };
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    admin = await signInAdmin(ctx);
    teacher = await signInStaff(ctx, { firstName: 'Grace', lastName: 'Okafor' });
  });
  afterAll(() => ctx.close());

  const create = (auth: SignedIn, payload: unknown, url = '/api/staff/') =>
    ctx.app.inject({ method: 'POST', url, headers: auth.auth, payload: payload as object });

  it('admin registers staff at /api/staff/ and the alias /api/api/staff/, with a one-time password', async () => {
    for (const url of ['/api/staff/', '/api/api/staff/']) {
      const res = await create(admin, staffBody({ staff_id: 'STAFF-9999', role: 'admin' }), url);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.body).not.toMatch(/argon2|password_hash/);
      const body = res.json();
      expect(body.staff_id).toMatch(/^STAFF-\d{4}$/);
      expect(body.staff_id).not.toBe('STAFF-9999');
      expect(body).toMatchObject({
        user: { first_name: 'Kunle', last_name: 'Ajayi', user_type: 2 },
        designation: 'Physics Teacher',
        marital_status: 'M',
        user_type: 2,
        must_change_password: true,
      });
      expect(body.data).toMatchObject({ staff_id: body.staff_id, profile_data: { qualifications: null } });
      const signIn = await login(ctx.app, 'staff', body.email, body.one_time_password);
      expect(signIn.json().data).toMatchObject({ staff_id: body.staff_id, must_change_password: true });
      const user = await ctx.handle.db.selectFrom('users').select('role').where('email', '=', body.email).executeTakeFirstOrThrow();
      expect(user.role).toBe('staff');
    }
  });

  it('only an admin registers, updates, deletes and resets staff', async () => {
    const target = (await create(admin, staffBody())).json();
    const calls = [
      ['POST', '/api/staff/', staffBody()],
      ['POST', '/api/api/staff/', staffBody()],
      ['PUT', `/api/staff/${target.staff_id}/`, { first_name: 'X' }],
      ['DELETE', `/api/staff/${target.staff_id}/`, undefined],
      ['DELETE', `/api/staffBase/${target.id}`, undefined],
      ['POST', `/api/staff/${target.staff_id}/reset-password/`, undefined],
      ['POST', '/api/staff/import/', { csv: 'a' }],
      ['GET', '/api/staff/import/template/', undefined],
    ] as const;
    for (const [method, url, payload] of calls) {
      const res = await ctx.app.inject({ method, url, headers: teacher.auth, payload: payload as object | undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ detail: AUTH_MESSAGES.forbidden });
    }
    const still = await ctx.app.inject({ method: 'GET', url: `/api/staff/${target.staff_id}/`, headers: admin.auth });
    expect(still.json().first_name).toBe('Kunle');
  });

  it('enforces the staff registration rules with their messages', async () => {
    const empty = await create(admin, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      username: ['Username is required'],
      first_name: ['First name is required'],
      last_name: ['Last name is required'],
      email: ['Email is required'],
      phone_number: ['Phone number is required'],
      designation: ['Designation is required'],
      department: ['Department is required'],
    });
    const bad = await create(
      admin,
      staffBody({
        email: 'bad@',
        phone_number: '0801234',
        gender: 'Q',
        marital_status: 'X',
        username: 'has space',
        profile_data: { employment_date: '2020-13-01' },
      }),
    );
    expect(bad.json()).toEqual({
      email: ['Invalid email format'],
      phone_number: ['Invalid phone number format'],
      gender: [M.invalidGender],
      marital_status: [M.invalidMaritalStatus],
      username: [M.invalidUsername],
      'profile_data.employment_date': [dateDoesNotExist('2020-13-01')],
    });
    expect((await create(admin, staffBody({ phone_number: '1234567890123456' }))).json()).toEqual({
      phone_number: ['Invalid phone number format'],
    });
    expect((await create(admin, staffBody({ phone_number: '123456789012345' }))).statusCode).toBe(201);
  });

  it('email and username are unique', async () => {
    const first = (await create(admin, staffBody())).json();
    expect((await create(admin, staffBody({ email: first.email.toUpperCase() }))).json()).toEqual({ email: [M.emailTaken] });
    expect((await create(admin, staffBody({ username: first.username.toUpperCase() }))).json()).toEqual({ username: [M.usernameTaken] });
    expect((await create(admin, staffBody({ email: admin.email }))).json()).toEqual({ email: [M.emailTaken] });
  });

  it('30 simultaneous registrations get 30 distinct staff ids', async () => {
    const res = await Promise.all(Array.from({ length: 30 }, () => create(admin, staffBody({ password: 'Staff-Pass-123' }))));
    for (const r of res) expect(r.statusCode, r.body).toBe(201);
    expect(new Set(res.map((r) => r.json().staff_id)).size).toBe(30);
  });

  it('staff and admin list staff; a student may not', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/staff/list/', headers: teacher.auth });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/argon2|password_hash|bank_account|tax_id/);
    const me = res.json().find((s: { staff_id: string }) => s.staff_id === teacher.staffId);
    expect(me).toMatchObject({ first_name: 'Grace', last_name: 'Okafor', designation: 'Teacher', user_type: 2 });
    const paged = await ctx.app.inject({ method: 'GET', url: '/api/staff/list/?limit=2&offset=1', headers: admin.auth });
    expect(paged.json()).toHaveLength(2);
    const searched = await ctx.app.inject({ method: 'GET', url: '/api/staff/list/?q=okafor', headers: admin.auth });
    expect(searched.json().map((s: { staff_id: string }) => s.staff_id)).toContain(teacher.staffId);
  });

  it('GET one staff member: flat and under data with profile_data; bank and tax details only for admin or self', async () => {
    const created = (
      await create(
        admin,
        staffBody({
          profile_data: { qualifications: 'B.Sc. Physics', employment_date: '2019-09-01', bank_account: '0123456789', tax_id: 'TIN-1' },
        }),
      )
    ).json();
    const asAdmin = await ctx.app.inject({ method: 'GET', url: `/api/staff/${created.staff_id}/`, headers: admin.auth });
    expect(asAdmin.json()).toMatchObject({
      staff_id: created.staff_id,
      profile_data: { qualifications: 'B.Sc. Physics', employment_date: '2019-09-01', bank_account: '0123456789', tax_id: 'TIN-1' },
      data: { staff_id: created.staff_id, first_name: 'Kunle', profile_data: { bank_account: '0123456789' } },
    });
    const asOtherStaff = await ctx.app.inject({
      method: 'GET',
      url: `/api/staff/${created.staff_id.toLowerCase()}/`,
      headers: teacher.auth,
    });
    expect(asOtherStaff.statusCode).toBe(200);
    expect(asOtherStaff.json().profile_data).toEqual({
      qualifications: 'B.Sc. Physics',
      employment_date: '2019-09-01',
      bank_account: null,
      tax_id: null,
    });
    const self = await ctx.app.inject({ method: 'GET', url: `/api/staff/${teacher.staffId}/`, headers: teacher.auth });
    expect(self.json().data.profile_data).toHaveProperty('bank_account');
    const byId = await ctx.app.inject({ method: 'GET', url: `/api/staff/id/${created.id}/`, headers: teacher.auth });
    expect(byId.json()).toMatchObject({ staff_id: created.staff_id, data: { staff_id: created.staff_id } });
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/staff/STAFF-9999/', headers: admin.auth });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: M.staffNotFound });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/staff/id/999999/', headers: admin.auth })).statusCode).toBe(404);
  });

  it('PUT updates only the fields sent, validates those, and never the staff id or role', async () => {
    const created = (await create(admin, staffBody())).json();
    const url = `/api/staff/${created.staff_id}/`;
    const res = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: admin.auth,
      payload: { department: 'Languages', staff_id: 'STAFF-0001', role: 'admin', user_type: 1, profile_data: { qualifications: 'PGDE' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      staff_id: created.staff_id,
      department: 'Languages',
      first_name: 'Kunle',
      designation: 'Physics Teacher',
      profile_data: { qualifications: 'PGDE' },
    });
    const user = await ctx.handle.db.selectFrom('users').select('role').where('email', '=', created.email).executeTakeFirstOrThrow();
    expect(user.role).toBe('staff');
    const blank = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: admin.auth,
      payload: { first_name: '', last_name: '', email: '', designation: '', department: '' },
    });
    expect(blank.json()).toEqual({
      first_name: [M.firstNameRequired],
      last_name: [M.lastNameRequired],
      email: [M.emailRequired],
      designation: [M.designationRequired],
      department: [M.departmentRequired],
    });
    const taken = await ctx.app.inject({ method: 'PUT', url, headers: admin.auth, payload: { email: teacher.email } });
    expect(taken.json()).toEqual({ email: [M.emailTaken] });
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'staff')
      .where('entity_id', '=', created.staff_id)
      .where('action', '=', 'update')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.before!).department).toBe('Sciences');
  });

  it('delete removes the account and ends its sessions, audited; legacy routes answer in legacy shapes', async () => {
    const victim = await signInStaff(ctx, { firstName: 'Leaving', lastName: 'Soon' });
    const legacy = await ctx.app.inject({ method: 'GET', url: `/api/staffBase/${victim.id}`, headers: teacher.auth });
    expect(legacy.json()).toEqual({
      _id: victim.id,
      firstName: 'Leaving',
      lastName: 'Soon',
      gender: 'F',
      email: victim.email,
      userName: victim.email.split('@')[0],
      maritalStatus: 'S',
      designation: 'Teacher',
      staffId: victim.staffId,
    });
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/staff/${victim.staffId}/`, headers: admin.auth });
    expect(res.statusCode).toBe(204);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: victim.auth })).statusCode).toBe(401);
    expect(await ctx.handle.db.selectFrom('users').select('id').where('id', '=', victim.userId).executeTakeFirst()).toBeUndefined();
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'staff')
      .where('entity_id', '=', victim.staffId)
      .where('action', '=', 'delete')
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBe(admin.userId);
    expect(JSON.parse(audit.before!)).toMatchObject({ first_name: 'Leaving', email: victim.email });
    expect(audit.before).not.toMatch(/argon2|password/);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/staff/${victim.staffId}/`, headers: admin.auth })).statusCode).toBe(404);

    const other = await signInStaff(ctx);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/staffBase/${other.id}`, headers: admin.auth })).statusCode).toBe(204);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/staffBase/${other.id}`, headers: admin.auth })).statusCode).toBe(404);
  });

  it('admin resets a staff password to a new one-time password', async () => {
    const target = await signInStaff(ctx);
    const res = await ctx.app.inject({ method: 'POST', url: `/api/staff/${target.staffId}/reset-password/`, headers: admin.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().detail).toBe(M.passwordReset);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: target.auth })).statusCode).toBe(401);
    const signIn = await login(ctx.app, 'staff', target.email, res.json().one_time_password);
    expect(signIn.json().data.must_change_password).toBe(true);
  });

  it('exports the staff list as CSV without bank or tax details', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/staff/export/', headers: teacher.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header] = res.body.replace(/^\uFEFF/, '').split('\n');
    expect(header).toBe(
      'staff_id,username,first_name,last_name,email,phone_number,gender,designation,department,marital_status,qualifications,employment_date',
    );
    expect(res.body).toContain(teacher.staffId);
  });
});
