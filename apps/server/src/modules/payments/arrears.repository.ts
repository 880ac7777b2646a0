import { Repository } from '../../db/index';
import { cachedRead } from '../../db/reference-cache';
import { readTogether } from '../../db/read-together';
import './payments.tables';

/**
 * SQL of the balance brought forward (decision 041): the sessions in the calendar's order, the
 * students' admission days, and payments of earlier sessions summed per student. Set-based: a fixed
 * number of queries whatever the school's size.
 */
export class ArrearsRepository extends Repository {
  /** Every session, oldest first: names are "2025/2026", so the name's order is the calendar's. */
  sessionsInOrder() {
    return cachedRead(this.db, 'sessions-in-order', ['academic_sessions'], () =>
      this.db.selectFrom('academic_sessions').select(['id', 'name', 'created_at']).orderBy('name').execute(),
    );
  }

  /** When each student's record was made (a student admitted after a session ended was never in it). */
  studentsCreated(studentIds: readonly number[] | null) {
    return this.studentsCreatedQuery(studentIds).execute();
  }

  private studentsCreatedQuery(studentIds: readonly number[] | null) {
    let q = this.db.selectFrom('students').select(['id', 'created_at']);
    if (studentIds) q = q.where('id', 'in', studentIds.length ? studentIds : [-1]);
    return q;
  }

  /**
   * Per student and session, among these sessions: successful payments net of reversals (a reversal
   * is a negative row of the same session). Of these students, or everyone's when null. One grouped query.
   */
  paidInSessions(sessionIds: readonly number[], studentIds: readonly number[] | null) {
    return this.paidInSessionsQuery(sessionIds, studentIds).execute();
  }

  private paidInSessionsQuery(sessionIds: readonly number[], studentIds: readonly number[] | null) {
    let q = this.db
      .selectFrom('payments')
      .select((eb) => ['student_id', 'session_id', eb.fn.sum<number>('amount_kobo').as('paid')])
      .where('session_id', 'in', sessionIds.length ? sessionIds : [-1])
      .where('status', '=', 'successful')
      .where('student_id', 'is not', null);
    if (studentIds) q = q.where('student_id', 'in', studentIds.length ? studentIds : [-1]);
    return q.groupBy(['student_id', 'session_id']);
  }

  /** Compulsory fees per session and arm, summed in the database (what a student without a discount owes). */
  duesPerArm(sessionIds: readonly number[]) {
    return this.duesPerArmQuery(sessionIds).execute();
  }

  private duesPerArmQuery(sessionIds: readonly number[]) {
    return this.db
      .selectFrom('fee_items')
      .select((eb) => ['session_id', 'student_class', eb.fn.sum<number>('amount_kobo').as('due_kobo')])
      .where('session_id', 'in', sessionIds.length ? sessionIds : [-1])
      .where('compulsory', '=', 1)
      .groupBy(['session_id', 'student_class']);
  }

  /** Which of these students (everyone when null) had a discount in force in which of these sessions. */
  discountedStudents(sessionIds: readonly number[], studentIds: readonly number[] | null) {
    return this.discountedStudentsQuery(sessionIds, studentIds).execute();
  }

  private discountedStudentsQuery(sessionIds: readonly number[], studentIds: readonly number[] | null) {
    let q = this.db
      .selectFrom('fee_discounts')
      .select(['session_id', 'student_id'])
      .distinct()
      .where('session_id', 'in', sessionIds.length ? sessionIds : [-1])
      .where('revoked_at', 'is', null);
    if (studentIds) q = q.where('student_id', 'in', studentIds.length ? studentIds : [-1]);
    return q;
  }

  /**
   * The four reads of the balance brought forward (`studentsCreated`, `paidInSessions`, `duesPerArm`,
   * `discountedStudents`) in ONE statement (issue 37.4, `readTogether`): each a round trip of its own
   * on PostgreSQL before.
   */
  facts(sessionIds: readonly number[], studentIds: readonly number[] | null) {
    return readTogether(this.db, {
      created: this.studentsCreatedQuery(studentIds),
      paid: this.paidInSessionsQuery(sessionIds, studentIds),
      sums: this.duesPerArmQuery(sessionIds),
      discounts: this.discountedStudentsQuery(sessionIds, studentIds),
    });
  }
}
