import {
  ASSESSMENT_MESSAGES,
  isSingleComponent,
  parseStoredComponents,
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
import { badRequest, HttpError } from '../../http/errors';
import type { TeachingService } from '../teaching/teaching.service';
import type { AssessmentService, StoredScheme } from './assessment.service';
import type { ResultsRepository } from './results.repository';
import { planImport, readScoreCsv, type ImportChange } from './score-csv';
import type { ScoreSheetRepository, SheetResultRow, SheetStudentRow } from './score-sheet.repository';
import type { SessionRows } from '../calendar/sessions.service';
import type { ScoreVoice, ScoreWriter } from './score-writer';
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
 * component. A save of any number of rows, and the CSV import, go through the one score writer
 * (`score-writer.ts`: the rules of every score write, in a fixed number of statements).
 */
export class ScoreSheetService {
  constructor(
    private readonly repo: ScoreSheetRepository,
    private readonly results: ResultsRepository,
    private readonly sessions: SessionRows,
    private readonly teaching: TeachingService,
    private readonly assessment: AssessmentService,
    private readonly writer: ScoreWriter,
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
      arm: q.student_class,
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
   * Every row in one transaction, all or nothing, through the one score writer (`score-writer.ts`):
   * a fixed number of statements whatever the number of rows. This says its refusals in the grid's
   * shape (`rows.N.field`; a 409 with the row as stored now).
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
    await this.checkNames(q);
    try {
      const out = await this.writer.write(
        actor,
        q,
        rows.map((r) => ({
          admission_number: r.admission_number,
          subject: q.subject,
          // An empty row clears the stored result.
          marks: Object.keys(r.components).length ? { components: r.components, remarks: r.remarks } : null,
          version: r.version,
        })),
        reasonIn,
        gridVoice(rows),
      );
      return await this.savedRows(
        q,
        out.scheme,
        out.students.map((student, i) => ({ student, takes: out.takes[i]! })),
      );
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

/** The grid's words for a refused row: `rows.N.admission_number` (or the cell's field), the sheet's messages. */
function gridVoice(rows: readonly SaveRow[]): ScoreVoice {
  return {
    sessionNotFound: () => badRequest({ session_id: [RESULT_MESSAGES.sessionNotFound] }),
    refused(problems) {
      const errors: Record<string, string[]> = {};
      for (const { i, problem: p } of problems) {
        const at = `rows.${i}.admission_number`;
        if (p.kind === 'cells') for (const [k, m] of Object.entries(p.errors)) errors[`rows.${i}.${k}`] = [m];
        else if (p.kind === 'student_not_found') errors[at] = [RESULT_MESSAGES.studentNotFound(rows[i]!.admission_number)];
        else if (p.kind === 'class_mismatch') errors[at] = [RESULT_MESSAGES.classMismatch(p.cls)];
        else if (p.kind === 'not_students_class') errors[at] = [RESULT_MESSAGES.classNotStudents(p.cls)];
        else if (p.kind === 'not_offered') errors[at] = [TEACHING_MESSAGES.subjectNotOffered(p.subject, p.name)];
        else errors[at] = [RESULT_MESSAGES.subjectTaken];
      }
      return badRequest(errors);
    },
    conflict: (_i, student, scheme) => new RowConflict(student, scheme),
    notFound: () => badRequest({ rows: [RESULT_MESSAGES.resultNotFound] }),
  };
}
