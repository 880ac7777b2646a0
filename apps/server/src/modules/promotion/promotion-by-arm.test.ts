import { expect, it } from 'vitest';
import type { PromotionPreview, PromotionRun } from '@portal/domain';
import {
  addStudent,
  createSession,
  describeEachDatabase,
  servicesOver,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import './promotion.tables';

/**
 * Promotion one arm at a time (issue 34 item 1, decisions 038 and 039): the first arm's run closes the
 * ending session, so it also records where every other active student is (no outcome yet). The other
 * arms' rosters of that session stay whole, a later run promotes them (and not the students the first
 * run moved into its arms), and the undos open the session again once nobody in it is promoted.
 */
describeEachDatabase('promotion one arm at a time', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let from: number;
  let to: number;
  const ids: Record<string, number> = {};

  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin } = s);
    from = s.sessionId;
    to = (await createSession(ctx.handle.db, '2026/2027')).id;
    for (const [key, arm] of [
      ['ada', 'JSS 1A'],
      ['bola', 'JSS 1A'],
      ['chidi', 'JSS 1B'],
      ['dayo', 'JSS 2A'],
    ] as const) {
      ids[key] = (await addStudent(ctx, arm, key, 'Arm')).id;
    }
  });

  const post = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers: admin.auth, payload });
  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: admin.auth });
  const roster = async (arm: string) =>
    (await servicesOver(ctx).people.rosterInSession(ctx.handle.db, from, arm)).map((r) => r.id).sort((a, b) => a - b);
  const armOf = async (id: number) =>
    (await ctx.handle.db.selectFrom('students').select('student_class').where('id', '=', id).executeTakeFirstOrThrow()).student_class;
  async function run(arm: string): Promise<PromotionRun> {
    const res = await post('/api/promotion/runs/', { from_session_id: from, to_session_id: to, arm });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json<{ id: number }>().id;
    for (let i = 0; i < 200; i++) {
      const r = (await get(`/api/promotion/runs/${id}/`)).json<PromotionRun>();
      if (r.status !== 'running') return r;
      await new Promise((done) => setTimeout(done, 20));
    }
    throw new Error('the run did not finish');
  }

  it('keeps the other arms’ rosters of the ending session whole, and promotes each arm once', async () => {
    const first = await run('JSS 1A');
    expect(first.status).toBe('done');
    expect(await armOf(ids.ada!)).toBe('JSS 2A');
    // The ending session's rosters: JSS 1A as it was, and the arms not promoted yet still whole.
    expect(await roster('JSS 1A')).toEqual([ids.ada, ids.bola].sort((a, b) => a! - b!));
    expect(await roster('JSS 1B')).toEqual([ids.chidi]);
    expect(await roster('JSS 2A')).toEqual([ids.dayo]);

    // JSS 2A's preview lists its own student, not the two the first run moved into it.
    const preview = (
      await get(`/api/promotion/preview/?from_session_id=${from}&to_session_id=${to}&arm=JSS%202A`)
    ).json<PromotionPreview>();
    expect(preview.students.map((s) => s.student_id)).toEqual([ids.dayo]);

    const second = await run('JSS 2A');
    expect(second.status).toBe('done');
    expect(await armOf(ids.dayo!)).toBe('JSS 3A');
    expect(await armOf(ids.ada!)).toBe('JSS 2A');
    expect(await roster('JSS 2A')).toEqual([ids.dayo]);

    // Undo the second: Dayo is back, the session stays closed (the first run's students are promoted).
    expect((await post(`/api/promotion/runs/${second.id}/undo/`, {})).statusCode).toBe(200);
    expect(await armOf(ids.dayo!)).toBe('JSS 2A');
    expect(await roster('JSS 2A')).toEqual([ids.dayo]);
    expect(await roster('JSS 1B')).toEqual([ids.chidi]);

    // Undo the first: nobody in the session is promoted any more, so it is live again (no rows).
    expect((await post(`/api/promotion/runs/${first.id}/undo/`, {})).statusCode).toBe(200);
    expect(await armOf(ids.ada!)).toBe('JSS 1A');
    const rows = await ctx.handle.db.selectFrom('student_enrolments').select('id').where('session_id', '=', from).execute();
    expect(rows).toEqual([]);
    expect(await roster('JSS 1A')).toEqual([ids.ada, ids.bola].sort((a, b) => a! - b!));
  });
});
