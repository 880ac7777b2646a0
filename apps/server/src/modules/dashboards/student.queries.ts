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
 * card's ranking reads (docs/decisions/004: the average over the subjects taken). One row per
 * classmate and card, one statement whatever the number of
 * sessions: the cards are chosen from the student's own rows (the unique index leads with the
 * student), then only those arms' scores are read, through the class-scores index. The ranking
 * itself is the domain's (`competitionRanks`), in the service, so it cannot drift from the card's.
 */
export function releasedCardTotals(conn: Conn, studentId: number) {
  return (
    conn
      .with(
        (cte) => cte('mine').materialized(),
        (db) => db.selectFrom('results').select(['session_id', 'term', 'student_class']).distinct().where('student_id', '=', studentId),
      )
      .with('cards', (db) =>
        db
          .selectFrom('mine as m')
          .innerJoin('result_publications as pub', (j) =>
            j
              .onRef('pub.session_id', '=', 'm.session_id')
              .onRef('pub.term', '=', 'm.term')
              .onRef('pub.student_class', '=', 'm.student_class'),
          )
          .select(['m.session_id', 'm.term', 'm.student_class']),
      )
      .selectFrom('cards as c')
      .innerJoin('results as x', (j) =>
        j.onRef('x.session_id', '=', 'c.session_id').onRef('x.term', '=', 'c.term').onRef('x.student_class', '=', 'c.student_class'),
      )
      .innerJoin('academic_sessions as a', 'a.id', 'x.session_id')
      .select([
        'x.session_id',
        'a.name as session',
        'x.term',
        'x.student_class',
        'x.student_id',
        sql<number>`sum(x.score)`.as('total'),
        sql<number>`count(x.score)`.as('n'),
      ])
      // Unordered: PostgreSQL then hashes the groups instead of sorting every score row by its text
      // keys (6x slower on the bench school); the service puts each card's students in the card's order.
      .groupBy(['x.session_id', 'a.name', 'x.term', 'x.student_class', 'x.student_id'])
      .execute()
  );
}

/**
 * A term's scores of the student's arm that term (the arm of their own rows), one row per student
 * and subject in the card's order (student, subject): what the card's subject statistics read, so
 * the class average per subject is the domain's `rankClass` on the same rows. With whether the arm's
 * card is released. One statement through the class-scores index (an arm: some hundreds of rows).
 */
export function termScores(conn: Conn, studentId: number, sessionId: number, term: string) {
  return conn
    .selectFrom('results as x')
    .select([
      'x.student_class',
      'x.student_id',
      'x.subject',
      'x.score',
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('result_publications as pub')
              .select('pub.id')
              .where('pub.session_id', '=', sessionId)
              .where('pub.term', '=', term)
              .whereRef('pub.student_class', '=', 'x.student_class'),
          )
          .as('released'),
    ])
    .where('x.session_id', '=', sessionId)
    .where('x.term', '=', term)
    .where('x.student_class', '=', (eb) =>
      eb
        .selectFrom('results as r')
        .select('r.student_class')
        .where('r.student_id', '=', studentId)
        .where('r.session_id', '=', sessionId)
        .where('r.term', '=', term)
        .limit(1),
    )
    .orderBy('x.student_id')
    .orderBy('x.subject')
    .execute();
}
