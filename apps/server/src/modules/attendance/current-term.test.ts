import { expect, it } from 'vitest';
import type { CurrentTerm } from '@portal/domain';
import { describeEachDatabase, signInStudent, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { testClock } from '../../../test/attendance-fixtures';

/**
 * GET /api/current-term/: the one place that says which session and term a
 * term-based screen opens on, from the school calendar and the school's today.
 */
describeEachDatabase('the current term', (dialect) => {
  const clock = testClock('2026-11-28');
  let ctx: TestContext;
  let admin: SignedIn;
  let staff: SignedIn;
  let student: SignedIn;
  let previous: number;
  let current: number;

  withSchool(dialect, { sessions: ['2025/2026', '2026/2027'], now: clock.now }, async (school) => {
    ({ ctx, admin, staff } = school);
    previous = school.previousSessionId;
    current = school.sessionId;
    student = await signInStudent(ctx, { arm: 'JSS 1A' });
  });

  const read = async (who: SignedIn = admin) => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/current-term/', headers: who.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CurrentTerm>();
  };
  const dates = async (session_id: number, term: string, starts_on: string, ends_on: string) => {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/attendance/terms/',
      headers: admin.auth,
      payload: { session_id, term, starts_on, ends_on },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('without term dates: the session marked current and no term', async () => {
    clock.at('2026-11-28');
    expect(await read()).toEqual({
      session_id: current,
      session_name: '2026/2027',
      term: null,
      starts_on: null,
      ends_on: null,
      today: '2026-11-28',
      basis: 'no_calendar',
    });
  });

  it("is the calendar's term holding today in the school's time zone, for every role", async () => {
    await dates(previous, '3rd', '2026-04-27', '2026-07-24');
    await dates(current, '1st', '2026-09-14', '2026-12-18');
    await dates(current, '2nd', '2027-01-11', '2027-04-01');
    clock.at('2026-11-28');
    const want = { session_id: current, session_name: '2026/2027', term: '1st', starts_on: '2026-09-14', basis: 'in_term' };
    expect(await read()).toMatchObject(want);
    expect(await read(staff)).toMatchObject(want);
    expect(await read(student)).toMatchObject(want);
    // 23:30 UTC on 13 September is already the 14th in Lagos (UTC+1): the term has begun there.
    clock.at('2026-09-13', '23:30:00');
    expect(await read()).toMatchObject({ today: '2026-09-14', term: '1st', session_id: current, basis: 'in_term' });
  });

  it('between terms: the nearest, the one just ended or the one about to begin (even of another session)', async () => {
    clock.at('2026-12-22');
    expect(await read()).toMatchObject({ session_id: current, term: '1st', basis: 'term_ended' });
    clock.at('2027-01-08');
    expect(await read()).toMatchObject({ session_id: current, term: '2nd', basis: 'term_ahead' });
    clock.at('2026-09-05');
    expect(await read()).toMatchObject({ session_id: current, term: '1st', basis: 'term_ahead' });
  });

  it("looks at the marked-current session's terms: the school moves on by marking the next session current", async () => {
    clock.at('2026-11-28');
    const mark = (id: number) =>
      ctx.app.inject({ method: 'PATCH', url: `/api/sessions/${id}/`, headers: admin.auth, payload: { is_current: true } });
    expect((await mark(previous)).statusCode).toBe(200);
    // 2025/2026 still current in November 2026: its last term (ended in July), not 2026/2027's first.
    expect(await read()).toMatchObject({ session_id: previous, session_name: '2025/2026', term: '3rd', basis: 'term_ended' });
    expect((await mark(current)).statusCode).toBe(200);
    expect(await read()).toMatchObject({ session_id: current, term: '1st', basis: 'in_term' });
  });

  it('asks for a sign-in', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/current-term/' })).statusCode).toBe(401);
  });
});
