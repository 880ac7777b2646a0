import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '@portal/domain';
import { testConfig } from '../../src/config';
import { TokenService } from '../../src/lib/tokens';
import { createStudent, describeEachDatabase, signInAdmin, TEST_PASSWORD, withTestContext, type TestContext } from '../helpers';

const DAY = 24 * 3600 * 1000;
const YEAR = 365 * DAY;
const BASE = Date.parse('2026-03-02T08:00:00.000Z');

/**
 * The server's clock run fast and then corrected (an NTP step, a wrong RTC after a power cut): what was
 * issued or stored while it ran fast must not outlast its configured length measured from the
 * corrected "now". The clock is the one buildApp takes (`now`), which every limit reads; the
 * system clock (Date) is stepped with it, as a real step would, so nothing escapes by reading Date.
 */
describeEachDatabase('clock steps', (dialect) => {
  let ctx: TestContext;
  let t = BASE;
  const clock = () => t;
  withTestContext(
    dialect,
    (c) => (ctx = c),
    { loginLimits: { ...testConfig().loginLimits, perAccountFailures: 3, perAccountBlockSeconds: 60, perAddressPerMinute: 3 } },
    { now: clock, clock },
  );

  let seq = 0;
  const pupil = async () => {
    const email = `clock-${seq++}-${Date.now().toString(36)}@clock.test`;
    await createStudent(ctx.handle.db, { email, password: TEST_PASSWORD, firstName: 'C', lastName: 'K', arm: 'JSS 1A' });
    return email;
  };
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(BASE);
  });
  afterAll(() => {
    vi.useRealTimers();
  });
  const at = (when: number) => {
    t = when;
    vi.setSystemTime(when);
  };
  const from = (remoteAddress: string, email: string, password = TEST_PASSWORD) =>
    ctx.app.inject({ method: 'POST', url: '/api/student/login/', remoteAddress, payload: { email, password } });

  it('an access token issued while the clock ran a year fast is refused once the clock is corrected, and 30 days later', async () => {
    const email = await pupil();
    at(BASE + YEAR);
    const signedIn = await from('198.51.100.31', email);
    expect(signedIn.statusCode).toBe(200);
    const access = signedIn.json().data.access as string;
    // While the clock is still fast the token works (and is now in the verification cache).
    expect((await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: { authorization: `Bearer ${access}` } })).statusCode).toBe(200);
    for (const when of [BASE, BASE + 30 * DAY]) {
      at(when);
      const me = await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: { authorization: `Bearer ${access}` } });
      expect(me.statusCode, new Date(when).toISOString()).toBe(401);
      expect(me.json()).toEqual({ detail: AUTH_MESSAGES.invalidToken });
    }
  });

  it('a refresh token stored while the clock ran a year fast is refused after the correction (limit 14 days from now)', async () => {
    const email = await pupil();
    at(BASE + YEAR);
    const { refresh } = (await from('198.51.100.32', email)).json().data as { refresh: string };
    at(BASE + 60 * DAY);
    const r = await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh } });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ detail: AUTH_MESSAGES.refreshInvalid });
  });

  it('a refresh token still works within its 14 days, and not after them (control)', async () => {
    const email = await pupil();
    at(BASE);
    const { refresh } = (await from('198.51.100.33', email)).json().data as { refresh: string };
    at(BASE + 13 * DAY);
    const rotated = await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh } });
    expect(rotated.statusCode).toBe(200);
    at(BASE + 13 * DAY + 15 * DAY);
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: rotated.json().refresh } })).statusCode,
    ).toBe(401);
  });

  it('a sign-in block set while the clock ran a year fast ends after its minute measured from the corrected clock', async () => {
    const email = await pupil();
    const address = '203.0.113.41';
    at(BASE + YEAR);
    for (let i = 0; i < 3; i++) expect((await from(address, email, 'Wrong-pass-1')).statusCode).toBe(401);
    expect((await from(address, email)).statusCode).toBe(429);
    // Corrected: the block claims to last a year; it is not in force, nor listed for the admin.
    at(BASE + 2 * 60 * 1000);
    const admin = await signInAdmin(ctx);
    const blocks = await ctx.app.inject({ method: 'GET', url: '/api/sign-in-blocks/', headers: admin.auth });
    expect(blocks.json<{ email: string }[]>().filter((b) => b.email === email)).toEqual([]);
    expect((await from(address, email)).statusCode).toBe(200);
  });

  it('a block set by the corrected clock still holds for its minute (control)', async () => {
    const email = await pupil();
    const address = '203.0.113.42';
    at(BASE + 10 * DAY);
    for (let i = 0; i < 3; i++) expect((await from(address, email, 'Wrong-pass-1')).statusCode).toBe(401);
    at(BASE + 10 * DAY + 30_000);
    expect((await from(address, email)).statusCode).toBe(429);
    at(BASE + 10 * DAY + 61_000);
    expect((await from(address, email)).statusCode).toBe(200);
  });

  it('after the clock steps back 10 minutes the per-minute limit never asks to wait more than a minute', async () => {
    const address = '203.0.113.43';
    at(BASE + 20 * DAY);
    const nobody = (i: number) => from(address, `nobody-${i}@clock.test`, 'Wrong-pass-1');
    for (let i = 0; i < 3; i++) expect((await nobody(i)).statusCode).toBe(401);
    const limited = await nobody(3);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    at(BASE + 20 * DAY - 10 * 60 * 1000);
    let refused = undefined as Awaited<ReturnType<typeof nobody>> | undefined;
    for (let i = 4; i < 10 && !refused; i++) {
      const r = await nobody(i);
      if (r.statusCode === 429) refused = r;
    }
    expect(refused?.statusCode).toBe(429);
    const wait = Number(refused!.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
  });
});

describe('the token cache applies the same checks as verification', () => {
  it('a cached token is refused once it claims to be issued in the future or older than its life', async () => {
    let t = BASE;
    const tokens = new TokenService(testConfig().jwtSecret, 15 * 60, 14 * 24 * 3600, () => t);
    const claims = { userId: 7, role: 'student' as const, tokenVersion: 0, familyId: 'f' };
    t = BASE + YEAR;
    const access = await tokens.signAccess(claims);
    expect(await tokens.verifyAccess(access)).toEqual(claims);
    // Stepped back: issued "in the future".
    t = BASE;
    expect(await tokens.verifyAccess(access)).toBeNull();
    // And a token the cache holds is refused past its life even if exp were wrong (control of maxTokenAge).
    t = BASE;
    const fresh = await tokens.signAccess(claims);
    expect(await tokens.verifyAccess(fresh)).toEqual(claims);
    t = BASE + 16 * 60 * 1000;
    expect(await tokens.verifyAccess(fresh)).toBeNull();
  });

  it('verification itself reads the injected clock (a token signed by a real-time clock is judged by it)', async () => {
    let t = BASE;
    const tokens = new TokenService(testConfig().jwtSecret, 15 * 60, 14 * 24 * 3600, () => t);
    const key = new TextEncoder().encode(testConfig().jwtSecret);
    const iat = Math.floor(BASE / 1000);
    const token = await new SignJWT({ role: 'admin', tv: 0, fid: 'x', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('school-portal')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(key);
    expect(await tokens.verifyAccess(token)).not.toBeNull();
    t = BASE + 11 * 60 * 1000;
    expect(await tokens.verifyAccess(token)).toBeNull();
  });
});
