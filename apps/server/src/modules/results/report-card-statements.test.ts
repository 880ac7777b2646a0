import { expect, it } from 'vitest';
import type { ReportCard } from '@portal/domain';
import { createFeeItems, createPayment } from '../../db/factories';
import { nowIso } from '../../db/index';
import { describeEachDatabase, servicesOver, withSchool, type SignedIn, type TestContext } from '../../../test/helpers';
import { resultsKit } from '../../../test/results-fixtures';
import { offerAtLevel } from '../../../test/teaching-fixtures';
import { putCardFees, putEntry, putTerm, setFormTeacher } from '../../../test/card-fixtures';
import { countingConnection } from '../../../test/statement-count';
import { greyPng } from '../../../test/grey-png';

/** The card JSON's budget (issue 37.4): at most this many statements, the auth guard's account lookup left out (as bench/run.ts counts). */
const CARD_STATEMENTS = 12;

/**
 * One student's card as the route reads it (acting-for, then the card), counted on a warm server
 * (the reference cache filled): every section filled, fees in the card's session and in an earlier
 * one (with a discount there and class history), so the brought-forward balance's every read runs.
 */
describeEachDatabase('the report card JSON in a fixed number of statements', (dialect) => {
  let ctx: TestContext, admin: SignedIn, staff: SignedIn & { id: number };
  let earlierId: number;
  withSchool(dialect, { sessions: ['2025/2026'] }, async (s) => {
    ({ ctx, admin, staff } = s);
    earlierId = s.sessionId;
    await offerAtLevel(ctx.handle.db, 'JSS 1', ['Mathematics', 'English Language', 'French']);
  });
  const { inject, rankedClass } = resultsKit(
    () => ctx,
    () => staff,
  );

  it(`at most ${CARD_STATEMENTS} for staff and for the student, and the same card as through the API`, async () => {
    const db = ctx.handle.db;
    const { session, sessionId, cls, student } = await rankedClass({ admin, publish: ['1st', '2nd', '3rd'] });
    await setFormTeacher(db, sessionId, cls, staff.id);
    await putEntry(db, {
      student_id: student.id,
      session_id: sessionId,
      term: '3rd',
      student_class: cls,
      ratings: { punctuality: 5 },
      form_comment: 'A hard worker.',
      principal_comment: 'Well done.',
      days_present: 50,
      days_absent: 5,
    });
    await putTerm(db, { session_id: sessionId, term: '3rd', next_term_begins: '2101-09-12', times_opened: 60 });
    await putCardFees(db, { sessionId, sessionName: session.name, arm: cls, student });
    // The session before: its fees, a discount of the student's, a payment and the class history.
    await createFeeItems(db, [{ arm: cls, sessionId: earlierId, term: '1st', name: 'Tuition', amountKobo: 3_000_000, compulsory: true }]);
    await createPayment(db, {
      reference: `earlier-${sessionId}`,
      studentId: student.id,
      admissionNumber: student.admissionNumber,
      arm: cls,
      session: '2025/2026',
      term: '1st',
      amountKobo: 500_000,
      status: 'successful',
    });
    await db
      .insertInto('fee_discounts')
      .values({
        student_id: student.id,
        session_id: earlierId,
        term: null,
        kind: 'sibling',
        basis: 'percent',
        percent_bp: 1000,
        amount_kobo: 0,
        items: '["Tuition"]',
        reason: 'Elder sister',
        given_by: admin.userId,
        given_at: nowIso(),
        revoked_at: null,
        revoked_by: null,
      })
      .execute();
    await db
      .insertInto('student_enrolments')
      .values({
        student_id: student.id,
        session_id: earlierId,
        student_class: cls,
        stream_id: null,
        outcome: null,
        run_id: null,
        created_at: nowIso(),
      })
      .execute();
    const photo = await inject('PUT', `/api/students/${student.admissionNumber}/photo/`, admin.auth, {
      photo: `data:image/png;base64,${greyPng(40, 40).toString('base64')}`,
    });
    expect(photo.statusCode).toBe(200);
    ctx.app.referenceCache.clear();

    const query = { admission_number: student.admissionNumber, session_id: sessionId, term: '3rd' };
    const viaApi = async (who: SignedIn) => {
      const res = await inject(
        'GET',
        `/api/report-card/?session_id=${sessionId}&term=3rd&admission_number=${student.admissionNumber}`,
        who.auth,
      );
      expect(res.statusCode).toBe(200);
      return res.json<ReportCard>();
    };
    const counts: Record<string, number> = {};
    for (const [who, actor] of [
      [staff, { id: staff.userId, role: 'staff' as const }],
      [student, { id: student.userId, role: 'student' as const }],
    ] as const) {
      const counting = countingConnection(ctx, dialect);
      try {
        const svc = servicesOver(ctx, counting.db);
        const read = async () => svc.reportCards.card(await svc.scope.actingFor(actor, query.admission_number), query);
        await read(); // warm: the reference cache filled
        counting.reset();
        const card = await read();
        const n = counting.statements;
        expect({ ...JSON.parse(JSON.stringify(card)), generated_at: null }).toEqual({ ...(await viaApi(who)), generated_at: null });
        // The sections this test filled are on the card (so their reads ran).
        expect(card.next_term.outstanding).toBeGreaterThan(0);
        expect(card.comments.form_teacher_name).toBe('Grace Okafor');
        expect(card.student.photo).not.toBe('');
        counts[actor.role] = n;
      } finally {
        await counting.close();
      }
    }
    expect(Math.max(...Object.values(counts)), JSON.stringify(counts)).toBeLessThanOrEqual(CARD_STATEMENTS);
  });
});
