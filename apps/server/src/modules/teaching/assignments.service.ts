import {
  TEACHING_MESSAGES,
  type AcademicSession,
  type AssignmentCell,
  type MyClasses,
  type SessionAssignments,
  type assignmentsSchema,
  type copyAssignmentsSchema,
  type enforcementSchema,
  type formTeachersSchema,
  type scoreWindowSchema,
} from '@portal/domain';
import type { z } from 'zod';
import type { AuthUser } from '../../http/auth';
import { badRequest } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import type { Conn, DB, Trx } from '../../db/index';
import type { PeopleLookups } from '../people/people.service';
import type { SessionsService } from '../calendar/sessions.service';
import { presentStaff } from './teaching.presenters';
import type { TeachingRepository } from './teaching.repository';
import { resolveSession } from './teaching.shared';

/**
 * Who teaches what in a session: the assignments grid, form teachers, copying last session's,
 * score-entry windows, the enforcement switch, and a teacher's own classes.
 */
export class AssignmentsService {
  constructor(
    private readonly db: DB,
    private readonly repo: TeachingRepository,
    private readonly people: PeopleLookups,
    private readonly sessions: SessionsService,
  ) {}

  /** The named session, or the current one; 400 when the school has no session yet. */
  private async session(id: number | undefined): Promise<AcademicSession> {
    const s = await resolveSession(this.sessions, id);
    if (!s) throw badRequest({ session_id: [TEACHING_MESSAGES.noSession] });
    return s;
  }

  async get(sessionId: number | undefined): Promise<SessionAssignments> {
    return this.read((await this.session(sessionId)).id, this.db);
  }

  private async read(sessionId: number, conn: Conn): Promise<SessionAssignments> {
    const [cells, forms, windows, enforced, arms] = await Promise.all([
      this.repo.assignmentRows(sessionId, conn),
      this.repo.formTeacherRows(sessionId, conn),
      this.repo.windowRows(sessionId, conn),
      this.repo.enforced(sessionId, conn),
      this.repo.arms(conn),
    ]);
    const byCell = new Map<string, AssignmentCell>();
    for (const r of cells) {
      const k = `${r.arm_id}|${r.subject_id}`;
      let cell = byCell.get(k);
      if (!cell) byCell.set(k, (cell = { arm_id: r.arm_id, subject_id: r.subject_id, staff: [] }));
      cell.staff.push(presentStaff(r));
    }
    const form = new Map(forms.map((f) => [f.arm_id, presentStaff(f)]));
    return {
      session_id: sessionId,
      enforce_assignments: enforced,
      cells: [...byCell.values()],
      form_teachers: arms.filter((a) => !Number(a.retired) || form.has(a.id)).map((a) => ({ arm_id: a.id, staff: form.get(a.id) ?? null })),
      windows: windows.map((w) => ({ term: w.term, class_level: w.class_level, is_open: Number(w.is_open) === 1 })),
    };
  }

  /** Arms must exist and be current; staff must exist. Errors keyed by the list's path. */
  private async assertRefs(
    trx: Conn,
    list: readonly { arm_id: number; subject_id?: number; staff_ids: readonly number[] }[],
    path: string,
  ): Promise<void> {
    const [arms, subjects, staff] = await Promise.all([
      this.repo.armsByIds(
        list.map((c) => c.arm_id),
        trx,
      ),
      this.repo.subjectsByIds(
        list.flatMap((c) => (c.subject_id === undefined ? [] : [c.subject_id])),
        trx,
      ),
      this.people.staffByIds(
        list.flatMap((c) => c.staff_ids),
        trx,
      ),
    ]);
    const armById = new Map(arms.map((a) => [a.id, a]));
    const subjectIds = new Set(subjects.map((s) => s.id));
    const errors: Record<string, string[]> = {};
    list.forEach((c, i) => {
      const arm = armById.get(c.arm_id);
      if (!arm) errors[`${path}.${i}.arm_id`] = [TEACHING_MESSAGES.armNotFound];
      else if (Number(arm.retired)) errors[`${path}.${i}.arm_id`] = [TEACHING_MESSAGES.armRetired(arm.name)];
      if (c.subject_id !== undefined && !subjectIds.has(c.subject_id))
        errors[`${path}.${i}.subject_id`] = [TEACHING_MESSAGES.subjectNotFound];
      const key = c.subject_id === undefined ? `${path}.${i}.staff_id` : `${path}.${i}.staff_ids`;
      if (c.staff_ids.some((id) => !staff.has(id))) errors[key] = [TEACHING_MESSAGES.staffNotFound];
    });
    if (Object.keys(errors).length) throw badRequest(errors);
  }

  /**
   * Runs an admin write on one session: the session must exist, writers of the same session queue
   * on its row, and the answer is the session's grid as saved.
   */
  private async write(actor: AuthUser, sessionId: number, fn: (trx: Trx) => Promise<void>): Promise<SessionAssignments> {
    const session = await this.sessions.byId(sessionId);
    if (!session) throw badRequest({ session_id: [TEACHING_MESSAGES.sessionNotFound] });
    return this.repo.transaction(async (trx) => {
      await this.repo.lockSession(trx, sessionId, actor.id);
      await fn(trx);
      return this.read(sessionId, trx);
    });
  }

  async putAssignments(actor: AuthUser, input: z.infer<typeof assignmentsSchema>): Promise<SessionAssignments> {
    return this.write(actor, input.session_id, async (trx) => {
      await this.assertRefs(trx, input.cells, 'cells');
      // The last copy of a cell sent twice wins.
      const cells = [...new Map(input.cells.map((c) => [`${c.arm_id}|${c.subject_id}`, c])).values()];
      const before = await this.repo.assignmentRows(input.session_id, trx);
      for (const c of cells) await this.repo.replaceCell(trx, input.session_id, c.arm_id, c.subject_id, c.staff_ids);
      const touched = new Set(cells.map((c) => `${c.arm_id}|${c.subject_id}`));
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'update',
        entity: 'teaching_assignments',
        entityId: input.session_id,
        before: before.filter((r) => touched.has(`${r.arm_id}|${r.subject_id}`)).map((r) => [r.arm_id, r.subject_id, r.staff_pk]),
        after: cells.map((c) => [c.arm_id, c.subject_id, [...new Set(c.staff_ids)]]),
      });
    });
  }

  async putFormTeachers(actor: AuthUser, input: z.infer<typeof formTeachersSchema>): Promise<SessionAssignments> {
    return this.write(actor, input.session_id, async (trx) => {
      await this.assertRefs(
        trx,
        input.arms.map((a) => ({ arm_id: a.arm_id, staff_ids: a.staff_id === null ? [] : [a.staff_id] })),
        'arms',
      );
      const arms = [...new Map(input.arms.map((a) => [a.arm_id, a])).values()];
      const before = await this.repo.formTeacherRows(input.session_id, trx);
      for (const a of arms) await this.repo.setFormTeacher(trx, input.session_id, a.arm_id, a.staff_id);
      const touched = new Set(arms.map((a) => a.arm_id));
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'update',
        entity: 'form_teachers',
        entityId: input.session_id,
        before: before.filter((f) => touched.has(f.arm_id)).map((f) => [f.arm_id, f.staff_pk]),
        after: arms.map((a) => [a.arm_id, a.staff_id]),
      });
    });
  }

  /** Copies the session before this one (by name) into it: assignments, form teachers, the switch. */
  async copy(actor: AuthUser, input: z.infer<typeof copyAssignmentsSchema>): Promise<{ copied: number; from: string }> {
    const target = await this.sessions.byId(input.session_id);
    if (!target) throw badRequest({ session_id: [TEACHING_MESSAGES.sessionNotFound] });
    const earlier = (await this.sessions.list()).filter((s) => s.name < target.name).sort((a, b) => (a.name < b.name ? 1 : -1));
    const from = earlier[0];
    if (!from) throw badRequest({ session_id: [TEACHING_MESSAGES.noPreviousSession] });
    if (!(await this.repo.hasAssignments(from.id))) throw badRequest({ session_id: [TEACHING_MESSAGES.nothingToCopy] });
    let copied = 0;
    await this.write(actor, target.id, async (trx) => {
      const n = await this.repo.copyAssignments(trx, from.id, target.id);
      copied = n.assignments + n.formTeachers;
      const enforce = await this.repo.enforced(from.id, trx);
      await this.repo.setEnforced(trx, target.id, enforce, actor.id);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'copy',
        entity: 'teaching_assignments',
        entityId: target.id,
        after: { from: from.id, assignments: n.assignments, form_teachers: n.formTeachers, enforce_assignments: enforce },
      });
    });
    return { copied, from: from.name };
  }

  /** What the next session's copies would take of a session (docs/decisions/040). */
  copyCounts(sessionId: number, conn?: Conn): Promise<{ assignments: number; formTeachers: number; windowsAndEnforcement: number }> {
    return this.repo.copyCounts(sessionId, conn);
  }

  /**
   * Starting the next session (docs/decisions/040): copies the parts asked for from `from` into `to`
   * in the caller's transaction, one audit row. Returns how many rows each part added.
   */
  async copySessionIn(
    trx: Trx,
    actor: { id: number },
    from: number,
    to: number,
    parts: { assignments: boolean; formTeachers: boolean; windowsAndEnforcement: boolean },
  ): Promise<{ assignments: number; formTeachers: number; windowsAndEnforcement: number }> {
    const n = {
      assignments: parts.assignments ? await this.repo.copyTeachingAssignments(trx, from, to) : 0,
      formTeachers: parts.formTeachers ? await this.repo.copyFormTeachers(trx, from, to) : 0,
      windowsAndEnforcement: parts.windowsAndEnforcement ? await this.repo.copyWindowsAndEnforcement(trx, from, to, actor.id) : 0,
    };
    await writeAudit(trx, { actorUserId: actor.id, action: 'copy', entity: 'teaching_assignments', entityId: to, after: { from, ...n } });
    return n;
  }

  async setWindow(actor: AuthUser, input: z.infer<typeof scoreWindowSchema>): Promise<SessionAssignments> {
    return this.write(actor, input.session_id, async (trx) => {
      await this.repo.setWindow(trx, input, actor.id);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: input.is_open ? 'open' : 'close',
        entity: 'score_entry_window',
        entityId: `${input.session_id}|${input.term}|${input.class_level}`,
        after: input,
      });
    });
  }

  async setEnforcement(actor: AuthUser, input: z.infer<typeof enforcementSchema>): Promise<SessionAssignments> {
    return this.write(actor, input.session_id, async (trx) => {
      const before = await this.repo.enforced(input.session_id, trx);
      await this.repo.setEnforced(trx, input.session_id, input.enforce_assignments, actor.id);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'update',
        entity: 'session_teaching',
        entityId: input.session_id,
        before: { enforce_assignments: before },
        after: { enforce_assignments: input.enforce_assignments },
      });
    });
  }

  /** The signed-in user's classes in a session: two queries after the session (an admin without a staff record gets none). */
  async myClasses(actor: AuthUser, sessionId: number | undefined): Promise<MyClasses> {
    const session = await resolveSession(this.sessions, sessionId);
    if (!session) return { session: null, enforce_assignments: false, subjects: [], form_classes: [] };
    const [pairs, forms, enforced] = await Promise.all([
      this.repo.myPairs(actor.id, session.id),
      this.repo.myFormClasses(actor.id, session.id),
      this.repo.enforced(session.id),
    ]);
    return {
      session: { id: session.id, name: session.name },
      enforce_assignments: enforced,
      subjects: pairs.map((p) => ({ arm_id: p.arm_id, class_name: p.class_name, subject: p.subject, students: Number(p.students ?? 0) })),
      form_classes: forms.map((f) => ({ arm_id: f.arm_id, class_name: f.class_name, students: Number(f.students ?? 0) })),
    };
  }
}
