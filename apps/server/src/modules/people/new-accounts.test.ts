import { expect, it } from 'vitest';
import { withSchool, describeEachDatabase, signInStudent, type SignedIn, type TestContext } from '../../../test/helpers';
import { DEFAULT_SCHOOL_SETTINGS, todayIn } from '@portal/domain';

let seq = 0;
const student = () => ({
  first_name: 'Ngozi',
  last_name: `Day${++seq}`,
  email: `ngozi${seq}.${Date.now()}@slips.school`,
  phone_number: '08031234567',
  date_of_birth: '2012-03-09',
  student_class: 'JSS 1A',
  fathers_name: 'Mr Day',
  home_address: '1 Allen Avenue, Ikeja',
});

/** The day's new sign-ins, listed together (server side, never a password). */
describeEachDatabase("today's new sign-ins", (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, {}, (s) => ({ ctx, admin, staff } = s));

  const get = (auth: SignedIn | null, query = '') =>
    ctx.app.inject({ method: 'GET', url: `/api/people/new-accounts/${query}`, headers: auth?.auth ?? {} });

  it('lists every account registered today by form, oldest first, without passwords; staff see students only', async () => {
    const a = (await ctx.app.inject({ method: 'POST', url: '/api/students/', headers: staff.auth, payload: student() })).json();
    const b = (await ctx.app.inject({ method: 'POST', url: '/api/students/', headers: admin.auth, payload: student() })).json();
    const t = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/staff/',
        headers: admin.auth,
        payload: {
          username: `slip${Date.now()}`,
          email: `slip.${Date.now()}@slips.school`,
          first_name: 'Kunle',
          last_name: 'Ade',
          phone_number: '08051234567',
          designation: 'Teacher',
          department: 'Arts',
        },
      })
    ).json();
    expect(a.one_time_password).toEqual(expect.any(String));

    const res = await get(admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.date).toBe(todayIn(DEFAULT_SCHOOL_SETTINGS.time_zone));
    const ids = body.accounts.map((x: { public_id: string }) => x.public_id);
    expect(ids).toEqual(expect.arrayContaining([a.admission_number, b.admission_number, t.staff_id]));
    expect(ids.indexOf(a.admission_number)).toBeLessThan(ids.indexOf(b.admission_number));
    expect(body.accounts.find((x: { public_id: string }) => x.public_id === a.admission_number)).toMatchObject({
      kind: 'student',
      first_name: 'Ngozi',
      group: 'JSS 1A',
      email: a.email,
      must_change_password: true,
    });
    expect(res.body).not.toMatch(/password_hash|argon2|one_time_password/);
    expect(res.body).not.toContain(a.one_time_password);

    const forStaff = (await get(staff)).json();
    expect(forStaff.accounts.map((x: { kind: string }) => x.kind)).not.toContain('staff');
    expect(forStaff.accounts.map((x: { public_id: string }) => x.public_id)).toEqual(
      expect.arrayContaining([a.admission_number, b.admission_number]),
    );
  });

  it('another day holds other accounts; a bad date is refused; students and strangers may not look', async () => {
    expect((await get(admin, '?date=2001-01-01')).json()).toEqual({ date: '2001-01-01', accounts: [] });
    expect((await get(admin, '?date=2001-02-31')).statusCode).toBe(400);
    const pupil = await signInStudent(ctx);
    expect((await get(pupil)).statusCode).toBe(403);
    expect((await get(null)).statusCode).toBe(401);
  });
});
