import { expect, it, vi } from 'vitest';
import { PROMOTION_MESSAGES as M, type PromotionPreview, type PromotionRun } from '@portal/domain';
import { createResults } from '../../db/factories';
import { nowIso } from '../../db/index';
import {
  addStudent,
  createSession,
  describeEachDatabase,
  login,
  servicesOver,
  signInStudent,
  TEST_PASSWORD,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import '../results/report-cards.tables';
import '../attendance/attendance.tables';
import './promotion.tables';

/**
 * End-of-session promotion (issue 34, decision record 039) through the API: the preview (decisions
 * from the third-term card, the mapping, counts), the 400s, the run (202, progress, summary), the
 * undo and its 409, a single student's move, and all-or-nothing under a fault injected midway.
 */
describeEachDatabase('promotion', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let from: number;
  let to: number;
  let science: number;
  const ids: Record<string, { id: number; admissionNumber: string; userId: number }> = {};

  /** Three terms of Mathematics and English at `score` (the annual average is `score`). */
  const scores = (studentId: number, arm: string, score: number, terms: ('1st' | '2nd' | '3rd')[] = ['1st', '2nd', '3rd']) =>
    createResults(
      ctx.handle.db,
      terms.flatMap((term) =>
        ['Mathematics', 'English Language'].map((subject) => ({ studentId, sessionId: from, term, arm, subject, score })),
      ),
    );

  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin } = s);
    from = s.sessionId;
    to = (await createSession(ctx.handle.db, '2026/2027')).id;
    science = Number(
      (
        await ctx.handle.db
          .insertInto('streams')
          .values({ name: 'Science', created_at: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const add = async (key: string, arm: string, first: string, last: string) => {
      const st = await addStudent(ctx, arm, first, last);
      ids[key] = { id: st.id, admissionNumber: st.admissionNumber, userId: st.userId };
    };
    await add('ada', 'JSS 1A', 'Ada', 'Agu'); // promoted by the rule (70)
    await add('bola', 'JSS 1A', 'Bola', 'Bello'); // trial (37)
    await add('chidi', 'JSS 1A', 'Chidi', 'Cole'); // repeat (20)
    await add('dayo', 'JSS 1A', 'Dayo', 'Dare'); // no third-term card
    await add('emeka', 'JSS 1B', 'Emeka', 'Eze'); // promoted by the rule, overridden to repeat on the card
    await add('femi', 'JSS 3A', 'Femi', 'Fash'); // promoted into SSS 1
    await add('gina', 'SSS 3A', 'Gina', 'Gold'); // graduates
    await add('hassan', 'SSS 3B', 'Hassan', 'Hope'); // repeats SSS 3
    await add('wale', 'JSS 1A', 'Wale', 'Wood'); // withdrawn: left out
    await scores(ids.ada!.id, 'JSS 1A', 70);
    await scores(ids.bola!.id, 'JSS 1A', 37);
    await scores(ids.chidi!.id, 'JSS 1A', 20);
    await scores(ids.dayo!.id, 'JSS 1A', 60, ['1st', '2nd']);
    await scores(ids.emeka!.id, 'JSS 1B', 80);
    await scores(ids.femi!.id, 'JSS 3A', 55);
    await scores(ids.gina!.id, 'SSS 3A', 65);
    await scores(ids.hassan!.id, 'SSS 3B', 10);
    await ctx.handle.db
      .insertInto('report_card_entries')
      .values({
        student_id: ids.emeka!.id,
        session_id: from,
        term: '3rd',
        student_class: 'JSS 1B',
        ratings: '{}',
        form_comment: '',
        principal_comment: '',
        days_present: null,
        days_absent: null,
        promotion_override: 'repeat',
        override_reason: 'Missed the whole term',
        version: 1,
        updated_by: null,
        updated_at: nowIso(),
      })
      .execute();
    await ctx.handle.db.updateTable('students').set({ status: 'withdrawn' }).where('id', '=', ids.wale!.id).execute();
  });

  const get = (url: string, auth = admin.auth) => ctx.app.inject({ method: 'GET', url, headers: auth });
  const post = (url: string, payload: unknown, auth = admin.auth) =>
    ctx.app.inject({ method: 'POST', url, headers: auth, payload: payload as object });
  const previewUrl = (extra = '') => `/api/promotion/preview/?from_session_id=${from}&to_session_id=${to}${extra}`;
  const studentRow = (key: string) =>
    ctx.handle.db
      .selectFrom('students')
      .select(['student_class', 'stream_id', 'status'])
      .where('id', '=', ids[key]!.id)
      .executeTakeFirstOrThrow();
  const enrolments = () => ctx.handle.db.selectFrom('student_enrolments').selectAll().where('session_id', '=', from).execute();
  async function untilFinished(id: number): Promise<PromotionRun> {
    for (let i = 0; i < 200; i++) {
      const run = (await get(`/api/promotion/runs/${id}/`)).json<PromotionRun>();
      if (run.status !== 'running') return run;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the run did not finish');
  }
  async function snapshot() {
    const [students, enrol, moves, runs] = await Promise.all([
      ctx.handle.db.selectFrom('students').select(['id', 'student_class', 'stream_id', 'status']).orderBy('id').execute(),
      enrolments(),
      ctx.handle.db.selectFrom('promotion_moves').select('id').execute(),
      ctx.handle.db.selectFrom('audit_log').select('id').where('entity', '=', 'promotion_run').execute(),
    ]);
    const users = await ctx.handle.db.selectFrom('users').select(['id', 'disabled']).orderBy('id').execute();
    return { students, enrol: enrol.length, moves: moves.length, audits: runs.length, users };
  }

  it('previews the whole school: the card’s decision (rule, override, no card), the default mapping, counts and totals', async () => {
    const res = await get(previewUrl());
    expect(res.statusCode).toBe(200);
    const p = res.json<PromotionPreview>();
    expect(p.from_session).toEqual({ id: from, name: '2025/2026' });
    expect(p.to_session).toEqual({ id: to, name: '2026/2027' });
    const byName = Object.fromEntries(p.students.map((s) => [s.full_name, [s.arm, s.decision, s.source, s.target_arm, s.annual_average]]));
    expect(byName).toEqual({
      'Ada Agu': ['JSS 1A', 'promoted', 'rule', 'JSS 2A', 70],
      'Bola Bello': ['JSS 1A', 'trial', 'rule', 'JSS 2A', 37],
      'Chidi Cole': ['JSS 1A', 'repeat', 'rule', 'JSS 1A', 20],
      'Dayo Dare': ['JSS 1A', 'promoted', 'no_card', 'JSS 2A', null],
      'Emeka Eze': ['JSS 1B', 'repeat', 'override', 'JSS 1B', 80],
      'Femi Fash': ['JSS 3A', 'promoted', 'rule', 'SSS 1A', 55],
      'Gina Gold': ['SSS 3A', 'graduated', 'rule', null, 65],
      'Hassan Hope': ['SSS 3B', 'repeat', 'rule', 'SSS 3B', 10],
    });
    expect(p.mapping).toEqual([
      { from_arm: 'JSS 1A', to_arm: 'JSS 2A' },
      { from_arm: 'JSS 1B', to_arm: 'JSS 2B' },
      { from_arm: 'JSS 3A', to_arm: 'SSS 1A' },
      { from_arm: 'SSS 3A', to_arm: null },
      { from_arm: 'SSS 3B', to_arm: null },
    ]);
    expect(p.counts).toEqual([
      { target_arm: 'JSS 1A', count: 1 },
      { target_arm: 'JSS 1B', count: 1 },
      { target_arm: 'JSS 2A', count: 3 },
      { target_arm: 'SSS 1A', count: 1 },
      { target_arm: 'SSS 3B', count: 1 },
    ]);
    expect(p.totals).toEqual({ promoted: 3, trial: 1, repeat: 3, graduated: 1, left_out_withdrawn: 1 });
  });

  it('previews one arm, and with the admin’s changes: a merge, a split, a stream, a decision', async () => {
    const arm = (await get(previewUrl('&arm=JSS%201A'))).json<PromotionPreview>();
    expect(arm.students.map((s) => s.full_name)).toEqual(['Ada Agu', 'Bola Bello', 'Chidi Cole', 'Dayo Dare']);
    expect(arm.totals.left_out_withdrawn).toBe(1);

    const res = await post('/api/promotion/preview/', {
      from_session_id: from,
      to_session_id: to,
      mapping: [{ from_arm: 'JSS 1A', to_arm: 'JSS 2B' }],
      students: [
        { student_id: ids.ada!.id, target_arm: 'JSS 2A' },
        { student_id: ids.dayo!.id, decision: 'repeat' },
        { student_id: ids.femi!.id, stream_id: science },
      ],
    });
    expect(res.json()).toMatchObject({ from_session: { id: from } });
    const p = res.json<PromotionPreview>();
    const of = (name: string) => p.students.find((s) => s.full_name === name)!;
    expect(of('Ada Agu').target_arm).toBe('JSS 2A');
    expect(of('Bola Bello').target_arm).toBe('JSS 2B');
    expect(of('Dayo Dare')).toMatchObject({ decision: 'repeat', source: 'override', target_arm: 'JSS 1A' });
    expect(of('Femi Fash')).toMatchObject({ target_arm: 'SSS 1A', stream_id: science });
    // Nothing is written by a preview.
    expect(await enrolments()).toEqual([]);
  });

  it('refuses bad requests with the domain’s messages', async () => {
    expect((await get(`/api/promotion/preview/?from_session_id=${from}&to_session_id=${from}`)).json()).toEqual({
      to_session_id: [M.sameSession],
    });
    expect((await get(`/api/promotion/preview/?from_session_id=${to}&to_session_id=${from}`)).json()).toEqual({
      to_session_id: [M.toSessionEarlier],
    });
    expect((await get(`/api/promotion/preview/?from_session_id=999999&to_session_id=${to}`)).json()).toEqual({
      from_session_id: [M.fromSessionUnknown],
    });
    expect((await get(previewUrl('&arm=JSS%201Z'))).json()).toEqual({ arm: [M.armUnknown('JSS 1Z')] });
    const bad = await post('/api/promotion/runs/', {
      from_session_id: from,
      to_session_id: to,
      mapping: [
        { from_arm: 'JSS 1A', to_arm: 'JSS 3A' },
        { from_arm: 'SSS 3A', to_arm: 'SSS 2A' },
        { from_arm: 'JSS 2A', to_arm: 'JSS 3A' },
      ],
      students: [
        { student_id: ids.ada!.id, decision: 'graduated' },
        { student_id: ids.wale!.id },
        { student_id: ids.chidi!.id, stream_id: science },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      'mapping.0.to_arm': [M.mappingWrongLevel('JSS 1A', 'JSS 3A', 'JSS 2')],
      'mapping.1.to_arm': [M.mappingGraduates('SSS 3A')],
      'mapping.2.from_arm': [M.mappingNotInRun('JSS 2A')],
      'students.0.decision': [M.graduateOnlySss3],
      'students.1.student_id': [M.studentUnknown],
      'students.2.stream_id': [M.streamSeniorOnly],
    });
    expect(await enrolments()).toEqual([]);
    expect(await ctx.handle.db.selectFrom('promotion_runs').select('id').execute()).toEqual([]);
  });

  it('shows its progress while it runs, and refuses a second run meanwhile (409)', async () => {
    const services = servicesOver(ctx);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const original = services.people.moveStudents.bind(services.people);
    const spy = vi.spyOn(services.people, 'moveStudents').mockImplementation(async (trx, moves) => {
      await gate;
      return original(trx, moves);
    });
    const body = { from_session_id: from, to_session_id: to };
    const { id } = await services.promotion.start(body, admin.userId);
    expect(await services.promotion.get(id)).toMatchObject({ id, status: 'running', done: 0, total: 8, undoable: false });
    await expect(services.promotion.start(body, admin.userId)).rejects.toMatchObject({
      statusCode: 409,
      body: { detail: M.alreadyRunning },
    });
    release();
    await services.promotion.settled();
    spy.mockRestore();
    expect(await services.promotion.get(id)).toMatchObject({ status: 'done', done: 8, total: 8, undoable: true });
    expect((await services.promotion.undo(id, admin.userId)).status).toBe('undone');
  });

  it('all or nothing: a fault midway (after the enrolment rows, moves and students were written) leaves nothing changed', async () => {
    const before = await snapshot();
    const services = servicesOver(ctx);
    const original = services.people.moveStudents.bind(services.people);
    const spy = vi.spyOn(services.people, 'moveStudents').mockImplementation(async (trx, moves) => {
      await original(trx, moves);
      throw new Error('injected fault: the disk is full');
    });
    const { id } = await services.promotion.start({ from_session_id: from, to_session_id: to }, admin.userId);
    await services.promotion.settled();
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
    expect(await snapshot()).toEqual(before);
    const run = (await get(`/api/promotion/runs/${id}/`)).json<PromotionRun>();
    expect(run).toMatchObject({ id, status: 'failed', undoable: false });
    // Gina still signs in: her account was not turned off.
    expect((await login(ctx.app, 'student', (await emailOf(ids.gina!.userId))!)).statusCode).toBe(200);
  });

  async function emailOf(userId: number) {
    return (await ctx.handle.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;
  }

  let runId = 0;
  it('applies: 202, progress then the summary; the closed session’s rows, the moves, graduation; audited', async () => {
    const res = await post('/api/promotion/runs/', {
      from_session_id: from,
      to_session_id: to,
      students: [{ student_id: ids.femi!.id, stream_id: science }],
    });
    expect(res.statusCode).toBe(202);
    runId = res.json<{ id: number }>().id;
    const run = await untilFinished(runId);
    expect(run).toMatchObject({
      id: runId,
      status: 'done',
      done: 8,
      total: 8,
      summary: { promoted: 3, trial: 1, repeat: 3, graduated: 1, left_out: 1 },
      from_session: { id: from, name: '2025/2026' },
      to_session: { id: to, name: '2026/2027' },
      undoable: true,
    });
    expect(await studentRow('ada')).toMatchObject({ student_class: 'JSS 2A', status: 'active' });
    expect(await studentRow('chidi')).toMatchObject({ student_class: 'JSS 1A', status: 'active' });
    expect(await studentRow('emeka')).toMatchObject({ student_class: 'JSS 1B' });
    expect(await studentRow('femi')).toMatchObject({ student_class: 'SSS 1A', stream_id: science });
    expect(await studentRow('gina')).toMatchObject({ student_class: 'SSS 3A', status: 'graduated' });
    expect(await studentRow('wale')).toMatchObject({ student_class: 'JSS 1A', status: 'withdrawn' });
    // The closed session keeps each student's arm in it; the withdrawn student has no row.
    const rows = await enrolments();
    expect(rows).toHaveLength(8);
    expect(rows.find((r) => r.student_id === ids.ada!.id)).toMatchObject({ student_class: 'JSS 1A', outcome: 'promoted', run_id: runId });
    expect(rows.find((r) => r.student_id === ids.gina!.id)).toMatchObject({ student_class: 'SSS 3A', outcome: 'graduated' });
    expect(rows.some((r) => r.student_id === ids.wale!.id)).toBe(false);
    // Past results keep their arm.
    const past = await ctx.handle.db.selectFrom('results').select('student_class').where('student_id', '=', ids.ada!.id).execute();
    expect(new Set(past.map((r) => r.student_class))).toEqual(new Set(['JSS 1A']));
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'promotion_run')
      .where('entity_id', '=', String(runId))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'promote', entity_id: String(runId), actor_user_id: admin.userId });
    // The graduate's account stops signing in.
    expect((await login(ctx.app, 'student', (await emailOf(ids.gina!.userId))!)).statusCode).not.toBe(200);
    const list = (await get('/api/promotion/runs/')).json<PromotionRun[]>();
    expect(list.map((r) => [r.id, r.status])).toEqual([
      [runId, 'done'],
      [runId - 1, 'failed'],
      [runId - 2, 'undone'],
    ]);
    // Nobody is left to promote from that session.
    expect((await post('/api/promotion/runs/', { from_session_id: from, to_session_id: to })).json()).toEqual({
      non_field_errors: [M.nothingToPromote],
    });
  });

  it('undo puts every student back while the new session is empty; after scores it is refused with 409', async () => {
    const undo = await post(`/api/promotion/runs/${runId}/undo/`, {});
    expect(undo.statusCode).toBe(200);
    expect(undo.json()).toMatchObject({ id: runId, status: 'undone', undoable: false });
    expect(await studentRow('ada')).toMatchObject({ student_class: 'JSS 1A', status: 'active' });
    expect(await studentRow('femi')).toMatchObject({ student_class: 'JSS 3A', stream_id: null });
    expect(await studentRow('gina')).toMatchObject({ student_class: 'SSS 3A', status: 'active' });
    expect(await enrolments()).toEqual([]);
    expect((await login(ctx.app, 'student', (await emailOf(ids.gina!.userId))!)).statusCode).toBe(200);
    expect((await post(`/api/promotion/runs/${runId}/undo/`, {})).statusCode).toBe(409);

    // Again, then the new session gets a score: no undo any more.
    const again = (await post('/api/promotion/runs/', { from_session_id: from, to_session_id: to })).json<{ id: number }>().id;
    expect((await untilFinished(again)).status).toBe('done');
    await createResults(ctx.handle.db, [
      { studentId: ids.ada!.id, sessionId: to, term: '1st', arm: 'JSS 2A', subject: 'Mathematics', score: 50 },
    ]);
    const refused = await post(`/api/promotion/runs/${again}/undo/`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: M.undoBlocked('scores') });
    expect((await get(`/api/promotion/runs/${again}/`)).json()).toMatchObject({
      undoable: false,
      undo_blocked_reason: M.undoBlocked('scores'),
    });
    expect(await studentRow('ada')).toMatchObject({ student_class: 'JSS 2A' });
  });

  it('moves a single student with a reason, audited; refuses without one, to an unknown arm, a withdrawn student', async () => {
    const ok = await post('/api/promotion/moves/', {
      admission_number: ids.ada!.admissionNumber,
      to_arm: 'JSS 2B',
      reason: 'Parents asked',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ from_arm: 'JSS 2A', to_arm: 'JSS 2B', detail: M.moved('Ada Agu', 'JSS 2B') });
    expect(await studentRow('ada')).toMatchObject({ student_class: 'JSS 2B' });
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'student')
      .where('action', '=', 'move')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after!)).toMatchObject({ student_class: 'JSS 2B', reason: 'Parents asked' });
    const move = (body: object) => post('/api/promotion/moves/', { admission_number: ids.ada!.admissionNumber, to_arm: 'JSS 2A', ...body });
    expect((await move({ reason: ' ' })).json()).toEqual({ reason: [M.reasonRequired] });
    expect((await move({ reason: 'x', to_arm: 'JSS 2Q' })).json()).toEqual({ to_arm: [M.armUnknown('JSS 2Q')] });
    expect((await move({ reason: 'x', to_arm: 'JSS 2B' })).json()).toEqual({ to_arm: [M.sameArm('JSS 2B')] });
    expect((await move({ reason: 'x', stream_id: science })).json()).toEqual({ stream_id: [M.streamSeniorOnly] });
    expect(
      (await post('/api/promotion/moves/', { admission_number: ids.wale!.admissionNumber, to_arm: 'JSS 2A', reason: 'x' })).json(),
    ).toEqual({ admission_number: [M.studentNotActive] });
  });

  it('is the admin’s only', async () => {
    const student = await signInStudent(ctx, { arm: 'JSS 2A', password: TEST_PASSWORD });
    expect((await get(previewUrl(), student.auth)).statusCode).toBe(403);
    expect((await post(`/api/promotion/runs/`, { from_session_id: from, to_session_id: to }, student.auth)).statusCode).toBe(403);
    expect((await get(previewUrl(), {} as never)).statusCode).toBe(401);
  });
});
