import { CURRICULUM_STREAMS, CURRICULUM_SUBJECTS, curriculumPlan } from '@portal/domain';
import { nowIso, type DB, inTransaction } from '../index';
import '../../modules/teaching/teaching.tables';

/**
 * A new install's subjects: the national curricula (packages/domain curricula.ts) in place of the
 * fourteen subjects migration 0014 writes as compulsory at every level.
 *
 * Only on a database nobody has used: no account, no student, no result, no stream yet. Start-up
 * runs it before the first admin is made, so it runs once; an existing school (the upgrade of a
 * database an earlier release made) always has an admin and keeps its catalogue and offerings row
 * for row. Returns whether it wrote anything.
 */
export async function seedNewInstallCurricula(db: DB): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const used = await Promise.all([
      trx.selectFrom('users').select('id').limit(1).executeTakeFirst(),
      trx.selectFrom('students').select('id').limit(1).executeTakeFirst(),
      trx.selectFrom('results').select('id').limit(1).executeTakeFirst(),
      trx.selectFrom('streams').select('id').limit(1).executeTakeFirst(),
    ]);
    if (used.some(Boolean)) return false;
    const now = nowIso();
    // Nothing refers to the default catalogue yet (no results, choices or assignments): replace it.
    await trx.deleteFrom('level_subjects').execute();
    await trx.deleteFrom('subjects').execute();
    await trx
      .insertInto('subjects')
      .values(
        CURRICULUM_SUBJECTS.map((s, i) => ({
          name: s.name,
          code: s.code,
          section: s.section,
          sort_order: i + 1,
          retired: 0,
          created_at: now,
        })),
      )
      .execute();
    const ids = new Map((await trx.selectFrom('subjects').select(['id', 'name']).execute()).map((s) => [s.name, s.id]));
    await trx
      .insertInto('level_subjects')
      .values(curriculumPlan().map((o) => ({ class_level: o.level, subject_id: ids.get(o.name)!, compulsory: o.compulsory ? 1 : 0 })))
      .execute();
    for (const stream of CURRICULUM_STREAMS) {
      const row = await trx.insertInto('streams').values({ name: stream.name, created_at: now }).returning('id').executeTakeFirstOrThrow();
      await trx
        .insertInto('stream_subjects')
        .values(stream.subjects.map((name) => ({ stream_id: row.id, subject_id: ids.get(name)! })))
        .execute();
    }
    return true;
  });
}
