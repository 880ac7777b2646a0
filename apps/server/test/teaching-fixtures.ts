import type { DB } from '../src/db/index';
import { nowIso } from '../src/db/index';
import '../src/modules/teaching/teaching.tables';

/**
 * Writes of the teaching structure for tests that need one in place (offerings, streams, choices,
 * assignments, windows, enforcement), straight into the tables as the admin screens would leave them.
 */

async function subjectId(db: DB, name: string): Promise<number> {
  return (await db.selectFrom('subjects').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

/** The level offers exactly these subjects (compulsory unless listed in `electives`). */
export async function offerAtLevel(db: DB, level: string, compulsory: readonly string[], electives: readonly string[] = []): Promise<void> {
  await db.deleteFrom('level_subjects').where('class_level', '=', level).execute();
  for (const [names, flag] of [
    [compulsory, 1],
    [electives, 0],
  ] as const) {
    for (const name of names) {
      await db
        .insertInto('level_subjects')
        .values({ class_level: level, subject_id: await subjectId(db, name), compulsory: flag })
        .execute();
    }
  }
}

export async function addStream(db: DB, name: string, subjects: readonly string[]): Promise<number> {
  const { id } = await db.insertInto('streams').values({ name, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
  for (const s of subjects)
    await db
      .insertInto('stream_subjects')
      .values({ stream_id: id, subject_id: await subjectId(db, s) })
      .execute();
  return id;
}

export async function setStream(db: DB, studentId: number, streamId: number | null): Promise<void> {
  await db.updateTable('students').set({ stream_id: streamId }).where('id', '=', studentId).execute();
}

export async function chooseSubject(db: DB, studentId: number, subject: string, choice: 'add' | 'drop'): Promise<void> {
  await db
    .insertInto('student_subjects')
    .values({ student_id: studentId, subject_id: await subjectId(db, subject), choice })
    .execute();
}

/** `staffId` is the staff row's id (signInStaff's `id`). */
export async function assign(db: DB, sessionId: number, className: string, subject: string, staffId: number): Promise<void> {
  const arm = await db.selectFrom('class_arms').select('id').where('name', '=', className).executeTakeFirstOrThrow();
  await db
    .insertInto('teaching_assignments')
    .values({ session_id: sessionId, arm_id: arm.id, subject_id: await subjectId(db, subject), staff_id: staffId, created_at: nowIso() })
    .execute();
}

export async function enforceAssignments(db: DB, sessionId: number, on: boolean): Promise<void> {
  const values = { session_id: sessionId, enforce_assignments: on ? 1 : 0, updated_by: null, updated_at: nowIso() };
  await db
    .insertInto('session_teaching')
    .values(values)
    .onConflict((oc) => oc.column('session_id').doUpdateSet({ enforce_assignments: values.enforce_assignments }))
    .execute();
}

/** Opens or closes score entry for a term, for one level or every level (''). */
export async function setWindow(db: DB, sessionId: number, term: string, level: string, open: boolean): Promise<void> {
  const values = { session_id: sessionId, term, class_level: level, is_open: open ? 1 : 0, updated_by: null, updated_at: nowIso() };
  await db
    .insertInto('score_entry_windows')
    .values(values)
    .onConflict((oc) => oc.columns(['session_id', 'term', 'class_level']).doUpdateSet({ is_open: values.is_open }))
    .execute();
}

/** Makes a staff member (`staffId`: the staff row's id) the form teacher of an arm in a session, replacing any other. */
export async function makeFormTeacher(db: DB, sessionId: number, className: string, staffId: number): Promise<void> {
  const arm = await db.selectFrom('class_arms').select('id').where('name', '=', className).executeTakeFirstOrThrow();
  await db.deleteFrom('form_teachers').where('session_id', '=', sessionId).where('arm_id', '=', arm.id).execute();
  await db.insertInto('form_teachers').values({ session_id: sessionId, arm_id: arm.id, staff_id: staffId }).execute();
}
