import { expect, it } from 'vitest';
import { RESULT_MESSAGES } from '@portal/domain';
import { withSchool, describeEachDatabase, injectAtOnce, signInStudent, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';

describeEachDatabase('academic sessions', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, student: SignedIn, sessionId: number, otherSessionId: number;
  withSchool(dialect, { sessions: ['2024/2025', '2025/2026'] }, async (s) => {
    ({ ctx, admin, staff, sessionId, previousSessionId: otherSessionId } = s);
    student = await signInStudent(ctx);
  });

  const { inject } = resultsKit(
    () => ctx,
    () => staff,
  );

  it('lists sessions to every signed-in role, newest first, with the current one marked', async () => {
    for (const who of [admin, staff, student]) {
      const res = await inject('GET', '/api/sessions/', who.auth);
      expect(res.statusCode).toBe(200);
      const list = res.json<{ id: number; name: string; is_current: boolean }[]>();
      const names = list.map((s) => s.name);
      expect(names).toEqual([...names].sort().reverse());
      expect(list.filter((s) => s.is_current)).toEqual([{ id: sessionId, name: '2025/2026', is_current: true }]);
      expect(list.find((s) => s.id === otherSessionId)).toEqual({ id: otherSessionId, name: '2024/2025', is_current: false });
    }
    expect((await inject('GET', '/api/sessions/')).statusCode).toBe(401);
  });

  it('lets only an admin create a session, validating the name', async () => {
    for (const who of [staff, student])
      expect((await inject('POST', '/api/sessions/', who.auth, { name: '2030/2031' })).statusCode).toBe(403);
    for (const name of ['2030-2031', '2030/2032', 'abc', '30/31']) {
      const bad = await inject('POST', '/api/sessions/', admin.auth, { name });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ name: [RESULT_MESSAGES.sessionNameFormat] });
    }
    expect((await inject('POST', '/api/sessions/', admin.auth, {})).json()).toEqual({ name: [RESULT_MESSAGES.sessionNameRequired] });
    const ok = await inject('POST', '/api/sessions/', admin.auth, { name: '2030/2031' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ name: '2030/2031', is_current: false });
    const dup = await inject('POST', '/api/sessions/', admin.auth, { name: '2030/2031' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ name: [RESULT_MESSAGES.sessionNameTaken] });
  });

  it('renames and moves the current session, keeping exactly one current', async () => {
    const created = (await inject('POST', '/api/sessions/', admin.auth, { name: '2031/2032' })).json();
    const renamed = await inject('PATCH', `/api/sessions/${created.id}/`, admin.auth, { name: '2032/2033' });
    expect(renamed.json()).toMatchObject({ id: created.id, name: '2032/2033' });
    const taken = await inject('PATCH', `/api/sessions/${created.id}/`, admin.auth, { name: '2025/2026' });
    expect(taken.json()).toEqual({ name: [RESULT_MESSAGES.sessionNameTaken] });

    expect((await inject('PATCH', `/api/sessions/${created.id}/`, admin.auth, { is_current: true })).json().is_current).toBe(true);
    let list = (await inject('GET', '/api/sessions/', staff.auth)).json<{ id: number; is_current: boolean }[]>();
    expect(list.filter((s) => s.is_current).map((s) => s.id)).toEqual([created.id]);
    const unset = await inject('PATCH', `/api/sessions/${created.id}/`, admin.auth, { is_current: false });
    expect(unset.statusCode).toBe(400);
    expect(unset.json()).toEqual({ is_current: [RESULT_MESSAGES.keepOneCurrent] });

    // Put the current session back, as the other tests of this file expect it.
    await inject('PATCH', `/api/sessions/${sessionId}/`, admin.auth, { is_current: true });
    list = (await inject('GET', '/api/sessions/', staff.auth)).json();
    expect(list.filter((s) => s.is_current).map((s) => s.id)).toEqual([sessionId]);
    expect((await inject('PATCH', '/api/sessions/99999/', admin.auth, { name: '2040/2041' })).statusCode).toBe(404);
    expect((await inject('PATCH', `/api/sessions/${sessionId}/`, staff.auth, { name: '2040/2041' })).statusCode).toBe(403);
    const audit = await ctx.handle.db.selectFrom('audit_log').selectAll().where('entity', '=', 'academic_session').execute();
    expect(audit.length).toBeGreaterThanOrEqual(4);
  });

  it('two admins making sessions current at once both succeed; the last one stays current', async () => {
    const ids = [sessionId, otherSessionId];
    for (const name of ['2040/2041', '2041/2042'])
      ids.push((await inject('POST', '/api/sessions/', admin.auth, { name })).json<{ id: number }>().id);
    const answers = await injectAtOnce(ctx, 8, (i) => ({
      method: 'PATCH',
      url: `/api/sessions/${ids[i % ids.length]}/`,
      headers: admin.auth,
      payload: { is_current: true },
    }));
    // Without the lock, PostgreSQL refused some ("name taken" from the one-current index, or a deadlock's 500).
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const current = (await inject('GET', '/api/sessions/', admin.auth))
      .json<{ id: number; is_current: boolean }[]>()
      .filter((s) => s.is_current);
    expect(current).toHaveLength(1);
    expect((await inject('PATCH', `/api/sessions/${sessionId}/`, admin.auth, { is_current: true })).statusCode).toBe(200);
  });
});
