import {
  NOT_RELEASED_CODE,
  RESULT_MESSAGES,
  TEACHING_MESSAGES,
  type Publication,
  type Result,
  type ResultAuditEntry,
  type ResultPatchRequest,
  type ResultSaveRequest,
  type ResultStudent,
  type ResultTermStatus,
  type Role,
  promotionDecision,
  PROMOTION_DECISIONS,
  type PromotionDecision,
  type PromotionRule,
} from '@portal/domain';
import { annualFigures, scoresByTerm } from './card-building';
import { badRequest, conflict, HttpError, nonFieldError, notFound } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import type { GradingService } from './grading.service';
import type { SessionRows } from '../calendar/sessions.service';
import { presentAuditEntry, presentResult, sortResults } from './results.presenters';
import type { ResultsRepository } from './results.repository';
import type { AccessScope, ScopedStudent } from '../access/scope.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { AssessmentService } from './assessment.service';
import { releaseArms } from './release';
import type { ReleasedArms } from './results.ports';
import type { ScoreVoice, ScoreWriter } from './score-writer';
import type { ReportCardsRepository } from './report-cards.repository';

export interface Actor {
  id: number;
  role: Role;
}

const notReleased = () => new HttpError(404, { detail: RESULT_MESSAGES.notReleased, code: NOT_RELEASED_CODE });

/**
 * Rules of results: one row per (student, session, term, subject); a bulk save is all-or-nothing;
 * grades come from the level's scale; optimistic versions refuse lost updates (docs/decisions/004);
 * every change is audited; a student only ever sees their own published results.
 */
export class ResultsService {
  constructor(
    private readonly repo: ResultsRepository,
    private readonly grading: GradingService,
    private readonly sessions: SessionRows,
    private readonly teaching: TeachingService,
    private readonly assessment: AssessmentService,
    private readonly cards: ReportCardsRepository,
    private readonly scope: AccessScope,
    private readonly writer: ScoreWriter,
    /** Told of each arm published, after its commit: the card PDFs drawn in the background (decision 050). */
    private readonly releasedArms: ReleasedArms = { released: () => undefined },
  ) {}

  /**
   * Each student's end-of-session figures for promotion (issue 34): whether they have a third-term
   * card (a third-term score), the annual average, and the card's decision: the principal's override
   * on the third-term card if recorded, else the promotion rule's. Students without a third-term
   * score and no override are absent. `studentIds` undefined: the whole session. Two statements whatever the size.
   */
  async promotionFigures(
    sessionId: number,
    rule: PromotionRule,
    studentIds?: readonly number[],
  ): Promise<Map<number, { annual_average: number | null; decision: PromotionDecision; source: 'rule' | 'override' }>> {
    const [scores, entries] = await Promise.all([
      this.repo.sessionScores(sessionId, studentIds),
      this.cards.entries(sessionId, '3rd', studentIds ? { studentIds: [...studentIds] } : {}),
    ]);
    const perStudent = new Map<number, { term: string; subject: string; score: number }[]>();
    const withCard = new Set<number>();
    for (const r of scores) {
      const list = perStudent.get(r.student_id);
      const row = { term: r.term, subject: r.subject, score: Number(r.score) };
      if (list) list.push(row);
      else perStudent.set(r.student_id, [row]);
      if (r.term === '3rd') withCard.add(r.student_id);
    }
    const overrides = new Map<number, PromotionDecision>();
    for (const e of entries) {
      const o = e.promotion_override as PromotionDecision | null;
      if (o && (PROMOTION_DECISIONS as readonly string[]).includes(o)) overrides.set(e.student_id, o);
    }
    const out = new Map<number, { annual_average: number | null; decision: PromotionDecision; source: 'rule' | 'override' }>();
    // A decision the principal recorded on the third-term card counts even without a third-term score.
    for (const id of new Set([...withCard, ...overrides.keys()])) {
      const figures = annualFigures(scoresByTerm(perStudent.get(id) ?? []));
      const override = overrides.get(id);
      out.set(id, {
        annual_average: figures.annual_average,
        decision: override ?? promotionDecision(rule, figures),
        source: override ? 'override' : 'rule',
      });
    }
    return out;
  }

  /**
   * For GET screens, through the access scope: a student may only name themselves (naming another
   * is refused); staff get a 404 for an unknown number.
   */
  studentFor(actor: Actor, admissionNumber: string | undefined): Promise<ScopedStudent | undefined> {
    return this.scope.studentFor(actor, admissionNumber, {
      purpose: 'records',
      otherwise: 'refuse',
      unknown: (n) => notFound(RESULT_MESSAGES.studentNotFound(n)),
    });
  }

  async list(
    actor: Actor,
    q: { session_id?: number; term?: string; admission_number?: string; student_class?: string; limit?: number; offset?: number },
  ): Promise<Result[]> {
    const student = await this.studentFor(actor, q.admission_number);
    const filters = {
      sessionId: q.session_id,
      term: q.term,
      studentId: student?.id,
      arm: q.student_class,
      limit: q.limit,
      offset: q.offset,
    };
    if (actor.role !== 'student') {
      const [rows, order] = await Promise.all([this.repo.listResults(filters), this.teaching.subjectOrder()]);
      return sortResults(rows.map(presentResult), order);
    }
    const visible = await this.repo.listResults({ ...filters, publishedOnly: true });
    if (!visible.length && q.session_id !== undefined && q.term !== undefined) {
      const hidden = await this.repo.listResults({ ...filters, limit: 1 });
      if (hidden.length) throw notReleased();
    }
    return sortResults(visible.map(presentResult), await this.teaching.subjectOrder());
  }

  async students(q: { session_id: number; term: string; student_class?: string }): Promise<ResultStudent[]> {
    const rows = await this.repo.studentsWithResults(q.session_id, q.term, q.student_class);
    return rows.map((r) => ({
      admission_number: r.admission_number,
      first_name: r.first_name,
      last_name: r.last_name,
      student_class: r.student_class,
      subjects: Number(r.subjects),
    }));
  }

  async terms(actor: Actor, admissionNumber: string | undefined): Promise<ResultTermStatus[]> {
    const student = await this.studentFor(actor, admissionNumber);
    if (!student) throw nonFieldError(RESULT_MESSAGES.admissionNumberRequired);
    const rows = await this.repo.termsOfStudent(student.id);
    return rows.map((r) => ({
      session_id: r.session_id,
      session_name: r.session_name,
      term: r.term,
      student_class: r.student_class,
      subjects: Number(r.subjects),
      released: Number(r.released) === 1,
    }));
  }

  /**
   * POST /api/results/, both shapes, through the one score writer: any bad subject, stale version
   * or concurrent insert rolls the whole request back.
   */
  async save(body: ResultSaveRequest, actor: Actor): Promise<{ created: boolean; results: Result[]; single: boolean }> {
    const entries = body.subjects
      ? body.subjects.map((s) => ({ subject: s.name, score: s.score, components: s.components, remarks: s.remarks, version: s.version }))
      : [{ subject: body.subject!, score: body.score, components: body.components, remarks: body.remarks, version: body.version }];
    await this.teaching.assertSubjects(
      entries.map((e) => e.subject),
      (i) => (body.subjects ? `subjects.${i}.name` : 'subject'),
      RESULT_MESSAGES.unknownSubject,
    );
    await this.teaching.assertClass(body.student_class);
    const field = (i: number, name: string) => (body.subjects ? `subjects.${i}.${name}` : name);
    const out = await this.writer.write(
      actor,
      body,
      entries.map((e) => ({
        admission_number: body.admission_number,
        subject: e.subject,
        marks: { score: e.score, components: e.components, remarks: e.remarks },
        version: e.version,
      })),
      body.reason,
      specVoice(
        entries.map((e) => e.subject),
        body.admission_number,
        field,
        body.subjects ? 'subjects' : 'subject',
      ),
    );
    const ids = out.ids.filter((id): id is number => id !== null);
    const [results, order] = await Promise.all([this.repo.getResults(ids), this.teaching.subjectOrder()]);
    return { created: out.created, single: !body.subjects, results: sortResults(results.map(presentResult), order) };
  }

  /** PATCH /api/results/{id}/: new marks, remarks or subject for a stored result, through the one score writer. */
  async patch(id: number, body: ResultPatchRequest, actor: Actor): Promise<Result> {
    const row = await this.repo.getResult(id);
    if (!row) throw notFound(RESULT_MESSAGES.resultNotFound);
    if (
      (body.admission_number !== undefined && body.admission_number !== row.admission_number) ||
      (body.session_id !== undefined && body.session_id !== row.session_id) ||
      (body.term !== undefined && body.term !== row.term) ||
      (body.student_class !== undefined && body.student_class !== row.student_class)
    ) {
      throw nonFieldError(RESULT_MESSAGES.identityLocked);
    }
    const subject = body.subject ?? row.subject;
    if (subject !== row.subject) await this.teaching.assertSubjects([subject], () => 'subject', RESULT_MESSAGES.unknownSubject);
    await this.writer.write(
      actor,
      row,
      [
        {
          admission_number: row.admission_number,
          subject: row.subject,
          // New marks replace the stored ones (components as a whole); with neither, the stored ones stay.
          marks: { score: body.score, components: body.components, remarks: body.remarks },
          version: body.version,
          existing: { id: row.id, ...(subject !== row.subject ? { moveTo: subject } : {}) },
        },
      ],
      body.reason,
      specVoice([row.subject], row.admission_number, (_i, name) => name, 'subject'),
    );
    return presentResult((await this.repo.getResult(id))!);
  }

  /** DELETE /api/results/{id}/, through the one score writer. */
  async remove(id: number, expectedVersion: number | undefined, actor: Actor, reason?: string): Promise<void> {
    const row = await this.repo.getResult(id);
    if (!row) throw notFound(RESULT_MESSAGES.resultNotFound);
    await this.writer.write(
      actor,
      row,
      [{ admission_number: row.admission_number, subject: row.subject, marks: null, version: expectedVersion, existing: { id: row.id } }],
      reason,
      specVoice([row.subject], row.admission_number, (_i, name) => name, 'subject'),
    );
  }

  async audit(q: {
    admission_number?: string;
    student_class?: string;
    session_id?: number;
    term?: string;
    limit?: number;
  }): Promise<ResultAuditEntry[]> {
    if (q.admission_number === undefined && q.student_class === undefined) throw nonFieldError(RESULT_MESSAGES.auditNeedsFilter);
    const rows = await this.repo.listAudit({
      admissionNumber: q.admission_number,
      arm: q.student_class,
      sessionId: q.session_id,
      term: q.term,
      limit: q.limit ?? 500,
    });
    return rows.map(presentAuditEntry);
  }

  // ---------- publishing ----------

  async publications(q: { session_id?: number; term?: string }): Promise<Publication[]> {
    return (await this.repo.listPublications({ sessionId: q.session_id, term: q.term })).map((p) => ({
      ...p,
      published_by: p.published_by ?? null,
    }));
  }

  async publish(
    body: { session_id: number; term: string; student_class: string },
    actor: Actor,
  ): Promise<{ created: boolean; publication: Publication }> {
    const out = await this.repo.transaction(async (trx) => {
      if (!(await this.sessions.get(body.session_id, trx))) throw nonFieldError(RESULT_MESSAGES.sessionNotFound);
      if (!(await this.repo.hasResults(trx, body.session_id, body.term, body.student_class))) {
        throw nonFieldError(RESULT_MESSAGES.noResultsToPublish);
      }
      // Publishing is releasing the arm's report cards (approving them if they were not yet).
      const [arm] = await releaseArms(trx, this.cards, {
        session_id: body.session_id,
        term: body.term,
        classes: [body.student_class],
        actor: actor.id,
      });
      const list = await this.repo.listPublications({ sessionId: body.session_id, term: body.term }, trx);
      const p = list.find((x) => x.student_class === body.student_class)!;
      return { created: arm!.created, publication: { ...p, published_by: p.published_by ?? null } };
    });
    this.releasedArms.released({ session_id: body.session_id, term: body.term, classes: [body.student_class] });
    return out;
  }

  async unpublish(id: number, actor: Actor): Promise<void> {
    await this.repo.transaction(async (trx) => {
      const p = await this.repo.getPublication(id, trx);
      if (!p || !(await this.repo.deletePublication(trx, id))) throw notFound(RESULT_MESSAGES.publicationNotFound);
      // Unpublished cards are back to approved: the principal's approval stands, students no longer see them.
      await this.cards.putStatus(trx, { session_id: p.session_id, term: p.term, student_class: p.student_class }, { status: 'approved' });
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'unpublish',
        entity: 'result_publication',
        entityId: id,
        before: { session_id: p.session_id, term: p.term, student_class: p.student_class },
      });
    });
  }
}

/**
 * The spec's words for a refused score write (POST, PATCH, DELETE /api/results/): the first refusal,
 * as a field of the request (`subjects.N.field` in the bulk shape) or a non-field error.
 */
function specVoice(
  subjects: readonly string[],
  admissionNumber: string,
  field: (i: number, name: string) => string,
  subjectField: 'subjects' | 'subject',
): ScoreVoice {
  return {
    sessionNotFound: () => nonFieldError(RESULT_MESSAGES.sessionNotFound),
    refused(problems) {
      const first = problems[0]!.problem;
      switch (first.kind) {
        case 'cells': {
          const errors: Record<string, string[]> = {};
          for (const { i, problem } of problems)
            if (problem.kind === 'cells') for (const [k, m] of Object.entries(problem.errors)) errors[field(i, k)] = [m];
          return badRequest(errors);
        }
        case 'student_not_found':
          return nonFieldError(RESULT_MESSAGES.studentNotFound(admissionNumber));
        case 'class_mismatch':
          return nonFieldError(classMismatch(first.cls));
        case 'not_students_class':
          return badRequest({ student_class: [RESULT_MESSAGES.classNotStudents(first.cls)] });
        case 'not_offered':
          return badRequest({ [subjectField]: [TEACHING_MESSAGES.subjectNotOffered(first.subject, first.name)] });
        case 'subject_taken':
          return nonFieldError(RESULT_MESSAGES.subjectTaken);
      }
    },
    conflict: (i, _student, _scheme, how) =>
      conflict(how === 'created' ? RESULT_MESSAGES.createdByOther(subjects[i]!) : RESULT_MESSAGES.changedByOther(subjects[i]!)),
    notFound: () => notFound(RESULT_MESSAGES.resultNotFound),
  };
}

export function classMismatch(cls: string): string {
  return RESULT_MESSAGES.classMismatch(cls);
}
