import {
  levelOfClass,
  bandFor,
  resolveScore,
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
  personName,
} from '@portal/domain';
import { badRequest, conflict, HttpError, nonFieldError, notFound } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import type { Conn } from '../../db/index';
import type { GradingService } from './grading.service';
import { reasonNeeded, resultAuditRow, type AuditedResult } from './result-audit';
import type { SessionRows } from '../calendar/sessions.service';
import { presentAuditEntry, presentResult, sortResults } from './results.presenters';
import type { AuditInsert, ResultRow, ResultsRepository } from './results.repository';
import type { AccessScope, ScopedStudent } from '../access/scope.service';
import { assertStudentActive } from '../people/student-status';
import type { TeachingService } from '../teaching/teaching.service';
import { componentsJson, sameComponents, type AssessmentService } from './assessment.service';
import { releaseArms } from './release';
import type { ReportCardsRepository } from './report-cards.repository';

export interface Actor {
  id: number;
  role: Role;
}

/** The audited identity of a stored result. */
const audited = (row: ResultRow): AuditedResult => ({
  result_id: row.id,
  student_id: row.student_id,
  admission_number: row.admission_number,
  session_id: row.session_id,
  term: row.term,
  student_class: row.student_class,
  subject: row.subject,
});

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
  ) {}

  /** 400 unless `subject` is one of the student's subjects for the class of the result. */
  private async assertOffered(
    student: { id: number; first_name: string; last_name: string },
    studentClass: string,
    subjects: readonly string[],
    field: string,
    conn: Conn,
  ): Promise<void> {
    if (!subjects.length) return;
    const offered = new Set((await this.teaching.subjectsOf([{ id: student.id, student_class: studentClass }], conn)).get(student.id));
    const missing = subjects.find((s) => !offered.has(s));
    if (missing) throw badRequest({ [field]: [TEACHING_MESSAGES.subjectNotOffered(missing, personName(student))] });
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
      studentClass: q.student_class,
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
   * POST /api/results/, both shapes. Everything happens in one transaction: any bad subject, stale
   * version or concurrent insert rolls the whole request back.
   */
  async save(body: ResultSaveRequest, actor: Actor): Promise<{ created: boolean; results: Result[]; single: boolean }> {
    const entries = body.subjects
      ? body.subjects.map((s) => ({ subject: s.name, score: s.score, components: s.components, remarks: s.remarks, version: s.version }))
      : [{ subject: body.subject!, score: body.score, components: body.components, remarks: body.remarks, version: body.version }];
    const level = levelOfClass(body.student_class);
    await this.teaching.assertSubjects(
      entries.map((e) => e.subject),
      (i) => (body.subjects ? `subjects.${i}.name` : 'subject'),
      RESULT_MESSAGES.unknownSubject,
    );
    await this.teaching.assertClass(body.student_class);
    let created = false;
    const ids = await this.repo.transaction(async (trx) => {
      const student = await this.repo.findStudent(body.admission_number, trx);
      if (!student) throw nonFieldError(RESULT_MESSAGES.studentNotFound(body.admission_number));
      await assertStudentActive(trx, student.id);
      const session = await this.sessions.get(body.session_id, trx);
      if (!session) throw nonFieldError(RESULT_MESSAGES.sessionNotFound);
      const scale = await this.grading.scaleInTransaction(trx, body.session_id, level);
      const existing = await this.repo.termRows(trx, student.id, body.session_id, body.term);
      const otherClass = existing.find((r) => r.student_class !== body.student_class);
      if (otherClass) throw nonFieldError(classMismatch(otherClass.student_class));
      // The student's class for the session: where their results of the session are recorded, else
      // (in the current session) their record's class. A past session with no results is not checked.
      const expectedClass =
        (await this.repo.sessionClass(trx, student.id, body.session_id)) ??
        (Number(session.is_current) === 1 ? student.student_class : undefined);
      if (expectedClass && expectedClass !== body.student_class) {
        throw badRequest({ student_class: [RESULT_MESSAGES.classNotStudents(expectedClass)] });
      }
      // One read of who may write what this term, checked for every row before any is written.
      const access = await this.teaching.writeAccess(actor, body.session_id, body.term, trx);
      this.teaching.assertMayWrite(
        actor,
        access,
        body.term,
        entries.map((e) => ({ student_class: body.student_class, subject: e.subject })),
      );
      // The class's scheme, share-locked (PostgreSQL) so a scheme change cannot slip in before commit.
      const scheme = await this.assessment.schemeFor(body.session_id, body.student_class, trx, true);
      const errors: Record<string, string[]> = {};
      const resolved = entries.map((e, i) => {
        const r = resolveScore(scheme, { score: e.score, components: e.components });
        if (r.ok) return { score: r.score, components: componentsJson(scheme, r.components) };
        for (const [field, message] of Object.entries(r.errors)) errors[body.subjects ? `subjects.${i}.${field}` : field] = [message];
        return null;
      });
      if (Object.keys(errors).length) throw badRequest(errors);
      const stored = new Set(existing.map((r) => r.subject));
      // A subject the student no longer takes keeps its stored score changeable; a new one must be theirs.
      await this.assertOffered(
        student,
        body.student_class,
        entries.map((e) => e.subject).filter((s) => !stored.has(s)),
        body.subjects ? 'subjects' : 'subject',
        trx,
      );
      const released = await this.repo.isPublished(body.session_id, body.term, body.student_class, trx);
      // A released class, or a past session (only the admin gets here), keeps a reason with each change.
      const why = reasonNeeded(released, access.current);
      const reason = why ? (body.reason ?? '') : null;
      const needReason = () => {
        if (why && !reason) throw badRequest({ reason: [why] });
      };
      const bySubject = new Map(existing.map((r) => [r.subject, r]));
      const audit: AuditInsert[] = [];
      const out: number[] = [];
      const who = {
        student_id: student.id,
        admission_number: student.admission_number,
        session_id: body.session_id,
        term: body.term,
        student_class: body.student_class,
      };
      for (const [i, e] of entries.entries()) {
        const { score, components } = resolved[i]!;
        const grade = bandFor(score, scale).grade;
        const marks = { score, components, remarks: e.remarks, grade };
        const row = bySubject.get(e.subject);
        if (row) {
          if (e.version !== undefined && e.version !== row.version) throw conflict(RESULT_MESSAGES.changedByOther(e.subject));
          out.push(row.id);
          if (row.score === score && sameComponents(row.components, components) && row.remarks === e.remarks && row.grade === grade)
            continue;
          needReason();
          const ok = await this.repo.updateResultIfVersion(trx, row.id, row.version, { ...marks, subject: e.subject, actor: actor.id });
          if (!ok) throw conflict(RESULT_MESSAGES.changedByOther(e.subject));
          audit.push(resultAuditRow('update', { ...who, result_id: row.id, subject: e.subject }, row, marks, actor.id, reason));
        } else {
          // A version > 0 means the client saw a row that is gone now: someone deleted it.
          if (e.version !== undefined && e.version > 0) throw conflict(RESULT_MESSAGES.changedByOther(e.subject));
          needReason();
          const id = await this.repo.insertResult(trx, { ...who, ...marks, subject: e.subject, actor: actor.id });
          if (id === undefined) throw conflict(RESULT_MESSAGES.createdByOther(e.subject));
          created = true;
          out.push(id);
          audit.push(resultAuditRow('create', { ...who, result_id: id, subject: e.subject }, null, marks, actor.id, reason));
        }
      }
      await this.repo.writeAudit(trx, audit);
      return out;
    });
    const [results, order] = await Promise.all([Promise.all(ids.map((id) => this.repo.getResult(id))), this.teaching.subjectOrder()]);
    return {
      created,
      single: !body.subjects,
      results: sortResults(results.filter((r): r is ResultRow => !!r).map(presentResult), order),
    };
  }

  async patch(id: number, body: ResultPatchRequest, actor: Actor): Promise<Result> {
    await this.repo.transaction(async (trx) => {
      const row = await this.repo.getResult(id, trx, true);
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
      const access = await this.teaching.writeAccess(actor, row.session_id, row.term, trx);
      const targets = [{ student_class: row.student_class, subject: row.subject }];
      if (subject !== row.subject) targets.push({ student_class: row.student_class, subject });
      this.teaching.assertMayWrite(actor, access, row.term, targets);
      if (body.version !== undefined && body.version !== row.version) throw conflict(RESULT_MESSAGES.changedByOther(row.subject));
      if (subject !== row.subject) {
        await this.teaching.assertSubjects([subject], () => 'subject', RESULT_MESSAGES.unknownSubject, trx);
        const student = { id: row.student_id, first_name: row.first_name, last_name: row.last_name };
        await this.assertOffered(student, row.student_class, [subject], 'subject', trx);
      }
      if (subject !== row.subject && (await this.repo.subjectTaken(trx, row, subject, row.id))) {
        throw nonFieldError(RESULT_MESSAGES.subjectTaken);
      }
      // New marks replace the stored ones (components as a whole); with neither, the stored ones stay.
      let score = row.score;
      let components = row.components;
      if (body.score !== undefined || body.components !== undefined) {
        const scheme = await this.assessment.schemeFor(row.session_id, row.student_class, trx, true);
        const r = resolveScore(scheme, { score: body.score, components: body.components });
        if (!r.ok) throw badRequest(Object.fromEntries(Object.entries(r.errors).map(([k, m]) => [k, [m]])));
        score = r.score;
        components = componentsJson(scheme, r.components);
      }
      const remarks = body.remarks ?? row.remarks;
      const scale = await this.grading.scaleInTransaction(trx, row.session_id, levelOfClass(row.student_class));
      const grade = bandFor(score, scale).grade;
      if (
        score === row.score &&
        sameComponents(row.components, components) &&
        remarks === row.remarks &&
        subject === row.subject &&
        grade === row.grade
      )
        return;
      const released = await this.repo.isPublished(row.session_id, row.term, row.student_class, trx);
      const why = reasonNeeded(released, access.current);
      if (why && !body.reason) throw badRequest({ reason: [why] });
      const marks = { score, components, remarks, grade };
      const ok = await this.repo.updateResultIfVersion(trx, row.id, row.version, { ...marks, subject, actor: actor.id });
      if (!ok) throw conflict(RESULT_MESSAGES.changedByOther(row.subject));
      await this.repo.writeAudit(trx, [
        resultAuditRow('update', { ...audited(row), subject }, row, marks, actor.id, why ? body.reason! : null),
      ]);
    });
    return presentResult((await this.repo.getResult(id))!);
  }

  async remove(id: number, expectedVersion: number | undefined, actor: Actor, reason?: string): Promise<void> {
    await this.repo.transaction(async (trx) => {
      const row = await this.repo.getResult(id, trx, true);
      if (!row) throw notFound(RESULT_MESSAGES.resultNotFound);
      const access = await this.teaching.writeAccess(actor, row.session_id, row.term, trx);
      this.teaching.assertMayWrite(actor, access, row.term, [{ student_class: row.student_class, subject: row.subject }]);
      if (expectedVersion !== undefined && expectedVersion !== row.version) throw conflict(RESULT_MESSAGES.changedByOther(row.subject));
      const released = await this.repo.isPublished(row.session_id, row.term, row.student_class, trx);
      const why = reasonNeeded(released, access.current);
      if (why && !reason) throw badRequest({ reason: [why] });
      if (!(await this.repo.deleteResultIfVersion(trx, row.id, row.version))) throw conflict(RESULT_MESSAGES.changedByOther(row.subject));
      await this.repo.writeAudit(trx, [resultAuditRow('delete', audited(row), row, null, actor.id, why ? reason! : null)]);
    });
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
      studentClass: q.student_class,
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
    return this.repo.transaction(async (trx) => {
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

export function classMismatch(cls: string): string {
  return RESULT_MESSAGES.classMismatch(cls);
}
