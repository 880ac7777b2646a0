import { sql } from 'kysely';
import { RESULT_PIN_PAGE_SIZE, type ResultPinFilter } from '@portal/domain';
import { countOf, Repository, type Conn, type Trx } from '../../db/index';
import { leftJoinPerson, personNameOf } from '../../db/person-name';
import { inSlices } from '../../db/slices';
import './pins.tables';

/** One new card: its serial, its PIN's hash and its printable copy. */
export interface NewPin {
  serial: string;
  pin_hash: string;
  printable: string;
}

/** Rows in one insert statement (6 values each: under SQLite's bound-parameter limit). */
const PIN_SLICE = 500;

/** SQL of the result-checker PINs (decision record 043). */
export class PinsRepository extends Repository {
  insertBatch(
    trx: Trx,
    v: { session_id: number; term: string | null; count: number; uses: number; created_at: string; created_by: number },
  ): Promise<{ id: number }> {
    return trx.insertInto('result_pin_batches').values(v).returning('id').executeTakeFirstOrThrow();
  }

  /** Inserts cards; a card whose hash another card already has is skipped: the serials inserted come back. */
  async insertPins(trx: Trx, batchId: number, maxUses: number, pins: readonly NewPin[]): Promise<string[]> {
    const rows = await inSlices(
      pins,
      PIN_SLICE,
      (slice) =>
        trx
          .insertInto('result_pins')
          .values(slice.map((p) => ({ batch_id: batchId, max_uses: maxUses, ...p })))
          .onConflict((oc) => oc.column('pin_hash').doNothing())
          .returning('serial')
          .execute(),
      { yieldBetween: true },
    );
    return rows.map((r) => r.serial);
  }

  private batches(conn: Conn = this.db) {
    return leftJoinPerson(
      conn.selectFrom('result_pin_batches as b').innerJoin('academic_sessions as s', 's.id', 'b.session_id'),
      'creator',
      'b.created_by',
    ).select([
      'b.id',
      'b.session_id',
      's.name as session_name',
      'b.term',
      'b.count',
      'b.uses',
      'b.created_at',
      'b.sealed_at',
      personNameOf('creator').as('created_by_name'),
    ]);
  }

  listBatches() {
    return this.batches().orderBy('b.id', 'desc').execute();
  }

  batch(id: number, conn: Conn = this.db) {
    return this.batches(conn).where('b.id', '=', id).executeTakeFirst();
  }

  /** The batch's counts: sold, unused (no use), used (some uses left), exhausted (none left). */
  async counts(batchId: number): Promise<{ sold: number; used: number; unused: number; exhausted: number }> {
    const row = await this.db
      .selectFrom('result_pins')
      .select([
        sql<number>`sum(case when sold_at is not null then 1 else 0 end)`.as('sold'),
        sql<number>`sum(case when uses = 0 then 1 else 0 end)`.as('unused'),
        sql<number>`sum(case when uses > 0 and uses < max_uses then 1 else 0 end)`.as('used'),
        sql<number>`sum(case when uses >= max_uses then 1 else 0 end)`.as('exhausted'),
      ])
      .where('batch_id', '=', batchId)
      .executeTakeFirstOrThrow();
    return {
      sold: Number(row.sold ?? 0),
      used: Number(row.used ?? 0),
      unused: Number(row.unused ?? 0),
      exhausted: Number(row.exhausted ?? 0),
    };
  }

  /** The printable copies of a batch, in serial order (null once sealed). */
  printables(batchId: number) {
    return this.db.selectFrom('result_pins').select(['serial', 'printable']).where('batch_id', '=', batchId).orderBy('id').execute();
  }

  private filtered(batchId: number, state: ResultPinFilter | undefined) {
    let q = this.db.selectFrom('result_pins as p').where('p.batch_id', '=', batchId);
    if (state === 'sold') q = q.where('p.sold_at', 'is not', null);
    if (state === 'unused') q = q.where('p.uses', '=', 0);
    if (state === 'used') q = q.where('p.uses', '>', 0).where(sql<boolean>`p.uses < p.max_uses`);
    if (state === 'exhausted') q = q.where(sql<boolean>`p.uses >= p.max_uses`);
    return q;
  }

  /** One page of a batch's cards (RESULT_PIN_PAGE_SIZE a page, in serial order) and how many match. */
  async page(batchId: number, state: ResultPinFilter | undefined, page: number) {
    const [count, rows] = await Promise.all([
      countOf(this.filtered(batchId, state)),
      leftJoinPerson(this.filtered(batchId, state), 'seller', 'p.sold_by')
        .select([
          'p.serial',
          'p.uses',
          'p.max_uses',
          'p.student_id',
          'p.sold_at',
          'p.sold_to',
          'p.price_kobo',
          personNameOf('seller').as('sold_by_name'),
        ])
        .orderBy('p.id')
        .limit(RESULT_PIN_PAGE_SIZE)
        .offset((page - 1) * RESULT_PIN_PAGE_SIZE)
        .execute(),
    ]);
    return { count, rows };
  }

  /** The batch's cards among `serials`: serial and whether sold. */
  async cardsOf(trx: Trx, batchId: number, serials: readonly string[]) {
    return inSlices([...new Set(serials)], PIN_SLICE, (slice) =>
      trx
        .selectFrom('result_pins')
        .select(['id', 'serial', 'sold_at'])
        .where('batch_id', '=', batchId)
        .where('serial', 'in', slice)
        .execute(),
    );
  }

  async markSold(trx: Trx, ids: readonly number[], v: { sold_at: string; sold_by: number; sold_to: string | null; price_kobo: number }) {
    await inSlices(ids, PIN_SLICE, async (slice) => {
      await trx.updateTable('result_pins').set(v).where('id', 'in', slice).where('sold_at', 'is', null).execute();
      return [];
    });
  }

  /** Erases a batch's printable copies and marks it sealed (once): true when this call sealed it. */
  async seal(trx: Trx, batchId: number, at: string, by: number): Promise<boolean> {
    const done = await trx
      .updateTable('result_pin_batches')
      .set({ sealed_at: at, sealed_by: by })
      .where('id', '=', batchId)
      .where('sealed_at', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) return false;
    await trx.updateTable('result_pins').set({ printable: null }).where('batch_id', '=', batchId).execute();
    return true;
  }

  // ------------------------------------------------------------ the public check

  /** A card by its PIN's hash (the unique index), with its batch's session and term. */
  pinByHash(hash: string) {
    return this.db
      .selectFrom('result_pins as p')
      .innerJoin('result_pin_batches as b', 'b.id', 'p.batch_id')
      .select(['p.id', 'p.serial', 'p.uses', 'p.max_uses', 'p.student_id', 'b.session_id', 'b.term'])
      .where('p.pin_hash', '=', hash)
      .executeTakeFirst();
  }

  /**
   * Takes one use of a card for `studentId`, atomically: only while uses are left and the card is
   * unbound or bound to this student; the first use binds it. One conditional UPDATE, so parallel
   * checks (any number of instances) never take more than `max_uses`. The uses after it, or
   * undefined when refused.
   */
  async takeUse(pinId: number, studentId: number, at: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('result_pins')
      .set((eb) => ({
        uses: eb('uses', '+', 1),
        student_id: studentId,
        first_used_at: sql<string>`coalesce(first_used_at, ${at})`,
        last_used_at: at,
      }))
      .where('id', '=', pinId)
      .where(sql<boolean>`uses < max_uses`)
      .where((eb) => eb.or([eb('student_id', 'is', null), eb('student_id', '=', studentId)]))
      .returning('uses')
      .executeTakeFirst();
    return row?.uses;
  }

  /** A card's uses and binding now (after a refused `takeUse`). */
  pinState(pinId: number) {
    return this.db.selectFrom('result_pins').select(['uses', 'max_uses', 'student_id']).where('id', '=', pinId).executeTakeFirst();
  }

  async logUse(v: {
    pin_id: number | null;
    admission_key: string;
    student_id: number | null;
    session_id: number | null;
    term: string | null;
    ip: string;
    result: string;
    created_at: string;
  }): Promise<void> {
    await this.db.insertInto('result_pin_uses').values(v).execute();
  }
}
