import {
  PARENT_INVITED_EVENT,
  PARENT_MESSAGES,
  type ParentConflict,
  type ParentConflictResolve,
  type ParentCreate,
  type ParentDetail,
  type ParentInvitationBody,
  type ParentInvitationResult,
  type ParentLinkBody,
  type ParentSummary,
} from '@portal/domain';
import { writeAudit, writeAuditMany } from '../../db/audit';
import { isUniqueViolation } from '../../db/errors';
import { recordNoticeEvent } from '../../db/notice-outbox';
import type { AuthUser } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import { generateOneTimePasswords } from '../people/people.service';
import type { SchoolClasses } from '../people/students.service';
import type { ParentLinking } from './linking.service';
import type { LinkedChildRow, ParentRow, ParentsRepository } from './parents.repository';

/**
 * Parents and family access (issue 33, docs/decisions/035): the admin's list, records, links,
 * conflicts and invitations, and a parent's own /api/me/. Layer 2 (may import access, auth,
 * calendar, people, settings).
 */
export const PARENTS_PAGE_SIZE = 50;

const presentSummary = (p: ParentRow & { children: number | string }): ParentSummary => ({
  id: p.id,
  name: p.name,
  phone: p.phone,
  email: p.email,
  children: Number(p.children),
  invited_at: p.invited_at,
  last_sign_in_at: p.last_sign_in_at,
});

const presentChild = (c: LinkedChildRow) => ({
  admission_number: c.admission_number,
  first_name: c.first_name,
  last_name: c.last_name,
  arm: c.arm,
  relationship: c.relationship,
  source: c.source,
});

export class ParentsService {
  constructor(
    private readonly repo: ParentsRepository,
    private readonly linking: ParentLinking,
    private readonly classes: SchoolClasses,
    private readonly now: () => number = Date.now,
  ) {}

  private nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  async list(q: { search?: string; page?: number }): Promise<{ count: number; next: number | null; results: ParentSummary[] }> {
    const page = q.page ?? 1;
    const { count, rows } = await this.repo.list(q.search || undefined, PARENTS_PAGE_SIZE, (page - 1) * PARENTS_PAGE_SIZE);
    return { count, next: page * PARENTS_PAGE_SIZE < count ? page + 1 : null, results: rows.map(presentSummary) };
  }

  async get(id: number): Promise<ParentDetail> {
    const p = await this.repo.parentById(id);
    if (!p) throw notFound(PARENT_MESSAGES.notFound);
    const children = await this.repo.childrenOf([p.id]);
    return {
      id: p.id,
      name: p.name,
      phone: p.phone,
      email: p.email,
      invited_at: p.invited_at,
      last_sign_in_at: p.last_sign_in_at,
      children: children.map(presentChild),
    };
  }

  async create(actor: AuthUser, input: ParentCreate): Promise<ParentDetail> {
    try {
      const id = await this.repo.transaction(async (trx) => {
        if ((await this.repo.parentsByPhones(trx, [input.phone])).length) throw badRequest({ phone: [PARENT_MESSAGES.phoneTaken] });
        if (input.email && (await this.repo.emailTaken(trx, input.email))) throw badRequest({ email: [PARENT_MESSAGES.emailTaken] });
        const [p] = await this.repo.insertParents(
          trx,
          [{ name: input.name, phone: input.phone, email: input.email ?? null }],
          this.nowIso(),
        );
        await writeAudit(trx, {
          actorUserId: actor.id,
          action: 'create',
          entity: 'parent',
          entityId: input.phone,
          after: { name: input.name, phone: input.phone, email: input.email ?? null },
        });
        return p!.id;
      });
      return this.get(id);
    } catch (err) {
      if (isUniqueViolation(err, 'phone')) throw badRequest({ phone: [PARENT_MESSAGES.phoneTaken] });
      if (isUniqueViolation(err, 'email')) throw badRequest({ email: [PARENT_MESSAGES.emailTaken] });
      throw err;
    }
  }

  /** The admin links a student (any relationship); an open conflict of this phone and student is settled by it. */
  async link(actor: AuthUser, parentId: number, body: ParentLinkBody): Promise<ParentDetail> {
    await this.repo.transaction(async (trx) => {
      const parent = await this.repo.parentById(parentId, trx);
      if (!parent) throw notFound(PARENT_MESSAGES.notFound);
      const student = await this.repo.studentByAdmission(body.admission_number, trx);
      if (!student) throw badRequest({ admission_number: [PARENT_MESSAGES.studentNotFound(body.admission_number)] });
      const now = this.nowIso();
      await this.repo.deleteLink(trx, parent.id, student.id);
      await this.repo.insertLinks(
        trx,
        [{ parentId: parent.id, studentId: student.id, relationship: body.relationship, source: 'admin' }],
        now,
      );
      const open = await this.repo.openConflict(trx, parent.phone, student.id);
      await this.repo.settleConflicts(
        trx,
        open.map((c) => c.id),
        'link',
        now,
      );
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'link',
        entity: 'parent',
        entityId: parent.phone,
        after: { admission_number: student.admission_number, relationship: body.relationship },
      });
    });
    return this.get(parentId);
  }

  /**
   * Removes a link. Kept removed: the pair is recorded as settled "not this parent", so saving the
   * student's form again does not link it back (the admin may link it again by hand).
   */
  async unlink(actor: AuthUser, parentId: number, admissionNumber: string): Promise<void> {
    await this.repo.transaction(async (trx) => {
      const parent = await this.repo.parentById(parentId, trx);
      if (!parent) throw notFound(PARENT_MESSAGES.notFound);
      const student = await this.repo.studentByAdmission(admissionNumber, trx);
      const links = student ? await this.repo.childrenOf([parent.id], trx) : [];
      const link = links.find((l) => l.student_id === student?.id);
      if (!student || !link) throw notFound(PARENT_MESSAGES.linkNotFound);
      await this.repo.deleteLink(trx, parent.id, student.id);
      const now = this.nowIso();
      await this.repo.insertConflicts(
        trx,
        [{ phone: parent.phone, studentId: student.id, relationship: link.relationship, nameGiven: parent.name, source: 'admin' }],
        now,
      );
      const open = await this.repo.openConflict(trx, parent.phone, student.id);
      await this.repo.settleConflicts(
        trx,
        open.map((c) => c.id),
        'dismiss',
        now,
      );
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'unlink',
        entity: 'parent',
        entityId: parent.phone,
        before: { admission_number: student.admission_number, relationship: link.relationship },
      });
    });
  }

  /** Open conflicts, one entry per phone: the phone's parent (if any) and each student naming it otherwise. */
  async conflicts(): Promise<{ results: ParentConflict[] }> {
    const rows = await this.repo.openConflicts();
    const byPhone = new Map<string, ParentConflict>();
    for (const r of rows) {
      let c = byPhone.get(r.phone);
      if (!c) {
        c = { phone: r.phone, parent: r.parent_id === null ? null : { id: r.parent_id, name: r.parent_name! }, students: [] };
        byPhone.set(r.phone, c);
      }
      c.students.push({
        admission_number: r.admission_number,
        first_name: r.first_name,
        last_name: r.last_name,
        arm: r.arm,
        relationship: r.relationship,
        name_given: r.name_given,
      });
    }
    return { results: [...byPhone.values()] };
  }

  /**
   * Settles one student of one phone's conflict: `link` links them to the phone's parent (renamed
   * when `name` is given), `dismiss` leaves them unlinked for good (the form will not link them).
   */
  async resolveConflict(actor: AuthUser, body: ParentConflictResolve): Promise<{ results: ParentConflict[] }> {
    await this.repo.transaction(async (trx) => {
      const student = await this.repo.studentByAdmission(body.admission_number, trx);
      const open = student ? await this.repo.openConflict(trx, body.phone, student.id) : [];
      if (!student || !open.length) throw notFound(PARENT_MESSAGES.conflictNotFound);
      const now = this.nowIso();
      const [parent] = await this.repo.parentsByPhones(trx, [body.phone]);
      if (body.action === 'link' && parent) {
        if (body.name) await this.repo.renameParent(trx, parent.id, body.name);
        await this.repo.insertLinks(
          trx,
          open.map((c) => ({ parentId: parent.id, studentId: student.id, relationship: c.relationship, source: c.source })),
          now,
        );
      }
      await this.repo.settleConflicts(
        trx,
        open.map((c) => c.id),
        body.action === 'link' && parent ? 'link' : 'dismiss',
        now,
      );
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'resolve_parent_conflict',
        entity: 'parent',
        entityId: body.phone,
        after: { admission_number: student.admission_number, action: body.action, name: body.name ?? null },
      });
    });
    return this.conflicts();
  }

  /**
   * Invites the parents of an arm's students, or of the school's: each gets a one-time password
   * (hashed cheaply in bulk, decision 005; changed at first sign-in), shown once. Writes a
   * 'parent_invited' notice event per parent in the same transaction, with the one-time password
   * for the SMS/email (never in-app; decision 035).
   */
  async invite(actor: AuthUser, body: ParentInvitationBody): Promise<ParentInvitationResult> {
    if (body.arm !== undefined) await this.classes.assertClass(body.arm, { unknownMessage: PARENT_MESSAGES.armUnknown(body.arm) });
    const parents = await this.repo.parentsToInvite(body.arm, body.again === true);
    if (!parents.length) return { invited: 0, slips: [] };
    const passwords = await generateOneTimePasswords(parents.length);
    const children = await this.repo.childrenOf(parents.map((p) => p.id));
    const namesOf = new Map<number, string[]>();
    for (const c of children) namesOf.set(c.parent_id, [...(namesOf.get(c.parent_id) ?? []), `${c.first_name} ${c.last_name} (${c.arm})`]);
    const now = this.nowIso();
    await this.repo.transaction(async (trx) => {
      await this.repo.setInvited(
        trx,
        parents.map((p, i) => ({ userId: p.user_id, parentId: p.id, hash: passwords[i]!.hash })),
        now,
      );
      for (const [i, p] of parents.entries()) {
        await recordNoticeEvent(
          trx,
          {
            kind: PARENT_INVITED_EVENT,
            key: `${PARENT_INVITED_EVENT}:${p.id}:${now}`,
            // The one-time password goes with the SMS/email (the issue: sent when those are set up); it
            // must be changed at first sign-in, and the admin's message log never shows a body.
            payload: {
              parent_id: p.id,
              user_id: p.user_id,
              phone: p.phone,
              email: p.email,
              name: p.name,
              sign_in: p.phone,
              password: passwords[i]!.password,
            },
          },
          now,
        );
      }
      await writeAuditMany(
        trx,
        parents.map((p) => ({
          actorUserId: actor.id,
          action: 'invite',
          entity: 'parent',
          entityId: p.phone,
          after: { arm: body.arm ?? null },
        })),
      );
    });
    return {
      invited: parents.length,
      slips: parents.map((p, i) => ({ name: p.name, phone: p.phone, password: passwords[i]!.password, children: namesOf.get(p.id) ?? [] })),
    };
  }

  /**
   * Links every existing student from their father's and mother's phones (the one-time backfill for
   * a school that had students before 0032; decision 035). Safe to run again: links are kept,
   * settled conflicts stay settled. Pages of 500 students, each in its own transaction.
   */
  async backfill(actor: AuthUser): Promise<{ students: number; parents: number; links: number; conflicts: number }> {
    let after = 0;
    let students = 0;
    for (;;) {
      const page = await this.repo.studentsWithPhones(after, 500);
      if (!page.length) break;
      await this.repo.transaction((trx) => this.linking.linkStudents(trx, page, 'student_form'));
      students += page.length;
      after = page.at(-1)!.id;
    }
    const totals = await this.repo.totals();
    await writeAudit(this.repo.conn, {
      actorUserId: actor.id,
      action: 'backfill',
      entity: 'parent',
      entityId: 'all',
      after: { students, ...totals },
    });
    return { students, ...totals };
  }
}
