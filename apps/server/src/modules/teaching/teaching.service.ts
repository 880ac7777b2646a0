import {
  classLevelOf,
  personName,
  scoreWriteRefusal,
  studentSubjectIds,
  TEACHING_MESSAGES,
  termLabel,
  type Role,
  type SubjectPlan,
  type WriteAccess,
} from '@portal/domain';
import type { Conn, DB } from '../../db/index';
import { badRequest, forbidden } from '../../http/errors';
import type { TeachingRepository } from './teaching.repository';

export interface Actor {
  id: number;
  role: Role;
}

/** A score someone is about to write: which class, subject, session and term. */
export interface ScoreTarget {
  student_class: string;
  subject: string;
}

/**
 * What other modules ask of the teaching structure: is this one of the school's classes, which
 * subjects a student takes, and may this user write this score. The admin screens' writes live in
 * structure.service.ts and assignments.service.ts.
 */
export class TeachingService {
  constructor(
    private readonly db: DB,
    private readonly repo: TeachingRepository,
  ) {}

  /**
   * Refuses a class name the school does not have (400 on `field`). `current` also refuses a
   * retired arm: new records go only into current arms, while history keeps its old classes.
   */
  async assertClass(name: string, opts: { field?: string; current?: boolean; conn?: Conn; unknownMessage?: string } = {}): Promise<void> {
    const field = opts.field ?? 'student_class';
    const arm = await this.repo.armByName(name, opts.conn ?? this.db);
    if (!arm) throw badRequest({ [field]: [opts.unknownMessage ?? TEACHING_MESSAGES.classUnknown(name)] });
    if (opts.current && Number(arm.retired)) throw badRequest({ [field]: [TEACHING_MESSAGES.classRetired(name)] });
  }

  /**
   * Refuses any subject name not in the catalogue (retired ones included: history keeps them), in
   * one read; `fieldOf(i)` names the field of the i-th name in the 400.
   */
  async assertSubjects(names: readonly string[], fieldOf: (i: number) => string, message: string, conn: Conn = this.db): Promise<void> {
    const known = new Set((await this.repo.subjects(conn)).map((s) => s.name));
    const errors: Record<string, string[]> = {};
    names.forEach((n, i) => {
      if (!known.has(n)) errors[fieldOf(i)] = [message];
    });
    if (Object.keys(errors).length) throw badRequest(errors);
  }

  /** The school's class names, current ones only unless asked, in level then name order. */
  async classNames(opts: { includeRetired?: boolean; conn?: Conn } = {}): Promise<string[]> {
    const arms = await this.repo.arms(opts.conn ?? this.db);
    return arms.filter((a) => opts.includeRetired || !Number(a.retired)).map((a) => a.name);
  }

  /** The ids of the school's streams (a senior student's stream is one of them). */
  async streamIds(conn: Conn = this.db): Promise<Set<number>> {
    return new Set((await this.repo.streams(conn)).map((s) => Number(s.id)));
  }

  /** The catalogue's current subject names, in catalogue order. */
  async subjectNames(conn: Conn = this.db): Promise<string[]> {
    return (await this.repo.subjects(conn)).filter((s) => !Number(s.retired)).map((s) => s.name);
  }

  /** Every catalogue subject's name, retired ones too (a rule may name a subject no longer offered). */
  async catalogueNames(conn: Conn = this.db): Promise<string[]> {
    return (await this.repo.subjects(conn)).map((s) => s.name);
  }

  /** Every catalogue subject's position (retired ones too, so old scores still sort), by name. */
  async subjectOrder(conn: Conn = this.db): Promise<Map<string, number>> {
    return new Map((await this.repo.subjects(conn)).map((s, i) => [s.name, i]));
  }

  subjectPlan(conn: Conn = this.db): Promise<SubjectPlan> {
    return this.repo.subjectPlan(conn);
  }

  /**
   * The subjects each student takes, by student id, for the class given with them (their class in
   * that session). A fixed number of queries for any number of students.
   */
  async subjectsOf(students: readonly { id: number; student_class: string }[], conn: Conn = this.db): Promise<Map<number, string[]>> {
    const [plan, choices] = await Promise.all([
      this.repo.subjectPlan(conn),
      this.repo.studentChoices(
        students.map((s) => s.id),
        conn,
      ),
    ]);
    const out = new Map<number, string[]>();
    for (const s of students) {
      const c = choices.get(s.id) ?? { stream_id: null, add: [], drop: [] };
      const ids = studentSubjectIds(plan, { class_level: classLevelOf(s.student_class), ...c });
      out.set(
        s.id,
        ids.map((id) => plan.names.get(id)!),
      );
    }
    return out;
  }

  /**
   * One query: what `actor` may write in a session and term. The admin is never refused, but reads
   * it too: a write of theirs into a session that is not current needs a reason.
   */
  writeAccess(actor: Actor, sessionId: number, term: string, conn: Conn = this.db): Promise<WriteAccess> {
    return this.repo.writeAccess(actor.id, sessionId, term, conn);
  }

  /** The form teacher of the arm named `className` in a session (their user id and name), or null. */
  async formTeacherOf(sessionId: number, className: string, conn: Conn = this.db): Promise<{ user_id: number; name: string } | null> {
    const [row] = await this.repo.formTeachers(sessionId, { classes: [className] }, conn);
    return row ? { user_id: Number(row.user_id), name: personName(row) } : null;
  }

  /** Form teachers of a session's arms (by class name), or of the arms `userId` is form teacher of: one query. */
  formTeachers(sessionId: number, f: { classes?: readonly string[]; userId?: number } = {}, conn: Conn = this.db) {
    return this.repo.formTeachers(sessionId, f, conn);
  }

  /** 403 with the reason (not assigned, or entry closed) when `actor` may not write one of `targets`. */
  assertMayWrite(actor: Actor, access: WriteAccess, term: string, targets: readonly ScoreTarget[]): void {
    for (const t of targets) {
      const refusal = scoreWriteRefusal(actor.role, access, { ...t, termLabel: termLabel(term) });
      if (refusal) throw forbidden(refusal.detail, refusal.code);
    }
  }
}
