import { describe, expect, it } from 'vitest';
import { GENERAL_MESSAGES } from '@portal/domain';
import { testConfig } from '../../src/config';
import { ConcurrencyLimiter, HeavyReportLimiter } from '../../src/lib/limiter';
import { addStudent, describeEachDatabase, withSchool, type TestSchool } from '../helpers';

const heavyOf = (school: TestSchool) => (school.ctx.app as unknown as { heavyReports: HeavyReportLimiter }).heavyReports;

/** Every heavy report: whole-school or whole-arm work, limited per user and queued per process. */
const HEAVY_ROUTES = (sessionId: number) => [
  `/api/broadsheet/?session_id=${sessionId}&term=1st`,
  `/api/broadsheet/?session_id=${sessionId}&term=1st&student_class=JSS%201A`,
  `/api/broadsheet/csv/?session_id=${sessionId}&term=1st`,
  `/api/report-cards/?student_class=JSS%201A&session_id=${sessionId}&term=1st`,
  `/api/report-cards/pdf/?student_class=JSS%201A&session_id=${sessionId}&term=1st`,
  '/api/bursary/ledger.csv',
  '/api/bursary/debtors/',
  '/api/bursary/debtors.csv',
  '/api/bursary/debtors.pdf',
  '/api/bursary/collections/',
  '/api/payments/report/csv/?class=JSS%201A',
  '/api/students/export/',
  '/api/staff/export/',
];

/**
 * One user looping heavy reports from several tabs must not slow everyone (the health check went
 * from 1 ms to 245 ms): each user runs at most `perUser` at once, the rest are refused at once with
 * 429 and Retry-After, and all of them share one bounded queue per process. Deterministic: the test
 * holds places itself instead of racing requests; bench/heavy-reports.ts measures the health check.
 */
describeEachDatabase('heavy reports', (dialect) => {
  describe('per user', () => {
    let school: TestSchool;
    // Room for the two places the test holds and another user's report beside them.
    const overrides = { heavyReports: { ...testConfig().heavyReports, concurrency: 3 } };
    withSchool(dialect, { sessions: ['2025/2026'], overrides }, async (s) => {
      school = s;
      await addStudent(s.ctx, 'JSS 1A', 'Heavy', 'Report');
    });
    const get = (url: string, auth = school.admin.auth) => school.ctx.app.inject({ method: 'GET', url, headers: auth });

    it('with two of their reports in progress, a third is refused at once with 429 and Retry-After; other users are not', async () => {
      const heavy = heavyOf(school);
      const releases = [await heavy.enter(school.admin.userId), await heavy.enter(school.admin.userId)];
      try {
        for (const url of HEAVY_ROUTES(school.sessionId)) {
          const r = await get(url);
          expect(r.statusCode, url).toBe(429);
          expect(r.json(), url).toEqual({ detail: GENERAL_MESSAGES.tooManyReports(2) });
          expect(Number(r.headers['retry-after']), url).toBeGreaterThan(0);
        }
        // Another user's report runs (the staff member reads the whole-school broadsheet).
        expect((await get(HEAVY_ROUTES(school.sessionId)[0]!, school.staff.auth)).statusCode).toBe(200);
        // Light pages of the same user are not limited.
        expect((await get('/api/me/')).statusCode).toBe(200);
      } finally {
        for (const release of releases) release();
      }
      // Places given back: the user's reports run again, and each gives its place back when answered.
      for (const url of HEAVY_ROUTES(school.sessionId)) {
        const r = await get(url);
        expect(r.statusCode, url).not.toBe(429);
        expect(heavy.of(school.admin.userId), url).toBe(0);
      }
    });

    it('a refused or malformed request takes no place', async () => {
      const heavy = heavyOf(school);
      expect((await school.ctx.app.inject({ method: 'GET', url: HEAVY_ROUTES(school.sessionId)[0]! })).statusCode).toBe(401);
      expect((await get('/api/broadsheet/?term=1st')).statusCode).toBe(400);
      expect(heavy.of(school.admin.userId)).toBe(0);
      expect(heavy.of(0)).toBe(0);
    });

    it('parallel requests of one user: at most two run, the others 429, and all places come back', async () => {
      const heavy = heavyOf(school);
      const answers = await Promise.all(Array.from({ length: 6 }, () => get(HEAVY_ROUTES(school.sessionId)[0]!)));
      const codes = answers.map((a) => a.statusCode);
      expect(codes.every((c) => c === 200 || c === 429)).toBe(true);
      expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(1);
      expect(heavy.of(school.admin.userId)).toBe(0);
      expect(heavy.queue.active).toBe(0);
      expect(heavy.queue.peak).toBeLessThanOrEqual(heavy.queue.limit);
    });
  });

  describe('one bounded queue per process', () => {
    let school: TestSchool;
    withSchool(
      dialect,
      { sessions: ['2025/2026'], overrides: { heavyReports: { ...testConfig().heavyReports, concurrency: 1, queue: 1, waitMs: 60_000 } } },
      (s) => {
        school = s;
      },
    );

    it('past the queue, requests are refused with 503; a waiting one runs when a place frees', async () => {
      const heavy = heavyOf(school);
      // Someone else's report runs, and another waits: the queue is full.
      const running = await heavy.enter(999_001);
      const waiting = heavy.enter(999_002);
      const full = await school.ctx.app.inject({ method: 'GET', url: '/api/staff/export/', headers: school.admin.auth });
      expect([full.statusCode, full.json()]).toEqual([503, { detail: GENERAL_MESSAGES.serviceUnavailable }]);
      expect(heavy.of(school.admin.userId)).toBe(0);
      running();
      (await waiting)();
      expect((await school.ctx.app.inject({ method: 'GET', url: '/api/staff/export/', headers: school.admin.auth })).statusCode).toBe(200);
    });
  });
});

describe('HeavyReportLimiter', () => {
  it('counts each user apart, gives places back once, and never runs more than the process allows', async () => {
    const limiter = new HeavyReportLimiter(2, new ConcurrencyLimiter(1, 60_000, 10));
    const a1 = await limiter.enter(1);
    const a2 = limiter.enter(1); // waits for the process's place
    await expect(limiter.enter(1)).rejects.toMatchObject({ statusCode: 429 });
    const b1 = limiter.enter(2);
    expect(limiter.queue.waiting).toBe(2);
    a1();
    a1(); // twice: no effect
    const second = await a2;
    expect(limiter.of(1)).toBe(1);
    expect(limiter.queue.active).toBe(1);
    second();
    (await b1)();
    expect([limiter.of(1), limiter.of(2), limiter.queue.active, limiter.queue.peak]).toEqual([0, 0, 0, 1]);
  });
});
