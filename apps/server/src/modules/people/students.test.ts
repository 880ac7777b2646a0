import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, PASSWORD_CHANGE_REQUIRED_CODE, PEOPLE_MESSAGES as M, dateDoesNotExist } from '@portal/domain';
import { createResults, createSession } from '../../db/factories';
import { nowIso } from '../../db/index';
import {
  auditRow,
  studentBody,
  withSchool,
  describeEachDatabase,
  login,
  signInStudent,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';

/** No response of the people API may carry a password hash. */
function expectNoHash(body: string) {
  expect(body).not.toMatch(/argon2|password_hash/);
}

describeEachDatabase('students API', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn;
  withSchool(dialect, {}, (s) => ({ ctx, admin, staff } = s));

  const post = (auth: SignedIn, payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/students/', headers: auth.auth, payload: payload as object });

  describe('registration (POST /api/students/)', () => {
    it('creates a student with a server-assigned admission number and a one-time password', async () => {
      const res = await post(admin, studentBody({ role: 'admin', admission_number: 'STU-9999', user_type: 1 }));
      expect(res.statusCode).toBe(201);
      expectNoHash(res.body);
      const body = res.json();
      expect(body.admission_number).toMatch(/^STU-\d{4}$/);
      expect(body.admission_number).not.toBe('STU-9999');
      expect(body).toMatchObject({
        first_name: 'Chiamaka',
        last_name: 'Obi',
        gender: 'F',
        date_of_birth: '2012-03-09',
        student_class: 'JSS 2A',
        class_name: 'JSS 2A',
        user_type: 3,
        must_change_password: true,
        user: { first_name: 'Chiamaka', last_name: 'Obi', user_type: 3 },
      });
      expect(body.one_time_password).toMatch(/^[A-Za-z2-9]{4}-[A-Za-z2-9]{4}-[A-Za-z2-9]{4}$/);
      // The account is a student, not an admin, whatever the body said.
      const user = await ctx.handle.db.selectFrom('users').selectAll().where('email', '=', body.email).executeTakeFirstOrThrow();
      expect(user.role).toBe('student');
      expect(user.must_change_password).toBe(1);
      expect(user.password_hash).not.toContain(body.one_time_password);
      // Audited.
      const audit = await auditRow(ctx, 'student', body.admission_number, 'create');
      expect(audit).toMatchObject({ action: 'create', actor_user_id: admin.userId });
      expect(audit.after).not.toMatch(/argon2|password/);
    });

    it('the one-time password signs in once and must be changed before anything else', async () => {
      const res = await post(staff, studentBody());
      const { email, one_time_password: otp, admission_number } = res.json();
      const signIn = await login(ctx.app, 'student', email, otp);
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json().data).toMatchObject({ must_change_password: true, admission_number });
      const auth = { authorization: `Bearer ${signIn.json().data.access}` };
      const blocked = await ctx.app.inject({ method: 'GET', url: '/api/students/list/', headers: auth });
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json()).toEqual({ detail: AUTH_MESSAGES.passwordChangeRequired, code: PASSWORD_CHANGE_REQUIRED_CODE });
      const change = await ctx.app.inject({
        method: 'POST',
        url: '/api/password/change/',
        headers: auth,
        payload: { old_password: otp, new_password: 'My-Own-Secret-42' },
      });
      expect(change.statusCode).toBe(200);
      const fresh = { authorization: `Bearer ${change.json().access}` };
      const mine = await ctx.app.inject({ method: 'GET', url: '/api/students/list/', headers: fresh });
      expect(mine.statusCode).toBe(200);
      expect(mine.json().map((s: { admission_number: string }) => s.admission_number)).toEqual([admission_number]);
      expect((await login(ctx.app, 'student', email, otp)).statusCode).toBe(401);
    });

    it('a password given at registration works as sent and must still be changed at first sign-in', async () => {
      const res = await post(admin, studentBody({ password: 'Chosen-Pass-77', confirm_password: 'Chosen-Pass-77' }));
      expect(res.statusCode).toBe(201);
      expect(res.json().one_time_password).toBeUndefined();
      expect(res.json().must_change_password).toBe(true);
      const signIn = await login(ctx.app, 'student', res.json().email, 'Chosen-Pass-77');
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json().data.must_change_password).toBe(true);
    });

    it('enforces every required field with its message', async () => {
      const res = await post(admin, {});
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        first_name: [M.firstNameRequired],
        last_name: [M.lastNameRequired],
        // Email and phone are optional for students.
        date_of_birth: [M.dateOfBirthRequired],
        student_class: [M.classRequired],
        fathers_name: [M.fathersNameRequired],
        home_address: [M.homeAddressRequired],
      });
      const blank = await post(admin, studentBody({ first_name: '  ', email: '', home_address: '' }));
      expect(blank.json()).toEqual({
        first_name: ['First name is required'],
        home_address: ['Home address is required'],
      });
    });

    it('checks formats: email, phone 10-15 digits, gender and class codes, real past dates, passwords', async () => {
      const res = await post(
        admin,
        studentBody({
          email: 'not-an-email',
          phone_number: '12345',
          fathers_phone: '0803-ABC',
          gender: 'X',
          student_class: 'JSS 4C',
          date_of_birth: '2011-02-30',
          password: 'short',
        }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        email: ['Invalid email format'],
        phone_number: ['Invalid phone number format'],
        fathers_phone: ['Invalid phone number format'],
        gender: [M.invalidGender],
        student_class: [M.invalidClass],
        date_of_birth: [dateDoesNotExist('2011-02-30')],
        password: [AUTH_MESSAGES.passwordTooShort],
      });
      const future = await post(admin, studentBody({ date_of_birth: '2999-01-01', phone_number: '+234 803 123 4567 8901' }));
      expect(future.json()).toEqual({ date_of_birth: [M.dateInFuture], phone_number: ['Invalid phone number format'] });
      const datetime = await post(admin, studentBody({ date_of_birth: '2011-05-14T10:00:00Z' }));
      expect(datetime.json()).toEqual({ date_of_birth: [M.invalidDate] });
      const mismatch = await post(admin, studentBody({ password: 'Chosen-Pass-77', confirm_password: 'Chosen-Pass-78' }));
      expect(mismatch.json()).toEqual({ confirm_password: ['Passwords do not match'] });
      // Phones are stored as digits (spaces and hyphens dropped); 15 digits and a leading + are fine.
      const ok = await post(admin, studentBody({ phone_number: '+234 803-123-4567' }));
      expect(ok.statusCode).toBe(201);
      expect(ok.json().phone_number).toBe('+2348031234567');
    });

    it('email is unique across every account (students, staff, admins), case-insensitively', async () => {
      const first = await post(admin, studentBody({ email: 'same@pupil.school' }));
      expect(first.statusCode).toBe(201);
      const again = await post(admin, studentBody({ email: 'SAME@pupil.school' }));
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ email: [M.emailTaken] });
      const staffEmail = await post(admin, studentBody({ email: staff.email }));
      expect(staffEmail.json()).toEqual({ email: [M.emailTaken] });
    });

    it('30 simultaneous registrations get 30 distinct admission numbers', async () => {
      const responses = await Promise.all(Array.from({ length: 30 }, () => post(admin, studentBody({ password: 'Chosen-Pass-77' }))));
      for (const r of responses) expect(r.statusCode, r.body).toBe(201);
      const numbers = responses.map((r) => r.json().admission_number as string);
      expect(new Set(numbers).size).toBe(30);
      const counter = await ctx.handle.db.selectFrom('counters').select('value').where('name', '=', 'student').executeTakeFirstOrThrow();
      const max = Math.max(...numbers.map((n) => Number(n.slice(4))));
      expect(counter.value).toBe(max);
    });

    it('only admin and staff register students', async () => {
      const student = await signInStudent(ctx);
      expect((await post(student, studentBody())).statusCode).toBe(403);
      expect((await ctx.app.inject({ method: 'POST', url: '/api/students/', payload: studentBody() })).statusCode).toBe(401);
    });
  });

  describe('reading', () => {
    it('lists students with the spec filters, paging and a search', async () => {
      const a = await post(admin, studentBody({ first_name: 'Zed', last_name: 'Filterton', student_class: 'SSS 3B' }));
      const b = await post(admin, studentBody({ first_name: 'Yemi', last_name: 'Filterton', student_class: 'SSS 3B' }));
      await post(admin, studentBody({ first_name: 'Xavier', last_name: 'Other', student_class: 'SSS 3A' }));
      const list = await ctx.app.inject({ method: 'GET', url: '/api/students/list/?student_class=SSS%203B', headers: staff.auth });
      expect(list.statusCode).toBe(200);
      expectNoHash(list.body);
      expect(list.json().map((s: { first_name: string }) => s.first_name)).toEqual(['Yemi', 'Zed']);
      const all = await ctx.app.inject({ method: 'GET', url: '/api/students/list/?student_class=All', headers: staff.auth });
      expect(all.json().length).toBeGreaterThan(2);
      const paged = await ctx.app.inject({
        method: 'GET',
        url: '/api/students/list/?student_class=SSS%203B&limit=1&offset=1',
        headers: staff.auth,
      });
      expect(paged.json().map((s: { first_name: string }) => s.first_name)).toEqual(['Zed']);
      const search = await ctx.app.inject({ method: 'GET', url: '/api/students/search/?q=filterton&limit=1', headers: admin.auth });
      expect(search.json()).toMatchObject({ count: 2, results: [{ first_name: 'Yemi' }] });
      const byNumber = await ctx.app.inject({
        method: 'GET',
        url: `/api/students/search/?q=${a.json().admission_number}`,
        headers: admin.auth,
      });
      expect(byNumber.json().count).toBe(1);
      expect(b.statusCode).toBe(201);
      const bad = await ctx.app.inject({ method: 'GET', url: '/api/students/list/?student_class=JSS%209Z&term=4th', headers: admin.auth });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toHaveProperty('student_class');
      expect(bad.json()).toHaveProperty('term');
    });

    it('filters by session and term: students with results then, in the class they were in', async () => {
      const session = await createSession(ctx.handle.db, '2031/2032');
      const withResults = await post(admin, studentBody({ student_class: 'JSS 3B' }));
      await post(admin, studentBody({ student_class: 'JSS 3B' }));
      const row = await ctx.handle.db
        .selectFrom('students')
        .select('id')
        .where('admission_number', '=', withResults.json().admission_number)
        .executeTakeFirstOrThrow();
      await createResults(ctx.handle.db, [
        { studentId: row.id, sessionId: session.id, term: '2nd', arm: 'JSS 2B', subject: 'French', score: 70 },
      ]);
      const q = (s: string) => ctx.app.inject({ method: 'GET', url: `/api/students/list/?${s}`, headers: staff.auth });
      const numbers = async (s: string) => (await q(s)).json().map((x: { admission_number: string }) => x.admission_number);
      expect(await numbers(`session_id=${session.id}&term=2nd`)).toEqual([withResults.json().admission_number]);
      expect(await numbers(`session_id=${session.id}&term=2nd&student_class=JSS%202B`)).toEqual([withResults.json().admission_number]);
      expect(await numbers(`session_id=${session.id}&term=1st`)).toEqual([]);
    });

    it('a student sees only their own record, never another student', async () => {
      const me = await signInStudent(ctx, { firstName: 'Own', lastName: 'Record' });
      const other = await post(admin, studentBody());
      const list = await ctx.app.inject({ method: 'GET', url: '/api/students/list/?student_class=All', headers: me.auth });
      expect(list.json()).toHaveLength(1);
      expect(list.json()[0]).toMatchObject({ admission_number: me.admissionNumber, first_name: 'Own' });
      const search = await ctx.app.inject({ method: 'GET', url: '/api/students/search/', headers: me.auth });
      expect(search.json().count).toBe(1);
      const own = await ctx.app.inject({ method: 'GET', url: `/api/students/${me.admissionNumber}/`, headers: me.auth });
      expect(own.statusCode).toBe(200);
      expectNoHash(own.body);
      const theirs = await ctx.app.inject({ method: 'GET', url: `/api/students/${other.json().admission_number}/`, headers: me.auth });
      expect(theirs.statusCode).toBe(403);
      const legacyOther = await ctx.app.inject({ method: 'GET', url: `/api/studentBase/${other.json().id}`, headers: me.auth });
      expect(legacyOther.statusCode).toBe(403);
      for (const [method, url] of [
        ['PUT', `/api/students/${me.admissionNumber}/`],
        ['DELETE', `/api/students/${me.admissionNumber}/`],
        ['POST', `/api/students/${me.admissionNumber}/reset-password/`],
        ['GET', '/api/students/export/'],
        ['DELETE', `/api/studentBase/${me.id}`],
        ['GET', '/api/staff/list/'],
      ] as const) {
        const r = await ctx.app.inject({ method, url, headers: me.auth, payload: method === 'PUT' ? studentBody() : undefined });
        expect(r.statusCode, `${method} ${url}`).toBe(403);
      }
    });

    it('GET one student: spec shape, lower-case admission number accepted, 404 message', async () => {
      const created = (await post(admin, studentBody())).json();
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/students/${created.admission_number.toLowerCase()}/`,
        headers: staff.auth,
      });
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(
        [
          'id',
          'admission_number',
          'first_name',
          'last_name',
          'email',
          'phone_number',
          'gender',
          'date_of_birth',
          'student_class',
          'class_name',
          'fathers_name',
          'fathers_phone',
          'mothers_name',
          'mothers_phone',
          'home_address',
          'status',
          'withdrawn_at',
          'user_type',
          'user',
          // Beyond the spec's shape: the report card photo, '' when none.
          'photo',
        ].sort(),
      );
      const missing = await ctx.app.inject({ method: 'GET', url: '/api/students/STU-9999/', headers: staff.auth });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: M.studentNotFound });
    });

    it('legacy GET /api/studentBase/{id} answers in the legacy camelCase shape', async () => {
      const created = (await post(admin, studentBody({ first_name: 'Legacy' }))).json();
      const res = await ctx.app.inject({ method: 'GET', url: `/api/studentBase/${created.id}`, headers: staff.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        _id: created.id,
        firstName: 'Legacy',
        lastName: 'Obi',
        email: created.email,
        UserName: created.admission_number,
        arm: 'JSS 2A',
        gender: 'F',
        dateOfBirth: '2012-03-09',
        fathersName: 'Mr Obi',
        fathersPhoneNumber: '08039998888',
        mothersName: 'Mrs Obi',
        mothersPhoneNumber: '',
        homeAddress: '12 Awolowo Road, Ikoyi',
        admissionNumber: created.admission_number,
      });
      expect((await ctx.app.inject({ method: 'GET', url: '/api/studentBase/999999', headers: staff.auth })).statusCode).toBe(404);
    });
  });

  describe('update (PUT /api/students/{admission_number}/)', () => {
    it('updates the spec fields, ignores fields the caller does not own, and audits', async () => {
      const created = (await post(admin, studentBody())).json();
      const res = await ctx.app.inject({
        method: 'PUT',
        url: `/api/students/${created.admission_number}/`,
        headers: staff.auth,
        payload: {
          first_name: 'Ngozi',
          last_name: 'Obi',
          email: `NEW.${created.email}`,
          date_of_birth: '2012-04-01',
          student_class: 'JSS 3A',
          gender: 'F',
          fathers_name: 'Chief Obi',
          fathers_phone: '08030000001',
          mothers_name: '',
          mothers_phone: '',
          home_address: '1 Marina, Lagos',
          admission_number: 'STU-0001',
          role: 'admin',
          user_type: 1,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        admission_number: created.admission_number,
        first_name: 'Ngozi',
        email: `new.${created.email}`,
        student_class: 'JSS 3A',
        date_of_birth: '2012-04-01',
        mothers_name: '',
        phone_number: '08031234567',
      });
      const user = await ctx.handle.db
        .selectFrom('users')
        .select('role')
        .where('email', '=', `new.${created.email}`)
        .executeTakeFirstOrThrow();
      expect(user.role).toBe('student');
      const audit = await auditRow(ctx, 'student', created.admission_number, 'update');
      expect(JSON.parse(audit.before!).first_name).toBe('Chiamaka');
      expect(JSON.parse(audit.after!).first_name).toBe('Ngozi');
    });

    it('requires first name and last name (email optional); a given password must match its confirmation', async () => {
      const created = (await post(admin, studentBody())).json();
      const url = `/api/students/${created.admission_number}/`;
      const res = await ctx.app.inject({ method: 'PUT', url, headers: admin.auth, payload: { first_name: '' } });
      expect(res.json()).toEqual({ first_name: [M.firstNameRequired], last_name: [M.lastNameRequired] });
      const mismatch = await ctx.app.inject({
        method: 'PUT',
        url,
        headers: admin.auth,
        payload: { first_name: 'A', last_name: 'B', email: created.email, password: 'New-Pass-123', confirm_password: 'Other-Pass-123' },
      });
      expect(mismatch.json()).toEqual({ confirm_password: [M.passwordsDoNotMatch] });
      const taken = await ctx.app.inject({
        method: 'PUT',
        url,
        headers: admin.auth,
        payload: { first_name: 'A', last_name: 'B', email: staff.email },
      });
      expect(taken.json()).toEqual({ email: [M.emailTaken] });
      const missing = await ctx.app.inject({
        method: 'PUT',
        url: '/api/students/STU-9999/',
        headers: admin.auth,
        payload: { first_name: 'A', last_name: 'B', email: 'x@y.school' },
      });
      expect(missing.statusCode).toBe(404);
    });

    it('a blank password keeps the current one; a new one must be changed at next sign-in and ends old sessions', async () => {
      const created = (await post(admin, studentBody({ password: 'First-Pass-123' }))).json();
      const url = `/api/students/${created.admission_number}/`;
      const base = { first_name: 'A', last_name: 'B', email: created.email };
      expect((await ctx.app.inject({ method: 'PUT', url, headers: admin.auth, payload: { ...base, password: '' } })).statusCode).toBe(200);
      expect((await login(ctx.app, 'student', created.email, 'First-Pass-123')).statusCode).toBe(200);
      const session = (await login(ctx.app, 'student', created.email, 'First-Pass-123')).json().data;
      const set = await ctx.app.inject({
        method: 'PUT',
        url,
        headers: admin.auth,
        payload: { ...base, password: 'Second-Pass-123', confirm_password: 'Second-Pass-123' },
      });
      expect(set.statusCode).toBe(200);
      expectNoHash(set.body);
      const old = await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: { authorization: `Bearer ${session.access}` } });
      expect(old.statusCode).toBe(401);
      const refresh = await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: session.refresh } });
      expect(refresh.statusCode).toBe(401);
      const again = await login(ctx.app, 'student', created.email, 'Second-Pass-123');
      expect(again.json().data.must_change_password).toBe(true);
    });
  });

  describe('password reset', () => {
    it('admin and staff reset a student to a new one-time password; old sessions end', async () => {
      const created = (await post(admin, studentBody({ password: 'First-Pass-123' }))).json();
      const session = (await login(ctx.app, 'student', created.email, 'First-Pass-123')).json().data;
      for (const who of [admin, staff]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: `/api/students/${created.admission_number}/reset-password/`,
          headers: who.auth,
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ detail: M.passwordReset, one_time_password: expect.stringMatching(/^\S{4}-\S{4}-\S{4}$/) });
        const signIn = await login(ctx.app, 'student', created.email, res.json().one_time_password);
        expect(signIn.json().data.must_change_password).toBe(true);
      }
      expect((await login(ctx.app, 'student', created.email, 'First-Pass-123')).statusCode).toBe(401);
      const old = await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: { authorization: `Bearer ${session.access}` } });
      expect(old.statusCode).toBe(401);
      const audit = await ctx.handle.db
        .selectFrom('audit_log')
        .select('action')
        .where('entity_id', '=', created.admission_number)
        .where('action', '=', 'reset_password')
        .execute();
      expect(audit).toHaveLength(2);
    });
  });

  describe('deletion', () => {
    it('deletes the account, profile, results and attendance in one transaction, audited without the hash', async () => {
      const victim = await signInStudent(ctx, { firstName: 'Gone', lastName: 'Soon' });
      const session = await createSession(ctx.handle.db, '2040/2041');
      await createResults(ctx.handle.db, [
        { studentId: victim.id, sessionId: session.id, term: '1st', arm: 'JSS 1A', subject: 'Mathematics', score: 55 },
        { studentId: victim.id, sessionId: session.id, term: '1st', arm: 'JSS 1A', subject: 'French', score: 65 },
      ]);
      await ctx.handle.db
        .insertInto('attendance')
        .values({ student_id: victim.id, date: nowIso().slice(0, 10), status: 'present' })
        .execute();
      const res = await ctx.app.inject({ method: 'DELETE', url: `/api/students/${victim.admissionNumber}/`, headers: staff.auth });
      expect(res.statusCode).toBe(204);
      const db = ctx.handle.db;
      expect(await db.selectFrom('users').select('id').where('id', '=', victim.userId).executeTakeFirst()).toBeUndefined();
      expect(await db.selectFrom('students').select('id').where('id', '=', victim.id).executeTakeFirst()).toBeUndefined();
      expect(await db.selectFrom('results').select('id').where('student_id', '=', victim.id).execute()).toEqual([]);
      expect(await db.selectFrom('attendance').select('id').where('student_id', '=', victim.id).execute()).toEqual([]);
      expect(await db.selectFrom('refresh_tokens').select('id').where('user_id', '=', victim.userId).execute()).toEqual([]);
      const audit = await auditRow(ctx, 'student', victim.admissionNumber, 'delete');
      expect(audit.actor_user_id).toBe(staff.userId);
      const before = JSON.parse(audit.before!);
      expect(before).toMatchObject({ first_name: 'Gone', email: victim.email, deleted_results: 2, deleted_attendance: 1 });
      expect(audit.before).not.toMatch(/argon2|password/);
      // Their session ended with the account.
      expect((await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: victim.auth })).statusCode).toBe(401);
      const again = await ctx.app.inject({ method: 'DELETE', url: `/api/students/${victim.admissionNumber}/`, headers: staff.auth });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ detail: M.studentNotFound });
    });

    it('rolls back the whole deletion when the audit row cannot be written', async () => {
      const victim = await signInStudent(ctx);
      // Make the audit insert fail inside the transaction: the deletion must not survive it.
      await ctx.handle.db.schema.alterTable('audit_log').renameTo('audit_log_off').execute();
      try {
        const res = await ctx.app.inject({ method: 'DELETE', url: `/api/students/${victim.admissionNumber}/`, headers: admin.auth });
        expect(res.statusCode).toBe(500);
      } finally {
        await ctx.handle.db.schema.alterTable('audit_log_off').renameTo('audit_log').execute();
      }
      expect(await ctx.handle.db.selectFrom('students').select('id').where('id', '=', victim.id).executeTakeFirst()).toBeDefined();
      expect(await ctx.handle.db.selectFrom('users').select('id').where('id', '=', victim.userId).executeTakeFirst()).toBeDefined();
    });

    it('legacy DELETE /api/studentBase/{id} deletes the same way', async () => {
      const victim = await signInStudent(ctx);
      const res = await ctx.app.inject({ method: 'DELETE', url: `/api/studentBase/${victim.id}`, headers: admin.auth });
      expect(res.statusCode).toBe(204);
      expect(await ctx.handle.db.selectFrom('users').select('id').where('id', '=', victim.userId).executeTakeFirst()).toBeUndefined();
    });
  });

  describe('export', () => {
    it('exports the student list as CSV, with formula-like cells neutralised', async () => {
      await post(admin, studentBody({ first_name: '=HYPERLINK("x")', last_name: 'Exported', student_class: 'SSS 2B' }));
      const res = await ctx.app.inject({ method: 'GET', url: '/api/students/export/?student_class=SSS%202B', headers: staff.auth });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toContain('students.csv');
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
      expect(lines[0]).toBe(
        'admission_number,first_name,last_name,email,phone_number,gender,date_of_birth,student_class,fathers_name,fathers_phone,mothers_name,mothers_phone,home_address',
      );
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`"'=HYPERLINK(""x"")",Exported`);
      expectNoHash(res.body);
    });
  });
});
