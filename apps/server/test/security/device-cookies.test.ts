// Counts real argon2 verifications against one stored hash: how many guesses were actually checked.
import { verifySpy } from '../argon2-spy';
import { SignJWT } from 'jose';
import { beforeEach, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/domain';
import { buildApp } from '../../src/app';
import { loadConfig, testConfig } from '../../src/config';
import {
  createStaff,
  createStudent,
  describeEachDatabase,
  login,
  productionEnv,
  TEST_PASSWORD,
  type TestContext,
  withTestContext,
} from '../helpers';

const DEVICE_COOKIE = 'portal_device';
let seq = 0;
const freshEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${seq++}@device.test`;

/** The device cookie a sign-in answer sets, as a Cookie header value, or undefined. */
function deviceCookieOf(res: { cookies: { name: string; value: string }[] }): string | undefined {
  const c = res.cookies.find((k) => k.name === DEVICE_COOKIE);
  return c ? `${DEVICE_COOKIE}=${c.value}` : undefined;
}

/**
 * OWASP's "slow down online guessing with device cookies": a browser that signed in to an account
 * holds a signed cookie bound to it. Failures with a valid one count per device; failures without one
 * count per account across every address, and past the budget untrusted clients are refused for the
 * account while the owner's known browser still gets in.
 */
describeEachDatabase('device cookies against distributed guessing', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));
  beforeEach(() => {
    verifySpy.mockClear();
  });

  const attempt = (role: 'staff' | 'student', email: string, password: string, remoteAddress: string, cookie?: string) =>
    login(ctx.app, role, email, password, { remoteAddress, cookie });
  const storedHash = async (email: string) =>
    (await ctx.handle.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()).password_hash;

  it('a successful sign-in sets a signed, HttpOnly, SameSite device cookie bound to the account', async () => {
    const email = freshEmail('owner');
    await createStaff(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'O', lastName: 'W' });
    const ok = await attempt('staff', email, TEST_PASSWORD, '198.51.100.10');
    expect(ok.statusCode).toBe(200);
    const cookie = ok.cookies.find((c) => c.name === DEVICE_COOKIE);
    expect(cookie).toBeDefined();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/' });
    expect(cookie!.maxAge).toBeGreaterThan(0);
    // A failed sign-in sets none.
    expect(deviceCookieOf(await attempt('staff', email, 'Wrong-pass-1', '198.51.100.10'))).toBeUndefined();
  });

  it('is Secure in production', async () => {
    const config = { ...loadConfig(productionEnv()), logLevel: 'silent' };
    const app = await buildApp({ config, handle: ctx.handle, logger: false });
    try {
      const email = freshEmail('prod');
      await createStaff(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'P', lastName: 'R' });
      const ok = await app.inject({ method: 'POST', url: '/api/staff/login/', payload: { email, password: TEST_PASSWORD } });
      expect(ok.statusCode).toBe(200);
      expect(ok.cookies.find((c) => c.name === DEVICE_COOKIE)).toMatchObject({ secure: true, httpOnly: true });
    } finally {
      await app.close();
    }
  });

  it('40 parallel wrong passwords from 40 addresses: at most the untrusted budget is checked; the owner on a known device gets in meanwhile', async () => {
    const email = freshEmail('target');
    await createStaff(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'T', lastName: 'G' });
    const owner = deviceCookieOf(await attempt('staff', email, TEST_PASSWORD, '198.51.100.11'));
    expect(owner).toBeDefined();
    const stored = await storedHash(email);
    verifySpy.mockClear();

    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => attempt('staff', email, `Wrong-pass-${i}`, `203.0.113.${i + 1}`)),
    );
    const budget = ctx.config.untrustedSignIn.failures;
    expect(verifySpy.mock.calls.filter(([h]) => h === stored).length).toBeLessThanOrEqual(budget);
    expect(answers.filter((a) => a.statusCode === 401).length).toBeLessThanOrEqual(budget);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused.length).toBeGreaterThanOrEqual(40 - budget);
    // The same generic message as every refusal.
    for (const r of refused) expect(r.json().errors.non_field_errors).toEqual([AUTH_MESSAGES.tooManyAttempts]);

    // A new address with the right password but no device cookie: refused for the account.
    expect((await attempt('staff', email, TEST_PASSWORD, '192.0.2.200')).statusCode).toBe(429);
    // The owner's browser, from yet another address: in.
    const ownerIn = await attempt('staff', email, TEST_PASSWORD, '192.0.2.201', owner);
    expect(ownerIn.statusCode).toBe(200);
  }, 60_000);

  it('a forged device cookie, or one of another account, counts as none', async () => {
    const email = freshEmail('victim');
    await createStaff(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'V', lastName: 'C' });
    const own = deviceCookieOf(await attempt('staff', email, TEST_PASSWORD, '198.51.100.12'))!;
    const otherEmail = freshEmail('other');
    await createStaff(ctx.handle.db, { email: otherEmail, password: TEST_PASSWORD, firstName: 'O', lastName: 'T' });
    const others = deviceCookieOf(await attempt('staff', otherEmail, TEST_PASSWORD, '198.51.100.13'))!;
    const value = own.slice(DEVICE_COOKIE.length + 1);
    const [h, p] = value.split('.');
    const forgedSignature = `${DEVICE_COOKIE}=${h}.${p}.${'A'.repeat(43)}`;
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const otherKey = `${DEVICE_COOKIE}=${await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-another-secret-0123456789'))}`;

    // Spend the untrusted budget from many addresses.
    for (let i = 0; i < ctx.config.untrustedSignIn.failures; i++) {
      expect((await attempt('staff', email, 'Wrong-pass-1', `203.0.114.${i + 1}`)).statusCode).toBe(401);
    }
    for (const [name, cookie] of Object.entries({ forgedSignature, otherKey, others, garbage: `${DEVICE_COOKIE}=x.y.z` })) {
      const r = await attempt('staff', email, TEST_PASSWORD, '192.0.2.210', cookie);
      expect(r.statusCode, name).toBe(429);
    }
    expect((await attempt('staff', email, TEST_PASSWORD, '192.0.2.211', own)).statusCode).toBe(200);
  }, 30_000);

  it('failures with a valid device cookie count per device, not against the account', async () => {
    const email = freshEmail('typo');
    await createStaff(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'T', lastName: 'Y' });
    const device = deviceCookieOf(await attempt('staff', email, TEST_PASSWORD, '198.51.100.14'))!;
    const limit = ctx.config.loginLimits.perAccountFailures;
    // The owner mistypes on their own phone, from many addresses (a moving phone): counted on the device.
    for (let i = 0; i < limit; i++)
      expect((await attempt('staff', email, 'Wrong-pass-1', `203.0.115.${i + 1}`, device)).statusCode).toBe(401);
    expect((await attempt('staff', email, TEST_PASSWORD, '203.0.115.99', device)).statusCode).toBe(429);
    // The account's untrusted budget is untouched: a new browser with the password gets in.
    expect((await attempt('staff', email, TEST_PASSWORD, '192.0.2.220')).statusCode).toBe(200);
  });

  it('the owner signing in on a new browser does not use up the untrusted budget, failures do', async () => {
    const email = freshEmail('budget');
    await createStaff(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'B', lastName: 'U' });
    const budget = ctx.config.untrustedSignIn.failures;
    for (let i = 0; i < budget * 2; i++) expect((await attempt('staff', email, TEST_PASSWORD, `198.51.101.${i + 1}`)).statusCode).toBe(200);
    for (let i = 0; i < budget; i++) expect((await attempt('staff', email, 'Wrong-pass-1', `203.0.116.${i + 1}`)).statusCode).toBe(401);
    expect((await attempt('staff', email, 'Wrong-pass-1', '203.0.116.200')).statusCode).toBe(429);
  }, 30_000);

  it('an unknown account is refused after the same budget (the answers do not tell which accounts exist)', async () => {
    const email = freshEmail('nobody');
    const budget = ctx.config.untrustedSignIn.failures;
    for (let i = 0; i < budget; i++) expect((await attempt('staff', email, 'Wrong-pass-1', `203.0.117.${i + 1}`)).statusCode).toBe(401);
    expect((await attempt('staff', email, 'Wrong-pass-1', '203.0.117.200')).statusCode).toBe(429);
  });

  it('the account-wide budget holds across instances sharing the database, and the admin sees and clears it', async () => {
    const email = freshEmail('shared');
    await createStudent(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'S', lastName: 'H', arm: 'JSS 1A' });
    const second = await buildApp({ config: testConfig(), handle: ctx.handle, logger: false });
    try {
      const budget = ctx.config.untrustedSignIn.failures;
      const codes: number[] = [];
      for (let i = 0; i < budget + 2; i++) {
        const app = i % 2 === 0 ? ctx.app : second;
        const r = await app.inject({
          method: 'POST',
          url: '/api/student/login/',
          remoteAddress: `203.0.118.${i + 1}`,
          payload: { email, password: 'Wrong-pass-1' },
        });
        codes.push(r.statusCode);
      }
      expect(codes.slice(0, budget).every((c) => c === 401)).toBe(true);
      expect(codes.slice(budget)).toEqual([429, 429]);

      const adminEmail = freshEmail('admin');
      const { createAdmin } = await import('../helpers');
      await createAdmin(ctx.handle.db, { email: adminEmail, password: TEST_PASSWORD, username: `adm${seq++}` });
      const admin = await ctx.app.inject({
        method: 'POST',
        url: '/api/admin/login/',
        payload: { email: adminEmail, password: TEST_PASSWORD },
      });
      const auth = { authorization: `Bearer ${admin.json().data.access}` };
      const list = await ctx.app.inject({ method: 'GET', url: '/api/sign-in-blocks/', headers: auth });
      const mine = list.json<{ email: string; address: string | null; kind: string }[]>().filter((b) => b.email === email);
      expect(mine).toContainEqual(expect.objectContaining({ email, kind: 'untrusted_clients', address: null }));
      const cleared = await ctx.app.inject({ method: 'POST', url: '/api/sign-in-blocks/clear/', headers: auth, payload: { email } });
      expect(cleared.statusCode).toBe(200);
      expect(
        (
          await second.inject({
            method: 'POST',
            url: '/api/student/login/',
            remoteAddress: '192.0.2.230',
            payload: { email, password: TEST_PASSWORD },
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await second.close();
    }
  }, 30_000);
});
