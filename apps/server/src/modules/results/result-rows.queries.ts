import { sql, type SelectQueryBuilder } from 'kysely';
import type { Conn } from '../../db/index';
import './results.tables';

/** Stored results (`r`) with their students (`s`): the start of every read that names the student. */
export function resultsWithStudents(conn: Conn) {
  return conn.selectFrom('results as r').innerJoin('students as s', 's.id', 'r.student_id');
}

/** The student a result row `r` names, with their name from `s`: every sheet, card and list shows it. */
export const RESULT_STUDENT_COLUMNS = ['r.student_id', 's.admission_number', 's.first_name', 's.last_name'] as const;

/** The marks of a result row `r`: what a score write sets and every sheet and card shows. */
export const SCORE_COLUMNS = ['r.score', 'r.components', 'r.remarks', 'r.grade'] as const;

/** Students in the order every list and sheet shows them: surname, first name, then admission number. */
export function inStudentNameOrder<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return q.orderBy(sql.ref('s.last_name')).orderBy(sql.ref('s.first_name')).orderBy(sql.ref('s.admission_number'));
}

/**
 * Whether the term of the results row `row` (its alias) is released: its class has a publication
 * for that session and term.
 */
export function isReleased(row: string) {
  return sql<boolean>`exists (select p.id from result_publications as p where p.session_id = ${sql.ref(`${row}.session_id`)}
    and p.term = ${sql.ref(`${row}.term`)} and p.student_class = ${sql.ref(`${row}.student_class`)})`;
}
