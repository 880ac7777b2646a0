import { afterEach, expect, it, vi } from 'vitest';
import { DEFAULT_JSS_SCALE, DEFAULT_REPORT_SETTINGS, REPORT_MESSAGES, type ReportCard, type ReportSettings } from '@portal/domain';
import { describeEachDatabase, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';
import { putCardFees, putEntry, putTerm, setFormTeacher } from '../../../test/card-fixtures';
import { greyPng } from '../../../test/grey-png';
import { SettingsRepository } from '../settings/settings.repository';
import { ReportCardsRepository } from './report-cards.repository';
import { ResultsRepository } from './results.repository';

const png = (w: number, h: number) => `data:image/png;base64,${greyPng(w, h).toString('base64')}`;

/** The sections of the full card, filled from entries, term dates, settings, photos and fees. */
describeEachDatabase('report card sections', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn & { id: number };
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, staff } = s);
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });
  const { inject, rankedClass } = resultsKit(
    () => ctx,
    () => staff,
  );
  const settings = () => new SettingsRepository(ctx.handle.db);
  afterEach(async () => {
    await settings().putReport(DEFAULT_REPORT_SETTINGS);
    vi.restoreAllMocks();
  });
  const card = async (auth: SignedIn, sessionId: number, term: string, admission: string) => {
    const res = await inject('GET', `/api/report-card/?session_id=${sessionId}&term=${term}&admission_number=${admission}`, auth.auth);
    expect(res.statusCode).toBe(200);
    return res.json<ReportCard>();
  };

  it('fills attendance, ratings, passed and failed, the keys, comments, sign-off, photo and next term', async () => {
    const { session, sessionId, cls, student } = await rankedClass();
    const custom: ReportSettings = {
      ...DEFAULT_REPORT_SETTINGS,
      // Punctuality renamed (its ratings stay), neatness removed (its rating is hidden).
      traits: {
        affective: [{ id: 'punctuality', name: 'Timekeeping' }, ...DEFAULT_REPORT_SETTINGS.traits.affective.slice(2)],
        psychomotor: DEFAULT_REPORT_SETTINGS.traits.psychomotor,
      },
      rating_labels: ['Weak', 'Fair', 'Good', 'Very good', 'Superb'],
      promotion: { ...DEFAULT_REPORT_SETTINGS.promotion, pass_mark: 75 },
      signature: png(40, 20),
      stamp: png(30, 30),
    };
    await settings().putReport(custom);
    await setFormTeacher(ctx.handle.db, sessionId, cls, staff.id);
    await putEntry(ctx.handle.db, {
      student_id: student.id,
      session_id: sessionId,
      term: '1st',
      student_class: cls,
      ratings: { punctuality: 5, neatness: 2, handwriting: 3 },
      form_comment: 'A hard worker.',
      principal_comment: 'Well done.',
      days_present: 50,
      days_absent: 5,
    });
    await putTerm(ctx.handle.db, { session_id: sessionId, term: '1st', next_term_begins: '2101-01-12', times_opened: 60 });
    // Fees: 1st term ₦40,000 and 2nd term ₦50,000 compulsory (and an optional item), ₦15,000 paid.
    await putCardFees(ctx.handle.db, { sessionId, sessionName: session.name, arm: cls, student });
    const photo = await inject('PUT', `/api/students/${student.admissionNumber}/photo/`, admin.auth, { photo: png(600, 800) });
    expect(photo.statusCode).toBe(200);
    expect(photo.json().photo).toMatch(/^data:image\/jpeg;base64,/);

    const c = await card(staff, sessionId, '1st', student.admissionNumber);
    expect(c.student.photo).toBe(photo.json().photo);
    expect(c.status).toBe('draft');
    expect(c.attendance).toEqual({ times_opened: 60, present: 50, absent: 5, source: 'form_teacher', unmarked: null });
    expect(c.ratings.labels).toEqual(custom.rating_labels);
    expect(c.ratings.domains.map((d) => d.title)).toEqual(['Affective domain', 'Psychomotor skills']);
    expect(c.ratings.domains[0]!.traits[0]).toEqual({ name: 'Timekeeping', rating: 5 });
    expect(c.ratings.domains[0]!.traits.map((t) => t.name)).not.toContain('Neatness');
    expect(c.ratings.domains[0]!.traits).toHaveLength(DEFAULT_REPORT_SETTINGS.traits.affective.length - 1);
    expect(c.ratings.domains[1]!.traits.slice(0, 2)).toEqual([
      { name: 'Handwriting', rating: 3 },
      { name: 'Sports and games', rating: null },
    ]);
    // Scores 90, 70, 80 against a pass mark of 75.
    expect([c.subjects_passed, c.subjects_failed]).toEqual([2, 1]);
    expect(c.grading_key[0]).toEqual(DEFAULT_JSS_SCALE[0]);
    expect(c.grading_key.map((b) => b.min)).toEqual([...c.grading_key.map((b) => b.min)].sort((a, b) => b - a));
    expect(c.comments).toEqual({ form_teacher: 'A hard worker.', form_teacher_name: 'Grace Okafor', principal: 'Well done.' });
    expect(c.sign_off).toEqual({ signature: custom.signature, stamp: custom.stamp });
    expect(c.next_term).toEqual({
      term_label: 'Second Term',
      session_name: session.name,
      begins: '2101-01-12',
      fees: 50000,
      // The 1st term's ₦40,000 less ₦15,000 paid: next term's ₦50,000 stands apart, not in the balance too.
      outstanding: 25000,
    });
    expect(c.promotion).toBeNull();

    // A classmate with no entry: empty sections, not errors.
    const arm = (await inject('GET', `/api/report-cards/?session_id=${sessionId}&term=1st&student_class=${cls}`, admin.auth)).json<
      ReportCard[]
    >();
    const other = arm.find((x) => x.student.admission_number !== student.admissionNumber)!;
    expect(other.attendance).toEqual({ times_opened: 60, present: null, absent: null, source: 'form_teacher', unmarked: null });
    expect(other.comments).toEqual({ form_teacher: '', form_teacher_name: 'Grace Okafor', principal: '' });
    expect(other.student.photo).toBe('');
    expect(other.next_term.outstanding).toBe(40000);
  });

  it('decides promotion on the third-term card, with the principal’s override and its reason', async () => {
    const { sessionId, cls, student, mates } = await rankedClass();
    // Chiamaka's term averages are 80, 70 and 85: an annual average of 78.33.
    await settings().putReport({
      ...DEFAULT_REPORT_SETTINGS,
      promotion: { ...DEFAULT_REPORT_SETTINGS.promotion, min_average: 79, trial_average: 70 },
    });
    await putEntry(ctx.handle.db, {
      student_id: mates[0]!.id,
      session_id: sessionId,
      term: '3rd',
      student_class: cls,
      promotion_override: 'repeat',
      override_reason: 'Missed the whole term',
    });
    const arm = (await inject('GET', `/api/report-cards/?session_id=${sessionId}&term=3rd&student_class=${cls}`, admin.auth)).json<
      ReportCard[]
    >();
    const mine = arm.find((c) => c.student.admission_number === student.admissionNumber)!;
    expect(mine.cumulative?.annual_average).toBeCloseTo(78.33, 1);
    expect(mine.promotion).toEqual({ decision: 'trial', label: 'Promoted on trial', overridden: false, reason: '' });
    const bola = arm.find((c) => c.student.admission_number === mates[0]!.admissionNumber)!;
    expect(bola.promotion).toEqual({ decision: 'repeat', label: 'To repeat the class', overridden: true, reason: 'Missed the whole term' });
    // Next term is the next session's first (not created yet: named, without fees).
    const [a, b] = (
      await ctx.handle.db.selectFrom('academic_sessions').select('name').where('id', '=', sessionId).executeTakeFirstOrThrow()
    ).name
      .split('/')
      .map(Number);
    expect(mine.next_term).toMatchObject({ term_label: 'First Term', session_name: `${a! + 1}/${b! + 1}`, fees: null });
    // Other terms have no promotion decision.
    expect((await card(admin, sessionId, '2nd', student.admissionNumber)).promotion).toBeNull();
  });

  it('marks a released card revised when its entry changes after the release', async () => {
    const { sessionId, cls, student } = await rankedClass();
    await putEntry(ctx.handle.db, { student_id: student.id, session_id: sessionId, term: '1st', student_class: cls, form_comment: 'Good' });
    const released = await inject('POST', '/api/report-approvals/release/', admin.auth, {
      session_id: sessionId,
      term: '1st',
      student_classes: [cls],
    });
    expect(released.statusCode).toBe(200);
    const before = await card(student, sessionId, '1st', student.admissionNumber);
    expect(before).toMatchObject({ status: 'released', revised_at: null });
    const later = new Date(Date.now() + 60_000).toISOString();
    await putEntry(ctx.handle.db, {
      student_id: student.id,
      session_id: sessionId,
      term: '1st',
      student_class: cls,
      form_comment: 'Very good',
      updated_at: later,
    });
    const after = await card(student, sessionId, '1st', student.admissionNumber);
    expect(after).toMatchObject({ revised_at: later, comments: { form_teacher: 'Very good' } });
  });

  it('reads an arm’s cards with the same number of queries whatever its size (no N+1)', async () => {
    const { sessionId, cls, student } = await rankedClass();
    const protos = [ReportCardsRepository.prototype, ResultsRepository.prototype];
    let calls = 0;
    for (const proto of protos) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (name === 'constructor') continue;
        const original = (proto as unknown as Record<string, unknown>)[name];
        if (typeof original !== 'function') continue;
        vi.spyOn(proto as unknown as Record<string, (...a: unknown[]) => unknown>, name).mockImplementation(function (
          this: unknown,
          ...args
        ) {
          calls++;
          return (original as (...a: unknown[]) => unknown).apply(this, args);
        });
      }
    }
    const read = async () => {
      calls = 0;
      const res = await inject('GET', `/api/report-cards/?session_id=${sessionId}&term=3rd&student_class=${cls}`, admin.auth);
      expect(res.statusCode).toBe(200);
      return { calls, cards: res.json<ReportCard[]>().length };
    };
    const small = await read();
    // Four more students with results and entries.
    const { bulk, newStudent, asCurrent } = resultsKit(
      () => ctx,
      () => staff,
    );
    for (let i = 0; i < 4; i++) {
      const s = await newStudent(cls, `Extra${i}`);
      for (const term of ['1st', '2nd', '3rd']) {
        const res = await asCurrent(sessionId, () =>
          bulk(s.admissionNumber, cls, [{ name: 'Mathematics', score: 50 + i }], term, sessionId),
        );
        expect(res.statusCode).toBe(201);
      }
      await putEntry(ctx.handle.db, { student_id: s.id, session_id: sessionId, term: '3rd', student_class: cls, form_comment: 'x' });
    }
    await putEntry(ctx.handle.db, { student_id: student.id, session_id: sessionId, term: '3rd', student_class: cls, form_comment: 'y' });
    const big = await read();
    expect(big.cards).toBe(small.cards + 4);
    expect(big.calls).toBe(small.calls);
    expect(small.calls).toBeGreaterThan(0);
  });

  it('lets only an admin set a student photo: normalised, checked, removable and audited', async () => {
    const { student } = await rankedClass();
    const url = `/api/students/${student.admissionNumber}/photo/`;
    expect((await inject('PUT', url, staff.auth, { photo: png(10, 10) })).statusCode).toBe(403);
    expect((await inject('PUT', url, student.auth, { photo: png(10, 10) })).statusCode).toBe(403);
    const bad = await inject('PUT', url, admin.auth, { photo: 'data:image/gif;base64,R0lGOD' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().photo).toEqual([REPORT_MESSAGES.photoInvalid]);
    const broken = await inject('PUT', url, admin.auth, { photo: 'data:image/png;base64,AAAA' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().photo).toEqual([REPORT_MESSAGES.photoInvalid]);
    const huge = await inject('PUT', url, admin.auth, { photo: png(6000, 6000) });
    expect(huge.statusCode).toBe(400);
    // Named by its pixel limit (a 6000-pixel PNG is well under 2 MB), as the signature and stamp are.
    expect(huge.json().photo).toEqual(['The photo must be at most 2048 × 2048 pixels']);
    expect((await inject('PUT', '/api/students/NOPE-0/photo/', admin.auth, { photo: '' })).statusCode).toBe(404);
    const ok = await inject('PUT', url, admin.auth, { photo: png(1200, 1600) });
    expect(ok.statusCode).toBe(200);
    const stored = Buffer.from(ok.json().photo.split(',')[1], 'base64');
    // A JPEG of at most 240 pixels a side (SOF0 height and width).
    expect(stored.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(stored.length).toBeLessThan(20_000);
    // The student's detail carries it, for the admin and for the student's own record.
    const detailUrl = `/api/students/${student.admissionNumber}/`;
    expect((await inject('GET', detailUrl, admin.auth)).json().photo).toBe(ok.json().photo);
    expect((await inject('GET', detailUrl, student.auth)).json().photo).toBe(ok.json().photo);
    const removed = await inject('PUT', url, admin.auth, { photo: '' });
    expect((await inject('GET', detailUrl, admin.auth)).json().photo).toBe('');
    expect(removed.json()).toEqual({ photo: '' });
    expect(await ctx.handle.db.selectFrom('student_photos').select('student_id').where('student_id', '=', student.id).execute()).toEqual(
      [],
    );
    const audit = await ctx.handle.db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('entity', '=', 'student_photo')
      .where('entity_id', '=', student.admissionNumber)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.action, JSON.parse(a.after!)])).toEqual([
      ['update', { photo: '[image]' }],
      ['delete', { photo: '' }],
    ]);
  });
});
