import { bandFor, levelOfClass, PEOPLE_MESSAGES, personName, resolveScore, type ComponentScores } from '@portal/domain';
import { badRequest, conflict } from '../../http/errors';
import type { Trx } from '../../db/index';
import type { TeachingService } from '../teaching/teaching.service';
import type { SessionRows } from '../calendar/sessions.service';
import { componentsJson, sameComponents, type AssessmentService, type StoredScheme } from './assessment.service';
import type { GradingService } from './grading.service';
import { reasonNeeded, resultAuditRow, type AuditedResult, type Marks } from './result-audit';
import type { AuditInsert, ResultsRepository } from './results.repository';
import type { NewResult, ScoreSheetRepository, SheetStudentRow, StoredResultRow } from './score-sheet.repository';
import type { AuthUser } from '../../http/auth';

/** Who writes: the signed-in account's id and role. */
type Actor = Pick<AuthUser, 'id' | 'role'>;

/** Where the scores go: one session, term and class (arm). */
export interface WriteTarget {
  session_id: number;
  term: string;
  student_class: string;
}

/** One score to write: a student's result in a subject. */
export interface ScoreWrite {
  admission_number: string;
  subject: string;
  /**
   * The new marks; null deletes the stored row. With neither `score` nor `components` the stored
   * score stays (a PATCH of remarks only); without `remarks` the stored remarks stay ('' for a new row).
   */
  marks: { score?: number | null; components?: ComponentScores | null; remarks?: string } | null;
  /** The version the client saw (0: no row); 'stored' takes the one read here (a CSV file carries none); undefined checks none. */
  version: number | 'stored' | undefined;
  /** A PATCH: the id of the stored row the client names (its absence is a 404, not a new row), and the subject it moves to. */
  existing?: { id: number; moveTo?: string };
}

/** What a row can be refused for, said by each caller in its own words and shape. */
export type RowProblem =
  | { kind: 'cells'; errors: Record<string, string> }
  | { kind: 'student_not_found' }
  | { kind: 'class_mismatch'; cls: string }
  | { kind: 'not_students_class'; cls: string }
  | { kind: 'not_offered'; subject: string; name: string }
  | { kind: 'subject_taken' };

/**
 * How a caller answers a refusal: the spec's results routes (field names of one request, non-field
 * errors) and the grid (`rows.N.field`, a 409 with the row as stored) keep their shapes and words.
 */
export interface ScoreVoice {
  sessionNotFound(): Error;
  /** The rows refused in one step, in row order (never empty). */
  refused(problems: readonly { i: number; problem: RowProblem }[]): Error;
  /** The row changed under the client (`created`: someone else created it first). */
  conflict(i: number, student: SheetStudentRow, scheme: StoredScheme, how: 'changed' | 'created'): Error;
  /** The row named by id (`existing`) is gone. */
  notFound(): Error;
}

/** What a write did: per row, the stored result's id (null: none, or deleted). */
export interface ScoreWritten {
  ids: (number | null)[];
  created: boolean;
  scheme: StoredScheme;
  students: SheetStudentRow[];
  /** Per row: whether the student takes the subject (the grid shows it). */
  takes: boolean[];
}

type Planned = { i: number; student: SheetStudentRow; subject: string };

/**
 * The one writer of scores. The spec's POST/PATCH/DELETE /api/results/, the class grid and the CSV
 * import all write through `write`: in one transaction, whatever the number of rows, a fixed number
 * of statements: the students and their subjects (before the transaction), then the session, the
 * class's scheme (share-locked), who may write, the students' classes of the session, the stored
 * rows (locked), the release, the grading scale, one insert, one update, one delete and one audit
 * insert (each per 200 rows). It holds every rule of a score write: the components against the
 * scheme (`resolveScore`), who may write (`assertWriteAccess`), the class rules, a subject the
 * student takes, optimistic versions, withdrawn students, a reason for a released class or a past
 * session, the grade from the session's scale, and the audit rows.
 */
export class ScoreWriter {
  constructor(
    private readonly repo: ScoreSheetRepository,
    private readonly results: ResultsRepository,
    private readonly grading: GradingService,
    private readonly sessions: SessionRows,
    private readonly teaching: TeachingService,
    private readonly assessment: AssessmentService,
  ) {}

  /**
   * Who may write these subjects of the class this term: one read, every pair checked before any
   * row is written (403 with the teaching rule's code). The one place a score write asks it.
   */
  private async assertWriteAccess(actor: Actor, target: WriteTarget, subjects: readonly string[], trx: Trx): Promise<{ current: boolean }> {
    const access = await this.teaching.writeAccess(actor, target.session_id, target.term, trx);
    this.teaching.assertMayWrite(
      actor,
      access,
      target.term,
      [...new Set(subjects)].map((subject) => ({ student_class: target.student_class, subject })),
    );
    return access;
  }

  async write(
    actor: Actor,
    target: WriteTarget,
    rows: readonly ScoreWrite[],
    reasonIn: string | undefined,
    voice: ScoreVoice,
  ): Promise<ScoreWritten> {
    const fail = (problems: { i: number; problem: RowProblem }[]) => {
      if (problems.length) throw voice.refused(problems.sort((a, b) => a.i - b.i));
    };
    // Reads that need no lock go before the transaction, side by side on PostgreSQL's pool: the
    // transaction (and its row locks) then lasts about half as many statements. (At READ COMMITTED
    // a read inside the transaction would be no fresher.)
    const found = await this.repo.studentsByAdmission([...new Set(rows.map((r) => r.admission_number))]);
    const byAdmission = new Map(found.map((s) => [s.admission_number.toUpperCase(), s]));
    const notFound: { i: number; problem: RowProblem }[] = [];
    const students = rows.map((r, i) => {
      const s = byAdmission.get(r.admission_number.toUpperCase());
      if (!s) notFound.push({ i, problem: { kind: 'student_not_found' } });
      return s!;
    });
    const offered = found.length
      ? await this.teaching.subjectsOf(found.map((s) => ({ id: s.id, student_class: target.student_class })))
      : new Map<number, string[]>();
    const subjectOf = (r: ScoreWrite) => r.existing?.moveTo ?? r.subject;
    const takes = rows.map((r, i) => !!students[i] && (offered.get(students[i].id) ?? []).includes(subjectOf(r)));

    return this.results.transaction(async (trx) => {
      const session = await this.sessions.get(target.session_id, trx);
      if (!session) throw voice.sessionNotFound();
      const scheme = await this.assessment.schemeFor(session.id, target.student_class, trx, true);
      // Components first: a wrong cell is the commonest mistake and needs no database.
      const resolved = rows.map((r) => {
        const m = r.marks;
        if (!m || (m.score === undefined && m.components === undefined)) return null;
        return resolveScore(scheme, { score: m.score ?? undefined, components: m.components ?? undefined });
      });
      fail(resolved.flatMap((res, i) => (res && !res.ok ? [{ i, problem: { kind: 'cells' as const, errors: res.errors } }] : [])));

      const subjects = rows.flatMap((r) => (r.existing?.moveTo ? [r.subject, r.existing.moveTo] : [r.subject]));
      const access = await this.assertWriteAccess(actor, target, subjects, trx);
      fail(notFound);

      const ids = [...new Set(students.map((s) => s.id))];
      const [classes, stored, released, scale] = await Promise.all([
        this.repo.sessionClasses(ids, session.id, trx),
        this.repo.storedForUpdate(ids, session.id, target.term, [...new Set(subjects)], trx),
        this.results.isPublished(session.id, target.term, target.student_class, trx),
        this.grading.scaleInTransaction(trx, session.id, levelOfClass(target.student_class)),
      ]);

      // The class rules: the term's results decide, then the session's, then (in the current
      // session only) the student's record. (A PATCH or DELETE names a stored row: its class stands.)
      const termClass = new Map<number, string>();
      const sessionClass = new Map<number, Set<string>>();
      for (const c of classes) {
        if (c.term === target.term && c.student_class !== target.student_class) termClass.set(c.student_id, c.student_class);
        let set = sessionClass.get(c.student_id);
        if (!set) sessionClass.set(c.student_id, (set = new Set()));
        set.add(c.student_class);
      }
      const current = Number(session.is_current) === 1;
      const classProblems: { i: number; problem: RowProblem }[] = [];
      rows.forEach((r, i) => {
        if (r.existing) return;
        const s = students[i]!;
        const inTerm = termClass.get(s.id);
        const inSession = sessionClass.get(s.id);
        if (inTerm !== undefined) classProblems.push({ i, problem: { kind: 'class_mismatch', cls: inTerm } });
        else if (inSession && !inSession.has(target.student_class))
          classProblems.push({ i, problem: { kind: 'not_students_class', cls: [...inSession][0]! } });
        else if (!inSession && current && s.student_class !== target.student_class)
          classProblems.push({ i, problem: { kind: 'not_students_class', cls: s.student_class } });
      });
      fail(classProblems);

      const storedBy = new Map(stored.map((r) => [`${r.student_id}\u0000${r.subject}`, r]));
      const storedOf = (s: SheetStudentRow, subject: string) => storedBy.get(`${s.id}\u0000${subject}`);
      // A released class, or a past session (only the admin gets here): each change keeps a reason.
      const why = reasonNeeded(released, access.current);
      const reason = why ? (reasonIn ?? '') : null;
      const inserts: (Planned & { row: NewResult })[] = [];
      type Values = { score: number; components: string | null; remarks: string; grade: string; subject: string };
      const updates: (Planned & { before: StoredResultRow; v: Values })[] = [];
      const deletes: (Planned & { before: StoredResultRow })[] = [];
      const out: (number | null)[] = rows.map(() => null);
      const problems: { i: number; problem: RowProblem }[] = [];
      rows.forEach((r, i) => {
        const s = students[i]!;
        const before = storedOf(s, r.subject);
        if (r.existing && before?.id !== r.existing.id) throw voice.notFound();
        const expected = r.version === 'stored' ? (before?.version ?? 0) : r.version;
        const stale = expected !== undefined && (before?.version ?? 0) !== expected;
        const subject = subjectOf(r);
        const res = resolved[i];
        if (!r.marks) {
          // A replayed delete (the first answer was lost, an outbox sends it again): nothing left to delete.
          if (stale && !(before === undefined && expected > 0)) throw voice.conflict(i, s, scheme, 'changed');
          if (before && !stale) deletes.push({ i, student: s, subject, before });
          return;
        }
        if (stale && !replayOf(before, expected, res, r, scheme)) throw voice.conflict(i, s, scheme, 'changed');
        if (stale) {
          // A replay (decision 044): the stored row, newer than the client's base, already holds this
          // content; 200 with it, nothing written twice. A different content stays a 409.
          out[i] = before!.id;
          return;
        }
        if (res && !res.ok) return; // refused above
        const score = res ? res.score : Number(before!.score);
        const components = res ? componentsJson(scheme, res.components) : before!.components;
        const grade = bandFor(score, scale).grade;
        const remarks = r.marks.remarks ?? before?.remarks ?? '';
        if (subject !== r.subject) {
          // A PATCH moving the result to another subject: one the student takes, and not stored yet.
          if (storedOf(s, subject)) problems.push({ i, problem: { kind: 'subject_taken' } });
          else if (!takes[i]) problems.push({ i, problem: { kind: 'not_offered', subject, name: personName(s) } });
        }
        if (!before) {
          // A subject the student no longer takes keeps its stored score changeable; a new one must be theirs.
          if (!takes[i]) {
            problems.push({ i, problem: { kind: 'not_offered', subject, name: personName(s) } });
            return;
          }
          inserts.push({
            i,
            student: s,
            subject,
            row: {
              student_id: s.id,
              session_id: session.id,
              term: target.term,
              student_class: target.student_class,
              subject,
              score,
              components,
              remarks,
              grade,
            },
          });
          return;
        }
        out[i] = before.id;
        if (
          Number(before.score) === score &&
          sameComponents(before.components, components) &&
          before.remarks === remarks &&
          before.grade === grade &&
          subject === r.subject
        )
          return;
        updates.push({ i, student: s, subject, before, v: { score, components, remarks, grade, subject } });
      });
      fail(problems);
      const changed = [...inserts, ...updates, ...deletes];
      // A withdrawn or graduated (alumni) student's record is read-only: their stored results stay as they are.
      if (changed.some((c) => c.student.status === 'withdrawn')) throw conflict(PEOPLE_MESSAGES.studentWithdrawn);
      if (changed.some((c) => c.student.status === 'graduated')) throw conflict(PEOPLE_MESSAGES.studentGraduated);
      if (changed.length && why && !reason) throw badRequest({ reason: [why] });

      const audited = (c: Planned, resultId: number, subject = c.subject): AuditedResult => ({
        result_id: resultId,
        student_id: c.student.id,
        admission_number: c.student.admission_number,
        session_id: session.id,
        term: target.term,
        student_class: target.student_class,
        subject,
      });
      const marksOf = (r: StoredResultRow): Marks => ({
        score: Number(r.score),
        components: r.components,
        remarks: r.remarks,
        grade: r.grade,
      });
      const audit: AuditInsert[] = [];
      let created = false;
      if (inserts.length) {
        // In student order: two saves inserting the same new rows wait on each other in one order
        // (the later one then finds the row taken), never in a circle (a deadlock on PostgreSQL).
        const sorted = [...inserts].sort((a, b) => a.row.student_id - b.row.student_id || (a.subject < b.subject ? -1 : 1));
        const made = await this.repo.insertMany(
          trx,
          sorted.map((x) => x.row),
          actor.id,
        );
        const idOf = new Map(made.map((m) => [`${m.student_id}\u0000${m.subject}`, m.id]));
        for (const x of inserts) {
          const id = idOf.get(`${x.student.id}\u0000${x.subject}`);
          // Someone else created this row since it was read: the client's "no result yet" is stale.
          if (id === undefined) throw voice.conflict(x.i, x.student, scheme, 'created');
          out[x.i] = id;
          created = true;
          audit.push(resultAuditRow('create', audited(x, id), null, x.row, actor.id, reason));
        }
      }
      if (updates.length) {
        const done = await this.repo.updateManyIfVersion(
          trx,
          updates.map((u) => ({ id: u.before.id, version: u.before.version, ...u.v })),
          actor.id,
        );
        for (const u of updates) {
          if (!done.has(u.before.id)) throw voice.conflict(u.i, u.student, scheme, 'changed');
          audit.push(resultAuditRow('update', audited(u, u.before.id), marksOf(u.before), u.v, actor.id, reason));
        }
      }
      if (deletes.length) {
        const gone = await this.repo.deleteIfVersions(
          trx,
          deletes.map((d) => ({ id: d.before.id, version: d.before.version })),
        );
        if (gone !== deletes.length) throw voice.conflict(deletes[0]!.i, deletes[0]!.student, scheme, 'changed');
        for (const d of deletes) audit.push(resultAuditRow('delete', audited(d, d.before.id), marksOf(d.before), null, actor.id, reason));
      }
      if (audit.length) await this.results.writeAudit(trx, audit);
      return { ids: out, created, scheme, students, takes };
    });
  }
}

/**
 * Whether a stale save is the replay of one already applied: the stored row is newer than the base
 * the client sent and holds the very marks it sends (same score, components and remarks, no move).
 */
function replayOf(
  before: StoredResultRow | undefined,
  expected: number,
  res: ReturnType<typeof resolveScore> | null | undefined,
  r: ScoreWrite,
  scheme: StoredScheme,
): boolean {
  if (!before || before.version <= expected || !r.marks || r.existing?.moveTo) return false;
  if (res && !res.ok) return false;
  const score = res ? res.score : Number(before.score);
  const components = res ? componentsJson(scheme, res.components) : before.components;
  const remarks = r.marks.remarks ?? before.remarks;
  return Number(before.score) === score && sameComponents(before.components, components) && before.remarks === remarks;
}
