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
 * results keep their arm), each with the student's standing in it as the card's ranking rule has it
 * (docs/decisions/004: the average over the subjects taken; competition ranks, so the position is 1 +
 * the classmates whose average is above the student's; the class average the mean of the averages):
 * the arm's size, the sum of its students' averages, the student's own and how many are above it.
 * One statement and one row per card whatever the size of the arms or the number of sessions: the
 * cards are chosen from the student's own rows (the unique index leads with the student), then only
 * those arms' scores are read, through the class-scores index, and summed in the database.
 */
export function releasedCardStandings(conn: Conn, studentId: number) {
  return conn
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
    .with('per', (db) =>
      db
        .selectFrom('cards as c')
        .innerJoin('results as x', (j) =>
          j.onRef('x.session_id', '=', 'c.session_id').onRef('x.term', '=', 'c.term').onRef('x.student_class', '=', 'c.student_class'),
        )
        .select([
          'x.session_id',
          'x.term',
          'x.student_class',
          'x.student_id',
          // Doubles on both databases (PostgreSQL would divide integers as integers).
          sql<number>`sum(x.score) * 1.0 / count(x.score)`.as('av'),
        ])
        .groupBy(['x.session_id', 'x.term', 'x.student_class', 'x.student_id']),
    )
    .with('me', (db) => db.selectFrom('per').select(['session_id', 'term', 'student_class', 'av']).where('student_id', '=', studentId))
    .selectFrom('per as p')
    .innerJoin('me', (j) =>
      j.onRef('me.session_id', '=', 'p.session_id').onRef('me.term', '=', 'p.term').onRef('me.student_class', '=', 'p.student_class'),
    )
    .innerJoin('academic_sessions as a', 'a.id', 'p.session_id')
    .select([
      'p.session_id',
      'a.name as session',
      'p.term',
      'p.student_class',
      'me.av as mine',
      sql<number>`count(*)`.as('size'),
      sql<number>`sum(p.av)`.as('sum_av'),
      // Equal within floating-point noise is a tie (the domain's `competitionRanks`).
      sql<number>`sum(case when p.av > me.av + 1e-9 * (case when me.av > 1 then me.av else 1 end) then 1 else 0 end)`.as('above'),
    ])
    .groupBy(['p.session_id', 'a.name', 'p.term', 'p.student_class', 'me.av'])
    .execute();
}

/**
 * A term's subjects of the student's arm that term (the arm of their own rows), each with the arm's
 * sum and count of scores and the student's own score (null: not taken), and whether the arm's card
 * is released. One statement, one row per subject of the arm, read through the class-scores index.
 */
export function termSubjects(conn: Conn, studentId: number, sessionId: number, term: string) {
  return conn
    .selectFrom('results as x')
    .select([
      'x.student_class',
      'x.subject',
      sql<number | null>`max(case when x.student_id = ${studentId} then x.score end)`.as('score'),
      sql<number>`sum(x.score)`.as('total'),
      sql<number>`count(x.score)`.as('n'),
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
    .groupBy(['x.student_class', 'x.subject'])
    .execute();
}
