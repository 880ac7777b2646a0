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

/** Each child's released terms: (session, term, arm) of a publication holding one of their results. */
export function releasedTermsOf(conn: Conn, studentIds: readonly number[]) {
  return conn
    .selectFrom('results as r')
    .innerJoin('result_publications as pub', (j) =>
      j.onRef('pub.session_id', '=', 'r.session_id').onRef('pub.term', '=', 'r.term').onRef('pub.student_class', '=', 'r.student_class'),
    )
    .innerJoin('academic_sessions as a', 'a.id', 'r.session_id')
    .select(['r.student_id', 'r.session_id', 'a.name as session', 'r.term', 'r.student_class'])
    .distinct()
    .where('r.student_id', 'in', studentIds.length ? [...studentIds] : [-1])
    .execute();
}

/**
 * Each student's total and number of scores on the given (session, term, arm) cards: what the class
 * ranking reads (the average over the subjects taken), one row per student rather than per score.
 */
export function totalsOfCards(conn: Conn, cards: readonly { session_id: number; term: string; student_class: string }[]) {
  if (!cards.length) return Promise.resolve([]);
  const distinct = <T>(xs: T[]) => [...new Set(xs)];
  return conn
    .selectFrom('results')
    .select(['session_id', 'term', 'student_class', 'student_id', sql<number>`sum(score)`.as('total'), sql<number>`count(score)`.as('n')])
    // The three columns as lists too, so the planner seeks the class-scores index on all three (an OR
    // of the cards alone made SQLite scan the whole term's scores, every arm: 16,000 rows, not 1,000
    // per card); the OR below then keeps exactly the cards asked.
    .where('session_id', 'in', distinct(cards.map((c) => c.session_id)))
    .where('term', 'in', distinct(cards.map((c) => c.term)))
    .where('student_class', 'in', distinct(cards.map((c) => c.student_class)))
    .where((eb) =>
      eb.or(
        cards.map((c) => eb.and([eb('session_id', '=', c.session_id), eb('term', '=', c.term), eb('student_class', '=', c.student_class)])),
      ),
    )
    .where('score', 'is not', null)
    .groupBy(['session_id', 'term', 'student_class', 'student_id'])
    .execute();
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
