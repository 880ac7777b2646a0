import { nowIso, type Conn, type Trx, Repository } from '../../db/index';
import { cachedRead } from '../../db/reference-cache';
import './calendar.tables';

/** What the calendar shows of an event. */
const EVENT_COLUMNS = ['id', 'name', 'kind', 'starts_on', 'ends_on'] as const;

/** SQL of the school calendar: each term's dates and the events (holidays, breaks, extra school days). */
export class CalendarRepository extends Repository {
  /** Every dated term's dates (a few rows a year). */
  terms(conn: Conn = this.db) {
    return cachedRead(conn, 'term-dates', ['school_terms'], () => this.termRows(conn));
  }

  private termRows(conn: Conn) {
    return conn
      .selectFrom('school_terms')
      .select(['session_id', 'term', 'starts_on', 'ends_on'])
      .where('starts_on', 'is not', null)
      .where('ends_on', 'is not', null)
      .$narrowType<{ starts_on: string; ends_on: string }>()
      .orderBy('starts_on')
      .execute();
  }

  termsOfSession(sessionId: number) {
    return cachedRead(this.db, `term-starts:${sessionId}`, ['school_terms'], () => this.termsOfSessionRows(sessionId));
  }

  private termsOfSessionRows(sessionId: number) {
    return this.db
      .selectFrom('school_terms')
      .select(['term', 'starts_on'])
      .where('session_id', '=', sessionId)
      .where('starts_on', 'is not', null)
      .$narrowType<{ starts_on: string }>()
      .execute();
  }

  /** A session's term rows, dated or not, with the card's "next term begins". */
  sessionTermRows(sessionId: number, conn: Conn = this.db) {
    return conn
      .selectFrom('school_terms')
      .select(['term', 'starts_on', 'ends_on', 'next_term_begins'])
      .where('session_id', '=', sessionId)
      .execute();
  }

  /** A new session's term rows (dates and "next term begins") in one statement. */
  async putSessionTerms(
    trx: Trx,
    rows: readonly { session_id: number; term: string; starts_on: string; ends_on: string; next_term_begins: string | null }[],
    actor: number,
  ): Promise<void> {
    if (!rows.length) return;
    const now = nowIso();
    await trx
      .insertInto('school_terms')
      .values(rows.map((r) => ({ ...r, times_opened: null, updated_by: actor, updated_at: now })))
      .execute();
  }

  async putTerm(trx: Trx, v: { session_id: number; term: string; starts_on: string; ends_on: string }, actor: number): Promise<void> {
    const set = { starts_on: v.starts_on, ends_on: v.ends_on, updated_by: actor, updated_at: nowIso() };
    await trx
      .insertInto('school_terms')
      .values({ session_id: v.session_id, term: v.term, ...set })
      .onConflict((oc) => oc.columns(['session_id', 'term']).doUpdateSet(set))
      .execute();
  }

  /** Events overlapping [from, to] (null: every event). */
  events(range: { from: string; to: string } | null, conn: Conn = this.db) {
    return cachedRead(conn, `events:${range ? `${range.from}:${range.to}` : 'all'}`, ['calendar_events'], () =>
      this.eventRows(range, conn),
    );
  }

  private eventRows(range: { from: string; to: string } | null, conn: Conn) {
    return conn
      .selectFrom('calendar_events')
      .select(EVENT_COLUMNS)
      .$if(range !== null, (qb) => qb.where('starts_on', '<=', range!.to).where('ends_on', '>=', range!.from))
      .orderBy('starts_on')
      .orderBy('id')
      .execute();
  }

  event(id: number, conn: Conn = this.db) {
    return conn.selectFrom('calendar_events').select(EVENT_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  async insertEvent(trx: Trx, v: { name: string; kind: string; starts_on: string; ends_on: string }, actor: number): Promise<number> {
    const row = await trx
      .insertInto('calendar_events')
      .values({ ...v, created_by: actor, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** Several events (a rollover's moved calendar), a thousand a statement. */
  async insertEvents(
    trx: Trx,
    rows: readonly { name: string; kind: string; starts_on: string; ends_on: string }[],
    actor: number,
  ): Promise<void> {
    const created_at = nowIso();
    // 1,000 rows (6,000 bound values) a statement: inside SQLite's and PostgreSQL's limits on values.
    for (let i = 0; i < rows.length; i += 1_000)
      await trx
        .insertInto('calendar_events')
        .values(rows.slice(i, i + 1_000).map((v) => ({ ...v, created_by: actor, created_at })))
        .execute();
  }

  async deleteEvent(trx: Trx, id: number): Promise<void> {
    await trx.deleteFrom('calendar_events').where('id', '=', id).execute();
  }
}
