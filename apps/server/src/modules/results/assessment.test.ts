import { describe, expect, it } from 'vitest';
import {
  ABSENT_MARK,
  ASSESSMENT_MESSAGES,
  describeScheme,
  SCHEME_CONFIRM_CODE,
  SCHEME_LOCKED_CODE,
  SCHEME_PRESETS,
  type AssessmentComponent,
  type AssessmentScheme,
  type Broadsheet,
  type ComponentValue,
  type ReportCard,
  type Result,
  type ResultAuditEntry,
} from '@portal/domain';
import {
  addStudent,
  csvLines,
  describeEachDatabase,
  rowsWhere,
  signInStudent,
  withSchool,
  type SignedIn,
  type TestContext,
} from '../../../test/helpers';
import { pdfPageCount, pdfText } from '../../../test/pdf-text';
import { resultsKit } from '../../../test/results-fixtures';
import { renderReportCards } from './pdf';

const CA: AssessmentComponent[] = [...SCHEME_PRESETS[0]!.components]; // CA1 20, CA2 20, Exam 60
const CA_TEXT = describeScheme(CA);

/**
 * Assessment schemes and results entered by component: the scheme API (defaults, validation,
 * confirmation, the lock once component scores exist), the totals and grades the server computes,
 * every refusal naming the component, and components on report cards (JSON and PDF) and broadsheets.
 * Each test works in a session of its own, so schemes never leak between tests.
 */
describeEachDatabase('assessment schemes and component scores', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn, currentSessionId: number;
  withSchool(dialect, { sessions: ['2025/2026'] }, (s) => {
    ({ ctx, admin, staff } = s);
    currentSessionId = s.sessionId;
  });
  const { inject, newStudent, newSession } = resultsKit(
    () => ctx,
    () => staff,
  );
  /** POST /api/results/ in the bulk shape, as staff: entries may carry `components` instead of `score`. */
  const bulk = (admission: string, arm: string, subjects: Record<string, unknown>[], term: string, sessionId: number) =>
    inject('POST', '/api/results/', staff.auth, {
      admission_number: admission,
      session_id: sessionId,
      term,
      student_class: arm,
      subjects,
    });

  const schemes = async (sessionId: number, auth: SignedIn = admin) => {
    const res = await inject('GET', `/api/assessment-schemes/?session_id=${sessionId}`, auth.auth);
    expect(res.statusCode, res.body).toBe(200);
    return Object.fromEntries(res.json<AssessmentScheme[]>().map((s) => [s.level, s])) as Record<'JSS' | 'SSS', AssessmentScheme>;
  };
  const put = (level: string, body: Record<string, unknown>, auth: SignedIn = admin) =>
    inject('PUT', `/api/assessment-schemes/${level}/`, auth.auth, body);
  /** A session of its own whose senior classes are on CA1 20 / CA2 20 / Exam 60. */
  const caSession = async (precision: 'one_decimal' | 'whole' = 'one_decimal') => {
    const session = await newSession(true);
    const res = await put('SSS', { session_id: session.id, components: CA, precision });
    expect(res.statusCode, res.body).toBe(200);
    return session;
  };
  /** A student of `arm` in a CA session of their own, and a bulk save of their scores there (1st term unless `term`). */
  const caStudent = async (arm: string) => {
    const session = await caSession();
    const s = await newStudent(arm);
    const save = (subjects: Record<string, unknown>[], term = '1st') => bulk(s.admissionNumber, arm, subjects, term, session.id);
    return { session, s, save };
  };
  const stored = (studentId: number) =>
    rowsWhere(ctx, 'results', ['subject', 'score', 'components', 'grade', 'version'], ['student_id', studentId], 'subject');

  describe('the scheme API', () => {
    it('gives the default (one component of 100) for both levels, to any signed-in role, for the current session by default', async () => {
      const session = await newSession();
      const both = await schemes(session.id);
      for (const level of ['JSS', 'SSS'] as const) {
        expect(both[level]).toEqual({
          level,
          session_id: session.id,
          session_name: session.name,
          components: [{ name: 'Score', label: 'Score', max: 100 }],
          precision: 'one_decimal',
          is_default: true,
          component_results: 0,
          total_only_results: 0,
          updated_at: null,
        });
      }
      const student = await signInStudent(ctx);
      const current = await inject('GET', '/api/assessment-schemes/', student.auth);
      expect(current.statusCode).toBe(200);
      expect(current.json<AssessmentScheme[]>().map((s) => [s.level, s.session_id])).toEqual([
        ['JSS', currentSessionId],
        ['SSS', currentSessionId],
      ]);
      expect((await inject('GET', '/api/assessment-schemes/')).statusCode).toBe(401);
    });

    it('lets the admin set CA1 20 / CA2 20 / Exam 60 for SSS; refuses sums other than 100, repeated labels, staff and students', async () => {
      const session = await newSession(true);
      const preview = await inject('POST', '/api/assessment-schemes/SSS/preview/', admin.auth, { session_id: session.id, components: CA });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toEqual({
        level: 'SSS',
        session_id: session.id,
        session_name: session.name,
        total_only_results: 0,
        component_results: 0,
        structural: true,
        refused: false,
      });
      const res = await put('SSS', { session_id: session.id, components: CA });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        level: 'SSS',
        components: CA,
        precision: 'one_decimal',
        is_default: false,
        message: ASSESSMENT_MESSAGES.schemeSaved('SSS', session.name),
      });
      const both = await schemes(session.id, staff);
      expect(both.SSS).toMatchObject({ components: CA, is_default: false });
      expect(both.JSS.is_default).toBe(true);
      const audit = await ctx.handle.db
        .selectFrom('audit_log')
        .select(['action', 'after'])
        .where('entity', '=', 'assessment_scheme')
        .where('entity_id', '=', `${session.id}:SSS`)
        .execute();
      expect(audit).toHaveLength(1);

      const ninety = await put('SSS', { session_id: session.id, components: [CA[0], CA[1], { ...CA[2], max: 50 }] });
      expect(ninety.statusCode).toBe(400);
      expect(ninety.json()).toEqual({ components: [ASSESSMENT_MESSAGES.sumNot100(90)] });
      const twice = await put('JSS', { session_id: session.id, components: [CA[0], { ...CA[1], label: 'ca1' }, CA[2]] });
      expect(twice.statusCode).toBe(400);
      expect(twice.json()).toEqual({ components: [ASSESSMENT_MESSAGES.labelTaken('ca1')] });
      const badLabel = await put('JSS', { session_id: session.id, components: [{ name: 'All', label: '1st', max: 100 }] });
      expect(badLabel.json()).toEqual({ 'components.0.label': [ASSESSMENT_MESSAGES.labelInvalid] });
      expect((await put('Primary', { session_id: session.id, components: CA })).statusCode).toBe(400);

      const student = await signInStudent(ctx);
      for (const who of [staff, student]) {
        expect((await put('JSS', { session_id: session.id, components: CA }, who)).statusCode).toBe(403);
        expect((await inject('POST', '/api/assessment-schemes/JSS/preview/', who.auth, { components: CA })).statusCode).toBe(403);
      }
      expect((await schemes(session.id)).JSS.is_default).toBe(true);
    });

    it('asks to confirm when results were entered as one score, then keeps their scores and grades', async () => {
      const session = await newSession(true);
      const s = await newStudent('SSS 2A');
      const saved = await bulk(
        s.admissionNumber,
        'SSS 2A',
        [
          { name: 'Mathematics', score: 72 },
          { name: 'English Language', score: 48.5 },
        ],
        '1st',
        session.id,
      );
      expect(saved.statusCode, saved.body).toBe(201);
      const before = await stored(s.id);
      expect((await schemes(session.id)).SSS).toMatchObject({ total_only_results: 2, component_results: 0 });

      const preview = await inject('POST', '/api/assessment-schemes/SSS/preview/', admin.auth, { session_id: session.id, components: CA });
      expect(preview.json()).toMatchObject({ total_only_results: 2, component_results: 0, structural: true, refused: false });
      const asked = await put('SSS', { session_id: session.id, components: CA });
      expect(asked.statusCode).toBe(409);
      expect(asked.json()).toMatchObject({
        code: SCHEME_CONFIRM_CODE,
        detail: ASSESSMENT_MESSAGES.schemeNeedsConfirm(2, 'SSS', session.name),
        total_only_results: 2,
      });
      expect((await schemes(session.id)).SSS.is_default).toBe(true);
      const confirmed = await put('SSS', { session_id: session.id, components: CA, confirm: true });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(await stored(s.id)).toEqual(before);
      expect(before.map((r) => [r.subject, r.score, r.grade, r.components])).toEqual([
        ['English Language', 48.5, 'D7', null],
        ['Mathematics', 72, 'B2', null],
      ]);
      // Junior classes were not touched and need no confirmation.
      expect((await put('JSS', { session_id: session.id, components: CA })).statusCode).toBe(200);
    });

    it('locks labels, maxima and precision once a component score exists; names may still change', async () => {
      const { session, s, save } = await caStudent('SSS 1A');
      const res = await save([{ name: 'Mathematics', components: { CA1: 12 } }]);
      expect(res.statusCode, res.body).toBe(201);
      expect((await schemes(session.id)).SSS).toMatchObject({ component_results: 1, total_only_results: 0 });

      const detail = ASSESSMENT_MESSAGES.schemeLocked(1, 'SSS', session.name);
      for (const components of [
        [{ ...CA[0]!, max: 30 }, { ...CA[1]!, max: 10 }, CA[2]],
        [{ ...CA[0]!, label: 'Test1' }, CA[1], CA[2]],
        [
          { name: 'CA', label: 'CA', max: 40 },
          { name: 'Exam', label: 'Exam', max: 60 },
        ],
      ]) {
        const refused = await put('SSS', { session_id: session.id, components, confirm: true });
        expect(refused.statusCode).toBe(409);
        expect(refused.json()).toMatchObject({ code: SCHEME_LOCKED_CODE, detail, refused: true, component_results: 1 });
      }
      const precision = await put('SSS', { session_id: session.id, components: CA, precision: 'whole' });
      expect(precision.json().code).toBe(SCHEME_LOCKED_CODE);
      const renamed = [{ ...CA[0]!, name: 'Class test' }, CA[1]!, CA[2]!];
      const ok = await put('SSS', { session_id: session.id, components: renamed });
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await schemes(session.id)).SSS.components).toEqual(renamed);
      expect(await stored(s.id)).toEqual([
        { subject: 'Mathematics', score: 12, components: JSON.stringify({ CA1: 12 }), grade: 'F9', version: 1 },
      ]);
    });
  });

  describe('results entered by component', () => {
    it('computes the total on the server and grades it; a score beside the components must be that total', async () => {
      const { session, s, save } = await caStudent('SSS 1A');
      const res = await save([
        { name: 'Mathematics', components: { CA1: 15, CA2: 12.5, Exam: 44 } },
        { name: 'English Language', components: { Exam: 51.5, CA1: 19 }, score: 70.5 },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      const saved = res.json<Result[]>();
      expect(saved.map((r) => [r.subject, r.score, r.grade, r.components])).toEqual([
        ['Mathematics', 71.5, 'B2', { CA1: 15, CA2: 12.5, Exam: 44 }],
        ['English Language', 70.5, 'B2', { CA1: 19, Exam: 51.5 }],
      ]);
      // Stored in the scheme's order, whatever order the client sent.
      expect((await stored(s.id)).find((r) => r.subject === 'English Language')!.components).toBe('{"CA1":19,"Exam":51.5}');

      const single = await inject('POST', '/api/results/', staff.auth, {
        admission_number: s.admissionNumber,
        session_id: session.id,
        term: '1st',
        student_class: 'SSS 1A',
        subject: 'French',
        components: { CA1: 20, CA2: 20, Exam: 60 },
      });
      expect(single.statusCode, single.body).toBe(201);
      expect(single.json()).toMatchObject({ subject: 'French', score: 100, grade: 'A1', components: { CA1: 20, CA2: 20, Exam: 60 } });

      const wrong = await save([{ name: 'Mathematics', components: { CA1: 15, CA2: 12.5, Exam: 44 }, score: 80 }]);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ 'subjects.0.score': [ASSESSMENT_MESSAGES.scoreNotTotal(71.5)] });
      // The same marks again: nothing changes, not even the version.
      const same = await save([{ name: 'Mathematics', components: { Exam: 44, CA2: 12.5, CA1: 15 } }]);
      expect(same.statusCode).toBe(200);
      expect(same.json<Result[]>()[0]!.version).toBe(1);
      // Stored in another key order (another writer): still the same marks.
      await ctx.handle.db
        .updateTable('results')
        .set({ components: '{"Exam":44,"CA2":12.5,"CA1":15}' })
        .where('student_id', '=', s.id)
        .where('subject', '=', 'Mathematics')
        .execute();
      const again = await save([{ name: 'Mathematics', components: { CA1: 15, CA2: 12.5, Exam: 44 } }]);
      expect(again.json<Result[]>()[0]!.version).toBe(1);
    });

    it('refuses out-of-range, negative, over-precise and unknown components, naming each, and stores nothing', async () => {
      const { s, save } = await caStudent('SSS 1A');
      const res = await save([
        { name: 'Mathematics', components: { CA1: 21, CA2: -1, Exam: 30 } },
        { name: 'English Language', components: { CA1: 10.25, CA3: 5 } },
        { name: 'French', components: {} },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        'subjects.0.components.CA1': [ASSESSMENT_MESSAGES.componentRange('CA1', 20)],
        'subjects.0.components.CA2': [ASSESSMENT_MESSAGES.componentRange('CA2', 20)],
        'subjects.1.components.CA1': [ASSESSMENT_MESSAGES.componentOneDecimal('CA1')],
        'subjects.1.components.CA3': [ASSESSMENT_MESSAGES.componentUnknown('CA3', 'CA1, CA2, Exam')],
        'subjects.2.components': [ASSESSMENT_MESSAGES.componentsNeedOne],
      });
      expect(await stored(s.id)).toEqual([]);
      const notMarks = await save([{ name: 'Mathematics', components: { CA1: 'twelve', Exam: null } }]);
      expect(notMarks.json()).toEqual({
        'subjects.0.components.CA1': [ASSESSMENT_MESSAGES.componentValueInvalid],
        'subjects.0.components.Exam': [ASSESSMENT_MESSAGES.componentValueInvalid],
      });

      const whole = await caSession('whole');
      const half = await inject('POST', '/api/results/', staff.auth, {
        admission_number: s.admissionNumber,
        session_id: whole.id,
        term: '1st',
        student_class: 'SSS 1A',
        subject: 'Mathematics',
        components: { CA1: 12.5, Exam: 61 },
      });
      expect(half.statusCode).toBe(400);
      expect(half.json()).toEqual({
        'components.CA1': [ASSESSMENT_MESSAGES.componentWhole('CA1')],
        'components.Exam': [ASSESSMENT_MESSAGES.componentRange('Exam', 60)],
      });
      expect(await stored(s.id)).toEqual([]);
    });

    it('refuses a score alone on a class entered by component, naming the components; the default scheme takes it as before', async () => {
      const session = await caSession();
      const senior = await newStudent('SSS 1A');
      const alone = await bulk(senior.admissionNumber, 'SSS 1A', [{ name: 'Mathematics', score: 70 }], '1st', session.id);
      expect(alone.statusCode).toBe(400);
      expect(alone.json()).toEqual({ 'subjects.0.score': [ASSESSMENT_MESSAGES.scoreNeedsComponents(CA_TEXT)] });
      const single = await inject('POST', '/api/results/', staff.auth, {
        admission_number: senior.admissionNumber,
        session_id: session.id,
        term: '1st',
        student_class: 'SSS 1A',
        subject: 'Mathematics',
        score: 70,
      });
      expect(single.json()).toEqual({ score: [ASSESSMENT_MESSAGES.scoreNeedsComponents(CA_TEXT)] });
      expect(ASSESSMENT_MESSAGES.scoreNeedsComponents(CA_TEXT)).toContain('CA1 (20), CA2 (20), Exam (60)');
      expect(await stored(senior.id)).toEqual([]);

      // Junior classes of the same session are on the default scheme: exactly as before.
      const junior = await newStudent('JSS 2A');
      const res = await bulk(junior.admissionNumber, 'JSS 2A', [{ name: 'Mathematics', score: 70, remarks: 'Good' }], '1st', session.id);
      expect(res.statusCode).toBe(201);
      expect(res.json<Result[]>()[0]).toMatchObject({ score: 70, grade: 'A', components: null, remarks: 'Good', version: 1 });
      // `components` on the default scheme: the one score, stored as a plain score.
      const asComponent = await bulk(junior.admissionNumber, 'JSS 2A', [{ name: 'French', components: { Score: 55 } }], '1st', session.id);
      expect(asComponent.json<Result[]>()[0]).toMatchObject({ subject: 'French', score: 55, components: null });
      const absent = await bulk(
        junior.admissionNumber,
        'JSS 2A',
        [{ name: 'Basic Science', components: { Score: ABSENT_MARK } }],
        '1st',
        session.id,
      );
      expect(absent.json<Result[]>()[0]).toMatchObject({
        subject: 'Basic Science',
        score: 0,
        grade: 'F',
        components: { Score: ABSENT_MARK },
      });
    });

    it('takes ABS as absent: counts no marks, grades the total, and the report card lists it apart from a zero', async () => {
      const { session, s, save } = await caStudent('SSS 3A');
      const mate = await newStudent('SSS 3A');
      const res = await save([
        { name: 'Mathematics', components: { CA1: 18, CA2: 17, Exam: ABSENT_MARK } },
        { name: 'English Language', components: { CA1: 0, CA2: 10, Exam: 40 } },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<Result[]>()[0]).toMatchObject({ score: 35, grade: 'F9', components: { CA1: 18, CA2: 17, Exam: ABSENT_MARK } });
      await bulk(mate.admissionNumber, 'SSS 3A', [{ name: 'Mathematics', components: { CA1: 10, CA2: 10, Exam: 30 } }], '1st', session.id);

      const card = (
        await inject('GET', `/api/report-card/?session_id=${session.id}&term=1st&admission_number=${s.admissionNumber}`, admin.auth)
      ).json<ReportCard>();
      expect(card.components).toEqual(CA);
      const maths = card.subjects.find((x) => x.subject === 'Mathematics')!;
      expect(maths).toMatchObject({ score: 35, components: { CA1: 18, CA2: 17, Exam: ABSENT_MARK }, absent: ['Exam'], position: 2 });
      const english = card.subjects.find((x) => x.subject === 'English Language')!;
      expect(english).toMatchObject({ score: 50, absent: [], components: { CA1: 0, CA2: 10, Exam: 40 } });
      // A subject without a score this term has neither.
      for (const x of card.subjects.filter((x) => x.score === null)) expect(x).toMatchObject({ components: null, absent: [] });

      const classCards = (
        await inject('GET', `/api/report-cards/?session_id=${session.id}&term=1st&student_class=SSS 3A`, admin.auth)
      ).json<ReportCard[]>();
      expect(classCards.map((c) => c.components)).toEqual([CA, CA]);

      // The PDF: component columns before the total, ABS where absent, and the note saying what ABS means.
      const text = pdfText(await renderReportCards([card], { compress: false }));
      for (const word of ['CA1', 'CA2', 'Exam', 'Total', ABSENT_MARK, ASSESSMENT_MESSAGES.absentNote]) expect(text).toContain(word);
      const pdf = await inject(
        'GET',
        `/api/report-card/pdf/?session_id=${session.id}&term=1st&admission_number=${s.admissionNumber}`,
        admin.auth,
      );
      expect(pdf.statusCode).toBe(200);
      expect(pdfPageCount(pdf.rawPayload)).toBe(1);
      // A card with one score per subject keeps today's columns and no note.
      const plain = pdfText(
        await renderReportCards([{ ...card, components: [{ name: 'Score', label: 'Score', max: 100 }], subjects: [english] }], {
          compress: false,
        }),
      );
      expect(plain).not.toContain('CA1');
      expect(plain).not.toContain(ASSESSMENT_MESSAGES.absentNote);
    });

    it('keeps a card of 16 subjects with up to six components on one A4 page, in the third term too', async () => {
      const { session, s, save } = await caStudent('SSS 3B');
      for (const term of ['1st', '2nd', '3rd']) {
        await save([{ name: 'Mathematics', components: { CA1: 10, CA2: 10, Exam: ABSENT_MARK } }], term);
      }
      const card = (
        await inject('GET', `/api/report-card/?session_id=${session.id}&term=3rd&admission_number=${s.admissionNumber}`, admin.auth)
      ).json<ReportCard>();
      const six: AssessmentComponent[] = ['CA1', 'CA2', 'CA3', 'CA4', 'Project', 'Exam'].map((label, i) => ({
        name: label,
        label,
        max: i < 5 ? 10 : 50,
      }));
      const base = card.subjects.find((x) => x.subject === 'Mathematics')!;
      const names = [
        ...['Further Mathematics', 'Literature in English', 'Agricultural Science', 'Physical and Health Education'],
        ...Array.from({ length: 12 }, (_, i) => `Subject ${i + 1}`),
      ];
      for (const components of [CA, six]) {
        const subjects = names.map((subject) => ({
          ...base,
          subject,
          components: Object.fromEntries(
            components.map((c, k): [string, ComponentValue] => [c.label, k === components.length - 1 ? ABSENT_MARK : c.max]),
          ),
          absent: [components.at(-1)!.label],
          teacher_remarks: 'Steady progress this term.',
        }));
        const pdf = await renderReportCards([{ ...card, components, subjects }], { compress: false });
        expect(pdfPageCount(pdf), `${components.length} components`).toBe(1);
        const text = pdfText(pdf);
        for (const t of [
          ASSESSMENT_MESSAGES.absentNote,
          'Subject 12',
          'Annual average',
          "Principal's signature",
          ...components.map((c) => c.label),
        ])
          expect(text).toContain(t);
      }
    });

    it('PATCH replaces the components (total and grade recomputed), keeps them when only remarks change, and audits old and new', async () => {
      const { session, s, save } = await caStudent('SSS 2B');
      const created = await save([{ name: 'Mathematics', components: { CA1: 10, CA2: 10, Exam: 30 } }]);
      const id = created.json<Result[]>()[0]!.id;
      const patch = (payload: Record<string, unknown>) => inject('PATCH', `/api/results/${id}/`, staff.auth, payload);

      const res = await patch({ components: { CA1: 18, Exam: 58 }, version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ score: 76, grade: 'A1', components: { CA1: 18, Exam: 58 }, version: 2 });
      const remarks = await patch({ remarks: 'Much better' });
      expect(remarks.json()).toMatchObject({ score: 76, components: { CA1: 18, Exam: 58 }, remarks: 'Much better', version: 3 });
      const alone = await patch({ score: 80 });
      expect(alone.statusCode).toBe(400);
      expect(alone.json()).toEqual({ score: [ASSESSMENT_MESSAGES.scoreNeedsComponents(CA_TEXT)] });
      const over = await patch({ components: { CA2: 25 } });
      expect(over.json()).toEqual({ 'components.CA2': [ASSESSMENT_MESSAGES.componentRange('CA2', 20)] });
      const same = await patch({ components: { Exam: 58, CA1: 18 } });
      expect(same.json()).toMatchObject({ version: 3 });

      const audit = (
        await inject('GET', `/api/results/audit/?admission_number=${s.admissionNumber}&session_id=${session.id}`, admin.auth)
      ).json<ResultAuditEntry[]>();
      expect(audit.map((a) => [a.action, a.old_score, a.new_score, a.old_components, a.new_components])).toEqual([
        ['update', 76, 76, { CA1: 18, Exam: 58 }, { CA1: 18, Exam: 58 }],
        ['update', 50, 76, { CA1: 10, CA2: 10, Exam: 30 }, { CA1: 18, Exam: 58 }],
        ['create', null, 50, null, { CA1: 10, CA2: 10, Exam: 30 }],
      ]);

      // A result entered as one total before the scheme: a PATCH of its remarks keeps it as it was.
      const old = await newStudent('SSS 2B');
      const plainSession = await newSession(true);
      const first = await bulk(old.admissionNumber, 'SSS 2B', [{ name: 'French', score: 64 }], '1st', plainSession.id);
      const oldId = first.json<Result[]>()[0]!.id;
      expect((await put('SSS', { session_id: plainSession.id, components: CA, confirm: true })).statusCode).toBe(200);
      const kept = await inject('PATCH', `/api/results/${oldId}/`, staff.auth, { remarks: 'Kept' });
      expect(kept.json()).toMatchObject({ score: 64, grade: 'C4', components: null, remarks: 'Kept' });
      const byComponent = await inject('PATCH', `/api/results/${oldId}/`, staff.auth, { components: { CA1: 15, CA2: 15, Exam: 34 } });
      expect(byComponent.json()).toMatchObject({ score: 64, grade: 'C4', components: { CA1: 15, CA2: 15, Exam: 34 }, version: 3 });
    });
  });

  describe('broadsheet', () => {
    it('carries the scheme, component scores of subjects entered by component, and subject positions (ties 1, 1, 3); the CSV has component columns', async () => {
      const session = await caSession();
      const mk = (first: string, last: string) => addStudent(ctx, 'SSS 1B', first, last);
      const a = await mk('Ada', 'Akin');
      const b = await mk('Bola', 'Bello');
      const c = await mk('=HYPERLINK("x")', 'Chidi');
      const save = (st: { admissionNumber: string }, subjects: Record<string, unknown>[]) =>
        bulk(st.admissionNumber, 'SSS 1B', subjects, '1st', session.id);
      expect((await save(a, [{ name: 'Mathematics', components: { CA1: 20, CA2: 10, Exam: 40 } }])).statusCode).toBe(201);
      expect((await save(b, [{ name: 'Mathematics', components: { CA1: 10, CA2: 20, Exam: 40 } }])).statusCode).toBe(201);
      expect((await save(c, [{ name: 'Mathematics', components: { CA1: 5, CA2: ABSENT_MARK, Exam: 50 } }])).statusCode).toBe(201);
      // One result entered as one total before the scheme was set (stored straight, as an old release left it).
      await ctx.handle.db
        .insertInto('results')
        .values({
          student_id: c.id,
          session_id: session.id,
          term: '1st',
          student_class: 'SSS 1B',
          subject: 'English Language',
          score: 61,
          components: null,
          remarks: '',
          grade: 'C4',
          version: 1,
          created_by: null,
          updated_by: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();

      const sheet = (
        await inject('GET', `/api/broadsheet/?session_id=${session.id}&term=1st&student_class=SSS 1B`, staff.auth)
      ).json<Broadsheet>();
      const cls = sheet.classes[0]!;
      expect(cls.components).toEqual(CA);
      expect(cls.subject_positions[a.admissionNumber]).toEqual({ Mathematics: 1 });
      expect(cls.subject_positions[b.admissionNumber]).toEqual({ Mathematics: 1 });
      expect(cls.subject_positions[c.admissionNumber]).toEqual({ Mathematics: 3, 'English Language': 1 });
      const rowOf = (n: string) => cls.rows.find((r) => r.admission_number === n)!;
      expect(rowOf(c.admissionNumber).components).toEqual({ Mathematics: { CA1: 5, CA2: ABSENT_MARK, Exam: 50 } });
      expect(rowOf(c.admissionNumber).scores).toMatchObject({ Mathematics: 55, 'English Language': 61 });
      expect(rowOf(a.admissionNumber).components).toEqual({ Mathematics: { CA1: 20, CA2: 10, Exam: 40 } });

      const csv = await inject('GET', `/api/broadsheet/csv/?session_id=${session.id}&term=1st&student_class=SSS 1B`, staff.auth);
      const lines = csvLines(csv);
      const header = lines[0]!.split(',');
      const subjects = cls.subjects;
      expect(header.slice(3, 3 + subjects.length * 4)).toEqual(subjects.flatMap((x) => [`${x} CA1`, `${x} CA2`, `${x} Exam`, x]));
      expect(header.slice(3 + subjects.length * 4)).toEqual(['Total', 'Subjects taken', 'Average', 'Position', 'Out of']);
      const line = lines.find((l) => l.includes(c.admissionNumber))!;
      const m = subjects.indexOf('Mathematics');
      const e = subjects.indexOf('English Language');
      // The formula rule still holds for the name (first cell after the admission number; first name first).
      expect(line).toContain(`,"'=HYPERLINK(""x"") Chidi",`);
      const cells = line.replace(/"[^"]*(""[^"]*)*"/g, 'NAME').split(',');
      expect(cells.slice(3 + m * 4, 3 + m * 4 + 4)).toEqual(['5', ABSENT_MARK, '50', '55']);
      expect(cells.slice(3 + e * 4, 3 + e * 4 + 4)).toEqual(['', '', '', '61']);
    });

    it('reads a constant number of statements whatever the size of the class (SQLite)', async () => {
      if (dialect !== 'sqlite') return;
      const session = await caSession();
      const sqlite = ctx.handle.sqlite!;
      const proto = Object.getPrototypeOf(sqlite.prepare('select 1')) as Record<
        'all' | 'run' | 'get' | 'iterate',
        (...a: unknown[]) => unknown
      >;
      let statements = 0;
      const originals = { all: proto.all, run: proto.run, get: proto.get, iterate: proto.iterate };
      for (const k of ['all', 'run', 'get', 'iterate'] as const) {
        const fn = originals[k];
        proto[k] = function (this: unknown, ...args: unknown[]) {
          statements++;
          return fn.apply(this, args);
        };
      }
      const counted = async (url: string) => {
        // Warm first: the reference rows (settings, sessions, scales...) are then the cache's (decision 047).
        await inject('GET', url, admin.auth);
        statements = 0;
        // The admin: an arm's unreleased cards are not for every staff member (30.9).
        const res = await inject('GET', url, admin.auth);
        expect(res.statusCode, res.body).toBe(200);
        return statements;
      };
      try {
        const measure = async (cls: string, n: number) => {
          for (let i = 0; i < n; i++) {
            const st = await newStudent(cls);
            await bulk(
              st.admissionNumber,
              cls,
              [
                { name: 'Mathematics', components: { CA1: 10 + i, CA2: 5, Exam: 40 } },
                { name: 'English Language', components: { Exam: 30 + i } },
              ],
              '1st',
              session.id,
            );
          }
          const q = `session_id=${session.id}&term=1st&student_class=${cls}`;
          return [
            await counted(`/api/broadsheet/?${q}`),
            await counted(`/api/report-cards/?${q}`),
            await counted(`/api/broadsheet/csv/?${q}`),
          ];
        };
        const small = await measure('SSS 2A', 2);
        const large = await measure('SSS 3A', 9);
        expect(large).toEqual(small);
      } finally {
        Object.assign(proto, originals);
      }
    });
  });
});
