import { ATTENDANCE_MESSAGES, AUTH_MESSAGES, BURSARY_MESSAGES, PARENT_MESSAGES, REPORT_MESSAGES, type Role } from '@portal/domain';
import type { Conn, DB } from '../../db/index';
import { badRequest, forbidden, type HttpError } from '../../http/errors';
import { ScopeRepository, type ScopedStudent } from './scope.repository';

export type { ScopedStudent } from './scope.repository';

/**
 * Which students a signed-in person may reach, and for what (docs/decisions/026). Every service
 * that names a student (results, report cards, attendance, payments, receipts, statements, people)
 * asks here; nothing else decides it.
 *
 * What each purpose lets reach:
 *
 * | purpose            | student | staff                                              | admin |
 * | ------------------ | ------- | -------------------------------------------------- | ----- |
 * | `records`          | self    | all (profile, results, payments: the spec's menus) | all   |
 * | `statement`        | self    | all while holding the bursar capability, else none | all   |
 * | `attendance`       | self    | the arms they are form teacher of, in the session  | all   |
 * | `unreleased_cards` | none    | their form arms and the arms they teach, in it     | all   |
 *
 * A parent (issue 33, decision 035) reaches their linked children (`students`) for every purpose
 * but `unreleased_cards` (none): exactly what each child reaches of their own record.
 */
export const PURPOSES = ['records', 'statement', 'attendance', 'unreleased_cards'] as const;
export type Purpose = (typeof PURPOSES)[number];

/** Purposes whose staff reach depends on the session (the teaching assignments are per session). */
type SessionBound = 'attendance' | 'unreleased_cards';
const SESSION_BOUND: ReadonlySet<Purpose> = new Set<SessionBound>(['attendance', 'unreleased_cards']);

export interface ScopeActor {
  id: number;
  role: Role;
  /** Whether the account holds the route's capability (http/auth.ts); only `statement` reads it. */
  capable?: boolean;
}

/**
 * The reach of one actor for one purpose. A parent is `students` with their children's ids;
 * a school boundary (later) is one more field here and one more comparison in `reaches`.
 */
export type StudentScope =
  | { kind: 'all' }
  | { kind: 'self'; userId: number }
  | {
      kind: 'arms';
      sessionId: number;
      /** The arms whose every student is reached. */
      arms: ReadonlySet<string>;
      /** `arm/subject` pairs the teacher teaches (a subject teacher's students, per subject). */
      armSubjects: ReadonlySet<string>;
    }
  | { kind: 'students'; ids: ReadonlySet<number> }
  | { kind: 'none' };

const pair = (arm: string, subject: string) => `${arm}/${subject}`;

/** Pure: whether `scope` reaches `student` (for `subject`, when a subject teacher's reach is asked). */
export function reaches(scope: StudentScope, student: Pick<ScopedStudent, 'id' | 'user_id' | 'student_class'>, subject?: string): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'self':
      return student.user_id === scope.userId;
    case 'students':
      return scope.ids.has(student.id);
    case 'arms':
      return (
        scope.arms.has(student.student_class) || (subject !== undefined && scope.armSubjects.has(pair(student.student_class, subject)))
      );
    case 'none':
      return false;
  }
}

/** Pure: whether `scope` reaches every student of `arm`. */
export function reachesArm(scope: StudentScope, arm: string): boolean {
  return scope.kind === 'all' || (scope.kind === 'arms' && scope.arms.has(arm));
}

/** The refusal of a student reaching another student's record, and of a payer's checkout to others: one message everywhere. */
export function notOwnRecord(): HttpError {
  return forbidden(AUTH_MESSAGES.ownRecordOnly);
}

/** The refusal of a parent naming a student who is not one of their children. */
export function notYourChild(): HttpError {
  return forbidden(PARENT_MESSAGES.notYourChild);
}

/**
 * The one refusal (403). A student reaching another student's record always hears the one
 * own-record message; staff outside their reach hear the purpose's message (what they may see
 * instead), each pinned by its tests since it was written.
 */
export function outOfScope(actor: Pick<ScopeActor, 'role'>, purpose: Purpose, arm?: string): HttpError {
  if (actor.role === 'student') return notOwnRecord();
  if (actor.role === 'parent') return notYourChild();
  switch (purpose) {
    case 'statement':
      return forbidden(BURSARY_MESSAGES.bursarOnly);
    case 'attendance':
      return forbidden(arm === undefined ? ATTENDANCE_MESSAGES.notStudentOfYours : ATTENDANCE_MESSAGES.viewFormTeacherOnly(arm));
    case 'unreleased_cards':
      return forbidden(arm === undefined ? AUTH_MESSAGES.forbidden : REPORT_MESSAGES.unreleasedCardsOnly(arm));
    case 'records':
      return forbidden(AUTH_MESSAGES.forbidden);
  }
}

/** A session id, or how to find it once it is needed (only staff on session-bound purposes ask). */
type SessionOf = number | (() => Promise<number>);

interface StudentForOptions {
  purpose: Purpose;
  /**
   * What a student naming someone else gets: `'refuse'` (403, the own-record message) or `'own'`
   * (their own record, the number sent ignored: the statement and the attendance summary, the
   * portal's own screens, which behaved so before the scope and whose tests pin it; decision 026).
   */
  otherwise: 'own' | 'refuse';
  /** The error for a number that names no student (each screen's own 404 or 400). */
  unknown: (admissionNumber: string) => HttpError;
  /** Required for session-bound purposes (attendance, unreleased cards). */
  sessionId?: SessionOf;
  conn?: Conn;
}

/** The access scope: the one place that resolves and checks which student an actor reaches. */
export class AccessScope {
  constructor(private readonly repo: ScopeRepository) {}

  /** The reach of `actor` for `purpose` (in `sessionId`, for the session-bound purposes). */
  async scopeOf(actor: ScopeActor, purpose: Purpose, sessionId?: number, conn: Conn = this.repo.db): Promise<StudentScope> {
    if (actor.role === 'admin') return { kind: 'all' };
    if (actor.role === 'student') return purpose === 'unreleased_cards' ? { kind: 'none' } : { kind: 'self', userId: actor.id };
    if (actor.role === 'parent') {
      if (purpose === 'unreleased_cards') return { kind: 'none' };
      return { kind: 'students', ids: new Set(await this.repo.parentChildIds(actor.id, conn)) };
    }
    if (purpose === 'records') return { kind: 'all' };
    if (purpose === 'statement') return actor.capable ? { kind: 'all' } : { kind: 'none' };
    if (sessionId === undefined) throw new Error(`the ${purpose} scope of staff needs a session`);
    const reach = await this.repo.teacherReach(actor.id, sessionId, conn);
    const arms = new Set(reach.formArms);
    if (purpose === 'unreleased_cards') for (const p of reach.armSubjects) arms.add(p.arm);
    return { kind: 'arms', sessionId, arms, armSubjects: new Set(reach.armSubjects.map((p) => pair(p.arm, p.subject))) };
  }

  /**
   * A student account's own record (null for staff and the admin). A student account without a
   * record reaches nothing: 403 with the own-record message.
   */
  async ownStudent(actor: ScopeActor, conn: Conn = this.repo.db): Promise<ScopedStudent | null> {
    if (actor.role !== 'student') return null;
    const own = await this.repo.studentByUser(actor.id, conn);
    if (!own) throw outOfScope(actor, 'records');
    return own;
  }

  /**
   * The student a request names, as `actor` may reach them for `purpose`: a student gets their own
   * record (naming another is refused, or ignored with `otherwise: 'own'`); staff and the admin the
   * student named (undefined when none is named; `unknown` when the number names nobody), refused
   * outside their reach.
   */
  studentFor(actor: ScopeActor, admissionNumber: string, o: StudentForOptions): Promise<ScopedStudent>;
  studentFor(actor: ScopeActor, admissionNumber: string | undefined, o: StudentForOptions): Promise<ScopedStudent | undefined>;
  async studentFor(actor: ScopeActor, admissionNumber: string | undefined, o: StudentForOptions): Promise<ScopedStudent | undefined> {
    const conn = o.conn ?? this.repo.db;
    const own = await this.ownStudent(actor, conn);
    if (own) {
      if (admissionNumber !== undefined && admissionNumber !== own.admission_number && o.otherwise === 'refuse') {
        throw outOfScope(actor, o.purpose);
      }
      return own;
    }
    // A parent always names the child (there is no list of "everyone" for a parent).
    if (admissionNumber === undefined && actor.role === 'parent') throw badRequest({ admission_number: [PARENT_MESSAGES.childRequired] });
    // Nobody named: the service lists what the caller's filters say (staff and the admin only).
    if (admissionNumber === undefined) return undefined;
    const student = await this.repo.studentByAdmission(admissionNumber, conn);
    // A parent hears the same refusal for a number that names nobody as for another family's child.
    if (!student) throw actor.role === 'parent' ? notYourChild() : o.unknown(admissionNumber);
    await this.assertStudent(actor, student, o.purpose, { sessionId: o.sessionId, conn });
    return student;
  }

  /**
   * The child a parent names (403 unless linked): the same as `studentFor` for a parent; for anyone
   * else `studentFor` itself. Services whose students name nobody (a list) never call it for parents.
   */
  async childOf(actor: ScopeActor, admissionNumber: string | undefined, conn: Conn = this.repo.db): Promise<ScopedStudent> {
    if (actor.role !== 'parent') throw new Error('childOf is for parents');
    if (admissionNumber === undefined) throw badRequest({ admission_number: [PARENT_MESSAGES.childRequired] });
    const student = await this.repo.studentByAdmission(admissionNumber, conn);
    if (!student || !(await this.repo.parentChildIds(actor.id, conn)).includes(student.id)) throw notYourChild();
    return student;
  }

  /**
   * Who a request on a student's own screen acts as (decision 035): a parent acts as the child they
   * name (403 unless linked; 400 when none is named), so the screen answers exactly what the child
   * would see (released cards only, the child's own record); anyone else as themselves. Payments,
   * where the parent is the payer, take the parent as they are instead (the scope reaches the child).
   */
  async actingFor<A extends { id: number; role: Role; email?: string | null; capable?: boolean }>(
    actor: A,
    admissionNumber: string | undefined,
    conn?: Conn,
  ): Promise<A> {
    if (actor.role !== 'parent') return actor;
    const child = await this.childOf(actor, admissionNumber, conn);
    return { ...actor, id: child.user_id, role: 'student', email: child.email, capable: false };
  }

  /** 403 unless `actor` reaches `student` (a record the caller loaded) for `purpose`. */
  async assertStudent(
    actor: ScopeActor,
    student: Pick<ScopedStudent, 'id' | 'user_id' | 'student_class'>,
    purpose: Purpose,
    o: { sessionId?: SessionOf; conn?: Conn } = {},
  ): Promise<void> {
    const sessionId = actor.role === 'staff' && SESSION_BOUND.has(purpose) ? await sessionOf(o.sessionId, purpose) : undefined;
    const scope = await this.scopeOf(actor, purpose, sessionId, o.conn);
    // A teacher's arms of a session reach the students who were in them then (decision 038): judged
    // by the student's arm in that session (a closed session's enrolment row; none: not reached).
    const judged =
      scope.kind === 'arms' ? { ...student, student_class: await this.repo.armInSession(student.id, scope.sessionId, o.conn) } : student;
    if (judged.student_class === null || !reaches(scope, { ...student, student_class: judged.student_class })) {
      throw outOfScope(actor, purpose);
    }
  }

  /**
   * Whether `actor` reaches the student a record names by id or admission number only (a payment,
   * a receipt, a payment history): a student their own (one read), staff and the admin as
   * `purpose` says (no read when they reach everyone). A record of no student (`id: null`) is
   * reached only by those who reach everyone.
   */
  async reachesStudent(
    actor: ScopeActor,
    key: { id: number | null } | { admission_number: string },
    purpose: Exclude<Purpose, SessionBound>,
    conn: Conn = this.repo.db,
  ): Promise<boolean> {
    const own = await this.ownStudent(actor, conn);
    if (own) return 'id' in key ? key.id === own.id : key.admission_number === own.admission_number;
    const scope = await this.scopeOf(actor, purpose, undefined, conn);
    if (scope.kind === 'all' || scope.kind === 'none') return scope.kind === 'all';
    const student =
      'id' in key
        ? key.id === null
          ? undefined
          : await this.repo.studentById(key.id, conn)
        : await this.repo.studentByAdmission(key.admission_number, conn);
    return !!student && reaches(scope, student);
  }

  /** 403 unless `actor` reaches the student a record names (see `reachesStudent`). */
  async assertReachesStudent(
    actor: ScopeActor,
    key: { id: number | null } | { admission_number: string },
    purpose: Exclude<Purpose, SessionBound>,
    conn?: Conn,
  ): Promise<void> {
    if (!(await this.reachesStudent(actor, key, purpose, conn))) throw outOfScope(actor, purpose);
  }

  /** 403 (with the arm's message) unless `actor` reaches every student of `arm` for `purpose` in `sessionId`. */
  async assertArm(actor: ScopeActor, arm: string, purpose: Purpose, sessionId: number | null, conn?: Conn): Promise<void> {
    if (actor.role === 'admin') return;
    if (sessionId === null || !reachesArm(await this.scopeOf(actor, purpose, sessionId, conn), arm)) throw outOfScope(actor, purpose, arm);
  }
}

async function sessionOf(s: SessionOf | undefined, purpose: Purpose): Promise<number> {
  if (s === undefined) throw new Error(`the ${purpose} scope of staff needs a session`);
  return typeof s === 'number' ? s : s();
}

export function accessScope(db: DB): AccessScope {
  return new AccessScope(new ScopeRepository(db));
}
