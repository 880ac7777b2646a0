import type { Conn, DB, Trx } from '../../db/index';
import { leftJoinPerson, personNameOf } from '../../db/person-name';
import './card-fee-releases.tables';

/** SQL of the cards opened regardless of fees (migration 0039, decision 042). */
export class CardFeeReleasesRepository {
  constructor(readonly db: DB) {}

  /** The students among `studentIds` whose term card was opened regardless of fees. */
  async releasedAmong(sessionId: number, term: string, studentIds: readonly number[], conn: Conn = this.db): Promise<Set<number>> {
    if (!studentIds.length) return new Set();
    const rows = await conn
      .selectFrom('card_fee_releases')
      .select('student_id')
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .where('student_id', 'in', [...studentIds])
      .execute();
    return new Set(rows.map((r) => r.student_id));
  }

  async insert(
    trx: Trx,
    row: { student_id: number; session_id: number; term: string; reason: string; created_by: number; created_at: string },
  ) {
    return trx.insertInto('card_fee_releases').values(row).returning('id').executeTakeFirstOrThrow();
  }

  /** A session's releases (of one term, or all), newest first, with the student and who opened the card. */
  list(sessionId: number, term: string | undefined, conn: Conn = this.db) {
    return leftJoinPerson(
      conn.selectFrom('card_fee_releases as r').innerJoin('students as s', 's.id', 'r.student_id'),
      'by',
      'r.created_by',
    )
      .select([
        'r.id',
        'r.session_id',
        'r.term',
        'r.reason',
        'r.created_at',
        's.admission_number',
        's.first_name',
        's.last_name',
        's.student_class',
      ])
      .select(personNameOf('by').as('created_by'))
      .where('r.session_id', '=', sessionId)
      .$if(term !== undefined, (q) => q.where('r.term', '=', term!))
      .orderBy('r.id', 'desc')
      .execute();
  }
}
