import { sql } from 'kysely';
import type { DB } from '../../db/index';
import './payments.tables';
import { armInSessionSql, sessionIsClosed } from '../../db/class-history';

/** The day a payment counts for: the day paid (offline as recorded), else the provider's date. */
const paidDay = sql<string>`coalesce(p.paid_on, substr(p.paid_at, 1, 10))`;

/**
 * The payments that stand: `p` joined to its reversal, if any. Only reversal rows are read for the
 * join (through the unique index on reversal_of), not the whole table a second time.
 */
function withReversal(db: DB) {
  return db.selectFrom('payments as p').leftJoin(
    (eb) => eb.selectFrom('payments').select('reversal_of').where('reversal_of', 'is not', null).as('rev'),
    (j) => j.onRef('rev.reversal_of', '=', 'p.id'),
  );
}

/**
 * SQL of the debtors list and the collection summary: set-based reads whose count does not grow
 * with the school (the dues themselves come from FeesService.studentDues).
 */
export class FeeReportsRepository {
  constructor(readonly db: DB) {}

  /**
   * The session's class list, of these classes (every class when null), each student in the arm they
   * had in that session (decision 038): a closed session's enrolment rows, or a live session's active
   * students. One query either way.
   */
  async activeStudents(sessionId: number, classes: readonly string[] | null) {
    const closed = await sessionIsClosed(this.db, sessionId);
    const cls = classes ? (classes.length ? classes : ['']) : null;
    if (closed) {
      let q = this.db
        .selectFrom('student_enrolments as se')
        .innerJoin('students as s', 's.id', 'se.student_id')
        .select(['s.id', 's.admission_number', 's.first_name', 's.last_name', 'se.student_class'])
        .where('se.session_id', '=', sessionId);
      if (cls) q = q.where('se.student_class', 'in', cls);
      return q.orderBy('s.admission_number').execute();
    }
    let q = this.db
      .selectFrom('students')
      .select(['id', 'admission_number', 'first_name', 'last_name', 'student_class'])
      .where('status', '=', 'active');
    if (cls) q = q.where('student_class', 'in', cls);
    return q.orderBy('admission_number').execute();
  }

  /**
   * Per student of these classes (their arm in the session): successful payments of the session net
   * of reversals, and the day of the latest money received (a reversal, or a payment it reversed, is
   * not). One grouped query.
   */
  paidByStudent(sessionId: number, classes: readonly string[] | null) {
    // At most one reversal a payment (unique reversal_of): the join never doubles a row.
    let q = withReversal(this.db)
      .select((eb) => [
        'p.student_id',
        eb.fn.sum<number>('p.amount_kobo').as('paid'),
        sql<string | null>`max(case when p.amount_kobo > 0 and rev.reversal_of is null then ${paidDay} end)`.as('last_paid_on'),
      ])
      .where('p.session_id', '=', sessionId)
      .where('p.status', '=', 'successful')
      .where('p.student_id', 'is not', null);
    if (classes) {
      const cls = classes.length ? classes : [''];
      q = q.where('p.student_id', 'in', (eb) =>
        eb
          .selectFrom('students')
          .select('students.id')
          .where(armInSessionSql(sessionId, 'students.id', 'students.student_class'), 'in', cls),
      );
    }
    return q.groupBy('p.student_id').execute();
  }

  /** A name to show for each item key of the session (classes may spell one item differently). */
  itemNames(sessionId: number) {
    return this.db
      .selectFrom('fee_items')
      .select((eb) => ['name_key', eb.fn.min<string>('name').as('name')])
      .where('session_id', '=', sessionId)
      .where('compulsory', '=', 1)
      .groupBy('name_key')
      .execute();
  }

  /**
   * Money received in the session in [from, to], grouped by the day paid or by method: payments
   * that stand (a reversed payment and its reversal cancel out, so the mistaken entry is not money
   * received on its day).
   */
  received(sessionId: number, by: 'day' | 'method', range: { from?: string; to?: string }) {
    const group = by === 'day' ? paidDay : sql<string>`p.method`;
    let q = withReversal(this.db)
      .select((eb) => [group.as('k'), eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('p.amount_kobo').as('kobo')])
      .where('p.session_id', '=', sessionId)
      .where('p.status', '=', 'successful')
      .where('p.amount_kobo', '>', 0)
      .where('rev.reversal_of', 'is', null);
    if (range.from !== undefined) q = q.where(paidDay, '>=', range.from);
    if (range.to !== undefined) q = q.where(paidDay, '<=', range.to);
    return q.groupBy(group).orderBy(group).execute();
  }
}
