import type { Conn } from '../../db/index';
import { ENTRY_FIELDS } from './report-cards.tables';

/** Entries of a term: of an arm (`arm`), of some arms, of some students, or of the whole term. */
export function entriesQuery(
  conn: Conn,
  sessionId: number,
  term: string,
  f: { arm?: string; arms?: readonly string[]; studentIds?: number[] } = {},
) {
  return conn
    .selectFrom('report_card_entries')
    .select([...ENTRY_FIELDS, 'updated_at'])
    .where('session_id', '=', sessionId)
    .where('term', '=', term)
    .$if(f.arm !== undefined, (q) => q.where('student_class', '=', f.arm!))
    .$if(f.arms !== undefined, (q) => q.where('student_class', 'in', f.arms!.length ? [...f.arms!] : ['']))
    .$if(f.studentIds !== undefined, (q) => q.where('student_id', 'in', f.studentIds!.length ? f.studentIds! : [-1]));
}

/** The students' photos (one row each at most). */
export function photosQuery(conn: Conn, studentIds: readonly number[]) {
  return conn
    .selectFrom('student_photos')
    .select(['student_id', 'photo'])
    .where('student_id', 'in', studentIds.length ? studentIds : [-1]);
}
