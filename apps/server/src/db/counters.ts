import type { Trx } from './index';

/**
 * Allocates `count` consecutive numbers from a named counter inside the caller's transaction and
 * returns the first. The row update serializes concurrent allocators on both dialects, so public
 * ids (STU-0001, STAFF-0001) are never repeated.
 */
export async function allocate(trx: Trx, name: string, count = 1): Promise<number> {
  // One atomic upsert: the first allocation inserts, every later (or concurrent) one increments the
  // row under its lock. (A separate update-then-insert let two concurrent first allocations on
  // PostgreSQL both return 1.)
  const row = await trx
    .insertInto('counters')
    .values({ name, value: count })
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ value: eb('counters.value', '+', count) })))
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value - count + 1;
}
