import {
  ASSESSMENT_MESSAGES,
  bandFor,
  isSingleComponent,
  levelOfClass,
  parseStoredComponents,
  PEOPLE_MESSAGES,
  resolveScore,
  RESULT_MESSAGES,
  SCORE_CONFLICT_CODE,
  scoreWriteRefusal,
  subjectStatistics,
  TEACHING_MESSAGES,
  termLabel,
  type ComponentScores,
  type ScoreConflict,
  type ScoreImportPreview,
  type ScoreSheet,
  type ScoreSheetQuery,
  type ScoreSheetResult,
  type ScoreSheetRow,
  type ScoreSheetSave,
  type ScoreSheetSaveResult,
  type SubjectStatistics,
  personName,
  byRegisterOrder,
} from '@portal/domain';
import { badRequest, conflict, HttpError } from '../../http/errors';
import type { TeachingService } from '../teaching/teaching.service';
import { componentsJson, sameComponents, type AssessmentService, type StoredScheme } from './assessment.service';
import type { GradingService } from './grading.service';
import { reasonNeeded, resultAuditRow, type AuditedResult } from './result-audit';
import type { AuditInsert, ResultsRepository } from './results.repository';
import { planImport, readScoreCsv, type ImportChange } from './score-csv';
import type { ScoreSheetRepository, SheetResultRow, SheetStudentRow } from './score-sheet.repository';
import type { SessionRows } from '../calendar/sessions.service';
import type { Actor } from './results.service';

/** A result's component scores as the grid shows them, in scheme order; a one-score result on a one-component scheme fills its column. */
function presentResult(r: SheetResultRow, scheme: StoredScheme): ScoreSheetResult {
  const parsed = parseStoredComponents(r.components);
  let components: ComponentScores = {};
  if (parsed) components = parsed;
  else if (isSingleComponent(scheme.components)) components = { [scheme.components[0]!.label]: Number(r.score) };
  return {
    id: r.id,
    components,
    total_only: !parsed && !isSingleComponent(scheme.components),
    score: Number(r.score),
    grade: r.grade,
    remarks: r.remarks,
    version: Number(r.version),
    updated_at: r.updated_at,
    updated_by: r.updated_by,
  };
}

/** Statistics and positions of a class's subject scores. */
function rank(results: readonly SheetResultRow[]): { stats: SubjectStatistics | null; positions: Map<number, number> } {
  return subjectStatistics(results.map((r) => ({ student_id: r.student_id, score: Number(r.score) })));
}

/** Thrown inside a save's transaction when a row changed under the client; answered after the rollback with the row as stored now. */
class RowConflict extends Error {
  constructor(
    readonly student: SheetStudentRow,
    readonly scheme: StoredScheme,
  ) {
    super('score conflict');
  }
}

interface SaveRow {
  admission_number: string;
  components: ComponentScores;
  remarks?: string;
  /** What the client saw; 'stored' (a CSV import) takes the version read in the transaction. */
  version: number | 'stored';
}

/**
 * The class score grid: one subject of one arm for a term, every student a row, entered by
 * component. A save of any number of rows is one transaction with the rules of POST /api/results/
 * (class, subject taken, write access, released terms, versions, audit), in a fixed number of
 * statements; the CSV template and import go through the same save.
 */
export class ScoreSheetService {
  constructor(
    private readonly repo: ScoreSheetRepository,
    private readonly results: ResultsRepository,
    private readonly grading: GradingService,
    private readonly sessions: SessionRows,
    private readonly teaching: TeachingService,
    private readonly assessment: AssessmentService,
  ) {}

  private async checkNames(q: { student_class: string; subject: string }): Promise<void> {
    await Promise.all([
      this.teaching.assertClass(q.student_class),
      this.teaching.assertSubjects([q.subject], () => 'subject', RESULT_MESSAGES.unknownSubject),
    ]);
  }

  async load(actor: Actor, q: ScoreSheetQuery): Promise<ScoreSheet> {
    // Everything that needs only the query at once (on PostgreSQL side by side on the pool); the
    // students next, as which ones depends on whether the session is the current one.
    const [session, , scheme, stored, access, released] = await Promise.all([
      this.sessions.get(q.session_id),
      this.checkNames(q),
      this.assessment.schemeFor(q.session_id, q.student_class),
      this.repo.subjectResults(q.session_id, q.term, q.student_class, q.subject),
      this.teaching.writeAccess(actor, q.session_id, q.term),
      this.results.isPublished(q.session_id, q.term, q.student_class),
    ]);
    if (!session) throw badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] });
    const current = Number(session.is_current) === 1;
    const students = await this.repo.sheetStudents({
      sessionId: session.id,
      term: q.term,
      studentClass: q.student_class,
      subject: q.subject,
      current,
    });
    const takes = await this.teaching.subjectsOf(
      students.map((s) => ({ id: s.id, student_class: q.student_class })),
      undefined,
    );
    const byStudent = new Map(stored.map((r) => [r.student_id, r]));
    const { stats, positions } = rank(stored);
    const rows: ScoreSheetRow[] = [...students].sort(byRegisterOrder).map((s) => {
      const r = byStudent.get(s.id);
      return {
        admission_number: s.admission_number,
        name: personName(s),
        takes: (takes.get(s.id) ?? []).includes(q.subject),
        result: r ? presentResult(r, scheme) : null,
        position: positions.get(s.id) ?? null,
      };
    });
    const refusal = scoreWriteRefusal(actor.role, access, {
      student_class: q.student_class,
      subject: q.subject,
      termLabel: termLabel(q.term),
    });
    return {
      session: { id: session.id, name: session.name },
      term: q.term,
      student_class: q.student_class,
      subject: q.subject,
      components: scheme.components,
      precision: scheme.precision,
      rows,
      stats,
      may_write: !refusal,
      refusal: refusal?.detail ?? null,
      released,
    };
  }

  async save(actor: Actor, body: ScoreSheetSave): Promise<ScoreSheetSaveResult> {
    return this.apply(actor, body, body.rows, body.reason);
  }

  /**
   * Every row in one transaction, all or nothing: read the rows' students, their classes of the
   * session and their stored results (locked on PostgreSQL) once, check everything, then one
   * multi-row insert, one version-checked UPDATE … FROM of the changed rows, one delete and one
   * audit insert (each per 200 rows).
   */
  private async apply(
    actor: Actor,
    q: { session_id: number; term: string; student_class: string; subject: string },
    rows: readonly SaveRow[],
    reasonIn: string | undefined,
  ): Promise<ScoreSheetSaveResult> {
    const dup = new Set<string>();
    const dupErrors: Record<string, string[]> = {};
    rows.forEach((r, i) => {
      const key = r.admission_number.toUpperCase();
      if (dup.has(key)) dupErrors[`rows.${i}.admission_number`] = [ASSESSMENT_MESSAGES.csvDuplicateStudent(r.admission_number)];
      dup.add(key);
    });
    if (Object.keys(dupErrors).length) throw badRequest(dupErrors);
    const level = levelOfClass(q.student_class);
    // Reads that need no lock go before the transaction, side by side on PostgreSQL's pool: the
    // transaction (and its row locks) then lasts about half as many statements. (At READ COMMITTED
    // a read inside the transaction would be no fresher.)
    const [, found] = await Promise.all([this.checkNames(q), this.repo.studentsByAdmission(rows.map((r) => r.admission_number))]);
    const offered = await this.teaching.subjectsOf(found.map((s) => ({ id: s.id, student_class: q.student_class })));
    let touched: { student: SheetStudentRow; takes: boolean }[] = [];
    let scheme: StoredScheme | undefined;
    try {
      const out = await this.results.transaction(async (trx) => {
        const session = await this.sessions.get(q.session_id, trx);
        if (!session) throw badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] });
        scheme = await this.assessment.schemeFor(session.id, q.student_class, trx, true);
        const sch = scheme;
        // Components first: a wrong cell is the commonest mistake and needs no database.
        const resolved = rows.map((r) => (Object.keys(r.components).length ? resolveScore(sch, { components: r.components }) : null));
        const cellErrors: Record<string, string[]> = {};
        resolved.forEach((res, i) => {
          if (res && !res.ok) for (const [k, m] of Object.entries(res.errors)) cellErrors[`rows.${i}.${k}`] = [m];
        });
        if (Object.keys(cellErrors).length) throw badRequest(cellErrors);

        const access = await this.teaching.writeAccess(actor, session.id, q.term, trx);
        this.teaching.assertMayWrite(actor, access, q.term, [{ student_class: q.student_class, subject: q.subject }]);

        const byAdmission = new Map(found.map((s) => [s.admission_number.toUpperCase(), s]));
        const rowErrors: Record<string, string[]> = {};
        const list = rows.map((r, i) => {
          const s = byAdmission.get(r.admission_number.toUpperCase());
          if (!s) rowErrors[`rows.${i}.admission_number`] = [RESULT_MESSAGES.studentNotFound(r.admission_number)];
          return s;
        });
        if (Object.keys(rowErrors).length) throw badRequest(rowErrors);
        const studentsOf = list as SheetStudentRow[];
        const ids = studentsOf.map((s) => s.id);
        const [classes, stored, released, scale] = await Promise.all([
          this.repo.sessionClasses(ids, session.id, trx),
          this.repo.storedForUpdate(ids, session.id, q.term, q.subject, trx),
          this.results.isPublished(session.id, q.term, q.student_class, trx),
          this.grading.scaleInTransaction(trx, session.id, level),
        ]);
        touched = studentsOf.map((s) => ({ student: s, takes: (offered.get(s.id) ?? []).includes(q.subject) }));

        // The class rules of POST /api/results/: the term's results decide, then the session's, then
        // (in the current session only) the student's record.
        const termClass = new Map<number, string>();
        const sessionClass = new Map<number, Set<string>>();
        for (const c of classes) {
          if (c.term === q.term) termClass.set(c.student_id, c.student_class);
          let set = sessionClass.get(c.student_id);
          if (!set) sessionClass.set(c.student_id, (set = new Set()));
          set.add(c.student_class);
        }
        const current = Number(session.is_current) === 1;
        studentsOf.forEach((s, i) => {
          const inTerm = termClass.get(s.id);
          const inSession = sessionClass.get(s.id);
          if (inTerm !== undefined && inTerm !== q.student_class) {
            rowErrors[`rows.${i}.admission_number`] = [RESULT_MESSAGES.classMismatch(inTerm)];
          } else if (inSession && !inSession.has(q.student_class)) {
            rowErrors[`rows.${i}.admission_number`] = [RESULT_MESSAGES.classNotStudents([...inSession][0]!)];
          } else if (!inSession && current && s.student_class !== q.student_class) {
            rowErrors[`rows.${i}.admission_number`] = [RESULT_MESSAGES.classNotStudents(s.student_class)];
          }
        });
        if (Object.keys(rowErrors).length) throw badRequest(rowErrors);

        const storedBy = new Map(stored.map((r) => [r.student_id, r]));
        // A released class, or a past session (only the admin gets here): each change keeps a reason.
        const why = reasonNeeded(released, access.current);
        const reason = why ? (reasonIn ?? '') : null;
        const inserts: { i: number; row: Parameters<ScoreSheetRepository['insertMany']>[1][number] }[] = [];
        const updates: {
          i: number;
          id: number;
          version: number;
          v: { score: number; components: string | null; remarks: string; grade: string };
        }[] = [];
        const deletes: { i: number; id: number; version: number }[] = [];
        const audit: AuditInsert[] = [];
        const who = (s: SheetStudentRow, resultId: number): AuditedResult => ({
          result_id: resultId,
          student_id: s.id,
          admission_number: s.admission_number,
          session_id: session.id,
          term: q.term,
          student_class: q.student_class,
          subject: q.subject,
        });
        rows.forEach((r, i) => {
          const s = studentsOf[i]!;
          const before = storedBy.get(s.id);
          const expected = r.version === 'stored' ? (before?.version ?? 0) : r.version;
          if ((before?.version ?? 0) !== expected) throw new RowConflict(s, sch);
          const res = resolved[i];
          if (!res) {
            if (before) deletes.push({ i, id: before.id, version: before.version });
            return;
          }
          if (!res.ok) return; // refused above
          const components = componentsJson(sch, res.components);
          const grade = bandFor(res.score, scale).grade;
          const remarks = r.remarks ?? before?.remarks ?? '';
          if (!before) {
            if (!touched[i]!.takes) {
              rowErrors[`rows.${i}.admission_number`] = [TEACHING_MESSAGES.subjectNotOffered(q.subject, personName(s))];
              return;
            }
            inserts.push({
              i,
              row: {
                student_id: s.id,
                session_id: session.id,
                term: q.term,
                student_class: q.student_class,
                subject: q.subject,
                score: res.score,
                components,
                remarks,
                grade,
              },
            });
            return;
          }
          if (
            Number(before.score) === res.score &&
            sameComponents(before.components, components) &&
            before.remarks === remarks &&
            before.grade === grade
          )
            return;
          updates.push({ i, id: before.id, version: before.version, v: { score: res.score, components, remarks, grade } });
        });
        if (Object.keys(rowErrors).length) throw badRequest(rowErrors);
        const changed = inserts.length + updates.length + deletes.length;
        if (changed && studentsOf.some((s, i) => s.status === 'withdrawn' && [...inserts, ...updates, ...deletes].some((c) => c.i === i))) {
          throw conflict(PEOPLE_MESSAGES.studentWithdrawn);
        }
        if (changed && why && !reason) throw badRequest({ reason: [why] });

        if (inserts.length) {
          // In student order: two saves inserting the same new rows wait on each other in one order
          // (the later one then finds the row taken), never in a circle (a deadlock on PostgreSQL).
          const made = await this.repo.insertMany(
            trx,
            inserts.map((x) => x.row).sort((a, b) => a.student_id - b.student_id),
            actor.id,
          );
          const idOf = new Map(made.map((m) => [m.student_id, m.id]));
          for (const x of inserts) {
            const s = studentsOf[x.i]!;
            const id = idOf.get(s.id);
            // Someone else created this row since it was read: the client's "no result yet" is stale.
            if (id === undefined) throw new RowConflict(s, sch);
            audit.push(resultAuditRow('create', who(s, id), null, x.row, actor.id, reason));
          }
        }
        if (updates.length) {
          const done = await this.repo.updateManyIfVersion(
            trx,
            updates.map((u) => ({ id: u.id, version: u.version, ...u.v })),
            actor.id,
          );
          for (const u of updates) {
            const s = studentsOf[u.i]!;
            if (!done.has(u.id)) throw new RowConflict(s, sch);
            audit.push(resultAuditRow('update', who(s, u.id), storedBy.get(s.id)!, u.v, actor.id, reason));
          }
        }
        if (deletes.length) {
          if ((await this.repo.deleteIfVersions(trx, deletes)) !== deletes.length) throw new RowConflict(studentsOf[deletes[0]!.i]!, sch);
          for (const d of deletes) {
            const s = studentsOf[d.i]!;
            audit.push(resultAuditRow('delete', who(s, d.id), storedBy.get(s.id)!, null, actor.id, reason));
          }
        }
        if (audit.length) await this.results.writeAudit(trx, audit);
        return sch;
      });
      return await this.savedRows(q, out, touched);
    } catch (err) {
      if (err instanceof RowConflict) throw await this.conflictOf(q, err);
      throw err;
    }
  }

  /** The saved rows as stored now, with positions and statistics from one read of the class's scores of the subject. */
  private async savedRows(
    q: { session_id: number; term: string; student_class: string; subject: string },
    scheme: StoredScheme,
    touched: readonly { student: SheetStudentRow; takes: boolean }[],
  ): Promise<ScoreSheetSaveResult> {
    const all = await this.repo.subjectResults(q.session_id, q.term, q.student_class, q.subject);
    const byStudent = new Map(all.map((r) => [r.student_id, r]));
    const { stats, positions } = rank(all);
    return {
      rows: touched.map(({ student: s, takes }) => {
        const r = byStudent.get(s.id);
        return {
          admission_number: s.admission_number,
          name: personName(s),
          takes,
          result: r ? presentResult(r, scheme) : null,
          position: positions.get(s.id) ?? null,
        };
      }),
      stats,
    };
  }

  private async conflictOf(q: { session_id: number; term: string; subject: string }, c: RowConflict): Promise<HttpError> {
    const now = await this.repo.studentResult(c.student.id, q.session_id, q.term, q.subject);
    const body: ScoreConflict = {
      detail: ASSESSMENT_MESSAGES.rowConflict(personName(c.student)),
      code: SCORE_CONFLICT_CODE,
      admission_number: c.student.admission_number,
      current: now ? presentResult(now, c.scheme) : null,
    };
    return new HttpError(409, body as unknown as Record<string, unknown>);
  }

  /**
   * CSV import: the file checked against the sheet as stored now; with `dry_run` false and no
   * errors, every changed row saved through the grid's save in one transaction (each row's
   * version is the one read in that transaction: a file carries none).
   */
  async importCsv(
    actor: Actor,
    body: ScoreSheetQuery & { csv: string; dry_run: boolean; reason?: string },
  ): Promise<{ status: number; preview: ScoreImportPreview }> {
    const sheet = await this.load(actor, body);
    const read = readScoreCsv(body.csv);
    if ('error' in read) return { status: body.dry_run ? 200 : 400, preview: { rows: [], errors: [read.error], applied: false } };
    const { preview, changes } = planImport(sheet, read.records);
    if (body.dry_run) return { status: 200, preview };
    if (preview.errors.length) return { status: 400, preview };
    if (changes.length)
      await this.apply(
        actor,
        body,
        changes.map((c: ImportChange) => ({ ...c, version: 'stored' as const })),
        body.reason,
      );
    return { status: 200, preview: { ...preview, applied: true } };
  }
}
