import { sql } from 'kysely';
import type { Conn } from '../../db/index';

/**
 * The parent home's reads (decision 035): set-based over all of a parent's children at once, a
 * fixed number of statements whatever the number of children. Like the access scope and the
 * first-run checklist, a reader across tables other modules own (results' publications and scores,
 * attendance's registers and marks, people's students and photos); it writes nothing.
 */

/** The children linked to a parent account, with their arm, relationship and photo. */
export function childrenOfUser(conn: Conn, userId: number) {
  return conn
    .selectFrom('parents as p')
    .innerJoin('parent_links as pl', 'pl.parent_id', 'p.id')
    .innerJoin('students as s', 's.id', 'pl.student_id')
    .leftJoin('student_photos as ph', 'ph.student_id', 's.id')
    .select(['s.id', 's.admission_number', 's.first_name', 's.last_name', 's.student_class as arm', 'pl.relationship', 'ph.photo'])
    .where('p.user_id', '=', userId)
    .orderBy('s.admission_number')
    .execute();
}

/**
 * Each child's latest released card (the session and term of a publication holding one of their
 * results, the latest by session name, then term) and, for each such card, every student's total and
 * number of scores on it: what the class ranking reads (the average over the subjects taken), one row
 * per student rather than per score. One statement: the cards are chosen inside it (a window over the
 * children's released terms), then only those arms' scores are read, through the class-scores index.
 * A child's latest card is the latest of the cards holding a row of theirs (a sibling's card in an
 * earlier term may hold one too).
 */
export function latestCardTotals(conn: Conn, studentIds: readonly number[]) {
  return (
    conn
      // The children's (session, term, arm) first, from their own rows (the unique index leads with the
      // student), and kept apart (materialized): else PostgreSQL probes every publication's arm for them.
      .with(
        (cte) => cte('mine').materialized(),
        (db) =>
          db
            .selectFrom('results')
            .select(['student_id', 'session_id', 'term', 'student_class'])
            .distinct()
            .where('student_id', 'in', studentIds.length ? [...studentIds] : [-1]),
      )
      .with('released', (db) =>
        db
          .selectFrom('mine as m')
          .innerJoin('result_publications as pub', (j) =>
            j
              .onRef('pub.session_id', '=', 'm.session_id')
              .onRef('pub.term', '=', 'm.term')
              .onRef('pub.student_class', '=', 'm.student_class'),
          )
          .innerJoin('academic_sessions as a', 'a.id', 'm.session_id')
          .select(['m.student_id', 'm.session_id', 'a.name as session', 'm.term', 'm.student_class']),
      )
      .with('ordered', (db) =>
        db.selectFrom('released').select([
          'session_id',
          'session',
          'term',
          'student_class',
          // Term names sort as the terms do ('1st' < '2nd' < '3rd'), session names by their years.
          sql<number>`row_number() over (partition by student_id order by session desc, term desc)`.as('k'),
        ]),
      )
      .with('cards', (db) =>
        db.selectFrom('ordered').select(['session_id', 'session', 'term', 'student_class']).distinct().where('k', '=', 1),
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
      .where('x.score', 'is not', null)
      .groupBy(['c.session_id', 'c.session', 'c.term', 'c.student_class', 'x.student_id'])
      .execute()
  );
}

/** Each child's marks in a term (counted by status), and their mark on one day (first register of the day). */
export function marksOf(conn: Conn, studentIds: readonly number[], sessionId: number, term: string, today: string) {
  return conn
    .selectFrom('attendance_marks as m')
    .innerJoin('attendance_registers as r', 'r.id', 'm.register_id')
    .select([
      'm.student_id',
      'm.status',
      sql<number>`count(*)`.as('n'),
      sql<number>`sum(case when r.date = ${today} then 1 else 0 end)`.as('today'),
    ])
    .where('m.student_id', 'in', studentIds.length ? [...studentIds] : [-1])
    .where('r.session_id', '=', sessionId)
    .where('r.term', '=', term)
    .groupBy(['m.student_id', 'm.status'])
    .execute();
}

/** The days each arm's register was taken in a term (the school days counted so far). */
export function registerDaysOf(conn: Conn, arms: readonly string[], sessionId: number, term: string) {
  return conn
    .selectFrom('attendance_registers')
    .select(['student_class', sql<number>`count(distinct date)`.as('days')])
    .where('student_class', 'in', arms.length ? [...arms] : [''])
    .where('session_id', '=', sessionId)
    .where('term', '=', term)
    .groupBy('student_class')
    .execute();
}
