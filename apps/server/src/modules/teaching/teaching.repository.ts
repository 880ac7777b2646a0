import { sql } from 'kysely';
import type { SubjectPlan, WriteAccess } from '@portal/domain';
import type { Conn, DB, Trx } from '../../db/index';
import './teaching.tables';

/** Above this many students, studentChoices reads the whole (small) choice tables rather than an id list. */
const CHOICES_ID_LIST_MAX = 1000;

/** SQL of the teaching structure: arms, catalogue, offerings, streams, choices, assignments, windows. */
export class TeachingRepository {
  constructor(private readonly db: DB) {}

  transaction<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

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
    return conn.selectFrom('class_arms').select(['id', 'level', 'arm', 'name', 'retired']).where('name', '=', name).executeTakeFirst();
  }

  subjects(conn: Conn = this.db) {
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
  async subjectPlan(conn: Conn = this.db): Promise<SubjectPlan> {
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
    const [students, choices] = await Promise.all([
      conn
        .selectFrom('students')
        .select(['id', 'stream_id'])
        .$if(!all, (q) => q.where('id', 'in', ids))
        .$if(all, (q) => q.where('stream_id', 'is not', null))
        .execute(),
      conn
        .selectFrom('student_subjects')
        .select(['student_id', 'subject_id', 'choice'])
        .$if(!all, (q) => q.where('student_id', 'in', ids))
        .execute(),
    ]);
    for (const id of ids) out.set(id, { stream_id: null, add: [], drop: [] });
    for (const s of students) if (wanted.has(s.id)) out.get(s.id)!.stream_id = s.stream_id ?? null;
    for (const c of choices) out.get(c.student_id)?.[c.choice === 'add' ? 'add' : 'drop'].push(c.subject_id);
    return out;
  }

  /**
   * What a staff member may write in a session and term, in ONE round trip: the session's
   * enforcement switch, the term's window rows, and the member's arm-subject pairs.
   */
  async writeAccess(userId: number, sessionId: number, term: string, conn: Conn = this.db): Promise<WriteAccess> {
    const rows = await sql<{ kind: string; k: string; v: string }>`
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
    const access: WriteAccess = { enforced: false, pairs: new Set(), windows: new Map() };
    for (const r of rows.rows) {
      if (r.kind === 'e') access.enforced = r.v === '1';
      else if (r.kind === 'w') access.windows.set(r.k, r.v === '1');
      else access.pairs.add(`${r.k}|${r.v}`);
    }
    return access;
  }
}
