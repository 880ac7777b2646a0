import type { Insertable } from 'kysely';
import type { Conn, DB } from '../../db/index';
import { leftJoinPerson, personNameOf } from '../../db/person-name';
import './payments.tables';
import type { FeeDiscountsTable } from './payments.tables';
import { payerStudents } from './payments.repository';

export interface DiscountFilter {
  id?: number;
  studentId?: number;
  sessionId?: number;
  includeRevoked?: boolean;
}

/** SQL of discounts and scholarships (`fee_discounts`): given, listed, revoked; never edited or deleted. */
export class DiscountsRepository {
  constructor(readonly db: DB) {}

  student(admissionNumber: string) {
    return payerStudents(this.db).where('students.admission_number', '=', admissionNumber).executeTakeFirst();
  }

  async insert(trx: Conn, values: Insertable<FeeDiscountsTable>): Promise<number> {
    const row = await trx.insertInto('fee_discounts').values(values).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** Revokes a discount still in force; 0 rows when it was revoked already (or by a racing call). */
  async revoke(trx: Conn, id: number, v: { revoked_by: number; revoked_at: string; revoke_reason: string }): Promise<number> {
    const res = await trx.updateTable('fee_discounts').set(v).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Discounts with their student and who gave or revoked them, newest first (at most 1,000: one school's year). */
  list(f: DiscountFilter, conn: Conn = this.db) {
    const discounts = conn.selectFrom('fee_discounts as d').innerJoin('students as s', 's.id', 'd.student_id');
    let q = leftJoinPerson(leftJoinPerson(discounts, 'giver', 'd.given_by'), 'revoker', 'd.revoked_by').select([
      'd.id',
      'd.student_id',
      'd.session_id',
      'd.term',
      'd.kind',
      'd.basis',
      'd.percent_bp',
      'd.amount_kobo',
      'd.items',
      'd.reason',
      'd.given_at',
      'd.revoked_at',
      'd.revoke_reason',
      's.admission_number',
      's.first_name',
      's.last_name',
      's.student_class',
      // Who gave or revoked: the staff or admin record's name, else the account's email.
      personNameOf('giver').as('given_by'),
      personNameOf('revoker').as('revoked_by'),
    ]);
    if (f.id !== undefined) q = q.where('d.id', '=', f.id);
    if (f.studentId !== undefined) q = q.where('d.student_id', '=', f.studentId);
    if (f.sessionId !== undefined) q = q.where('d.session_id', '=', f.sessionId);
    if (!f.includeRevoked) q = q.where('d.revoked_at', 'is', null);
    return q.orderBy('d.id', 'desc').limit(1000).execute();
  }
}

export type DiscountRow = Awaited<ReturnType<DiscountsRepository['list']>>[number];
