import { generateKeyPairSync } from 'node:crypto';
// Counts real argon2 verifications (an unknown email costs the same work as a wrong password).
import { verifySpy } from '../argon2-spy';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import type { InjectOptions } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, PASSWORD_CHANGE_REQUIRED_CODE } from '@portal/domain';
import { loadConfig, testConfig } from '../../src/config';
import { generateOneTimePasswords } from '../../src/modules/people/one-time-passwords';
import {
  bearer,
  changePassword,
  createAdmin,
  createStaff,
  createStudent,
  describeEachDatabase,
  fetchMe,
  injectAtOnce,
  login,
  productionEnv,
  refreshTokens,
  signInAdmin,
  signInRefusal,
  signInStaff,
  signInStudent,
  TEST_PASSWORD,
  type TestContext,
  withTestContext,
} from '../helpers';

const SECRET = new TextEncoder().encode(testConfig().jwtSecret);

/**
 * `n` requests sent at once and how many of the password checks they caused were against the one
 * account's stored hash (found by its email or id): the race tests' count of real guesses.
 */
async function checkedAtOnce(
  ctx: TestContext,
  by: 'email' | 'id',
  value: string | number,
  n: number,
  request: (i: number) => InjectOptions,
) {
  const { password_hash: stored } = await ctx.handle.db
    .selectFrom('users')
    .select('password_hash')
    .where(by, '=', value)
    .executeTakeFirstOrThrow();
  verifySpy.mockClear();
  const answers = await injectAtOnce(ctx, n, request);
  return { answers, checked: verifySpy.mock.calls.filter(([h]) => h === stored).length };
}

/** A student account (of JSS 1A unless `arm` says otherwise) that signs in with `email` and `password`. */
const pupilAccount = (ctx: TestContext, email: string, password: string, [firstName, lastName]: [string, string], arm = 'JSS 1A') =>
  createStudent(ctx.handle.db, { email, password, firstName, lastName, arm });

let emailSeq = 0;
const freshEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${emailSeq++}@hardening.test`;

describeEachDatabase('sign-in and tokens (ASVS 6, 7, 9)', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));
  beforeEach(() => {
    verifySpy.mockClear();
  });

  const me = (token: string) => fetchMe(ctx, bearer(token));
  /** Each named token is refused at /api/me/ with 401 and the invalid-token message. */
  async function expectTokensRefused(refused: Record<string, string>) {
    for (const [name, token] of Object.entries(refused)) {
      const r = await me(token);
      expect(r.statusCode, name).toBe(401);
      expect(r.json(), name).toEqual({ detail: AUTH_MESSAGES.invalidToken });
    }
  }

  describe('no account enumeration (ASVS 6.3.8)', () => {
    it('answers an unknown email, a wrong password, a wrong role and a disabled account identically', async () => {
      const email = freshEmail('enum');
      const s = await createStaff(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'E', lastName: 'N' });
      const disabledEmail = freshEmail('disabled');
      const d = await createStaff(ctx.handle.db, { email: disabledEmail, password: TEST_PASSWORD, firstName: 'D', lastName: 'X' });
      await ctx.handle.db.updateTable('users').set({ disabled: 1 }).where('id', '=', d.userId).execute();

      const responses = [
        await login(ctx.app, 'staff', freshEmail('nobody'), 'Whatever-pass-1'),
        await login(ctx.app, 'staff', email, 'Wrong-pass-123'),
        await login(ctx.app, 'admin', email, TEST_PASSWORD),
        await login(ctx.app, 'staff', disabledEmail, TEST_PASSWORD),
      ];
      const first = responses[0]!;
      expect(first.statusCode).toBe(401);
      for (const r of responses) {
        expect(r.statusCode).toBe(first.statusCode);
        expect(r.body).toBe(first.body);
        expect(r.headers['content-length']).toBe(first.headers['content-length']);
      }
      expect(first.json().message).toBe(AUTH_MESSAGES.invalidCredentials);
      expect(s.userId).toBeGreaterThan(0);
    });

    it('runs one real argon2 verification for an unknown email, as for a wrong password', async () => {
      const email = freshEmail('timing');
      await pupilAccount(ctx, email, TEST_PASSWORD, ['T', 'M']);
      // Warm the dummy hash once so the calls below are like every later one.
      await login(ctx.app, 'student', freshEmail('warm'), 'Whatever-pass-1');

      verifySpy.mockClear();
      await login(ctx.app, 'student', freshEmail('unknown'), 'Whatever-pass-1');
      const unknownCalls = verifySpy.mock.calls.length;
      const unknownHash = verifySpy.mock.calls[0]?.[0];

      verifySpy.mockClear();
      await login(ctx.app, 'student', email, 'Wrong-pass-123');
      const wrongCalls = verifySpy.mock.calls.length;
      const realHash = verifySpy.mock.calls[0]?.[0];

      expect(unknownCalls).toBe(1);
      expect(wrongCalls).toBe(1);
      // The dummy hash has the same argon2id cost parameters as a real one.
      const params = (h: unknown) => String(h).split('$').slice(1, 4).join('$');
      expect(params(unknownHash)).toBe(params(realHash));
      expect(params(realHash)).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1$/);
    });
  });

  describe('every failed sign-in costs a full argon2id verification (item 7)', () => {
    it('imported accounts (cheap one-time hashes) cost as much to fail as any other: one full-cost verify on every failure path', async () => {
      const full = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/;
      const cheap = (await generateOneTimePasswords(1))[0]!;
      expect(cheap.hash).not.toMatch(full);
      const imported = freshEmail('imported');
      const s = await pupilAccount(ctx, imported, 'x', ['I', 'M']);
      await ctx.handle.db
        .updateTable('users')
        .set({ password_hash: cheap.hash, must_change_password: 1 })
        .where('id', '=', s.userId)
        .execute();
      const disabledImported = freshEmail('imported-off');
      const d = await pupilAccount(ctx, disabledImported, 'x', ['I', 'D']);
      await ctx.handle.db.updateTable('users').set({ password_hash: cheap.hash, disabled: 1 }).where('id', '=', d.userId).execute();
      const regular = freshEmail('regular');
      await pupilAccount(ctx, regular, TEST_PASSWORD, ['R', 'G']);
      await login(ctx.app, 'student', freshEmail('warm'), 'Whatever-pass-1');

      const failures: [string, 'admin' | 'student', string, string][] = [
        ['imported, wrong password', 'student', imported, 'Wrong-pass-123'],
        ['imported, right password, wrong role', 'admin', imported, cheap.password],
        ['imported and disabled, right password', 'student', disabledImported, cheap.password],
        ['regular, wrong password', 'student', regular, 'Wrong-pass-123'],
        ['unknown email', 'student', freshEmail('nobody'), 'Wrong-pass-123'],
      ];
      for (const [name, role, email, password] of failures) {
        verifySpy.mockClear();
        const r = await login(ctx.app, role, email, password);
        expect(r.statusCode, name).toBe(401);
        const fullCost = verifySpy.mock.calls.filter(([h]) => full.test(String(h)));
        expect(fullCost.length, name).toBe(1);
      }
      // The imported account still signs in with its one-time password (and must change it).
      verifySpy.mockClear();
      const ok = await login(ctx.app, 'student', imported, cheap.password);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data.must_change_password).toBe(true);
    });
  });

  describe('password policy (ASVS 6.2)', () => {
    it('refuses < 8 and > 128 characters and common passwords; accepts 8, 64, 128, spaces and unicode', async () => {
      const st = await signInStudent(ctx);
      let current = TEST_PASSWORD;
      let auth = st.auth;
      const change = (newPassword: string) => changePassword(ctx, auth, current, newPassword);

      expect((await change('Ab1-xyz')).json()).toEqual({ new_password: [AUTH_MESSAGES.passwordTooShort] });
      expect((await change('x'.repeat(129))).json()).toEqual({ new_password: [AUTH_MESSAGES.passwordTooLong] });
      for (const common of ['password', 'Password1', 'iloveyou', 'letmein123', '12345678', 'qwerty123']) {
        const r = await change(common);
        expect(r.statusCode, common).toBe(400);
        expect(r.json().new_password, common).toEqual(expect.arrayContaining([expect.any(String)]));
      }
      expect((await change('Password1')).json()).toEqual({ new_password: [AUTH_MESSAGES.passwordTooCommon] });

      const accepted = [
        'k7#Mq2!z', // exactly 8
        'correct horse battery staple, said the ox', // spaces allowed
        'Ọmọ-ilé-ẹ̀kọ́ 2026 ₦ پاسورد', // unicode
        'a'.repeat(30) + 'B9-' + 'c'.repeat(31), // 64
        'Zx9!'.repeat(32), // 128
      ];
      for (const pw of accepted) {
        const r = await change(pw);
        expect(r.statusCode, `${pw.length} chars`).toBe(200);
        current = pw;
        auth = bearer(r.json().access);
        // And the new password signs in, unchanged (no truncation, no normalisation surprises).
        expect((await login(ctx.app, 'student', st.email, pw)).statusCode).toBe(200);
      }
    });
  });

  describe('context-specific passwords (ASVS 6.2.11, item 11)', () => {
    it('refuses the own email or its local part, spaces only and the school name, wherever a password is set', async () => {
      const st = await signInStudent(ctx, { email: `chiamaka.obi${emailSeq++}@school.test` });
      const local = st.email.split('@')[0]!;
      const change = (newPassword: string) => changePassword(ctx, st.auth, TEST_PASSWORD, newPassword);
      const school = (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json<{ school_name: string }>().school_name;
      const refusedOnChange: [string, string][] = [
        [st.email, AUTH_MESSAGES.passwordContainsEmail],
        [st.email.toUpperCase(), AUTH_MESSAGES.passwordContainsEmail],
        [`${local}-2026!`, AUTH_MESSAGES.passwordContainsEmail],
        [' '.repeat(12), AUTH_MESSAGES.passwordOnlySpaces],
        ['\t \n  \u00a0   ', AUTH_MESSAGES.passwordOnlySpaces],
        [`${school} 2026`, AUTH_MESSAGES.passwordContainsSchoolName],
        [`${school.replace(/\s+/g, '').toLowerCase()}#1`, AUTH_MESSAGES.passwordContainsSchoolName],
      ];
      for (const [pw, message] of refusedOnChange) {
        const r = await change(pw);
        expect(r.statusCode, pw).toBe(400);
        expect(r.json(), pw).toEqual({ new_password: [message] });
      }
      // Nothing changed: the old password still signs in.
      expect((await login(ctx.app, 'student', st.email, TEST_PASSWORD)).statusCode).toBe(200);

      // Registration and the admin's update of a student or staff member with a password.
      const admin = await signInAdmin(ctx);
      const email = `tunde.bakare${emailSeq++}@school.test`;
      const body = {
        first_name: 'Tunde',
        last_name: 'Bakare',
        email,
        phone_number: '08031234567',
        gender: 'M',
        date_of_birth: '2011-05-06',
        student_class: 'JSS 2A',
        fathers_name: 'Mr Bakare',
        home_address: '2 School Road, Ibadan',
      };
      const staff = await signInStaff(ctx, { email: `ngozi.adeyemi${emailSeq++}@school.test` });
      const withPassword = (password: string) => ({ password, confirm_password: password });
      const refusedOnSave: [string, 'POST' | 'PUT', string, object, string][] = [
        ['registration, own email', 'POST', '/api/students/', { ...body, ...withPassword(email) }, AUTH_MESSAGES.passwordContainsEmail],
        [
          'registration, school name',
          'POST',
          '/api/students/',
          { ...body, ...withPassword(`${school}!`) },
          AUTH_MESSAGES.passwordContainsSchoolName,
        ],
        [
          'student update, school name',
          'PUT',
          `/api/students/${st.admissionNumber}/`,
          { first_name: 'Ada', last_name: 'Eze', email: st.email, ...withPassword(`${school}-9`) },
          AUTH_MESSAGES.passwordContainsSchoolName,
        ],
        [
          'staff update, own email',
          'PUT',
          `/api/staff/${staff.staffId}/`,
          withPassword(`${staff.email.split('@')[0]}99`),
          AUTH_MESSAGES.passwordContainsEmail,
        ],
      ];
      for (const [name, method, url, payload, message] of refusedOnSave) {
        const r = await ctx.app.inject({ method, url, headers: admin.auth, payload });
        expect(r.statusCode, name).toBe(400);
        expect(r.json().password, name).toEqual([message]);
      }
      // An ordinary password is still accepted.
      const fine = await ctx.app.inject({
        method: 'POST',
        url: '/api/students/',
        headers: admin.auth,
        payload: { ...body, ...withPassword('Kola-nut-Harmattan-7') },
      });
      expect(fine.statusCode).toBe(201);
    });
  });

  describe('throttling (ASVS 6.3.1)', () => {
    let limited: TestContext;
    withTestContext(dialect, (c) => (limited = c), {
      loginLimits: { perAccountFailures: 3, perAccountBlockSeconds: 1, perAddressPerMinute: 4 },
    });
    // The per-account limit on its own: the per-address limit does not get in the way. Its clock is
    // the system's plus `skipped`: a block runs out by stepping the clock, not by sleeping.
    let perAccount: TestContext;
    let skipped = 0;
    const later = (ms: number) => {
      skipped += ms;
    };
    withTestContext(
      dialect,
      (c) => (perAccount = c),
      { loginLimits: { perAccountFailures: 3, perAccountBlockSeconds: 1, perAddressPerMinute: 1000 } },
      { clock: () => Date.now() + skipped },
    );

    it('limits sign-ins per address with a 429 and the sign-in message; other addresses are unaffected', async () => {
      const ip = '198.51.100.7';
      const attempt = (remoteAddress: string) => login(limited.app, 'staff', freshEmail('addr'), 'Whatever-pass-1', { remoteAddress });
      for (let i = 0; i < 4; i++) expect((await attempt(ip)).statusCode).toBe(401);
      const blocked = await attempt(ip);
      expect(blocked.statusCode).toBe(429);
      // The same envelope as every sign-in failure: the login screen shows errors.non_field_errors[0].
      expect(blocked.json()).toEqual({ ...signInRefusal(AUTH_MESSAGES.tooManyAttempts), detail: AUTH_MESSAGES.tooManyAttempts });
      expect(blocked.headers['retry-after']).toBeDefined();
      expect((await attempt('198.51.100.8')).statusCode).toBe(401);
      // The refresh endpoint is limited per address too, with the general message.
      for (let i = 0; i < 4; i++) {
        await limited.app.inject({ method: 'POST', url: '/api/token/refresh/', remoteAddress: ip, payload: { refresh: 'x'.repeat(20) } });
      }
      const r = await limited.app.inject({
        method: 'POST',
        url: '/api/token/refresh/',
        remoteAddress: ip,
        payload: { refresh: 'x'.repeat(20) },
      });
      expect(r.statusCode).toBe(429);
      expect(r.json()).toEqual({ detail: AUTH_MESSAGES.tooManyRequests });
    });

    it('blocks one account briefly after repeated failures, without extending the block or touching other accounts', async () => {
      const victim = freshEmail('victim');
      const bystander = freshEmail('bystander');
      await pupilAccount(perAccount, victim, TEST_PASSWORD, ['V', 'X'], 'JSS 2A');
      await pupilAccount(perAccount, bystander, TEST_PASSWORD, ['B', 'Y'], 'JSS 2A');
      const attacker = '203.0.113.50';
      const attempt = (email: string, password: string) => login(perAccount.app, 'student', email, password, { remoteAddress: attacker });

      for (let i = 0; i < 3; i++) expect((await attempt(victim, 'Wrong-pass-123')).statusCode).toBe(401);
      const blocked = await attempt(victim, TEST_PASSWORD);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ errors: { non_field_errors: [AUTH_MESSAGES.tooManyAttempts] } });
      // Hammering during the block does not extend it.
      for (let i = 0; i < 5; i++) expect((await attempt(victim, 'Wrong-pass-123')).statusCode).toBe(429);
      // Another account is not affected, from the same address either.
      expect((await attempt(bystander, TEST_PASSWORD)).statusCode).toBe(200);
      const row = await perAccount.handle.db
        .selectFrom('login_throttle')
        .selectAll()
        .where('key', '=', `login:${victim} ${attacker}`)
        .executeTakeFirstOrThrow();
      expect(Date.parse(row.blocked_until!) - Date.now()).toBeLessThanOrEqual(1000);

      later(1100);
      expect((await attempt(victim, TEST_PASSWORD)).statusCode).toBe(200);
    });

    it('a stranger cannot lock the owner out: failures block the account only from the address that sent them (item 5)', async () => {
      const owner = freshEmail('owner');
      await createAdmin(perAccount.handle.db, { email: owner, password: TEST_PASSWORD, username: `own${emailSeq++}` });
      const attempt = (password: string, remoteAddress: string, cookie?: string) =>
        login(perAccount.app, 'admin', owner, password, { remoteAddress, cookie });
      // The owner's browser signed in before: it holds the account's device cookie.
      const first = await attempt(TEST_PASSWORD, '198.51.100.20');
      const device = first.cookies.find((c) => c.name === 'portal_device')!;
      const cookie = `${device.name}=${device.value}`;
      // A sustained attack from one address, over several block periods: the owner at home gets in every time.
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 3; i++) await attempt('Wrong-pass-123', '203.0.113.66');
        expect((await attempt('Wrong-pass-123', '203.0.113.66')).statusCode).toBe(429);
        expect((await attempt(TEST_PASSWORD, '198.51.100.20', cookie)).statusCode, `round ${round}`).toBe(200);
        later(1100);
      }
      // A distributed attacker (a new address each time) is refused once the account's budget for
      // unknown browsers is spent; the owner's browser still gets in (device-cookies.test.ts has the rest).
      const codes: number[] = [];
      for (let i = 0; i < 10; i++) codes.push((await attempt('Wrong-pass-123', `192.0.2.${i + 1}`)).statusCode);
      expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(perAccount.config.untrustedSignIn.failures);
      expect(codes.at(-1)).toBe(429);
      expect((await attempt(TEST_PASSWORD, '198.51.100.21', cookie)).statusCode).toBe(200);
    }, 20_000);

    it('60 parallel wrong passwords from one address: at most the limit are checked (item 6)', async () => {
      const email = freshEmail('race');
      await createStaff(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'R', lastName: 'C' });
      const { answers, checked } = await checkedAtOnce(ctx, 'email', email, 60, (i) => ({
        method: 'POST',
        url: '/api/staff/login/',
        remoteAddress: '203.0.113.77',
        payload: { email, password: `Wrong-pass-${i}` },
      }));
      const limit = ctx.config.loginLimits.perAccountFailures;
      expect(checked).toBeGreaterThan(0);
      expect(checked).toBeLessThanOrEqual(limit);
      expect(answers.filter((a) => a.statusCode === 401).length).toBeLessThanOrEqual(limit);
      expect(answers.filter((a) => a.statusCode === 429).length).toBeGreaterThanOrEqual(60 - limit);
      // The owner, elsewhere, is not locked out.
      expect((await login(ctx.app, 'staff', email, TEST_PASSWORD, { remoteAddress: '198.51.100.21' })).statusCode).toBe(200);
    }, 30_000);

    it('the admin sees sign-in blocks (account and address) and clears them; nobody else may (item 5)', async () => {
      const email = freshEmail('blocked');
      await pupilAccount(ctx, email, TEST_PASSWORD, ['B', 'L']);
      const address = '203.0.113.88';
      const attempt = (password: string) => login(ctx.app, 'student', email, password, { remoteAddress: address });
      for (let i = 0; i < 5; i++) await attempt('Wrong-pass-123');
      expect((await attempt(TEST_PASSWORD)).statusCode).toBe(429);

      const admin = await signInAdmin(ctx);
      const list = await ctx.app.inject({ method: 'GET', url: '/api/sign-in-blocks/', headers: admin.auth });
      expect(list.statusCode).toBe(200);
      const mine = list.json<{ email: string; address: string; blocked_until: string }[]>().filter((b) => b.email === email);
      expect(mine).toEqual([{ email, kind: 'address', address, blocked_until: expect.any(String) }]);
      expect(Date.parse(mine[0]!.blocked_until)).toBeGreaterThan(Date.now());

      const staff = await signInStaff(ctx);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/sign-in-blocks/', headers: staff.auth })).statusCode).toBe(403);
      const refused = await ctx.app.inject({ method: 'POST', url: '/api/sign-in-blocks/clear/', headers: staff.auth, payload: { email } });
      expect(refused.statusCode).toBe(403);
      expect((await attempt(TEST_PASSWORD)).statusCode).toBe(429);

      const cleared = await ctx.app.inject({
        method: 'POST',
        url: '/api/sign-in-blocks/clear/',
        headers: admin.auth,
        payload: { email, address },
      });
      expect(cleared.json()).toEqual({ detail: AUTH_MESSAGES.signInBlockCleared, cleared: 1 });
      const after = await ctx.app.inject({ method: 'GET', url: '/api/sign-in-blocks/', headers: admin.auth });
      expect(after.json<{ email: string }[]>().some((b) => b.email === email)).toBe(false);
      expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);

      // Without an address: the account's blocks from every address end (an email with `_`, which LIKE would read as any character).
      const n = emailSeq++;
      const odd = `a_b-${n}@hardening.test`;
      for (const from of ['192.0.2.201', '192.0.2.202']) {
        for (let i = 0; i < 5; i++) await login(ctx.app, 'staff', odd, 'Wrong-pass-123', { remoteAddress: from });
      }
      await login(ctx.app, 'staff', `axb-${n}@hardening.test`, 'W', { remoteAddress: '192.0.2.203' });
      const all = await ctx.app.inject({ method: 'POST', url: '/api/sign-in-blocks/clear/', headers: admin.auth, payload: { email: odd } });
      // Both addresses' blocks, and the account's block for unknown browsers (its 10 failures in all).
      expect(all.json()).toEqual({ detail: AUTH_MESSAGES.signInBlockCleared, cleared: 3 });
      const audit = await ctx.handle.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'clear_sign_in_block')
        .where('entity_id', '=', email)
        .execute();
      expect(audit).toHaveLength(1);
      const oddRows = await ctx.handle.db
        .selectFrom('login_throttle')
        .select('key')
        .where('key', 'like', `login:a%-${n}@hardening.test %`)
        .execute();
      expect(oddRows.map((r) => r.key)).toEqual([`login:axb-${n}@hardening.test 192.0.2.203`]);
    });

    it('the production block is short: a minute, after 5 failures', () => {
      // The real loader with a production environment, not testConfig().
      expect(loadConfig(productionEnv()).loginLimits).toMatchObject({ perAccountFailures: 5, perAccountBlockSeconds: 60 });
    });
  });

  describe('one-time passwords (ASVS 6.4)', () => {
    it('a one-time password allows only me, logout and the password change until it is replaced', async () => {
      const email = freshEmail('otp');
      await createStaff(ctx.handle.db, { email, password: 'One-Time-Pass-9', mustChangePassword: true, firstName: 'O', lastName: 'T' });
      const res = await login(ctx.app, 'staff', email, 'One-Time-Pass-9');
      expect(res.json().data.must_change_password).toBe(true);
      const auth = bearer(res.json().data.access);
      const guarded = await ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: auth, payload: {} });
      expect(guarded.statusCode).toBe(403);
      expect(guarded.json()).toEqual({ detail: AUTH_MESSAGES.passwordChangeRequired, code: PASSWORD_CHANGE_REQUIRED_CODE });
      expect((await fetchMe(ctx, auth)).statusCode).toBe(200);
      // Reusing the one-time password as the new one is refused.
      const same = await changePassword(ctx, auth, 'One-Time-Pass-9', 'One-Time-Pass-9');
      expect(same.json()).toEqual({ new_password: [AUTH_MESSAGES.passwordSameAsOld] });
      const ok = await changePassword(ctx, auth, 'One-Time-Pass-9', 'Mine-Now-2026');
      expect(ok.statusCode).toBe(200);
      expect((await login(ctx.app, 'staff', email, 'One-Time-Pass-9')).statusCode).toBe(401);
      const fresh = bearer(ok.json().access);
      const allowed = await fetchMe(ctx, fresh);
      expect(allowed.json().must_change_password).toBe(false);
    });
  });

  describe('sessions (ASVS 7)', () => {
    it('rotates refresh tokens; a replayed one revokes the whole family', async () => {
      const s = await signInStudent(ctx);
      const r1 = await refreshTokens(ctx, s.refresh);
      expect(r1.statusCode).toBe(200);
      const r2 = await refreshTokens(ctx, r1.json().refresh);
      expect(r2.statusCode).toBe(200);
      const live = r2.json<{ access: string; refresh: string }>();
      // The attacker replays the first (stolen, spent) token.
      const replay = await refreshTokens(ctx, s.refresh);
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toEqual({ detail: AUTH_MESSAGES.refreshInvalid });
      expect((await refreshTokens(ctx, live.refresh)).statusCode).toBe(401);
      expect((await fetchMe(ctx, bearer(live.access))).statusCode).toBe(401);
    });

    it('two concurrent refreshes with one token: at most one wins, and the family is then revoked', async () => {
      const s = await signInStaff(ctx);
      const [a, b] = await Promise.all([0, 1].map(() => refreshTokens(ctx, s.refresh)));
      const codes = [a!.statusCode, b!.statusCode].sort();
      expect(codes).toEqual([200, 401]);
      const winner = (a!.statusCode === 200 ? a! : b!).json<{ access: string }>();
      expect((await fetchMe(ctx, bearer(winner.access))).statusCode).toBe(401);
    });

    it('logout ends that session only; a password change ends every other session', async () => {
      const email = freshEmail('multi');
      await createStaff(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'M', lastName: 'S' });
      const signIn = async () => (await login(ctx.app, 'staff', email)).json().data as { access: string; refresh: string };
      const phone = await signIn();
      const laptop = await signIn();
      const tablet = await signIn();

      expect((await ctx.app.inject({ method: 'POST', url: '/api/logout/', headers: bearer(phone.access), payload: {} })).statusCode).toBe(
        200,
      );
      expect((await me(phone.access)).statusCode).toBe(401);
      expect((await refreshTokens(ctx, phone.refresh)).statusCode).toBe(401);
      expect((await me(laptop.access)).statusCode).toBe(200);

      const changed = await changePassword(ctx, bearer(laptop.access), TEST_PASSWORD, 'Brand-New-Pass-5');
      expect(changed.statusCode).toBe(200);
      for (const old of [laptop, tablet]) {
        expect((await me(old.access)).statusCode).toBe(401);
        expect((await refreshTokens(ctx, old.refresh)).statusCode).toBe(401);
      }
      expect((await me(changed.json().access)).statusCode).toBe(200);
    });

    it("logout with someone else's refresh token ends only the caller's own session (item 17)", async () => {
      const attacker = await signInStudent(ctx);
      const victim = await signInStudent(ctx);
      const out = await ctx.app.inject({
        method: 'POST',
        url: '/api/logout/',
        headers: attacker.auth,
        payload: { refresh: victim.refresh },
      });
      expect(out.statusCode).toBe(200);
      expect((await fetchMe(ctx, attacker.auth)).statusCode).toBe(401);
      expect((await fetchMe(ctx, victim.auth)).statusCode).toBe(200);
      expect((await refreshTokens(ctx, victim.refresh)).statusCode).toBe(200);
    });

    it('wrong current passwords on password change are limited per account; the last one ends the session (item 8)', async () => {
      const s = await signInStaff(ctx);
      const limit = ctx.config.loginLimits.perAccountFailures;
      const change = (oldPassword: string, auth = s.auth) => changePassword(ctx, auth, oldPassword, 'Brand-New-Pass-5');
      for (let i = 1; i < limit; i++) {
        const r = await change(`Guess-number-${i}`);
        expect(r.statusCode, `guess ${i}`).toBe(400);
        expect(r.json()).toEqual({ old_password: [AUTH_MESSAGES.oldPasswordWrong] });
      }
      const last = await change('Guess-number-last');
      expect(last.statusCode).toBe(401);
      expect(last.json()).toEqual({ detail: AUTH_MESSAGES.passwordChangeTooManyFailures });
      // The stolen session is over: access and refresh token alike, and even the right password is refused on it.
      expect((await fetchMe(ctx, s.auth)).statusCode).toBe(401);
      expect((await refreshTokens(ctx, s.refresh)).statusCode).toBe(401);
      expect((await change(TEST_PASSWORD)).statusCode).toBe(401);
      // The owner signs in again with the password and can change it.
      const again = bearer((await login(ctx.app, 'staff', s.email)).json().data.access);
      expect((await change(TEST_PASSWORD, again)).statusCode).toBe(200);
    });

    it('parallel wrong current passwords on one stolen token: at most the limit are checked (item 8)', async () => {
      const s = await signInStudent(ctx);
      const { answers, checked } = await checkedAtOnce(ctx, 'id', s.userId, 30, (i) => ({
        method: 'POST',
        url: '/api/password/change/',
        headers: s.auth,
        payload: { old_password: `Guess-${i}-x`, new_password: 'Brand-New-Pass-5' },
      }));
      expect(checked).toBeLessThanOrEqual(ctx.config.loginLimits.perAccountFailures);
      expect(answers.every((a) => a.statusCode === 400 || a.statusCode === 401)).toBe(true);
      expect((await fetchMe(ctx, s.auth)).statusCode).toBe(401);
    }, 30_000);

    it('disabling or deleting an account ends its sessions at once', async () => {
      const a = await signInStudent(ctx);
      const b = await signInStudent(ctx);
      await ctx.handle.db.updateTable('users').set({ disabled: 1 }).where('id', '=', a.userId).execute();
      await ctx.handle.db.deleteFrom('students').where('user_id', '=', b.userId).execute();
      await ctx.handle.db.deleteFrom('users').where('id', '=', b.userId).execute();
      for (const s of [a, b]) {
        const r = await fetchMe(ctx, s.auth);
        expect(r.statusCode).toBe(401);
        expect(r.json()).toEqual({ detail: AUTH_MESSAGES.invalidToken });
        expect((await refreshTokens(ctx, s.refresh)).statusCode).toBe(401);
      }
      expect((await login(ctx.app, 'student', a.email)).statusCode).toBe(401);
    });
  });

  describe('tokens (ASVS 9)', () => {
    it('access tokens are HS256 and live at most 15 minutes; refresh tokens are opaque', async () => {
      const s = await signInAdmin(ctx);
      const claims = decodeJwt(s.access);
      expect(decodeProtectedHeader(s.access).alg).toBe('HS256');
      expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(15 * 60);
      expect(claims.exp! - claims.iat!).toBeGreaterThan(0);
      expect(s.refresh.split('.')).toHaveLength(1);
      expect(s.refresh.length).toBeGreaterThanOrEqual(43); // 256 bits
      // No personal data in the token: only ids, role and version.
      expect(Object.keys(claims).sort()).toEqual(['exp', 'fid', 'iat', 'iss', 'jti', 'role', 'sub', 'tv', 'typ']);
    });

    it('pins the algorithm and the claims: none, HS512, RS256, expired, wrong issuer or type are refused', async () => {
      const s = await signInStudent(ctx);
      const good = decodeJwt(s.access);
      const base = { role: good.role, tv: good.tv, fid: good.fid, typ: 'access' };
      const build = (alg: string, claims: Record<string, unknown> = base) =>
        new SignJWT(claims).setProtectedHeader({ alg }).setSubject(String(good.sub)).setIssuer('school-portal').setIssuedAt();

      // Control: a token we forge correctly with the test secret IS accepted, so the refusals below mean something.
      expect((await me(await build('HS256').setExpirationTime('5m').sign(SECRET))).statusCode).toBe(200);

      const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const payload = b64({ ...base, sub: good.sub, iss: 'school-portal', iat: good.iat, exp: good.exp });
      const refused: Record<string, string> = {
        none: `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
        noneUpper: `${b64({ alg: 'NONE' })}.${payload}.AAAA`,
        hs512: await build('HS512').setExpirationTime('5m').sign(SECRET),
        rs256: await build('RS256')
          .setExpirationTime('5m')
          .sign(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey),
        expired: await build('HS256')
          .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
          .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
          .sign(SECRET),
        otherIssuer: await build('HS256').setIssuer('someone-else').setExpirationTime('5m').sign(SECRET),
        refreshType: await build('HS256', { ...base, typ: 'refresh' })
          .setExpirationTime('5m')
          .sign(SECRET),
        otherRole: await build('HS256', { ...base, role: 'admin' })
          .setExpirationTime('5m')
          .sign(SECRET),
        oldVersion: await build('HS256', { ...base, tv: Number(good.tv) - 1 })
          .setExpirationTime('5m')
          .sign(SECRET),
        unknownFamily: await build('HS256', { ...base, fid: '00000000-0000-0000-0000-000000000000' })
          .setExpirationTime('5m')
          .sign(SECRET),
        otherSecret: await build('HS256')
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('x'.repeat(48))),
      };
      await expectTokensRefused(refused);
    });

    it('tokens without exp, or living longer than the configured lifetime, are refused even with the real key (item 9)', async () => {
      const s = await signInStudent(ctx);
      const good = decodeJwt(s.access);
      const now = Math.floor(Date.now() / 1000);
      const lifetime = ctx.config.accessTokenSeconds;
      const build = () =>
        new SignJWT({ role: good.role, tv: good.tv, fid: good.fid, typ: 'access' })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(String(good.sub))
          .setIssuer('school-portal');
      // Control: a token with our own lifetime, forged with the real key, is accepted.
      expect(
        (
          await me(
            await build()
              .setIssuedAt(now)
              .setExpirationTime(now + lifetime)
              .sign(SECRET),
          )
        ).statusCode,
      ).toBe(200);
      const refused: Record<string, string> = {
        noExp: await build().setIssuedAt(now).sign(SECRET),
        noIat: await build()
          .setExpirationTime(now + 60)
          .sign(SECRET),
        noExpNoIat: await build().sign(SECRET),
        farFuture: await build()
          .setIssuedAt(now)
          .setExpirationTime(now + 365 * 24 * 3600)
          .sign(SECRET),
        justOverLifetime: await build()
          .setIssuedAt(now)
          .setExpirationTime(now + lifetime + 120)
          .sign(SECRET),
        futureIat: await build()
          .setIssuedAt(now + 365 * 24 * 3600)
          .setExpirationTime(now + 365 * 24 * 3600 + 60)
          .sign(SECRET),
        oldIatFarExp: await build()
          .setIssuedAt(now - 2 * lifetime)
          .setExpirationTime(now + 60)
          .sign(SECRET),
      };
      await expectTokensRefused(refused);
    });

    it('a refresh token is refused as an access token, and an access token at the refresh endpoint', async () => {
      const s = await signInStaff(ctx);
      expect((await fetchMe(ctx, bearer(s.refresh))).statusCode).toBe(401);
      const r = await refreshTokens(ctx, s.access);
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ detail: AUTH_MESSAGES.refreshInvalid });
      // Neither attempt spent the real refresh token.
      expect((await refreshTokens(ctx, s.refresh)).statusCode).toBe(200);
    });
  });
});

describeEachDatabase('security logging (ASVS 16)', (dialect) => {
  let ctx: TestContext;
  const lines: string[] = [];
  withTestContext(dialect, (c) => (ctx = c), {}, { loggerStream: { write: (l: string) => void lines.push(l) } });

  it('logs sign-in attempts and refused authorizations, never passwords, tokens or the Authorization header', async () => {
    const secretPassword = 'Very-Secret-Pass-314';
    const email = freshEmail('logged');
    await pupilAccount(ctx, email, secretPassword, ['L', 'G'], 'SSS 1A');

    const failed = await login(ctx.app, 'student', email, 'Wrong-Secret-Pass-271');
    expect(failed.statusCode).toBe(401);
    const ok = await login(ctx.app, 'student', email, secretPassword);
    const { access, refresh } = ok.json().data as { access: string; refresh: string };
    const forbidden = await ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: bearer(access), payload: {} });
    expect(forbidden.statusCode).toBe(403);
    const forged = `${access.slice(0, -4)}AAAA`;
    expect((await fetchMe(ctx, bearer(forged))).statusCode).toBe(401);
    expect((await fetchMe(ctx)).statusCode).toBe(401);
    const rotated = await refreshTokens(ctx, refresh);
    await refreshTokens(ctx, refresh); // a replay
    const newPassword = 'Another-Secret-Pass-161';
    const again = (await login(ctx.app, 'student', email, secretPassword)).json().data as { access: string; refresh: string };
    await changePassword(ctx, bearer(again.access), secretPassword, newPassword);

    const text = lines.join('');
    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const has = (event: string) => events.some((e) => e.event === event);
    expect(has('login_failed')).toBe(true);
    expect(has('login_succeeded')).toBe(true);
    expect(has('authorization_refused')).toBe(true);
    expect(has('authentication_refused')).toBe(true);
    expect(has('refresh_reuse')).toBe(true);
    expect(has('password_changed')).toBe(true);

    for (const secret of [
      secretPassword,
      'Wrong-Secret-Pass-271',
      newPassword,
      access,
      refresh,
      forged,
      rotated.json().access,
      rotated.json().refresh,
      again.access,
      again.refresh,
      ctx.config.jwtSecret,
      'Bearer ',
    ]) {
      expect(text.includes(secret), `log leaks ${secret.slice(0, 12)}…`).toBe(false);
    }
    // Nothing that looks like a JWT or an argon2 hash either.
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\./);
    expect(text).not.toContain('$argon2');
  });
});
