import { expect, it } from 'vitest';
import { AUTH_MESSAGES, PASSWORD_CHANGE_REQUIRED_CODE } from '@portal/domain';
import { createAdmin, createStaff, createStudent } from '../../db/factories';
import {
  bearer,
  changePassword,
  fetchMe,
  refreshTokens,
  withTestContext,
  describeEachDatabase,
  login,
  signInRefusal,
  signInAdmin,
  signInStaff,
  signInStudent,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/helpers';

describeEachDatabase('auth', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));

  /** A student of JSS 1A with the test password, unless `more` says otherwise. */
  const addPupil = (email: string, firstName: string, lastName: string, more: Partial<Parameters<typeof createStudent>[1]> = {}) =>
    createStudent(ctx.handle.db, { email, password: TEST_PASSWORD, firstName, lastName, arm: 'JSS 1A', ...more });

  it('signs in each role through its own endpoint with the spec envelope', async () => {
    const admin = await createAdmin(ctx.handle.db, {
      email: 'head@x.school',
      password: TEST_PASSWORD,
      username: 'head',
      firstName: 'Bola',
    });
    const res = await login(ctx.app, 'admin', 'HEAD@x.school');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'success', message: AUTH_MESSAGES.loginSuccess, errors: { non_field_errors: [] } });
    expect(body.data).toMatchObject({ username: 'head', first_name: 'Bola', must_change_password: false });
    expect(typeof body.data.access).toBe('string');
    expect(typeof body.data.refresh).toBe('string');
    expect(admin.userId).toBeGreaterThan(0);

    const staff = await createStaff(ctx.handle.db, { email: 't@x.school', password: TEST_PASSWORD, firstName: 'Grace', lastName: 'O' });
    const sres = await login(ctx.app, 'staff', 't@x.school');
    expect(sres.json().data).toMatchObject({ staff_id: staff.staffId, first_name: 'Grace' });

    const student = await addPupil('s@x.school', 'Ada', 'E');
    const stres = await login(ctx.app, 'student', 's@x.school');
    expect(stres.json().data).toMatchObject({ admission_number: student.admissionNumber, first_name: 'Ada' });
  });

  it('refuses an account at another role endpoint, with the same message as a wrong password', async () => {
    await createStaff(ctx.handle.db, { email: 'other@x.school', password: TEST_PASSWORD, firstName: 'A', lastName: 'B' });
    const wrongRole = await login(ctx.app, 'admin', 'other@x.school');
    const wrongPassword = await login(ctx.app, 'staff', 'other@x.school', 'Nope-nope-1');
    const unknown = await login(ctx.app, 'staff', 'nobody@x.school', 'Nope-nope-1');
    for (const r of [wrongRole, wrongPassword, unknown]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject(signInRefusal(AUTH_MESSAGES.invalidCredentials));
    }
  });

  it('validates the login body with field messages', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/staff/login/', payload: { email: 'not-an-email' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ email: [AUTH_MESSAGES.invalidEmail], password: [AUTH_MESSAGES.passwordRequired] });
    // The student sign-in also takes an admission number; what is neither is refused by name.
    const student = await ctx.app.inject({ method: 'POST', url: '/api/student/login/', payload: { email: 'STU_0001', password: 'x' } });
    expect(student.statusCode).toBe(400);
    expect(student.json().errors).toMatchObject({ email: [AUTH_MESSAGES.invalidSignInId] });
  });

  it('a student signs in with the admission number in any case, spacing or dashes, or the email; other roles do not', async () => {
    const pupil = await addPupil('slip@x.school', 'Chidi', 'Okeke');
    const number = pupil.admissionNumber;
    const bare = number.replace(/[-/]/g, '');
    for (const typed of [
      number,
      number.toLowerCase(),
      ` ${bare} `,
      bare.split('').join(' '),
      `${number}\u200B`,
      number.replace('-', '\u2013'),
    ]) {
      const res = await login(ctx.app, 'student', typed);
      expect(res.statusCode, JSON.stringify(typed)).toBe(200);
      expect(res.json().data).toMatchObject({ admission_number: number, first_name: 'Chidi' });
    }
    expect((await login(ctx.app, 'student', 'SLIP@x.school')).statusCode).toBe(200);
    // A wrong password, and a number nobody has: the one message.
    for (const [id, pw] of [
      [number, 'Wrong-pass-1'],
      ['NOBODY-9999', TEST_PASSWORD],
    ] as const) {
      const r = await login(ctx.app, 'student', id, pw);
      expect(r.statusCode).toBe(401);
      expect(r.json().message).toBe(AUTH_MESSAGES.invalidCredentials);
    }
    // Staff and the admin sign in by email only.
    expect((await login(ctx.app, 'staff', number)).json().errors.email).toEqual([AUTH_MESSAGES.invalidEmail]);
  });

  it('the admission number and the email are one account for the sign-in limits', async () => {
    const pupil = await addPupil('twoforms@x.school', 'T', 'F');
    const forms = [pupil.admissionNumber, 'twoforms@x.school', pupil.admissionNumber.toLowerCase().replace('-', ' '), 'TwoForms@X.school'];
    const limit = ctx.config.loginLimits.perAccountFailures;
    const from = { remoteAddress: '203.0.113.150' };
    for (let i = 0; i < limit; i++) {
      expect((await login(ctx.app, 'student', forms[i % forms.length]!, 'Wrong-pass-1', from)).statusCode).toBe(401);
    }
    for (const form of forms) {
      expect((await login(ctx.app, 'student', form, TEST_PASSWORD, from)).statusCode, form).toBe(429);
    }
  });

  it('throttles an account after repeated failures (429) and lets it in again later', async () => {
    await addPupil('victim@x.school', 'V', 'X', { arm: 'JSS 2A' });
    for (let i = 0; i < ctx.config.loginLimits.perAccountFailures; i++) {
      expect((await login(ctx.app, 'student', 'victim@x.school', 'Wrong-pass-1')).statusCode).toBe(401);
    }
    const blocked = await login(ctx.app, 'student', 'victim@x.school');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errors.non_field_errors).toEqual([AUTH_MESSAGES.tooManyAttempts]);
    await ctx.handle.db
      .updateTable('login_throttle')
      .set({ blocked_until: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await login(ctx.app, 'student', 'victim@x.school')).statusCode).toBe(200);
  });

  it('rejects missing, forged, wrong-type and stale tokens with 401 and wrong roles with 403', async () => {
    const student = await signInStudent(ctx);
    expect((await fetchMe(ctx)).statusCode).toBe(401);
    expect((await fetchMe(ctx, bearer('abc.def.ghi'))).statusCode).toBe(401);
    // A refresh token is not an access token.
    expect((await fetchMe(ctx, bearer(student.refresh))).statusCode).toBe(401);
    // Tampered payload: same signature, other role.
    const [h, p, s] = student.access.split('.');
    const forged = JSON.parse(Buffer.from(p!, 'base64url').toString());
    forged.role = 'admin';
    const forgedToken = `${h}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${s}`;
    expect((await fetchMe(ctx, bearer(forgedToken))).statusCode).toBe(401);
    // alg=none is refused.
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    expect((await fetchMe(ctx, bearer(none))).statusCode).toBe(401);

    const me = await fetchMe(ctx, student.auth);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ role: 'student', public_id: student.publicId });
    const settings = await ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: student.auth, payload: {} });
    expect(settings.statusCode).toBe(403);
    expect(settings.json()).toEqual({ detail: AUTH_MESSAGES.forbidden });
  });

  it('rotates refresh tokens and revokes the family when a spent one is reused', async () => {
    const staff = await signInStaff(ctx);
    const r1 = await refreshTokens(ctx, staff.refresh);
    expect(r1.statusCode).toBe(200);
    const pair = r1.json<{ access: string; refresh: string }>();
    expect(pair.refresh).not.toBe(staff.refresh);
    // Replay of the spent token: refused, and the new one dies with its family.
    const replay = await refreshTokens(ctx, staff.refresh);
    expect(replay.statusCode).toBe(401);
    const after = await refreshTokens(ctx, pair.refresh);
    expect(after.statusCode).toBe(401);
    const access = await fetchMe(ctx, bearer(pair.access));
    expect(access.statusCode).toBe(401);
  });

  it('logout revokes the session: the access and refresh tokens stop working', async () => {
    const admin = await signInAdmin(ctx);
    const out = await ctx.app.inject({ method: 'POST', url: '/api/logout/', headers: admin.auth, payload: { refresh: admin.refresh } });
    expect(out.statusCode).toBe(200);
    expect((await fetchMe(ctx, admin.auth)).statusCode).toBe(401);
    expect((await refreshTokens(ctx, admin.refresh)).statusCode).toBe(401);
  });

  it('forces a password change before anything else, then ends the old sessions', async () => {
    await addPupil('new@x.school', 'N', 'W', { arm: 'SSS 1A', password: 'One-Time-Pass-1', mustChangePassword: true });
    const res = await login(ctx.app, 'student', 'new@x.school', 'One-Time-Pass-1');
    expect(res.json().data.must_change_password).toBe(true);
    const auth = bearer(res.json().data.access);
    const blocked = await ctx.app.inject({ method: 'GET', url: '/api/settings/', headers: auth });
    expect(blocked.statusCode).toBe(200); // public route
    const guarded = await ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: auth, payload: {} });
    expect(guarded.statusCode).toBe(403);
    expect((await fetchMe(ctx, auth)).statusCode).toBe(200);

    const weak = await changePassword(ctx, auth, 'One-Time-Pass-1', 'password123');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({ new_password: [AUTH_MESSAGES.passwordTooCommon] });
    const short = await changePassword(ctx, auth, 'One-Time-Pass-1', 'Ab1');
    expect(short.json()).toEqual({ new_password: [AUTH_MESSAGES.passwordTooShort] });
    const wrongOld = await changePassword(ctx, auth, 'nope', 'My-Own-Secret-77');
    expect(wrongOld.json()).toEqual({ old_password: [AUTH_MESSAGES.oldPasswordWrong] });

    const ok = await changePassword(ctx, auth, 'One-Time-Pass-1', 'My-Own-Secret-77');
    expect(ok.statusCode).toBe(200);
    expect((await fetchMe(ctx, auth)).statusCode).toBe(401);
    const fresh = bearer(ok.json().access);
    const me = await fetchMe(ctx, fresh);
    expect(me.json().must_change_password).toBe(false);
    expect((await login(ctx.app, 'student', 'new@x.school', 'My-Own-Secret-77')).statusCode).toBe(200);
  });

  it('a disabled account loses its sessions at once', async () => {
    const staff = await signInStaff(ctx);
    await ctx.handle.db.updateTable('users').set({ disabled: 1 }).where('id', '=', staff.userId).execute();
    expect((await fetchMe(ctx, staff.auth)).statusCode).toBe(401);
    expect((await refreshTokens(ctx, staff.refresh)).statusCode).toBe(401);
  });

  it('answers 403 with a code while a password change is pending', async () => {
    await createStaff(ctx.handle.db, {
      email: 'pend@x.school',
      password: 'One-Time-Pass-2',
      mustChangePassword: true,
      firstName: 'P',
      lastName: 'Q',
    });
    const res = await login(ctx.app, 'staff', 'pend@x.school', 'One-Time-Pass-2');
    const auth = bearer(res.json().data.access);
    const r = await ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: auth, payload: {} });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({ detail: AUTH_MESSAGES.passwordChangeRequired, code: PASSWORD_CHANGE_REQUIRED_CODE });
  });
});
