import type { CardStatus } from '@portal/domain';
import { sql } from 'kysely';
import type { Conn } from '../../db/index';
import { nowIso, type DB } from '../../db/index';
import { leftJoinPerson, personNameOf } from '../../db/person-name';
import { entriesQuery, photosQuery } from './report-card-rows.queries';

/** The status row's key: one arm's cards for one term. */
export interface ArmKey {
  session_id: number;
  term: string;
  student_class: string;
}

/**
 * SQL of the full report card as the card, the approvals and the release read it: entries,
 * term dates, approval status, form teachers and photos. Every read takes a whole arm (or term) at
 * once, so a card or an arm's cards cost one query per table.
 */
export class ReportCardsRepository {
  constructor(readonly db: DB) {}

  /** Entries of a term: of an arm (`arm`), of some students, or of the whole term. */
  entries(
    sessionId: number,
    term: string,
    f: { arm?: string; arms?: readonly string[]; studentIds?: number[] } = {},
    conn: Conn = this.db,
  ) {
    return entriesQuery(conn, sessionId, term, f).execute();
  }

  /**
   * The arm's card status for a term in one statement: released when the class is published
   * (result_publications), else its report_card_status row, else draft.
   */
  async armStatus(sessionId: number, term: string, arm: string, conn: Conn = this.db): Promise<CardStatus> {
    const row = await sql<{ status: string | null; published: number | string }>`
      select (select status from report_card_status
                where session_id = ${sessionId} and term = ${term} and student_class = ${arm}) as status,
             (select count(*) from result_publications
                where session_id = ${sessionId} and term = ${term} and student_class = ${arm}) as published`.execute(conn);
    const r = row.rows[0];
    if (r && Number(r.published) > 0) return 'released';
    const s = r?.status;
    return s === 'submitted' || s === 'approved' ? s : 'draft';
  }

  /** Status rows of a term (all arms, or the ones named). */
  statuses(sessionId: number, term: string, classes?: readonly string[], conn: Conn = this.db) {
    const statuses = conn.selectFrom('report_card_status as s');
    return leftJoinPerson(leftJoinPerson(statuses, 'submitter', 's.submitted_by'), 'approver', 's.approved_by')
      .select([
        's.student_class',
        's.status',
        's.submitted_at',
        // Who, by name as on every other screen (not the sign-in email).
        personNameOf('submitter').as('submitted_by'),
        's.approved_at',
        personNameOf('approver').as('approved_by'),
        's.returned_reason',
        's.returned_at',
      ])
      .where('s.session_id', '=', sessionId)
      .where('s.term', '=', term)
      .$if(classes !== undefined, (q) => q.where('s.student_class', 'in', classes!.length ? classes! : ['']))
      .execute();
  }

  /** Sets an arm's status row (insert or update), with whatever stamps the step sets. */
  async putStatus(
    conn: Conn,
    key: ArmKey,
    v: {
      status: string;
      submitted_by?: number | null;
      submitted_at?: string | null;
      approved_by?: number | null;
      approved_at?: string | null;
      returned_reason?: string | null;
      returned_at?: string | null;
    },
  ): Promise<void> {
    const row = { ...v, updated_at: nowIso() };
    await conn
      .insertInto('report_card_status')
      .values({ ...key, ...row })
      .onConflict((oc) => oc.columns(['session_id', 'term', 'student_class']).doUpdateSet(row))
      .execute();
  }

  /**
   * Marks arms approved (the release's approval), in one statement: arms already approved keep who
   * approved them and when; the others get the releasing admin and now.
   */
  async approveMany(conn: Conn, sessionId: number, term: string, classes: readonly string[], actor: number): Promise<void> {
    if (!classes.length) return;
    const at = nowIso();
    await conn
      .insertInto('report_card_status')
      .values(
        classes.map((student_class) => ({
          session_id: sessionId,
          term,
          student_class,
          status: 'approved',
          approved_by: actor,
          approved_at: at,
          updated_at: at,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['session_id', 'term', 'student_class']).doUpdateSet({
          status: 'approved',
          approved_by: sql`case when report_card_status.status = 'approved' then report_card_status.approved_by else ${actor} end`,
          approved_at: sql`case when report_card_status.status = 'approved' then report_card_status.approved_at else ${at} end`,
          updated_at: at,
        }),
      )
      .execute();
  }

  /**
   * Score changes (result_audit) of a term's arms made at or after `since` (by class), with the
   * student's and the writer's names: one query for every arm.
   */
  async scoreChangesSince(sessionId: number, term: string, since: ReadonlyMap<string, string>, conn: Conn = this.db) {
    if (!since.size) return [];
    const oldest = [...since.values()].sort()[0]!;
    const audit = conn.selectFrom('result_audit as a').leftJoin('students as s', 's.id', 'a.student_id');
    const rows = await leftJoinPerson(audit, 'actor', 'a.actor_user_id')
      .select([
        'a.id',
        'a.student_class',
        'a.admission_number',
        's.first_name',
        's.last_name',
        'a.subject',
        'a.action',
        'a.old_score',
        'a.new_score',
        'a.created_at',
        'actor_staff.first_name as staff_first',
        'actor_staff.last_name as staff_last',
        'actor_admin.first_name as admin_first',
        'actor_admin.last_name as admin_last',
        'actor.email as actor_email',
      ])
      .where('a.session_id', '=', sessionId)
      .where('a.term', '=', term)
      .where('a.student_class', 'in', [...since.keys()])
      .where('a.created_at', '>=', oldest)
      .orderBy('a.id')
      .execute();
    return rows.filter((r) => r.created_at >= since.get(r.student_class)!);
  }

  /** Students with results in each arm of a term (the cards that exist), one query. */
  armsWithStudents(sessionId: number, term: string, classes?: readonly string[], conn: Conn = this.db) {
    return conn
      .selectFrom('results')
      .select(['student_class', sql<number>`count(distinct student_id)`.as('students')])
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .$if(classes !== undefined, (q) => q.where('student_class', 'in', classes!.length ? classes! : ['']))
      .groupBy('student_class')
      .orderBy('student_class')
      .execute();
  }

  /** Students with results in an arm for a term. */
  studentIdsOfArm(key: ArmKey, conn: Conn = this.db) {
    return conn
      .selectFrom('results')
      .select('student_id')
      .distinct()
      .where('session_id', '=', key.session_id)
      .where('term', '=', key.term)
      .where('student_class', '=', key.student_class)
      .execute()
      .then((rows) => rows.map((r) => r.student_id));
  }

  photos(studentIds: readonly number[], conn: Conn = this.db) {
    return photosQuery(conn, studentIds).execute();
  }

  /** The term's published arms and when each was published (the approvals list). */
  publications(sessionId: number, term: string, conn: Conn = this.db) {
    return conn
      .selectFrom('result_publications')
      .select(['student_class', 'published_at'])
      .where('session_id', '=', sessionId)
      .where('term', '=', term)
      .execute();
  }

  /** Publishes arms, one row each; an arm already published is left as it is. Answers the rows made. */
  insertPublications(conn: Conn, v: { session_id: number; term: string; classes: readonly string[]; actor: number }, at: string) {
    return conn
      .insertInto('result_publications')
      .values(
        v.classes.map((student_class) => ({
          session_id: v.session_id,
          term: v.term,
          student_class,
          published_by: v.actor,
          published_at: at,
        })),
      )
      .onConflict((oc) => oc.columns(['session_id', 'term', 'student_class']).doNothing())
      .returning(['id', 'student_class'])
      .execute();
  }

  /** The publication id of each of these arms already published in the term, by arm. */
  async publicationIds(conn: Conn, v: { session_id: number; term: string; classes: readonly string[] }): Promise<Map<string, number>> {
    const rows = await conn
      .selectFrom('result_publications')
      .select(['id', 'student_class'])
      .where('session_id', '=', v.session_id)
      .where('term', '=', v.term)
      .where('student_class', 'in', v.classes)
      .execute();
    return new Map(rows.map((r) => [r.student_class, r.id]));
  }
}
