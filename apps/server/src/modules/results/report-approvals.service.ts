import {
  CARD_CODES,
  CARD_STATUS_LABELS,
  nextCardStatus,
  personName,
  REPORT_MESSAGES,
  RESULT_MESSAGES,
  type ArmActionName,
  type ArmApproval,
  type CardStatus,
  type ReleaseResult,
  type ReportSettings,
  type ScoreChangeSinceApproval,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import type { Conn } from '../../db/index';
import { nowIso, inTransaction } from '../../db/index';
import { forbidden, HttpError, nonFieldError, notFound } from '../../http/errors';
import type { TeachingService } from '../teaching/teaching.service';
import type { SettingsService } from '../settings/settings.service';
import { releaseArms } from './release';
import type { ArmKey, ReportCardsRepository } from './report-cards.repository';
import type { Actor } from './results.service';
import type { SessionRows } from '../calendar/sessions.service';
import type { ReleasedArms } from './results.ports';

const PAST: Record<ArmActionName, string> = { submit: 'submitted', approve: 'approved', return: 'sent back', release: 'released' };

const notAllowed = (cls: string, status: CardStatus, action: ArmActionName) =>
  new HttpError(409, { detail: REPORT_MESSAGES.notAllowedNow(cls, CARD_STATUS_LABELS[status], PAST[action]), code: CARD_CODES.notAllowed });

/** Whether an entry's ratings cover every trait the school rates now (removed traits do not count). */
function fullyRated(ratingsJson: string, settings: ReportSettings): boolean {
  let ratings: Record<string, unknown>;
  try {
    ratings = JSON.parse(ratingsJson) as Record<string, unknown>;
  } catch {
    return false;
  }
  return [...settings.traits.affective, ...settings.traits.psychomotor].every((t) => typeof ratings[t.id] === 'number');
}

/** An arm's status before its first step (no status row): a draft nobody submitted, approved or returned. */
const NO_STATUS = {
  status: 'draft',
  submitted_at: null,
  submitted_by: null,
  approved_at: null,
  approved_by: null,
  returned_reason: null,
  returned_at: null,
} as const;

/**
 * The approval of an arm's report cards for a term (docs/decisions/009): draft → submitted (the form
 * teacher) → approved (the admin, acting as principal) → released (the class's publication). Every
 * step is checked against `nextCardStatus`, runs in one transaction and is audited.
 */
export class ReportApprovalsService {
  constructor(
    private readonly repo: ReportCardsRepository,
    private readonly sessions: SessionRows,
    private readonly settings: SettingsService,
    private readonly teaching: TeachingService,
    /** Told which arms were released, after the commit: their card PDFs are drawn in the background (decision 050). */
    private readonly releasedArms: ReleasedArms = { released: () => {} },
  ) {}

  private async checkSession(id: number, conn: Conn): Promise<void> {
    if (!(await this.sessions.get(id, conn))) throw nonFieldError(RESULT_MESSAGES.sessionNotFound);
  }

  /** The arms' approvals with their counts: a fixed number of queries whatever the number of arms. */
  private async approvals(
    settings: ReportSettings,
    sessionId: number,
    term: string,
    classes?: readonly string[],
    conn: Conn = this.repo.db,
  ): Promise<ArmApproval[]> {
    const [arms, statuses, publications, entries, teachers] = await Promise.all([
      this.repo.armsWithStudents(sessionId, term, classes, conn),
      this.repo.statuses(sessionId, term, classes, conn),
      this.repo.publications(sessionId, term, conn),
      // Only the arms asked (a form teacher's): the whole school's cards read for one arm was most of its time.
      this.repo.entries(sessionId, term, classes ? { arms: classes } : {}, conn),
      this.teaching.formTeachers(sessionId, classes ? { classes } : {}, conn),
    ]);
    const counts = new Map<string, { rated: number; form: number; principal: number }>();
    for (const e of entries) {
      const c = counts.get(e.student_class) ?? { rated: 0, form: 0, principal: 0 };
      if (fullyRated(e.ratings, settings)) c.rated++;
      if (e.form_comment.trim()) c.form++;
      if (e.principal_comment.trim()) c.principal++;
      counts.set(e.student_class, c);
    }
    const students = new Map(arms.map((a) => [a.student_class, Number(a.students)]));
    const names = classes ? [...classes] : [...students.keys()];
    const statusBy = new Map(statuses.map(({ student_class, ...s }) => [student_class, s]));
    const pubBy = new Map(publications.map((p) => [p.student_class, p.published_at]));
    // Approved, not yet released arms: the score changes since the approval, one query.
    const approvedAt = new Map(
      statuses
        .filter((s) => s.status === 'approved' && s.approved_at && !pubBy.has(s.student_class))
        .map((s) => [s.student_class, s.approved_at!] as const),
    );
    const changesBy = new Map<string, ScoreChangeSinceApproval[]>();
    for (const c of await this.repo.scoreChangesSince(sessionId, term, approvedAt, conn)) {
      const list = changesBy.get(c.student_class) ?? [];
      list.push({
        admission_number: c.admission_number,
        student_name: c.first_name ? personName({ first_name: c.first_name, last_name: c.last_name ?? '' }) : c.admission_number,
        subject: c.subject,
        action: c.action,
        old_score: c.old_score === null ? null : Number(c.old_score),
        new_score: c.new_score === null ? null : Number(c.new_score),
        by: c.staff_first
          ? personName({ first_name: c.staff_first, last_name: c.staff_last ?? '' })
          : c.admin_first
            ? `${personName({ first_name: c.admin_first, last_name: c.admin_last ?? '' })} (admin)`
            : (c.actor_email ?? ''),
        at: c.created_at,
      });
      changesBy.set(c.student_class, list);
    }
    const teacherBy = new Map(teachers.map((t) => [t.student_class, personName(t)]));
    return names.sort().map((cls): ArmApproval => {
      // Who moved the arm's cards along and when: its status row's stamps (none before its first step).
      const { status, ...stamps } = statusBy.get(cls) ?? NO_STATUS;
      const released = pubBy.get(cls);
      const c = counts.get(cls) ?? { rated: 0, form: 0, principal: 0 };
      return {
        student_class: cls,
        status: released ? 'released' : (status as CardStatus),
        students: students.get(cls) ?? 0,
        rated: c.rated,
        form_comments: c.form,
        principal_comments: c.principal,
        form_teacher: teacherBy.get(cls) ?? null,
        ...stamps,
        released_at: released ?? null,
        changes_since_approval: changesBy.get(cls) ?? [],
      };
    });
  }

  /** Admin: every arm with students that term; staff: the arms they are form teacher of. */
  async list(actor: Actor, q: { session_id: number; term: string }): Promise<ArmApproval[]> {
    if (!(await this.sessions.get(q.session_id))) throw notFound(RESULT_MESSAGES.sessionNotFound);
    const settings = await this.settings.reportSettings(q.session_id);
    if (actor.role === 'admin') return this.approvals(settings, q.session_id, q.term);
    const mine = await this.teaching.formTeachers(q.session_id, { userId: actor.id });
    if (!mine.length) return [];
    return this.approvals(
      settings,
      q.session_id,
      q.term,
      mine.map((m) => m.student_class),
    );
  }

  /** One step on one arm: checked, written and audited in one transaction; answers the arm's approval. */
  private async step(
    actor: Actor,
    key: ArmKey,
    action: 'submit' | 'approve' | 'return',
    write: (trx: Conn, settings: ReportSettings) => Promise<Record<string, unknown>>,
  ): Promise<ArmApproval> {
    // Read before the transaction: on SQLite a read outside it would wait for the transaction's connection.
    const settings = await this.settings.reportSettings(key.session_id);
    return inTransaction(this.repo.db, async (trx) => {
      await this.checkSession(key.session_id, trx);
      const students = await this.repo.studentIdsOfArm(key, trx);
      if (!students.length) throw notFound(REPORT_MESSAGES.noStudents);
      if (action === 'submit' && actor.role !== 'admin') {
        const teachers = await this.teaching.formTeachers(key.session_id, { classes: [key.student_class] }, trx);
        if (!teachers.some((t) => t.user_id === actor.id)) throw forbidden(REPORT_MESSAGES.formTeacherOnly(key.student_class));
      }
      const from = await this.repo.armStatus(key.session_id, key.term, key.student_class, trx);
      const to = nextCardStatus(from, action);
      if (to === null) throw notAllowed(key.student_class, from, action);
      const details = await write(trx, settings);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action,
        entity: 'report_card_status',
        entityId: `${key.session_id}:${key.term}:${key.student_class}`,
        before: { ...key, status: from },
        after: { ...key, status: to, ...details },
      });
      const [approval] = await this.approvals(settings, key.session_id, key.term, [key.student_class], trx);
      return approval!;
    });
  }

  /**
   * With "require both comments", 409 when a student of the arm lacks the comment `whose` writes:
   * the form teacher's before submission, the principal's (and the form teacher's) before approval
   * or release. The message names what is missing and who adds it.
   */
  private async assertComments(trx: Conn, settings: ReportSettings, key: ArmKey, step: 'submit' | 'approval' | 'release') {
    if (!settings.require_comments) return;
    const [students, entries] = await Promise.all([
      this.repo.studentIdsOfArm(key, trx),
      this.repo.entries(key.session_id, key.term, { arm: key.student_class }, trx),
    ]);
    const missing = (pick: (e: (typeof entries)[number]) => string) => {
      const done = new Set(entries.filter((e) => pick(e).trim()).map((e) => e.student_id));
      return students.filter((id) => !done.has(id)).length;
    };
    const form = missing((e) => e.form_comment);
    if (form)
      throw new HttpError(409, { detail: REPORT_MESSAGES.formCommentsMissing(form, key.student_class), code: CARD_CODES.commentsMissing });
    if (step === 'submit') return;
    const principal = missing((e) => e.principal_comment);
    if (principal)
      throw new HttpError(409, {
        detail: REPORT_MESSAGES.principalCommentsMissing(principal, key.student_class, step),
        code: CARD_CODES.commentsMissing,
      });
  }

  async submit(actor: Actor, key: ArmKey): Promise<ArmApproval> {
    return this.step(actor, key, 'submit', async (trx, settings) => {
      await this.assertComments(trx, settings, key, 'submit');
      const at = nowIso();
      await this.repo.putStatus(trx, key, {
        status: 'submitted',
        submitted_by: actor.id,
        submitted_at: at,
        approved_by: null,
        approved_at: null,
        returned_reason: null,
        returned_at: null,
      });
      return {};
    });
  }

  async approve(actor: Actor, key: ArmKey): Promise<ArmApproval> {
    return this.step(actor, key, 'approve', async (trx, settings) => {
      await this.assertComments(trx, settings, key, 'approval');
      await this.repo.putStatus(trx, key, { status: 'approved', approved_by: actor.id, approved_at: nowIso() });
      return {};
    });
  }

  async sendBack(actor: Actor, key: ArmKey & { reason: string }): Promise<ArmApproval> {
    const { reason, ...arm } = key;
    return this.step(actor, arm, 'return', async (trx) => {
      await this.repo.putStatus(trx, arm, {
        status: 'draft',
        submitted_by: null,
        submitted_at: null,
        approved_by: null,
        approved_at: null,
        returned_reason: reason,
        returned_at: nowIso(),
      });
      return { reason };
    });
  }

  /**
   * Releases the arms named (approving any not yet approved, in the same audited step), or every
   * approved arm of the term. An arm already released, or without students, is refused and nothing
   * is released.
   */
  async release(actor: Actor, q: { session_id: number; term: string; student_classes?: string[] }): Promise<ReleaseResult> {
    const settings = await this.settings.reportSettings(q.session_id);
    const out = await inTransaction(this.repo.db, async (trx) => {
      await this.checkSession(q.session_id, trx);
      const list = await this.approvals(
        settings,
        q.session_id,
        q.term,
        q.student_classes ? [...new Set(q.student_classes)] : undefined,
        trx,
      );
      let arms: ArmApproval[];
      if (q.student_classes) {
        arms = list;
        for (const a of arms) {
          if (!a.students) throw nonFieldError(`${a.student_class}: ${REPORT_MESSAGES.noStudents}`);
          if (nextCardStatus(a.status, 'release') === null) throw notAllowed(a.student_class, a.status, 'release');
        }
      } else {
        arms = list.filter((a) => a.status === 'approved');
      }
      if (!arms.length) throw nonFieldError(REPORT_MESSAGES.nothingToRelease);
      // The counts already read (no query per arm): every card needs both comments (31.7).
      if (settings.require_comments)
        for (const a of arms) {
          const form = Math.max(0, a.students - a.form_comments);
          const principal = Math.max(0, a.students - a.principal_comments);
          const detail = form
            ? REPORT_MESSAGES.formCommentsMissing(form, a.student_class)
            : principal
              ? REPORT_MESSAGES.principalCommentsMissing(principal, a.student_class, 'release')
              : null;
          if (detail) throw new HttpError(409, { detail, code: CARD_CODES.commentsMissing });
        }
      await releaseArms(trx, this.repo, {
        session_id: q.session_id,
        term: q.term,
        classes: arms.map((a) => a.student_class),
        actor: actor.id,
      });
      return { released: arms.map((a) => a.student_class), students: arms.reduce((n, a) => n + a.students, 0) };
    });
    this.releasedArms.released({ session_id: q.session_id, term: q.term, classes: out.released });
    return out;
  }
}
