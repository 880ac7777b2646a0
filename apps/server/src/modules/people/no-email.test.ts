import { expect, it } from 'vitest';
import { AUTH_MESSAGES, PEOPLE_MESSAGES as M, STUDENT_CSV_COLUMNS, admissionNumberKey } from '@portal/domain';
import {
  describeEachDatabase,
  login,
  studentBody,
  TEST_PASSWORD,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';

/**
 * Pupils without an email (and without a phone of their own). A school's CSV of 80
 * JSS 1 pupils without emails was refused row by row ("Email is required"); the registration form
 * demanded both too. For students both are optional: the parents' phones are the contacts and the
 * pupil signs in with the admission number.
 */
describeEachDatabase('students without an email or phone', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, {}, (s) => ({ ctx, admin, staff } = s));

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, auth: SignedIn, payload?: Record<string, unknown>) =>
    payload === undefined
      ? ctx.app.inject({ method, url, headers: auth.auth })
      : ctx.app.inject({ method, url, headers: auth.auth, payload });

  function pupilsCsv(n: number): string {
    // The school's own file: no email or phone columns at all.
    const header = 'first_name,last_name,gender,date_of_birth,student_class,fathers_name,fathers_phone,mothers_name,home_address';
    const lines = Array.from(
      { length: n },
      (_, i) =>
        `Pupil${i + 1},Okafor,${i % 2 ? 'F' : 'M'},2014-0${(i % 9) + 1}-11,JSS 1A,Mr Okafor,0803${String(1000000 + i)},Mrs Okafor,2 Aba Road`,
    );
    return [header, ...lines].join('\n');
  }

  it('imports 80 JSS 1 pupils from a file with no email or phone column: slips without email, each signs in by admission number', async () => {
    const csv = pupilsCsv(80);
    const preview = await inject('POST', '/api/students/import/preview/', admin, { csv });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ rows: 80, valid: 80, errors: [], duplicates: [] });

    const res = await inject('POST', '/api/students/import/', admin, { csv });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.created).toBe(80);
    expect(body.accounts).toHaveLength(80);
    expect(body.accounts.every((a: { email: string | null }) => a.email === null)).toBe(true);
    // Each account got its own row: ids by position, not by (absent) email.
    const numbers = body.accounts.map((a: { public_id: string }) => a.public_id);
    expect(new Set(numbers).size).toBe(80);
    const stored = await ctx.handle.db
      .selectFrom('students')
      .innerJoin('users', 'users.id', 'students.user_id')
      .select(['students.admission_number', 'students.first_name', 'students.phone_number', 'users.email'])
      .where('students.admission_number', 'in', numbers)
      .execute();
    expect(stored).toHaveLength(80);
    for (const [i, a] of body.accounts.entries()) {
      const row = stored.find((r) => r.admission_number === a.public_id)!;
      expect(row).toMatchObject({ first_name: `Pupil${i + 1}`, email: null, phone_number: '' });
    }

    // The 40th pupil signs in with their number and one-time password from the slip.
    const pupil = body.accounts[39];
    const signedIn = await login(ctx.app, 'student', pupil.public_id, pupil.one_time_password);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data.admission_number).toBe(pupil.public_id);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/me/',
      headers: { authorization: `Bearer ${signedIn.json().data.access}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ role: 'student', email: null });

    // Lists, detail, export, new sign-ins and password reset all cope with the missing email.
    const list = await inject('GET', '/api/students/list/?student_class=JSS%201A', staff);
    expect(list.statusCode).toBe(200);
    const detail = await inject('GET', `/api/students/${pupil.public_id}/`, staff);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ admission_number: pupil.public_id, email: null, phone_number: '' });
    const exported = await inject('GET', '/api/students/export/', admin);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain(pupil.public_id);
    const fresh = await inject('GET', '/api/people/new-accounts/', admin);
    expect(fresh.statusCode).toBe(200);
    const reset = await inject('POST', `/api/students/${pupil.public_id}/reset-password/`, admin);
    expect(reset.statusCode).toBe(200);
    const again = await login(ctx.app, 'student', pupil.public_id, reset.json().one_time_password);
    expect(again.statusCode).toBe(200);
  });

  it('still refuses an invalid email, and a duplicate one, for students who give one', async () => {
    const header = STUDENT_CSV_COLUMNS.join(',');
    const line = (email: string) => `Ada,Eze,${email},,F,2013-02-02,JSS 1A,Mr Eze,,,,1 Lagos Rd`;
    const res = await inject('POST', '/api/students/import/preview/', admin, {
      csv: [header, line('not-an-email'), line(''), line('twin@pupil.school'), line('twin@pupil.school'), line('')].join('\n'),
    });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p.errors).toEqual([{ row: 2, field: 'email', message: M.invalidEmail }]);
    // Two blank emails are no duplicate of each other; two equal ones are.
    expect(p.duplicates).toEqual([{ row: 5, field: 'email', message: `${M.duplicateInFile} (row 4)` }]);
  });

  it('registers a student through the form without email or phone, twice, and an update may add then clear the email', async () => {
    const body = studentBody({ email: '', phone_number: '' });
    const a = await inject('POST', '/api/students/', staff, body);
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({ email: null, phone_number: '' });
    const { email: _e, phone_number: _p, ...withoutKeys } = studentBody();
    const b = await inject('POST', '/api/students/', staff, withoutKeys);
    expect(b.statusCode).toBe(201);
    expect(b.json().email).toBeNull();

    const n = a.json().admission_number as string;
    const full = { ...studentBody({ email: 'ada.later@pupil.school' }) };
    const added = await inject('PUT', `/api/students/${n}/`, staff, full);
    expect(added.statusCode).toBe(200);
    expect(added.json().email).toBe('ada.later@pupil.school');
    // The other pupil may not take the same email.
    const clash = await inject('PUT', `/api/students/${b.json().admission_number}/`, staff, full);
    expect(clash.statusCode).toBe(400);
    expect(clash.json().email).toEqual([M.emailTaken]);
    const cleared = await inject('PUT', `/api/students/${n}/`, staff, { ...full, email: '' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().email).toBeNull();
  });

  it('counts wrong passwords of an account without an email under its admission number, and the admin sees and clears the block', async () => {
    const created = await inject(
      'POST',
      '/api/students/',
      admin,
      studentBody({ email: '', password: TEST_PASSWORD, confirm_password: TEST_PASSWORD }),
    );
    expect(created.statusCode).toBe(201);
    const n = created.json().admission_number as string;
    for (let i = 0; i < ctx.config.loginLimits.perAccountFailures; i++)
      expect((await login(ctx.app, 'student', n.toLowerCase(), 'Wrong-pass-1')).statusCode).toBe(401);
    const blocked = await login(ctx.app, 'student', n);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errors.non_field_errors).toEqual([AUTH_MESSAGES.tooManyAttempts]);
    const blocks = await inject('GET', '/api/sign-in-blocks/', admin);
    expect(blocks.json().map((b: { email: string }) => b.email)).toContain(admissionNumberKey(n));
    const cleared = await inject('POST', '/api/sign-in-blocks/clear/', admin, { email: admissionNumberKey(n) });
    expect(cleared.statusCode).toBe(200);
    expect((await login(ctx.app, 'student', n)).statusCode).toBe(200);
  });

  it('keeps email and phone required for staff', async () => {
    const res = await inject('POST', '/api/staff/', admin, {
      username: 'nomail',
      first_name: 'Bola',
      last_name: 'Ade',
      email: '',
      phone_number: '',
      designation: 'Teacher',
      department: 'Sciences',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().email).toBeDefined();
    expect(res.json().phone_number).toBeDefined();
  });
});
