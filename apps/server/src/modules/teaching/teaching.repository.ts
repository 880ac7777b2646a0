import { sql } from 'kysely';
import { cachedRead } from '../../db/reference-cache';
import { readTogether } from '../../db/read-together';
import type { SubjectPlan, WriteAccess } from '@portal/domain';
import { countOf, nowIso, type Conn, type Trx, Repository } from '../../db/index';
import './teaching.tables';
import * as assignments from './assignments.queries';

/** Above this many students, studentChoices reads the whole (small) choice tables rather than an id list. */
const CHOICES_ID_LIST_MAX = 1000;

/** SQL of the teaching structure: arms, catalogue, offerings, streams, choices; assignments and windows through assignments.queries.ts. */
export class TeachingRepository extends Repository {
  /** Every arm with its active-student count, in level then name order. */
  arms(conn: Conn = this.db) {
    return conn
      .selectFrom('class_arms as a')
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('students')
            .select(['student_class', (e) => e.fn.countAll<number>().as('n')])
            .where('status', '=', 'active')
            .groupBy('student_class')
            .as('c'),
        (j) => j.onRef('c.student_class', '=', 'a.name'),
      )
      .select(['a.id', 'a.level', 'a.arm', 'a.name', 'a.retired', (e) => e.fn.coalesce('c.n', sql<number>`0`).as('students')])
      .orderBy('a.level')
      .orderBy('a.name')
      .execute();
  }

  armByName(name: string, conn: Conn = this.db) {
    return cachedRead(conn, `arm:${name}`, ['class_arms'], () =>
      conn.selectFrom('class_arms').select(['id', 'level', 'arm', 'name', 'retired']).where('name', '=', name).executeTakeFirst(),
    );
  }

  subjects(conn: Conn = this.db) {
    return cachedRead(conn, 'subjects', ['subjects'], () => this.subjectRows(conn));
  }

  private subjectRows(conn: Conn) {
    return conn
      .selectFrom('subjects')
      .select(['id', 'name', 'code', 'section', 'sort_order', 'retired'])
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
  }

  offerings(conn: Conn = this.db) {
    return conn.selectFrom('level_subjects').select(['class_level', 'subject_id', 'compulsory']).execute();
  }

  streams(conn: Conn = this.db) {
    return conn.selectFrom('streams').select(['id', 'name']).orderBy('name').execute();
  }

  streamSubjects(conn: Conn = this.db) {
    return conn.selectFrom('stream_subjects').select(['stream_id', 'subject_id']).execute();
  }

  /**
   * The structure a subject list is derived from: the catalogue (current subjects only), level
   * offerings and stream subjects. Three small reads, independent of how many students follow.
   */
  subjectPlan(conn: Conn = this.db): Promise<SubjectPlan> {
    return cachedRead(conn, 'subject-plan', ['subjects', 'level_subjects', 'stream_subjects'], () => this.readSubjectPlan(conn));
  }

  private async readSubjectPlan(conn: Conn): Promise<SubjectPlan> {
    const [subjects, offerings, streamSubjects] = await Promise.all([this.subjects(conn), this.offerings(conn), this.streamSubjects(conn)]);
    const plan: SubjectPlan = { names: new Map(), order: new Map(), offerings: new Map(), streams: new Map() };
    subjects.forEach((s, i) => {
      plan.order.set(s.id, i);
      if (!Number(s.retired)) plan.names.set(s.id, s.name);
    });
    for (const o of offerings) {
      let m = plan.offerings.get(o.class_level);
      if (!m) plan.offerings.set(o.class_level, (m = new Map()));
      m.set(o.subject_id, Number(o.compulsory) === 1);
    }
    for (const s of streamSubjects) {
      let set = plan.streams.get(s.stream_id);
      if (!set) plan.streams.set(s.stream_id, (set = new Set()));
      set.add(s.subject_id);
    }
    return plan;
  }

  /** Stream and own choices of the given students, in one query each way (no N+1). */
  async studentChoices(studentIds: readonly number[], conn: Conn = this.db) {
    const out = new Map<number, { stream_id: number | null; add: number[]; drop: number[] }>();
    if (!studentIds.length) return out;
    const ids = [...new Set(studentIds)];
    // A long list (a whole-school broadsheet) reads every row instead: the same two queries, and
    // no bound-parameter limit (SQLite allows 32,766) to run into.
    const all = ids.length > CHOICES_ID_LIST_MAX;
    const wanted = new Set(ids);
    const streams = conn
      .selectFrom('students')
      .select(['id', 'stream_id'])
      .$if(!all, (q) => q.where('id', 'in', ids))
      .$if(all, (q) => q.where('stream_id', 'is not', null));
    const picked = conn
      .selectFrom('student_subjects')
      .select(['student_id', 'subject_id', 'choice'])
      .$if(!all, (q) => q.where('student_id', 'in', ids));
    // A card's or a class's few students: both reads in one statement (issue 37.4); the whole school's as rows.
    const { students, choices } = all
      ? await Promise.all([streams.execute(), picked.execute()]).then(([a, b]) => ({ students: a, choices: b }))
      : await readTogether(conn, { students: streams, choices: picked });
    for (const id of ids) out.set(id, { stream_id: null, add: [], drop: [] });
    for (const s of students) if (wanted.has(s.id)) out.get(s.id)!.stream_id = s.stream_id ?? null;
    for (const c of choices) out.get(c.student_id)?.[c.choice === 'add' ? 'add' : 'drop'].push(c.subject_id);
    return out;
  }

  /**
   * What a staff member may write in a session and term, in ONE round trip: whether the session is
   * the current one (or, none being marked, the newest: `currentOrLatest`), its enforcement switch, the term's window rows, and the member's arm-subject pairs.
   */
  async writeAccess(userId: number, sessionId: number, term: string, conn: Conn = this.db): Promise<WriteAccess> {
    const rows = await sql<{ kind: string; k: string; v: string }>`
      select 'c' as kind, '' as k,
             case when is_current = 1
                    or (not exists (select 1 from academic_sessions c where c.is_current = 1)
                        and name = (select max(l.name) from academic_sessions l))
                  then '1' else '0' end as v
        from academic_sessions where id = ${sessionId}
      union all
      select 'e' as kind, '' as k, ${sql.raw('cast(enforce_assignments as varchar(1))')} as v
        from session_teaching where session_id = ${sessionId}
      union all
      select 'w' as kind, class_level as k, ${sql.raw('cast(is_open as varchar(1))')} as v
        from score_entry_windows where session_id = ${sessionId} and term = ${term}
      union all
      select 'p' as kind, a.name as k, s.name as v
        from teaching_assignments t
        join staff st on st.id = t.staff_id
        join class_arms a on a.id = t.arm_id
        join subjects s on s.id = t.subject_id
        where t.session_id = ${sessionId} and st.user_id = ${userId}`.execute(conn);
    const access: WriteAccess = { current: false, enforced: false, pairs: new Set(), windows: new Map() };
    for (const r of rows.rows) {
      if (r.kind === 'c') access.current = r.v === '1';
      else if (r.kind === 'e') access.enforced = r.v === '1';
      else if (r.kind === 'w') access.windows.set(r.k, r.v === '1');
      else access.pairs.add(`${r.k}|${r.v}`);
    }
    return access;
  }

  // ---- admin writes: arms ---------------------------------------------------------------------

  armById(id: number, conn: Conn = this.db) {
    return conn.selectFrom('class_arms').select(['id', 'level', 'arm', 'name', 'retired']).where('id', '=', id).executeTakeFirst();
  }

  armsByIds(ids: readonly number[], conn: Conn = this.db) {
    if (!ids.length) return Promise.resolve([]);
    return conn
      .selectFrom('class_arms')
      .select(['id', 'name', 'retired'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  async insertArm(trx: Conn, v: { level: string; arm: string; name: string }): Promise<number> {
    const row = await trx
      .insertInto('class_arms')
      .values({ ...v, retired: 0, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  activeStudentsIn(name: string, conn: Conn = this.db): Promise<number> {
    return countOf(conn.selectFrom('students').where('student_class', '=', name).where('status', '=', 'active'));
  }

  /**
   * Renames an arm: one row. Every stored class name is a foreign key to `class_arms(name)` with
   * ON UPDATE CASCADE (migration 0022, decision 016), so the database carries the new name to every
   * table that holds it. History (audit rows, receipts' class) keeps the old name.
   */
  async renameArm(trx: Trx, id: number, v: { arm: string; name: string }): Promise<void> {
    await trx.updateTable('class_arms').set(v).where('id', '=', id).execute();
  }

  async setArmRetired(trx: Conn, id: number, retired: boolean): Promise<void> {
    await trx
      .updateTable('class_arms')
      .set({ retired: retired ? 1 : 0 })
      .where('id', '=', id)
      .execute();
  }

  // ---- admin writes: catalogue ----------------------------------------------------------------

  subjectById(id: number, conn: Conn = this.db) {
    return conn
      .selectFrom('subjects')
      .select(['id', 'name', 'code', 'section', 'sort_order', 'retired'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async subjectClash(v: { name?: string; code?: string }, exceptId: number | null, conn: Conn = this.db) {
    return conn
      .selectFrom('subjects')
      .select(['id', 'name', 'code'])
      .where((eb) =>
        eb.or([
          ...(v.name !== undefined ? [eb(sql`lower(name)`, '=', v.name.toLowerCase())] : []),
          ...(v.code !== undefined ? [eb('code', '=', v.code)] : []),
        ]),
      )
      .$if(exceptId !== null, (q) => q.where('id', '<>', exceptId!))
      .execute();
  }

  async insertSubject(trx: Conn, v: { name: string; code: string; section: string }): Promise<number> {
    const max = await trx
      .selectFrom('subjects')
      .select((e) => e.fn.max('sort_order').as('m'))
      .executeTakeFirst();
    const row = await trx
      .insertInto('subjects')
      .values({ ...v, sort_order: Number(max?.m ?? 0) + 1, retired: 0, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateSubject(trx: Conn, id: number, v: { name?: string; code?: string; section?: string; retired?: number }): Promise<void> {
    if (Object.keys(v).length) await trx.updateTable('subjects').set(v).where('id', '=', id).execute();
  }

  /** A subject rename reaches the scores stored under its name; result_audit stays as history. */
  async renameSubjectInResults(trx: Trx, from: string, to: string): Promise<number> {
    const r = await trx.updateTable('results').set({ subject: to }).where('subject', '=', from).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** The class levels that offer a subject, or a stream that has it (for a section change). */
  async levelsOffering(subjectId: number, conn: Conn = this.db): Promise<string[]> {
    const rows = await conn.selectFrom('level_subjects').select('class_level').where('subject_id', '=', subjectId).execute();
    return rows.map((r) => r.class_level);
  }

  subjectsByIds(ids: readonly number[], conn: Conn = this.db) {
    if (!ids.length) return Promise.resolve([]);
    return conn
      .selectFrom('subjects')
      .select(['id', 'name', 'section', 'retired'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  async replaceOfferings(trx: Trx, level: string, rows: { subject_id: number; compulsory: boolean }[]): Promise<void> {
    await trx.deleteFrom('level_subjects').where('class_level', '=', level).execute();
    if (rows.length) {
      await trx
        .insertInto('level_subjects')
        .values(rows.map((r) => ({ class_level: level, subject_id: r.subject_id, compulsory: r.compulsory ? 1 : 0 })))
        .execute();
    }
  }

  /** One subject at several levels: offered (compulsory or not) or, with null, not offered. */
  async setSubjectOffering(trx: Trx, subjectId: number, levels: readonly string[], compulsory: boolean | null): Promise<void> {
    await trx
      .deleteFrom('level_subjects')
      .where('subject_id', '=', subjectId)
      .where('class_level', 'in', [...levels])
      .execute();
    if (compulsory === null || !levels.length) return;
    await trx
      .insertInto('level_subjects')
      .values(levels.map((level) => ({ class_level: level, subject_id: subjectId, compulsory: compulsory ? 1 : 0 })))
      .execute();
  }

  // ---- admin writes: streams ------------------------------------------------------------------

  streamById(id: number, conn: Conn = this.db) {
    return conn.selectFrom('streams').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  streamByName(name: string, conn: Conn = this.db) {
    return conn
      .selectFrom('streams')
      .select(['id', 'name'])
      .where(sql`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst();
  }

  async streamSubjectIds(id: number, conn: Conn = this.db): Promise<number[]> {
    const rows = await conn.selectFrom('stream_subjects').select('subject_id').where('stream_id', '=', id).orderBy('subject_id').execute();
    return rows.map((r) => r.subject_id);
  }

  async insertStream(trx: Conn, name: string): Promise<number> {
    const row = await trx.insertInto('streams').values({ name, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async saveStream(trx: Trx, id: number, name: string, subjectIds: readonly number[]): Promise<void> {
    await trx.updateTable('streams').set({ name }).where('id', '=', id).execute();
    await trx.deleteFrom('stream_subjects').where('stream_id', '=', id).execute();
    const ids = [...new Set(subjectIds)];
    if (ids.length)
      await trx
        .insertInto('stream_subjects')
        .values(ids.map((subject_id) => ({ stream_id: id, subject_id })))
        .execute();
  }

  /** Deletes a stream; its students keep their class and lose only the stream. */
  async deleteStream(trx: Trx, id: number): Promise<void> {
    await trx.updateTable('students').set({ stream_id: null }).where('stream_id', '=', id).execute();
    await trx.deleteFrom('stream_subjects').where('stream_id', '=', id).execute();
    await trx.deleteFrom('streams').where('id', '=', id).execute();
  }

  // ---- per-student choices --------------------------------------------------------------------

  async saveStudentChoices(trx: Trx, studentId: number, v: { stream_id: number | null; add: number[]; drop: number[] }): Promise<void> {
    await trx.updateTable('students').set({ stream_id: v.stream_id }).where('id', '=', studentId).execute();
    await trx.deleteFrom('student_subjects').where('student_id', '=', studentId).execute();
    const rows = [
      ...v.add.map((subject_id) => ({ student_id: studentId, subject_id, choice: 'add' as const })),
      ...v.drop.map((subject_id) => ({ student_id: studentId, subject_id, choice: 'drop' as const })),
    ];
    if (rows.length) await trx.insertInto('student_subjects').values(rows).execute();
  }

  // ---- assignments, form teachers, windows, enforcement, my classes (queries: assignments.queries.ts) ----

  lockSession(trx: Trx, sessionId: number, userId: number): Promise<void> {
    return assignments.lockSession(trx, sessionId, userId);
  }

  assignmentRows(sessionId: number, conn: Conn = this.db) {
    return assignments.assignmentRows(conn, sessionId);
  }

  formTeacherRows(sessionId: number, conn: Conn = this.db) {
    return assignments.formTeacherRows(conn, sessionId);
  }

  windowRows(sessionId: number, conn: Conn = this.db) {
    return assignments.windowRows(conn, sessionId);
  }

  enforced(sessionId: number, conn: Conn = this.db): Promise<boolean> {
    return assignments.enforced(conn, sessionId);
  }

  replaceCell(trx: Trx, sessionId: number, armId: number, subjectId: number, staffIds: readonly number[]): Promise<void> {
    return assignments.replaceCell(trx, sessionId, armId, subjectId, staffIds);
  }

  setFormTeacher(trx: Trx, sessionId: number, armId: number, staffId: number | null): Promise<void> {
    return assignments.setFormTeacher(trx, sessionId, armId, staffId);
  }

  setWindow(trx: Trx, v: { session_id: number; term: string; class_level: string; is_open: boolean }, userId: number): Promise<void> {
    return assignments.setWindow(trx, v, userId);
  }

  setEnforced(trx: Trx, sessionId: number, enforce: boolean, userId: number): Promise<void> {
    return assignments.setEnforced(trx, sessionId, enforce, userId);
  }

  copyAssignments(trx: Trx, from: number, to: number): Promise<{ assignments: number; formTeachers: number }> {
    return assignments.copyAssignments(trx, from, to);
  }

  copyTeachingAssignments(trx: Trx, from: number, to: number): Promise<number> {
    return assignments.copyTeachingAssignments(trx, from, to);
  }

  copyFormTeachers(trx: Trx, from: number, to: number): Promise<number> {
    return assignments.copyFormTeachers(trx, from, to);
  }

  copyWindowsAndEnforcement(trx: Trx, from: number, to: number, userId: number): Promise<number> {
    return assignments.copyWindowsAndEnforcement(trx, from, to, userId);
  }

  copyCounts(sessionId: number, conn: Conn = this.db) {
    return assignments.copyCounts(conn, sessionId);
  }

  hasAssignments(sessionId: number, conn: Conn = this.db): Promise<boolean> {
    return assignments.hasAssignments(conn, sessionId);
  }

  myPairs(userId: number, sessionId: number, conn: Conn = this.db) {
    return assignments.myPairs(conn, userId, sessionId);
  }

  myFormClasses(userId: number, sessionId: number, conn: Conn = this.db) {
    return assignments.myFormClasses(conn, userId, sessionId);
  }

  formTeachers(sessionId: number, f: { classes?: readonly string[]; userId?: number } = {}, conn: Conn = this.db) {
    return assignments.formTeachers(conn, sessionId, f);
  }
}
