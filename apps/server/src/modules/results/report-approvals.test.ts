import { expect, it } from 'vitest';
import { CARD_CODES, DEFAULT_REPORT_SETTINGS, REPORT_MESSAGES, type ArmApproval } from '@portal/domain';
import { describeEachDatabase, signInStaff, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';
import { putEntry, setFormTeacher } from '../../../test/card-fixtures';
import { nowIso } from '../../db/index';
import { SettingsRepository } from '../settings/settings.repository';

/**
 * The approval of an arm's report cards: draft → submitted (form teacher) → approved (admin) →
 * released (the class's publication), sent back with a reason, every step audited.
 */
describeEachDatabase('report card approvals', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn & { id: number };
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, staff } = s);
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });
  const { inject, rankedClass, asCurrent, bulk } = resultsKit(
    () => ctx,
    () => staff,
  );

  /** A ranked class with `staff` as its form teacher. */
  async function arm(opts: { publish?: ('1st' | '2nd' | '3rd')[] } = {}) {
    const r = await rankedClass({ admin, publish: opts.publish });
    await setFormTeacher(ctx.handle.db, r.sessionId, r.cls, staff.id);
    const key = { session_id: r.sessionId, term: '1st', student_class: r.cls };
    const ids = [r.student.id, ...r.mates.map((m) => m.id)];
    return { ...r, key, ids };
  }
  const list = async (auth: SignedIn, sessionId: number, term = '1st') => {
    const res = await inject('GET', `/api/report-approvals/?session_id=${sessionId}&term=${term}`, auth.auth);
    expect(res.statusCode).toBe(200);
    return res.json<ArmApproval[]>();
  };
  const auditActions = (key: { session_id: number; term: string; student_class: string }) =>
    ctx.handle.db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('entity', '=', 'report_card_status')
      .where('entity_id', '=', `${key.session_id}:${key.term}:${key.student_class}`)
      .orderBy('id')
      .execute();

  it('lists the arms with their counts: every arm for the admin, their own arms for a form teacher', async () => {
    const { sessionId, cls, ids, key } = await arm();
    const traits = [...DEFAULT_REPORT_SETTINGS.traits.affective, ...DEFAULT_REPORT_SETTINGS.traits.psychomotor];
    await putEntry(ctx.handle.db, {
      ...key,
      student_id: ids[0]!,
      ratings: Object.fromEntries(traits.map((t) => [t.id, 4])),
      form_comment: 'Good',
      principal_comment: 'Fine',
    });
    // Missing one trait: not fully rated.
    await putEntry(ctx.handle.db, { ...key, student_id: ids[1]!, ratings: { punctuality: 3 }, form_comment: 'Tries' });
    const all = await list(admin, sessionId);
    expect(all).toEqual([
      expect.objectContaining({
        student_class: cls,
        status: 'draft',
        students: 4,
        rated: 1,
        form_comments: 2,
        principal_comments: 1,
        form_teacher: 'Grace Okafor',
        released_at: null,
      }),
    ]);
    expect((await list(staff, sessionId)).map((a) => a.student_class)).toEqual([cls]);
    const other = await signInStaff(ctx, { firstName: 'Musa', lastName: 'Bello' });
    expect(await list(other, sessionId)).toEqual([]);
    expect((await inject('GET', `/api/report-approvals/?session_id=${sessionId}&term=1st`)).statusCode).toBe(401);
  });

  it('lets the form teacher submit from draft only, and no other teacher; audited', async () => {
    const { key } = await arm();
    const other = await signInStaff(ctx, { firstName: 'Musa', lastName: 'Bello' });
    const refused = await inject('POST', '/api/report-approvals/submit/', other.auth, key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(REPORT_MESSAGES.formTeacherOnly(key.student_class));
    const res = await inject('POST', '/api/report-approvals/submit/', staff.auth, key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'submitted', submitted_by: 'Grace Okafor', student_class: key.student_class });
    const again = await inject('POST', '/api/report-approvals/submit/', staff.auth, key);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: REPORT_MESSAGES.notAllowedNow(key.student_class, 'Submitted', 'submitted'),
      code: CARD_CODES.notAllowed,
    });
    expect((await auditActions(key)).map((a) => a.action)).toEqual(['submit']);
    // An arm without students that term has nothing to submit.
    const empty = await inject('POST', '/api/report-approvals/submit/', admin.auth, { ...key, student_class: 'SSS 3A' });
    expect(empty.statusCode).toBe(404);
  });

  it("requires both comments step by step: the form teacher's to submit, the principal's to approve and release (31.7)", async () => {
    const { key, ids } = await arm();
    const settings = new SettingsRepository(ctx.handle.db);
    await settings.putReport({ ...DEFAULT_REPORT_SETTINGS, require_comments: true });
    try {
      // One form comment missing: the form teacher cannot submit, and is told it is theirs to add.
      for (const id of ids.slice(0, 3)) await putEntry(ctx.handle.db, { ...key, student_id: id, form_comment: 'Good' });
      const res = await inject('POST', '/api/report-approvals/submit/', staff.auth, key);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ detail: REPORT_MESSAGES.formCommentsMissing(1, key.student_class), code: CARD_CODES.commentsMissing });
      expect((await list(admin, key.session_id))[0]!.status).toBe('draft');
      // Every form comment written, no principal's comment yet: the submission goes through (was 409).
      await putEntry(ctx.handle.db, { ...key, student_id: ids[3]!, form_comment: 'Good' });
      const submitted = await inject('POST', '/api/report-approvals/submit/', staff.auth, key);
      expect(submitted.statusCode, submitted.body).toBe(200);
      // The principal's comments are needed before approval, and before release.
      const approve = await inject('POST', '/api/report-approvals/approve/', admin.auth, key);
      expect(approve.statusCode).toBe(409);
      expect(approve.json()).toEqual({
        detail: REPORT_MESSAGES.principalCommentsMissing(4, key.student_class, 'approval'),
        code: CARD_CODES.commentsMissing,
      });
      const release = await inject('POST', '/api/report-approvals/release/', admin.auth, {
        session_id: key.session_id,
        term: key.term,
        student_classes: [key.student_class],
      });
      expect(release.statusCode).toBe(409);
      expect(release.json()).toEqual({
        detail: REPORT_MESSAGES.principalCommentsMissing(4, key.student_class, 'release'),
        code: CARD_CODES.commentsMissing,
      });
      expect((await list(admin, key.session_id))[0]!.status).toBe('submitted');
      for (const id of ids) await putEntry(ctx.handle.db, { ...key, student_id: id, form_comment: 'Good', principal_comment: 'Fine' });
      expect((await inject('POST', '/api/report-approvals/approve/', admin.auth, key)).statusCode).toBe(200);
    } finally {
      await settings.putReport(DEFAULT_REPORT_SETTINGS);
    }
  });

  it('marks an approved arm changed since approval with what changed and who, until it is approved again or released (30.13)', async () => {
    const { key, student, mates } = await arm();
    await inject('POST', '/api/report-approvals/submit/', staff.auth, key);
    expect((await inject('POST', '/api/report-approvals/approve/', admin.auth, key)).statusCode).toBe(200);
    expect((await list(admin, key.session_id))[0]!.changes_since_approval).toEqual([]);
    // Allowed after approval (decision 009): the subject teacher re-marks Chiamaka's Mathematics 90 -> 85.
    const res = await asCurrent(key.session_id, () =>
      bulk(student.admissionNumber, key.student_class, [{ name: 'Mathematics', score: 85 }], key.term, key.session_id),
    );
    expect(res.statusCode, res.body).toBe(200);
    const [approval] = await list(admin, key.session_id);
    expect(approval).toMatchObject({ status: 'approved' });
    expect(approval!.changes_since_approval).toEqual([
      {
        admission_number: student.admissionNumber,
        student_name: 'Chiamaka Obi',
        subject: 'Mathematics',
        action: 'update',
        old_score: 90,
        new_score: 85,
        by: 'Grace Okafor',
        at: expect.any(String),
      },
    ]);
    // The form teacher sees it too on their approvals page.
    expect((await list(staff, key.session_id))[0]!.changes_since_approval).toHaveLength(1);
    // Sent back and approved again: the principal has looked, the mark goes.
    await inject('POST', '/api/report-approvals/return/', admin.auth, { ...key, reason: 'Check Mathematics' });
    await inject('POST', '/api/report-approvals/approve/', admin.auth, key);
    expect((await list(admin, key.session_id))[0]!.changes_since_approval).toEqual([]);
    // A change after that is marked again; once released, changes are revisions (with a reason) instead.
    await asCurrent(key.session_id, () =>
      bulk(mates[0]!.admissionNumber, key.student_class, [{ name: 'French', score: 75 }], key.term, key.session_id),
    );
    expect((await list(admin, key.session_id))[0]!.changes_since_approval.map((c) => [c.subject, c.old_score, c.new_score])).toEqual([
      ['French', 80, 75],
    ]);
    const released = await inject('POST', '/api/report-approvals/release/', admin.auth, { session_id: key.session_id, term: key.term });
    expect(released.statusCode, released.body).toBe(200);
    expect((await list(admin, key.session_id))[0]!.changes_since_approval).toEqual([]);
  });

  it('lets only the admin approve and send back (with a reason); a returned arm is a draft again', async () => {
    const { key } = await arm();
    await inject('POST', '/api/report-approvals/submit/', staff.auth, key);
    expect((await inject('POST', '/api/report-approvals/approve/', staff.auth, key)).statusCode).toBe(403);
    expect((await inject('POST', '/api/report-approvals/return/', staff.auth, { ...key, reason: 'x' })).statusCode).toBe(403);
    const approved = await inject('POST', '/api/report-approvals/approve/', admin.auth, key);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', approved_by: 'School Admin' });
    const noReason = await inject('POST', '/api/report-approvals/return/', admin.auth, { ...key, reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(JSON.stringify(noReason.json())).toContain(REPORT_MESSAGES.returnReasonRequired);
    const back = await inject('POST', '/api/report-approvals/return/', admin.auth, { ...key, reason: 'Check the French comments' });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({
      status: 'draft',
      returned_reason: 'Check the French comments',
      approved_at: null,
      submitted_at: null,
    });
    const twice = await inject('POST', '/api/report-approvals/return/', admin.auth, { ...key, reason: 'again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe(CARD_CODES.notAllowed);
    const audit = await auditActions(key);
    expect(audit.map((a) => a.action)).toEqual(['submit', 'approve', 'return']);
    expect(JSON.parse(audit[2]!.after!)).toMatchObject({ status: 'draft', reason: 'Check the French comments' });
    // The form teacher can submit again.
    expect((await inject('POST', '/api/report-approvals/submit/', staff.auth, key)).json().returned_reason).toBeNull();
  });

  it('releases every approved arm of the term (and only those); students then see their cards', async () => {
    const { key, student } = await arm();
    const body = { session_id: key.session_id, term: '1st' };
    const none = await inject('POST', '/api/report-approvals/release/', admin.auth, body);
    expect(none.statusCode).toBe(400);
    expect(JSON.stringify(none.json())).toContain(REPORT_MESSAGES.nothingToRelease);
    expect((await inject('POST', '/api/report-approvals/release/', staff.auth, body)).statusCode).toBe(403);
    const cardUrl = `/api/report-card/?session_id=${key.session_id}&term=1st&admission_number=${student.admissionNumber}`;
    expect((await inject('GET', cardUrl, student.auth)).statusCode).toBe(404);
    await inject('POST', '/api/report-approvals/approve/', admin.auth, key);
    const res = await inject('POST', '/api/report-approvals/release/', admin.auth, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ released: [key.student_class], students: 4 });
    expect((await list(admin, key.session_id))[0]).toMatchObject({ status: 'released', released_at: expect.any(String) });
    const card = await inject('GET', cardUrl, student.auth);
    expect(card.statusCode).toBe(200);
    expect(card.json()).toMatchObject({ status: 'released', released: true });
    // Released is the publication: the publications list shows it.
    const pubs = (await inject('GET', `/api/results/publications/?session_id=${key.session_id}`, admin.auth)).json();
    expect(pubs.map((p: { student_class: string }) => p.student_class)).toEqual([key.student_class]);
    // Releasing it again by name is refused.
    const again = await inject('POST', '/api/report-approvals/release/', admin.auth, { ...body, student_classes: [key.student_class] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: REPORT_MESSAGES.notAllowedNow(key.student_class, 'Released', 'released'),
      code: CARD_CODES.notAllowed,
    });
    // Unpublishing puts the arm back to approved.
    await inject('DELETE', `/api/results/publications/${pubs[0].id}/`, admin.auth);
    expect((await list(admin, key.session_id))[0]).toMatchObject({ status: 'approved', released_at: null });
    expect((await inject('GET', cardUrl, student.auth)).statusCode).toBe(404);
    // A class published before approvals existed has no status row: unpublished, it reads approved too.
    const legacy = await ctx.handle.db
      .insertInto('result_publications')
      .values({
        session_id: key.session_id,
        term: '2nd',
        student_class: key.student_class,
        published_by: admin.userId,
        published_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await list(admin, key.session_id, '2nd'))[0]!.status).toBe('released');
    expect((await inject('DELETE', `/api/results/publications/${legacy.id}/`, admin.auth)).statusCode).toBe(204);
    expect((await list(admin, key.session_id, '2nd'))[0]!.status).toBe('approved');
  });

  it('approves a named draft arm in the same audited step as its release; so does the older publish endpoint', async () => {
    const { key } = await arm();
    const res = await inject('POST', '/api/report-approvals/release/', admin.auth, {
      session_id: key.session_id,
      term: '1st',
      student_classes: [key.student_class],
    });
    expect(res.statusCode).toBe(200);
    const [pub] = await ctx.handle.db
      .selectFrom('result_publications')
      .select('id')
      .where('session_id', '=', key.session_id)
      .where('term', '=', '1st')
      .execute();
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('entity', '=', 'result_publication')
      .where('entity_id', '=', String(pub!.id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ student_class: key.student_class, approved_now: true });
    const status = await ctx.handle.db
      .selectFrom('report_card_status')
      .select(['status', 'approved_by'])
      .where('session_id', '=', key.session_id)
      .where('term', '=', '1st')
      .executeTakeFirstOrThrow();
    expect(status).toEqual({ status: 'approved', approved_by: admin.userId });

    // The publish endpoint (second term): the same release.
    const pub2 = await inject('POST', '/api/results/publications/', admin.auth, { ...key, term: '2nd' });
    expect(pub2.statusCode).toBe(201);
    expect((await list(admin, key.session_id, '2nd'))[0]).toMatchObject({ status: 'released', approved_by: 'School Admin' });
    // A draft arm's release by name refuses an arm without students, and releases nothing.
    const mixed = await inject('POST', '/api/report-approvals/release/', admin.auth, {
      session_id: key.session_id,
      term: '3rd',
      student_classes: [key.student_class, 'SSS 3A'],
    });
    expect(mixed.statusCode).toBe(400);
    expect((await list(admin, key.session_id, '3rd'))[0]!.status).toBe('draft');
  });
});
