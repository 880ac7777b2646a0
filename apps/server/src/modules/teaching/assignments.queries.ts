// The teaching repository's queries of assignments, form teachers, entry windows, enforcement and
// "my classes" (tables teaching_assignments, form_teachers, score_entry_windows, session_teaching), as
// functions over a connection: `TeachingRepository` answers them with its database as the default.
import { sql } from 'kysely';
import { nowIso, type Conn, type Trx } from '../../db/index';
import './teaching.tables';

/** Active students of the arm `a` of the query, counted by the (status, class) index. */
const ARM_STUDENTS = sql<number>`(select count(*) from students p where p.status = 'active' and p.student_class = a.name)`.as('students');

/**
 * Takes the session's teaching row lock (creating the row first): admins saving the same
 * session's grid at once then run one after the other instead of racing on the same cells.
 */
export async function lockSession(trx: Trx, sessionId: number, userId: number): Promise<void> {
  const now = nowIso();
  await trx
    .insertInto('session_teaching')
    .values({ session_id: sessionId, enforce_assignments: 0, updated_by: userId, updated_at: now })
    .onConflict((oc) => oc.column('session_id').doNothing())
    .execute();
  await trx.updateTable('session_teaching').set({ updated_by: userId, updated_at: now }).where('session_id', '=', sessionId).execute();
}

/** A session's assignment cells with each teacher's public id and name, in arm then catalogue order. */
export function assignmentRows(conn: Conn, sessionId: number) {
  return conn
    .selectFrom('teaching_assignments as t')
    .innerJoin('staff as st', 'st.id', 't.staff_id')
    .innerJoin('class_arms as a', 'a.id', 't.arm_id')
    .innerJoin('subjects as s', 's.id', 't.subject_id')
    .select(['t.arm_id', 't.subject_id', 'st.id as staff_pk', 'st.staff_id', 'st.first_name', 'st.last_name'])
    .where('t.session_id', '=', sessionId)
    .orderBy('a.level')
    .orderBy('a.name')
    .orderBy('s.sort_order')
    .orderBy('s.id')
    .orderBy('st.last_name')
    .orderBy('st.first_name')
    .orderBy('st.id')
    .execute();
}

export function formTeacherRows(conn: Conn, sessionId: number) {
  return conn
    .selectFrom('form_teachers as f')
    .innerJoin('staff as st', 'st.id', 'f.staff_id')
    .select(['f.arm_id', 'st.id as staff_pk', 'st.staff_id', 'st.first_name', 'st.last_name'])
    .where('f.session_id', '=', sessionId)
    .execute();
}

export function windowRows(conn: Conn, sessionId: number) {
  return conn
    .selectFrom('score_entry_windows')
    .select(['term', 'class_level', 'is_open'])
    .where('session_id', '=', sessionId)
    .orderBy('term')
    .orderBy('class_level')
    .execute();
}

export async function enforced(conn: Conn, sessionId: number): Promise<boolean> {
  const row = await conn
    .selectFrom('session_teaching')
    .select('enforce_assignments')
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return Number(row?.enforce_assignments ?? 0) === 1;
}

export async function replaceCell(
  trx: Trx,
  sessionId: number,
  armId: number,
  subjectId: number,
  staffIds: readonly number[],
): Promise<void> {
  await trx
    .deleteFrom('teaching_assignments')
    .where('session_id', '=', sessionId)
    .where('arm_id', '=', armId)
    .where('subject_id', '=', subjectId)
    .execute();
  const ids = [...new Set(staffIds)];
  if (!ids.length) return;
  const now = nowIso();
  await trx
    .insertInto('teaching_assignments')
    .values(ids.map((staff_id) => ({ session_id: sessionId, arm_id: armId, subject_id: subjectId, staff_id, created_at: now })))
    .execute();
}

export async function setFormTeacher(trx: Trx, sessionId: number, armId: number, staffId: number | null): Promise<void> {
  await trx.deleteFrom('form_teachers').where('session_id', '=', sessionId).where('arm_id', '=', armId).execute();
  if (staffId !== null) await trx.insertInto('form_teachers').values({ session_id: sessionId, arm_id: armId, staff_id: staffId }).execute();
}

export async function setWindow(
  trx: Trx,
  v: { session_id: number; term: string; class_level: string; is_open: boolean },
  userId: number,
): Promise<void> {
  const row = { ...v, is_open: v.is_open ? 1 : 0, updated_by: userId, updated_at: nowIso() };
  await trx
    .insertInto('score_entry_windows')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['session_id', 'term', 'class_level'])
        .doUpdateSet({ is_open: row.is_open, updated_by: userId, updated_at: row.updated_at }),
    )
    .execute();
}

export async function setEnforced(trx: Trx, sessionId: number, enforce: boolean, userId: number): Promise<void> {
  await trx
    .updateTable('session_teaching')
    .set({ enforce_assignments: enforce ? 1 : 0, updated_by: userId, updated_at: nowIso() })
    .where('session_id', '=', sessionId)
    .execute();
}

/**
 * Copies one session's assignments and form teachers into another for arms and subjects still
 * current; pairs the target already has stay as they are. Returns how many rows were added.
 */
export async function copyAssignments(trx: Trx, from: number, to: number): Promise<{ assignments: number; formTeachers: number }> {
  return { assignments: await copyTeachingAssignments(trx, from, to), formTeachers: await copyFormTeachers(trx, from, to) };
}

/** The assignments of `from` a copy takes: current arms and subjects only. */
function assignmentsToCopy(conn: Conn, from: number) {
  return conn
    .selectFrom('teaching_assignments as t')
    .innerJoin('class_arms as a', 'a.id', 't.arm_id')
    .innerJoin('subjects as s', 's.id', 't.subject_id')
    .where('t.session_id', '=', from)
    .where('a.retired', '=', 0)
    .where('s.retired', '=', 0);
}

/** The form teachers of `from` a copy takes: current arms only. */
function formTeachersToCopy(conn: Conn, from: number) {
  return conn
    .selectFrom('form_teachers as t')
    .innerJoin('class_arms as a', 'a.id', 't.arm_id')
    .where('t.session_id', '=', from)
    .where('a.retired', '=', 0);
}

/** Copies `from`'s assignments of current arms and subjects into `to`; pairs `to` has stay. Returns how many were added. */
export async function copyTeachingAssignments(trx: Trx, from: number, to: number): Promise<number> {
  const now = nowIso();
  const a = await trx
    .insertInto('teaching_assignments')
    .columns(['session_id', 'arm_id', 'subject_id', 'staff_id', 'created_at'])
    .expression(
      assignmentsToCopy(trx, from)
        .select([sql<number>`${to}`.as('session_id'), 't.arm_id', 't.subject_id', 't.staff_id', sql<string>`${now}`.as('created_at')])
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('teaching_assignments as x')
                .select('x.id')
                .where('x.session_id', '=', to)
                .whereRef('x.arm_id', '=', 't.arm_id')
                .whereRef('x.subject_id', '=', 't.subject_id')
                .whereRef('x.staff_id', '=', 't.staff_id'),
            ),
          ),
        ),
    )
    .executeTakeFirst();
  return Number(a.numInsertedOrUpdatedRows ?? 0);
}

/** Copies `from`'s form teachers of current arms into `to`; an arm `to` has a form teacher for keeps them. */
export async function copyFormTeachers(trx: Trx, from: number, to: number): Promise<number> {
  const f = await trx
    .insertInto('form_teachers')
    .columns(['session_id', 'arm_id', 'staff_id'])
    .expression(
      formTeachersToCopy(trx, from)
        .select([sql<number>`${to}`.as('session_id'), 't.arm_id', 't.staff_id'])
        .where((w) =>
          w.not(
            w.exists(
              w.selectFrom('form_teachers as x').select('x.arm_id').where('x.session_id', '=', to).whereRef('x.arm_id', '=', 't.arm_id'),
            ),
          ),
        ),
    )
    .executeTakeFirst();
  return Number(f.numInsertedOrUpdatedRows ?? 0);
}

/**
 * Copies `from`'s enforcement switch (its session_teaching row) and score-entry windows into `to`
 * (a window `to` has already keeps its state). Returns how many rows were written: the switch's row
 * (when `from` has one) and the windows added.
 */
export async function copyWindowsAndEnforcement(trx: Trx, from: number, to: number, userId: number): Promise<number> {
  const now = nowIso();
  const sw = await trx.selectFrom('session_teaching').select('enforce_assignments').where('session_id', '=', from).executeTakeFirst();
  if (sw)
    await trx
      .insertInto('session_teaching')
      .values({ session_id: to, enforce_assignments: Number(sw.enforce_assignments), updated_by: userId, updated_at: now })
      .onConflict((oc) =>
        oc.column('session_id').doUpdateSet({ enforce_assignments: Number(sw.enforce_assignments), updated_by: userId, updated_at: now }),
      )
      .execute();
  const w = await trx
    .insertInto('score_entry_windows')
    .columns(['session_id', 'term', 'class_level', 'is_open', 'updated_by', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('score_entry_windows as s')
        .select([
          sql<number>`${to}`.as('session_id'),
          's.term',
          's.class_level',
          's.is_open',
          sql<number>`${userId}`.as('updated_by'),
          sql<string>`${now}`.as('updated_at'),
        ])
        .where('s.session_id', '=', from),
    )
    .onConflict((oc) => oc.columns(['session_id', 'term', 'class_level']).doNothing())
    .executeTakeFirst();
  return (sw ? 1 : 0) + Number(w.numInsertedOrUpdatedRows ?? 0);
}

/** What the next session's copies would take of a session: assignments, form teachers, the switch's row and windows. */
export async function copyCounts(
  conn: Conn,
  sessionId: number,
): Promise<{ assignments: number; formTeachers: number; windowsAndEnforcement: number }> {
  const n = (r: { n: number | string | bigint } | undefined) => Number(r?.n ?? 0);
  const [a, f, sw, w] = await Promise.all([
    assignmentsToCopy(conn, sessionId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
    formTeachersToCopy(conn, sessionId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
    conn
      .selectFrom('session_teaching')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('session_id', '=', sessionId)
      .executeTakeFirst(),
    conn
      .selectFrom('score_entry_windows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('session_id', '=', sessionId)
      .executeTakeFirst(),
  ]);
  return { assignments: n(a), formTeachers: n(f), windowsAndEnforcement: n(sw) + n(w) };
}

export async function hasAssignments(conn: Conn, sessionId: number): Promise<boolean> {
  const [a, f] = await Promise.all([
    conn.selectFrom('teaching_assignments').select('id').where('session_id', '=', sessionId).limit(1).executeTakeFirst(),
    conn.selectFrom('form_teachers').select('arm_id').where('session_id', '=', sessionId).limit(1).executeTakeFirst(),
  ]);
  return Boolean(a ?? f);
}

// ---- my classes -----------------------------------------------------------------------------

/** The signed-in teacher's arm-subject pairs in a session, each with its arm's active students: one query. */
export function myPairs(conn: Conn, userId: number, sessionId: number) {
  return conn
    .selectFrom('teaching_assignments as t')
    .innerJoin('staff as st', 'st.id', 't.staff_id')
    .innerJoin('class_arms as a', 'a.id', 't.arm_id')
    .innerJoin('subjects as s', 's.id', 't.subject_id')
    .select(['t.arm_id', 'a.name as class_name', 's.name as subject', ARM_STUDENTS])
    .where('t.session_id', '=', sessionId)
    .where('st.user_id', '=', userId)
    .orderBy('a.level')
    .orderBy('a.name')
    .orderBy('s.sort_order')
    .orderBy('s.id')
    .execute();
}

/** The arms the signed-in teacher is form teacher of in a session, with active students: one query. */
export function myFormClasses(conn: Conn, userId: number, sessionId: number) {
  return conn
    .selectFrom('form_teachers as f')
    .innerJoin('staff as st', 'st.id', 'f.staff_id')
    .innerJoin('class_arms as a', 'a.id', 'f.arm_id')
    .select(['f.arm_id', 'a.name as class_name', ARM_STUDENTS])
    .where('f.session_id', '=', sessionId)
    .where('st.user_id', '=', userId)
    .orderBy('a.level')
    .orderBy('a.name')
    .execute();
}

/** Form teachers of a session's arms by class name, with their sign-in (to check who may act): one query. */
export function formTeachers(conn: Conn, sessionId: number, f: { classes?: readonly string[]; userId?: number } = {}) {
  return conn
    .selectFrom('form_teachers as f')
    .innerJoin('class_arms as a', 'a.id', 'f.arm_id')
    .innerJoin('staff as st', 'st.id', 'f.staff_id')
    .select(['a.name as student_class', 'st.user_id', 'st.first_name', 'st.last_name'])
    .where('f.session_id', '=', sessionId)
    .$if(f.classes !== undefined, (q) => q.where('a.name', 'in', f.classes!.length ? f.classes! : ['']))
    .$if(f.userId !== undefined, (q) => q.where('st.user_id', '=', f.userId!))
    .execute();
}
