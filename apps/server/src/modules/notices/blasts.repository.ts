import { sql } from 'kysely';
import { Repository, type Conn } from '../../db/index';
import { leftJoinPerson, personNameOf } from '../../db/person-name';
import './templates.tables';

export interface BlastRow {
  id: number;
  created_by: number | null;
  created_by_name: string | null;
  audience: string;
  channels: string;
  subject: string | null;
  body: string;
  status: string;
  recipients: number;
  created_at: string;
  finished_at: string | null;
}

/** A far-off instant: a paused blast's waiting messages are due then, i.e. never, until resumed. */
export const HELD_UNTIL = '9999-12-31T00:00:00.000Z';

/** The admin's blasts (migration 0034) and their messages' counts (notice_messages, migration 0033). */
export class NoticeBlastsRepository extends Repository {
  async insert(
    conn: Conn,
    b: {
      created_by: number;
      audience: string;
      channels: string;
      subject: string | null;
      body: string;
      recipients: number;
      created_at: string;
    },
  ): Promise<number> {
    const row = await conn
      .insertInto('notice_blasts')
      .values({ ...b, status: 'sending', finished_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  private select(conn: Conn) {
    return leftJoinPerson(conn.selectFrom('notice_blasts as b'), 'author', 'b.created_by').select([
      'b.id',
      'b.created_by',
      personNameOf('author').as('created_by_name'),
      'b.audience',
      'b.channels',
      'b.subject',
      'b.body',
      'b.status',
      'b.recipients',
      'b.created_at',
      'b.finished_at',
    ]);
  }

  async one(id: number, conn: Conn = this.db): Promise<BlastRow | undefined> {
    const r = await this.select(conn).where('b.id', '=', id).executeTakeFirst();
    return r ? { ...r, id: Number(r.id), recipients: Number(r.recipients) } : undefined;
  }

  async page(limit: number, offset: number): Promise<{ rows: BlastRow[]; count: number }> {
    const [rows, count] = await Promise.all([
      this.select(this.db).orderBy('b.id', 'desc').limit(limit).offset(offset).execute(),
      this.db
        .selectFrom('notice_blasts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((r) => ({ ...r, id: Number(r.id), recipients: Number(r.recipients) })), count: Number(count.n) };
  }

  /** Messages per status for each blast named, in one statement. */
  async counts(ids: readonly number[], conn: Conn = this.db): Promise<Map<number, Record<string, number>>> {
    const out = new Map<number, Record<string, number>>();
    if (!ids.length) return out;
    const rows = await conn
      .selectFrom('notice_messages')
      .select(['blast_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('blast_id', 'in', [...ids])
      .groupBy(['blast_id', 'status'])
      .execute();
    for (const r of rows) {
      const m = out.get(Number(r.blast_id)) ?? {};
      m[r.status] = Number(r.n);
      out.set(Number(r.blast_id), m);
    }
    return out;
  }

  /** Moves a blast from one of `from` to `to`; false when it was in none of them (a racing change won). */
  async transition(conn: Conn, id: number, from: readonly string[], to: string, finishedAt: string | null): Promise<boolean> {
    const r = await conn
      .updateTable('notice_blasts')
      .set({ status: to, ...(finishedAt ? { finished_at: finishedAt } : {}) })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Pause: the blast's waiting messages are held (never due); a message already being sent goes on. */
  async holdMessages(conn: Conn, id: number): Promise<number> {
    const r = await conn
      .updateTable('notice_messages')
      .set({ status: 'held', next_attempt_at: HELD_UNTIL })
      .where('blast_id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Resume: the messages a pause held are due now. */
  async releaseMessages(conn: Conn, id: number, at: string): Promise<number> {
    const r = await conn
      .updateTable('notice_messages')
      .set({ status: 'queued', next_attempt_at: at })
      .where('blast_id', '=', id)
      .where('status', '=', 'held')
      .where('next_attempt_at', '=', HELD_UNTIL)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Cancel: what has not been sent is cancelled; what was sent stays. */
  async cancelMessages(conn: Conn, id: number): Promise<number> {
    const r = await conn
      .updateTable('notice_messages')
      .set({ status: 'cancelled' })
      .where('blast_id', '=', id)
      .where('status', 'in', ['queued', 'held'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** A sending blast with nothing left to send is done (its finish time: now). */
  async finishIfDone(id: number, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('notice_blasts')
      .set({ status: 'done', finished_at: at })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .where((eb) =>
        eb.not(
          eb.exists(
            this.db
              .selectFrom('notice_messages')
              .select(sql`1`.as('one'))
              .where('blast_id', '=', id)
              .where('status', 'in', ['queued', 'sending', 'held']),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
