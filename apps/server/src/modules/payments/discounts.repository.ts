import { sql, type Insertable } from 'kysely';
import type { Conn, DB } from '../../db/index';
import './payments.tables';
import type { FeeDiscountsTable } from './payments.tables';
import { payerStudents } from './payments.repository';

export interface DiscountFilter {
  id?: number;
  studentId?: number;
  sessionId?: number;
  includeRevoked?: boolean;
}

/** Who gave or revoked: the staff or admin record's name, else the account's email. */
const personOf = (user: string, staff: string, admin: string) =>
  sql<
    string | null
  >`coalesce(${sql.ref(`${staff}.first_name`)} || ' ' || ${sql.ref(`${staff}.last_name`)}, ${sql.ref(`${admin}.first_name`)} || ' ' || ${sql.ref(`${admin}.last_name`)}, ${sql.ref(`${user}.email`)})`;

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
    let q = conn
      .selectFrom('fee_discounts as d')
      .innerJoin('students as s', 's.id', 'd.student_id')
      .leftJoin('users as giver', 'giver.id', 'd.given_by')
      .leftJoin('staff as giver_staff', 'giver_staff.user_id', 'd.given_by')
      .leftJoin('admins as giver_admin', 'giver_admin.user_id', 'd.given_by')
      .leftJoin('users as revoker', 'revoker.id', 'd.revoked_by')
      .leftJoin('staff as revoker_staff', 'revoker_staff.user_id', 'd.revoked_by')
      .leftJoin('admins as revoker_admin', 'revoker_admin.user_id', 'd.revoked_by')
      .select([
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
        personOf('giver', 'giver_staff', 'giver_admin').as('given_by'),
        personOf('revoker', 'revoker_staff', 'revoker_admin').as('revoked_by'),
      ]);
    if (f.id !== undefined) q = q.where('d.id', '=', f.id);
    if (f.studentId !== undefined) q = q.where('d.student_id', '=', f.studentId);
    if (f.sessionId !== undefined) q = q.where('d.session_id', '=', f.sessionId);
    if (!f.includeRevoked) q = q.where('d.revoked_at', 'is', null);
    return q.orderBy('d.id', 'desc').limit(1000).execute();
  }
}

export type DiscountRow = Awaited<ReturnType<DiscountsRepository['list']>>[number];
