import {
  levelOfClass,
  parseStoredComponents,
  rankClass,
  RESULT_ADMIN_MESSAGES,
  type Broadsheet,
  type BroadsheetClass,
  type ComponentScores,
  personName,
} from '@portal/domain';
import { toCsvInSlices, type CsvValue } from '../../lib/csv';
import { yieldToEventLoop } from '../../lib/yield';
import type { SessionRows } from '../calendar/sessions.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { AssessmentService } from './assessment.service';
import { sessionOf } from './report-card.service';
import { compareSubjects } from './results.presenters';
import type { ResultsRepository } from './results.repository';

/** Broadsheets: an arm's or the whole school's results in one table (JSON, streamed JSON, CSV), ranked a class at a time. */
export class BroadsheetService {
  constructor(
    private readonly repo: ResultsRepository,
    private readonly sessions: SessionRows,
    private readonly teaching: TeachingService,
    private readonly assessment: AssessmentService,
  ) {}

  private session(id: number) {
    return sessionOf(this.sessions, id);
  }

  async broadsheet(q: { session_id: number; term: string; student_class?: string }): Promise<Broadsheet> {
    if (q.student_class === undefined) {
      // The whole school (the CSV): read and ranked a class at a time, as the streamed sheet is.
      const sheet = await this.broadsheetStream(q);
      const classes: BroadsheetClass[] = [];
      for await (const c of sheet.classes) classes.push(c);
      return { session: sheet.session, term: q.term, subjects: sheet.sortSubjects(classes.flatMap((c) => c.subjects)), classes };
    }
    const [session, rows, ctx] = await Promise.all([
      this.session(q.session_id),
      this.repo.broadsheetRows(q.session_id, q.term, q.student_class === undefined ? undefined : [q.student_class]),
      this.broadsheetContext(q.session_id),
    ]);
    const classes = await this.broadsheetClasses(rows, ctx);
    return { session, term: q.term, subjects: ctx.sortSubjects(classes.flatMap((c) => c.subjects)), classes };
  }

  /**
   * The whole-school sheet class by class, for streaming: the classes come a batch at a time (a few
   * queries a batch: 1 class, then 2, up to `maxClassesPerBatch`), so the first rows leave while later classes are still read and memory holds
   * one batch, not the school. The session is checked before anything is sent. At most two classes a
   * batch: a query's rows are read in one synchronous piece on SQLite, and eight classes' (7,000
   * results of a 1,500-student school) held the event loop for a few hundred milliseconds on a loaded
   * machine.
   */
  async broadsheetStream(q: { session_id: number; term: string }, maxClassesPerBatch = 2) {
    const [session, names, ctx] = await Promise.all([
      this.session(q.session_id),
      this.repo.broadsheetClassNames(q.session_id, q.term),
      this.broadsheetContext(q.session_id),
    ]);
    const repo = this.repo;
    const build = (rows: Awaited<ReturnType<ResultsRepository['broadsheetRows']>>) => this.broadsheetClasses(rows, ctx);
    async function* classes(): AsyncGenerator<BroadsheetClass> {
      // One class first (the first rows leave soon), then batches doubling up to the maximum (fewer queries).
      for (let i = 0, size = 1; i < names.length; i += size, size = Math.min(size * 2, maxClassesPerBatch)) {
        yield* await build(await repo.broadsheetRows(q.session_id, q.term, names.slice(i, i + size)));
      }
    }
    return { session, term: q.term, classes: classes(), sortSubjects: ctx.sortSubjects };
  }

  private async broadsheetContext(sessionId: number) {
    const [order, schemes] = await Promise.all([this.teaching.subjectOrder(), this.assessment.schemesOf(sessionId)]);
    const bySubject = compareSubjects(order);
    return { bySubject, schemes, sortSubjects: (subjects: Iterable<string>) => [...new Set(subjects)].sort(bySubject) };
  }

  /** The classes of these result rows (ordered by class, then name), ranked, with their columns. */
  private async broadsheetClasses(
    rows: Awaited<ReturnType<ResultsRepository['broadsheetRows']>>,
    ctx: Awaited<ReturnType<BroadsheetService['broadsheetContext']>>,
  ): Promise<BroadsheetClass[]> {
    const { bySubject, schemes } = ctx;
    // Every student's subjects in one go (a fixed number of queries for the rows given).
    const classOf = new Map(rows.map((r) => [r.student_id, r.student_class]));
    const taken = await this.teaching.subjectsOf([...classOf].map(([id, student_class]) => ({ id, student_class })));
    const perClass = new Map<string, typeof rows>();
    for (const r of rows) {
      const list = perClass.get(r.student_class) ?? [];
      list.push(r);
      perClass.set(r.student_class, list);
    }
    const classes: BroadsheetClass[] = [];
    for (const [arm, list] of perClass) {
      // A class at a time, other requests (health checks, sign-ins) in between: a whole-school sheet
      // would otherwise hold the event loop for its whole length.
      if (classes.length) await yieldToEventLoop();
      const ranking = rankClass(list);
      // The columns: every subject a student of the class takes, and any subject with a stored score.
      const present = new Set(list.map((r) => r.subject));
      for (const r of list) for (const x of taken.get(r.student_id) ?? []) present.add(x);
      const subjects = [...present].sort(bySubject);
      const students = new Map<
        number,
        {
          admission_number: string;
          name: string;
          scores: Record<string, number | null>;
          not_taken: string[];
          components: Record<string, ComponentScores>;
        }
      >();
      for (const r of list) {
        let s = students.get(r.student_id);
        if (!s) {
          s = {
            admission_number: r.admission_number,
            // First name first, as on every other screen (the rows stay in register order).
            name: personName(r),
            scores: Object.fromEntries(subjects.map((x) => [x, null])),
            not_taken: [],
            components: {},
          };
          students.set(r.student_id, s);
        }
        s.scores[r.subject] = r.score;
        const parts = parseStoredComponents(r.components);
        if (parts) s.components[r.subject] = parts;
      }
      for (const [id, s] of students) {
        const own = new Set(taken.get(id) ?? []);
        s.not_taken = subjects.filter((x) => !own.has(x) && s.scores[x] === null);
      }
      const subjectPositions: BroadsheetClass['subject_positions'] = {};
      const sheetRows = [...students.entries()].map(([id, s]) => {
        const st = ranking.byStudent.get(id)!;
        subjectPositions[s.admission_number] = st.subject_positions;
        return { ...s, total: st.total, subjects_taken: st.subjects_taken, average: st.average, position: st.position };
      });
      classes.push({
        student_class: arm,
        components: schemes[levelOfClass(arm)].components,
        subjects,
        rows: sheetRows,
        subject_stats: ranking.subjects,
        subject_positions: subjectPositions,
        class_average: ranking.class_average,
        class_size: ranking.size,
      });
    }
    return classes;
  }
}

/** The streamed whole-school sheet as JSON text, piece by piece: the shape of `Broadsheet`, `subjects` last. */
export async function* broadsheetJson(sheet: Awaited<ReturnType<BroadsheetService['broadsheetStream']>>): AsyncGenerator<string> {
  yield `{"session":${JSON.stringify(sheet.session)},"term":${JSON.stringify(sheet.term)},"classes":[`;
  const subjects = new Set<string>();
  let first = true;
  for await (const c of sheet.classes) {
    for (const x of c.subjects) subjects.add(x);
    yield (first ? '' : ',') + JSON.stringify(c);
    first = false;
    // Each class's text is written in its own turn of the event loop (see broadsheetClasses).
    await yieldToEventLoop();
  }
  yield `],"subjects":${JSON.stringify(sheet.sortSubjects(subjects))}}`;
}

/**
 * The sheet as CSV: an empty cell is a missing score, `n/a` a subject the student does not take.
 * Where a class's scheme has several components, each subject has its component columns before its
 * total (`Mathematics CA1, Mathematics CA2, Mathematics Exam, Mathematics`); the labels of a
 * whole-school sheet are those of every such class, in scheme order.
 */
export async function broadsheetCsv(b: Broadsheet): Promise<string> {
  const subjects = b.subjects;
  const labels: string[] = [];
  for (const c of b.classes) {
    if (c.components.length < 2) continue;
    for (const x of c.components) if (!labels.includes(x.label)) labels.push(x.label);
  }
  const header = [
    'Class',
    'Admission number',
    'Name',
    ...subjects.flatMap((s) => [...labels.map((l) => `${s} ${l}`), s]),
    'Total',
    'Subjects taken',
    'Average',
    'Position',
    'Out of',
  ];
  const lines: CsvValue[][] = [header];
  for (const [i, c] of b.classes.entries()) {
    // A whole school's lines: a turn of the event loop between classes.
    if (i) await yieldToEventLoop();
    const own = c.components.length > 1 ? new Set(c.components.map((x) => x.label)) : new Set<string>();
    for (const r of c.rows) {
      const cells = subjects.flatMap((s): CsvValue[] => {
        if (r.not_taken.includes(s) || !c.subjects.includes(s)) return [...labels.map(() => null), RESULT_ADMIN_MESSAGES.notTaken];
        const parts = r.components[s];
        return [...labels.map((l) => (own.has(l) ? (parts?.[l] ?? null) : null)), r.scores[s] ?? null];
      });
      lines.push([c.student_class, r.admission_number, r.name, ...cells, r.total, r.subjects_taken, r.average, r.position, c.class_size]);
    }
  }
  return toCsvInSlices(lines);
}
