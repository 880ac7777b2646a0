import { sql } from 'kysely';
import type { Conn } from '../../db/index';

/**
 * The student dashboard's reads (issue 36 item 4): aggregate and set-based, a fixed number of
 * statements whatever the size of the school or the number of sessions. Like the parent home
 * (parents/family.queries.ts) a reader across tables other modules own (results' scores and
 * publications, the calendar's sessions, people's students); it writes nothing. Who may see what
 * (release, the fee gate, the access scope) is decided by the services, not here.
 */

/** The student's record: the arm now and whether they are still in school (a graduated student keeps their history, decision 038). */
export function studentHead(conn: Conn, studentId: number) {
  return conn
    .selectFrom('students')
    .select(['id', 'admission_number', 'first_name', 'last_name', 'student_class', 'status'])
    .where('id', '=', studentId)
    .executeTakeFirst();
}

/**
 * Every released term card holding a row of the student (session, term and the arm of that term:
 * results keep their arm) and, for each, every classmate's total and number of scores: what the
 * class ranking reads (the average over the subjects taken). One row per classmate and card, one
 * statement, whatever the number of sessions: the cards are chosen from the student's own rows (the
 * unique index leads with the student), then only those arms' scores are read.
 */
export function releasedCardTotals(conn: Conn, studentId: number) {
  return conn
    .with(
      (cte) => cte('mine').materialized(),
      (db) => db.selectFrom('results').select(['session_id', 'term', 'student_class']).distinct().where('student_id', '=', studentId),
    )
    .with('cards', (db) =>
      db
        .selectFrom('mine as m')
        .innerJoin('result_publications as pub', (j) =>
          j.onRef('pub.session_id', '=', 'm.session_id').onRef('pub.term', '=', 'm.term').onRef('pub.student_class', '=', 'm.student_class'),
        )
        .innerJoin('academic_sessions as a', 'a.id', 'm.session_id')
        .select(['m.session_id', 'a.name as session', 'm.term', 'm.student_class']),
    )
    .selectFrom('cards as c')
    .innerJoin('results as x', (j) =>
      j.onRef('x.session_id', '=', 'c.session_id').onRef('x.term', '=', 'c.term').onRef('x.student_class', '=', 'c.student_class'),
    )
    .select([
      'c.session_id',
      'c.session',
      'c.term',
      'c.student_class',
      'x.student_id',
      sql<number>`sum(x.score)`.as('total'),
      sql<number>`count(x.score)`.as('n'),
    ])
    .groupBy(['c.session_id', 'c.session', 'c.term', 'c.student_class', 'x.student_id'])
    .execute();
}

/**
 * A term's subjects of the student's arm that term (the arm of their own rows), each with the
 * student's score and the arm's sum and count of scores in it, and whether the arm's card is
 * released. One statement; the rows are per subject, not per classmate.
 */
export function termSubjects(conn: Conn, studentId: number, sessionId: number, term: string) {
  return conn
    .with(
      (cte) => cte('mine').materialized(),
      (db) =>
        db
          .selectFrom('results')
          .select(['student_class', 'subject', 'score'])
          .where('student_id', '=', studentId)
          .where('session_id', '=', sessionId)
          .where('term', '=', term),
    )
    .selectFrom('mine as m')
    .innerJoin('results as x', (j) =>
      j
        .on('x.session_id', '=', sessionId)
        .on('x.term', '=', term)
        .onRef('x.student_class', '=', 'm.student_class')
        .onRef('x.subject', '=', 'm.subject'),
    )
    .leftJoin('result_publications as pub', (j) =>
      j.on('pub.session_id', '=', sessionId).on('pub.term', '=', term).onRef('pub.student_class', '=', 'm.student_class'),
    )
    .select([
      'm.student_class',
      'm.subject',
      'm.score',
      sql<number>`sum(x.score)`.as('total'),
      sql<number>`count(x.score)`.as('n'),
      sql<number>`max(case when pub.id is null then 0 else 1 end)`.as('released'),
    ])
    .groupBy(['m.student_class', 'm.subject', 'm.score'])
    .execute();
}
