import { sql } from 'kysely';
import { cachedRead } from '../../db/reference-cache';
import type { Conn, Trx } from '../../db/index';
import { nowIso, Repository } from '../../db/index';
import './calendar.tables';

/** SQL of academic sessions. */
export class SessionsRepository extends Repository {
  list() {
    return cachedRead(this.db, 'sessions', ['academic_sessions'], () =>
      this.db.selectFrom('academic_sessions').select(['id', 'name', 'is_current']).orderBy('name', 'desc').execute(),
    );
  }

  get(id: number, conn: Conn = this.db) {
    return cachedRead(conn, `session:${id}`, ['academic_sessions'], () =>
      conn.selectFrom('academic_sessions').select(['id', 'name', 'is_current']).where('id', '=', id).executeTakeFirst(),
    );
  }

  /**
   * A session with `open`: whether teachers write in it, i.e. it is the current one, or the newest
   * by name when none is marked current (`currentOrLatest`). One statement.
   */
  async getWithOpen(id: number, conn: Conn = this.db) {
    const r = await sql<{ id: number; name: string; is_current: number; open: number | string }>`
      select id, name, is_current,
             case when is_current = 1
                    or (not exists (select 1 from academic_sessions c where c.is_current = 1)
                        and name = (select max(l.name) from academic_sessions l))
                  then 1 else 0 end as open
        from academic_sessions where id = ${id}`.execute(conn);
    const row = r.rows[0];
    return row && { id: Number(row.id), name: row.name, is_current: Number(row.is_current), open: Number(row.open) === 1 };
  }

  byName(name: string, conn: Conn = this.db) {
    return cachedRead(conn, `session-named:${name}`, ['academic_sessions'], () =>
      conn.selectFrom('academic_sessions').select(['id', 'name', 'is_current']).where('name', '=', name).executeTakeFirst(),
    );
  }

  /** The current session, or the newest by name when none is marked current. */
  currentOrLatest() {
    return cachedRead(this.db, 'session-current-or-latest', ['academic_sessions'], () => this.currentOrLatestRow());
  }

  /** `currentOrLatest` read through `conn` (a transaction's own rows), not the cache. */
  currentOrLatestRow(conn: Conn = this.db) {
    return conn
      .selectFrom('academic_sessions')
      .select(['id', 'name', 'is_current'])
      .orderBy('is_current', 'desc')
      .orderBy('name', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * The "next term begins" days the cards announced for a session's terms: its own 1st and 2nd terms'
   * rows and the 3rd term's of the session before (named `previousName`). One query.
   */
  announcedStarts(sessionId: number, previousName: string | null) {
    return cachedRead(this.db, `announced-starts:${sessionId}:${previousName}`, ['school_terms', 'academic_sessions'], () =>
      this.announcedStartRows(sessionId, previousName),
    );
  }

  private announcedStartRows(sessionId: number, previousName: string | null) {
    return this.db
      .selectFrom('school_terms as rt')
      .innerJoin('academic_sessions as s', 's.id', 'rt.session_id')
      .select(['rt.session_id', 'rt.term', 'rt.next_term_begins'])
      .where((eb) =>
        eb.or([
          eb.and([eb('rt.session_id', '=', sessionId), eb('rt.term', 'in', ['1st', '2nd'])]),
          ...(previousName ? [eb.and([eb('s.name', '=', previousName), eb('rt.term', '=', '3rd')])] : []),
        ]),
      )
      .execute();
  }

  // ---------- the card's fields of a term (on the term's row) ----------

  /** The card's fields ("next term begins", typed times opened) of a session's terms that have a row. */
  cardTerms(sessionId: number, conn: Conn = this.db) {
    return cachedRead(conn, `card-terms:${sessionId}`, ['school_terms'], () => this.cardFields(sessionId, conn).execute());
  }

  /** The card's fields of one term, or undefined when the term has no row. */
  cardTerm(sessionId: number, term: string, conn: Conn = this.db) {
    return cachedRead(conn, `card-term:${sessionId}:${term}`, ['school_terms'], () =>
      this.cardFields(sessionId, conn).where('term', '=', term).executeTakeFirst(),
    );
  }

  private cardFields(sessionId: number, conn: Conn) {
    return conn
      .selectFrom('school_terms')
      .select(['session_id', 'term', 'next_term_begins', 'times_opened'])
      .where('session_id', '=', sessionId);
  }

  /**
   * Writes the card's fields of a term onto its row; a term with no row yet gets one without dates
   * (the calendar's dates, when saved, fill it).
   */
  async putCardTerm(
    trx: Conn,
    v: { session_id: number; term: string; next_term_begins: string | null; times_opened: number | null },
    actor: number,
  ): Promise<void> {
    const set = { next_term_begins: v.next_term_begins, times_opened: v.times_opened, updated_by: actor, updated_at: nowIso() };
    await trx
      .insertInto('school_terms')
      .values({ session_id: v.session_id, term: v.term, starts_on: null, ends_on: null, ...set })
      .onConflict((oc) => oc.columns(['session_id', 'term']).doUpdateSet(set))
      .execute();
  }

  /** The session marked current, if any. */
  current(conn: Conn = this.db) {
    return cachedRead(conn, 'session-current', ['academic_sessions'], () =>
      conn.selectFrom('academic_sessions').select(['id', 'name', 'is_current']).where('is_current', '=', 1).executeTakeFirst(),
    );
  }

  hasCurrent(conn: Conn) {
    return conn.selectFrom('academic_sessions').select('id').where('is_current', '=', 1).executeTakeFirst().then(Boolean);
  }

  async insert(conn: Conn, name: string): Promise<number> {
    const row = await conn
      .insertInto('academic_sessions')
      .values({ name, is_current: 0, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async rename(conn: Conn, id: number, name: string): Promise<void> {
    await conn.updateTable('academic_sessions').set({ name }).where('id', '=', id).execute();
  }

  /**
   * Holds every session row until `trx` ends, in id order (PostgreSQL): changes of the current
   * session run one after another, each reading what the last committed, and two never deadlock.
   * SQLite writes one transaction at a time already.
   */
  async lockSessions(trx: Trx): Promise<void> {
    if (this.dialect === 'postgres') await trx.selectFrom('academic_sessions').select('id').orderBy('id').forUpdate().execute();
  }

  /** Makes `id` the one current session (clear first: a unique index allows one current row). */
  async makeCurrent(conn: Conn, id: number): Promise<void> {
    await conn.updateTable('academic_sessions').set({ is_current: 0 }).where('is_current', '=', 1).where('id', '!=', id).execute();
    await conn.updateTable('academic_sessions').set({ is_current: 1 }).where('id', '=', id).execute();
  }
}
