import {
  absentComponents,
  annualAverage,
  bandFor,
  levelOfClass,
  NOT_RELEASED_CODE,
  parseStoredComponents,
  positionText,
  rankClass,
  RESULT_ADMIN_MESSAGES,
  RESULT_MESSAGES,
  round2,
  termLabel,
  TERM_VALUES,
  type AssessmentComponent,
  type Broadsheet,
  type BroadsheetClass,
  type ClassRanking,
  type ComponentScores,
  type GradingScale,
  type ReportCard,
  type ReportCardSubject,
  type SchoolSettings,
  CARD_STATUSES,
  classLevelOf,
  nextTermOf,
  personName,
  promotionDecision,
  promotionLabel,
  RATING_DOMAIN_LABELS,
  RATING_DOMAINS,
  type CardNextTerm,
  type CardStatus,
  type ReportSettings,
  type Term,
  effectiveTimesOpened,
  type CardAttendance,
  unmarkedTimes,
} from '@portal/domain';
import { HttpError, notFound } from '../../http/errors';
import type { SettingsService } from '../settings/settings.service';
import { toCsvInSlices, type CsvValue } from '../../lib/csv';
import type { TeachingService } from '../teaching/teaching.service';
import { compareSubjects, type SubjectOrder } from './results.presenters';
import type { SessionRows } from '../calendar/sessions.service';
import type { GradingService } from './grading.service';
import type { ResultsRepository } from './results.repository';
import type { Actor, ResultsService } from './results.service';
import type { AssessmentService } from './assessment.service';
import type { CardFees } from './results.ports';
import type { ReportCardsRepository } from './report-cards.repository';
import type { AttendanceService } from '../attendance/attendance.service';
import type { AccessScope } from '../access/scope.service';
import { mapInSlices, yieldToEventLoop } from '../../lib/yield';

/** Report cards built between two turns of the event loop (a class's cards: 40 to 90). */
const CARDS_PER_SLICE = 20;

type CardRow = Awaited<ReturnType<ResultsRepository['cardRows']>>[number];
type EntryRow = Awaited<ReturnType<ReportCardsRepository['entries']>>[number];

/** What the card's sections need of one student, loaded for the whole arm at once. */
export interface CardSections {
  photo: string;
  status: CardStatus;
  entry: EntryRow | undefined;
  /** The typed "times opened" if set, else the calendar's count (null: neither). */
  times_opened: number | null;
  /** The register's present/absent (with carried-in totals), or null when it has none for the student. */
  register: { present: number; absent: number } | null;
  /** The term has dates on the school calendar (the register is the source of its attendance). */
  term_has_dates: boolean;
  settings: ReportSettings;
  form_teacher_name: string | null;
  next_term: CardNextTerm;
  /** When the arm was released (an entry changed after it marks the card revised), or null. */
  published_at: string | null;
}

/** "2025/2026" → "2026/2027"; null for a name of another form. */
export function nextSessionName(name: string): string | null {
  const m = /^(\d{4})\/(\d{4})$/.exec(name);
  return m ? `${Number(m[1]) + 1}/${Number(m[2]) + 1}` : null;
}

function parseRatings(json: string | undefined): Record<string, unknown> {
  if (!json) return {};
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Terms a report card reads: the term itself, and in the third term the two before it. */
function termsFor(term: string): string[] {
  return term === '3rd' ? [...TERM_VALUES] : [term];
}

/**
 * A student's session in figures, from their scores by term and subject: each term's total and
 * average, the annual average, and each subject's average over the terms it was scored in. The
 * third-term card's cumulative table and the promotion rule (the comment sheet) both read these.
 */
export function annualFigures(byTerm: ReadonlyMap<string, ReadonlyMap<string, number>>): {
  terms: NonNullable<ReportCard['cumulative']>['terms'];
  annual_average: number | null;
  subject_averages: Record<string, number | null>;
} {
  const terms = TERM_VALUES.map((t) => {
    const m = byTerm.get(t);
    const scores = m ? [...m.values()] : [];
    const total = scores.reduce((a, b) => a + b, 0);
    return {
      term: t,
      total: scores.length ? round2(total) : null,
      average: scores.length ? round2(total / scores.length) : null,
      subjects_taken: scores.length,
    };
  });
  const perSubject = new Map<string, number[]>();
  for (const t of TERM_VALUES)
    for (const [subject, score] of byTerm.get(t) ?? []) perSubject.set(subject, [...(perSubject.get(subject) ?? []), score]);
  const subject_averages: Record<string, number | null> = {};
  for (const [subject, scores] of perSubject) subject_averages[subject] = round2(scores.reduce((a, b) => a + b, 0) / scores.length);
  return {
    terms,
    annual_average: annualAverage(
      terms.map((t) => ({ term: t.term, total: t.total ?? 0, subjects_taken: t.subjects_taken, average: t.average ?? 0 })),
    ),
    subject_averages,
  };
}

/** Scores by term and subject from rows of a student's session. */
export function scoresByTerm(rows: readonly { term: string; subject: string; score: number }[]): Map<string, Map<string, number>> {
  const byTerm = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const m = byTerm.get(r.term) ?? new Map<string, number>();
    m.set(r.subject, Number(r.score));
    byTerm.set(r.term, m);
  }
  return byTerm;
}

const notReleased = () => new HttpError(404, { detail: RESULT_MESSAGES.notReleased, code: NOT_RELEASED_CODE });

interface BuildInput {
  rows: CardRow[]; // one student's rows for the terms read
  term: string;
  session: { id: number; name: string };
  ranking: ClassRanking;
  scale: GradingScale;
  school: SchoolSettings;
  released: boolean;
  /** Terms whose rows may be shown in the cumulative view (students: published ones only). */
  visibleTerms: Set<string>;
  /** Changes to released results of this student and term, newest first. */
  revisions?: { subject: string; created_at: string; reason?: string | null }[];
  /** The subjects the student takes this term; subjects with a stored score are listed as well. */
  taken: readonly string[];
  order: SubjectOrder;
  /** The class level's assessment components for the session. */
  components: AssessmentComponent[];
  sections: CardSections;
}

/** One student's report card from rows already loaded: no queries here. */
export function buildCard(input: BuildInput): ReportCard {
  const { rows, term, ranking, scale, school } = input;
  const termRows = rows.filter((r) => r.term === term);
  const first = termRows[0]!;
  const stored = new Map(termRows.map((r) => [r.subject, r]));
  const names = [...new Set([...input.taken, ...stored.keys()])].sort(compareSubjects(input.order));
  const standing = ranking.byStudent.get(first.student_id)!;
  const cumulativeNeeded = term === '3rd';
  const byTerm = new Map<string, Map<string, number>>();
  for (const r of rows) {
    if (!input.visibleTerms.has(r.term) && r.term !== term) continue;
    const m = byTerm.get(r.term) ?? new Map<string, number>();
    m.set(r.subject, r.score);
    byTerm.set(r.term, m);
  }
  const subjects: ReportCardSubject[] = names.map((name) => {
    const r = stored.get(name);
    if (!r) return unscored(name, ranking.subjects[name], cumulativeNeeded ? byTerm : null);
    const stats = ranking.subjects[r.subject]!;
    // The remark of the stored grade in the session's scale (the grade a score got is what was released).
    const band = scale.find((b) => b.grade === r.grade) ?? bandFor(r.score, scale);
    const components = parseStoredComponents(r.components);
    const subject: ReportCardSubject = {
      subject: r.subject,
      score: r.score,
      components,
      absent: components ? absentComponents(input.components, components) : [],
      grade: r.grade,
      remark: band.remark,
      teacher_remarks: r.remarks,
      position: standing.subject_positions[r.subject]!,
      class_average: stats.average,
      class_highest: stats.highest,
      class_lowest: stats.lowest,
    };
    if (cumulativeNeeded) {
      const s1 = byTerm.get('1st')?.get(r.subject) ?? null;
      const s2 = byTerm.get('2nd')?.get(r.subject) ?? null;
      const taken = [s1, s2, r.score].filter((x): x is number => x !== null);
      subject.term_scores = { '1st': s1, '2nd': s2, '3rd': r.score, average: round2(taken.reduce((a, b) => a + b, 0) / taken.length) };
    }
    return subject;
  });
  let cumulative: ReportCard['cumulative'] = null;
  if (cumulativeNeeded) {
    const { terms, annual_average } = annualFigures(byTerm);
    cumulative = { terms, annual_average };
  }
  const x = input.sections;
  const entry = x.entry;
  const ratings = parseRatings(entry?.ratings);
  // Passed and failed against the promotion rule's pass mark: the grading scales have no "fail" band
  // of their own (a school's lowest band may be D7 "Pass" or F9), so the school's one pass mark decides.
  const passMark = x.settings.promotion.pass_mark;
  const scored = subjects.map((s) => s.score).filter((v): v is number => v !== null);
  let promotion: ReportCard['promotion'] = null;
  if (cumulative) {
    const computed = promotionDecision(x.settings.promotion, {
      annual_average: cumulative.annual_average,
      subject_averages: Object.fromEntries(subjects.map((s) => [s.subject, s.term_scores?.average ?? null])),
    });
    const override = entry?.promotion_override as ReturnType<typeof promotionDecision> | null | undefined;
    const decision = override ?? computed;
    promotion = {
      decision,
      label: promotionLabel(decision, classLevelOf(first.student_class)),
      overridden: !!override,
      reason: override ? (entry?.override_reason ?? '') : '',
    };
  }
  // Revised: a released result changed (with its reason), or the entry changed after the release.
  let revisedAt = input.revisions?.[0]?.created_at ?? null;
  if (input.released && entry && x.published_at && entry.updated_at > x.published_at && (!revisedAt || entry.updated_at > revisedAt)) {
    revisedAt = entry.updated_at;
  }
  return {
    school: {
      name: school.school_name,
      motto: school.motto,
      address: school.address,
      logo: school.logo,
      phone: school.phone,
      email: school.email,
      time_zone: school.time_zone,
    },
    student: {
      admission_number: first.admission_number,
      first_name: first.first_name,
      last_name: first.last_name,
      gender: first.gender,
      student_class: first.student_class,
      photo: x.photo,
    },
    session: input.session,
    term,
    term_label: termLabel(term),
    components: input.components,
    subjects,
    total: standing.total,
    subjects_taken: standing.subjects_taken,
    average: standing.average,
    class_average: ranking.class_average,
    position: standing.position,
    class_size: ranking.size,
    position_text: positionText(standing.position, ranking.size),
    released: input.released,
    revisions: (input.revisions ?? []).map((v) => ({ subject: v.subject, at: v.created_at, reason: v.reason ?? '' })),
    revised_at: revisedAt,
    cumulative,
    status: input.sections.status,
    attendance: cardAttendanceOf(x, entry),
    ratings: {
      labels: x.settings.rating_labels,
      // Only the traits the school rates now, in its order: a removed trait's ratings stay stored, unseen.
      domains: RATING_DOMAINS.map((domain) => ({
        domain,
        title: RATING_DOMAIN_LABELS[domain],
        traits: x.settings.traits[domain].map((t) => {
          const v = ratings[t.id];
          return { name: t.name, rating: typeof v === 'number' ? v : null };
        }),
      })),
    },
    subjects_passed: scored.filter((v) => v >= passMark).length,
    subjects_failed: scored.filter((v) => v < passMark).length,
    grading_key: [...scale].sort((a, b) => b.min - a.min).map((b) => ({ grade: b.grade, min: b.min, max: b.max, remark: b.remark })),
    comments: {
      form_teacher: entry?.form_comment ?? '',
      form_teacher_name: x.form_teacher_name,
      principal: entry?.principal_comment ?? '',
    },
    sign_off: { signature: x.settings.signature, stamp: x.settings.stamp },
    next_term: x.next_term,
    promotion,
    generated_at: new Date().toISOString(),
  };
}

/** A subject the student takes with no score this term: listed so the card shows every subject. */
function unscored(
  name: string,
  stats: ClassRanking['subjects'][string] | undefined,
  byTerm: Map<string, Map<string, number>> | null,
): ReportCardSubject {
  const subject: ReportCardSubject = {
    subject: name,
    score: null,
    components: null,
    absent: [],
    grade: '',
    remark: '',
    teacher_remarks: '',
    position: null,
    class_average: stats?.average ?? null,
    class_highest: stats?.highest ?? null,
    class_lowest: stats?.lowest ?? null,
  };
  if (byTerm) {
    const s1 = byTerm.get('1st')?.get(name) ?? null;
    const s2 = byTerm.get('2nd')?.get(name) ?? null;
    const taken = [s1, s2].filter((x): x is number => x !== null);
    subject.term_scores = {
      '1st': s1,
      '2nd': s2,
      '3rd': null,
      average: taken.length ? round2(taken.reduce((a, b) => a + b, 0) / taken.length) : null,
    };
  }
  return subject;
}

/**
 * The card's attendance: the form teacher's totals when they set them, else the register's (with
 * any carried in), else none; times opened is the admin's typed figure, else the calendar's count.
 */
export function cardAttendanceOf(
  x: Pick<CardSections, 'times_opened' | 'register' | 'term_has_dates'>,
  entry: { days_present: number | null; days_absent: number | null } | undefined,
): CardAttendance {
  if (entry && (entry.days_present !== null || entry.days_absent !== null))
    return { times_opened: x.times_opened, present: entry.days_present, absent: entry.days_absent, source: 'form_teacher', unmarked: null };
  // From the register: what it never marked is said, not left to read as presence.
  if (x.register)
    return {
      times_opened: x.times_opened,
      ...x.register,
      source: 'register',
      unmarked: unmarkedTimes(x.times_opened, x.register.present, x.register.absent),
    };
  if (x.term_has_dates)
    return {
      times_opened: x.times_opened,
      present: null,
      absent: null,
      source: 'register',
      unmarked: unmarkedTimes(x.times_opened, null, null),
    };
  return { times_opened: x.times_opened, present: null, absent: null, source: 'form_teacher', unmarked: null };
}

/** What `ReportCardService` is built from (by the composition root, src/composition.ts). */
export interface ReportCardDeps {
  repo: ResultsRepository;
  results: ResultsService;
  grading: GradingService;
  settings: SettingsService;
  sessions: SessionRows;
  teaching: TeachingService;
  assessment: AssessmentService;
  cardRepo: ReportCardsRepository;
  /** The fee figures the card prints: results' `CardFees` port, answered by payments. */
  fees: CardFees;
  attendance: Pick<AttendanceService, 'cardAttendance'>;
  scope: AccessScope;
}

/** Report cards and broadsheets: each computed from a couple of set-based queries, never per student. */
export class ReportCardService {
  private readonly repo: ResultsRepository;
  private readonly results: ResultsService;
  private readonly grading: GradingService;
  private readonly settings: SettingsService;
  private readonly sessions: SessionRows;
  private readonly teaching: TeachingService;
  private readonly assessment: AssessmentService;
  private readonly cardRepo: ReportCardsRepository;
  private readonly fees: CardFees;
  private readonly attendance: Pick<AttendanceService, 'cardAttendance'>;
  private readonly scope: AccessScope;

  constructor(deps: ReportCardDeps) {
    this.repo = deps.repo;
    this.results = deps.results;
    this.grading = deps.grading;
    this.settings = deps.settings;
    this.sessions = deps.sessions;
    this.teaching = deps.teaching;
    this.assessment = deps.assessment;
    this.cardRepo = deps.cardRepo;
    this.fees = deps.fees;
    this.attendance = deps.attendance;
    this.scope = deps.scope;
  }

  /**
   * The sections of an arm's cards for a term: one query per table (entries, term dates, status,
   * form teacher, photos, report settings, fees, payments) whatever the number of students.
   */
  private async sections(
    session: { id: number; name: string },
    term: string,
    studentClass: string,
    studentIds: number[],
    publication: { published_at: string } | undefined,
  ): Promise<(studentId: number) => CardSections> {
    const next = nextTermOf(term as Term);
    const nextName = next.nextSession ? nextSessionName(session.name) : session.name;
    const [entries, termRow, statuses, teachers, photos, settings, nextSession, register] = await Promise.all([
      this.cardRepo.entries(session.id, term, { studentIds }),
      this.cardRepo.term(session.id, term),
      publication ? Promise.resolve([]) : this.cardRepo.statuses(session.id, term, [studentClass]),
      this.teaching.formTeachers(session.id, { classes: [studentClass] }),
      this.cardRepo.photos(studentIds),
      this.settings.reportSettings(),
      next.nextSession ? (nextName ? this.sessions.byName(nextName) : Promise.resolve(undefined)) : Promise.resolve(session),
      this.attendance.cardAttendance(session.id, term, studentIds),
    ]);
    const fees = await this.fees({
      session,
      term: term as Term,
      studentClass,
      studentIds,
      next: { sessionId: nextSession?.id ?? null, term: next.term },
    });
    const stored = statuses[0]?.status;
    const status: CardStatus = publication ? 'released' : CARD_STATUSES.includes(stored as CardStatus) ? (stored as CardStatus) : 'draft';
    const entryBy = new Map(entries.map((e) => [e.student_id, e]));
    const photoBy = new Map(photos.map((p) => [p.student_id, p.photo]));
    const teacher = teachers[0];
    return (id) => ({
      photo: photoBy.get(id) ?? '',
      status,
      entry: entryBy.get(id),
      times_opened: effectiveTimesOpened(termRow?.times_opened ?? null, register.counted_opened),
      register: register.byStudent.get(id) ?? null,
      term_has_dates: register.counted_opened !== null,
      settings,
      form_teacher_name: teacher ? personName(teacher) : null,
      next_term: {
        term_label: termLabel(next.term),
        session_name: nextSession?.name ?? nextName,
        begins: termRow?.next_term_begins ?? null,
        fees: fees.nextFees,
        outstanding: fees.outstanding.get(id) ?? 0,
      },
      published_at: publication?.published_at ?? null,
    });
  }

  private async session(id: number) {
    const s = await this.sessions.get(id);
    if (!s) throw notFound(RESULT_MESSAGES.sessionNotFound);
    return { id: s.id, name: s.name };
  }

  async card(actor: Actor, q: { admission_number: string; session_id: number; term: string }): Promise<ReportCard> {
    const student = (await this.results.studentFor(actor, q.admission_number))!;
    const [session, rows] = await Promise.all([
      this.session(q.session_id),
      this.repo.cardRows(q.session_id, termsFor(q.term), { studentId: student.id }),
    ]);
    const termRows = rows.filter((r) => r.term === q.term);
    if (!termRows.length) throw notFound(RESULT_MESSAGES.noReportCard);
    const cls = termRows[0]!.student_class;
    const isStudent = actor.role === 'student';
    const [published, classScores, scales, school, revisions, taken, order, scheme] = await Promise.all([
      this.repo.publishedInSession(q.session_id),
      this.repo.classScores(q.session_id, q.term, cls),
      this.grading.scales(q.session_id),
      this.settings.get(),
      this.repo.revisions({ studentId: student.id }, q.session_id, q.term),
      this.teaching.subjectsOf([{ id: student.id, student_class: cls }]),
      this.teaching.subjectOrder(),
      this.assessment.schemeFor(q.session_id, cls),
    ]);
    const isPub = (term: string, c: string) => published.some((p) => p.term === term && p.student_class === c);
    const publication = published.find((p) => p.term === q.term && p.student_class === cls);
    const released = !!publication;
    if (isStudent && !released) throw notReleased();
    await this.assertMayRead(actor, session.id, cls, released);
    const sections = await this.sections(session, q.term, cls, [student.id], publication);
    const visibleTerms = new Set<string>(
      TERM_VALUES.filter((t) => !isStudent || rows.some((r) => r.term === t && isPub(t, r.student_class))),
    );
    return buildCard({
      rows: rows.filter((r) => visibleTerms.has(r.term) || r.term === q.term),
      term: q.term,
      session,
      ranking: rankClass(classScores),
      scale: scales[levelOfClass(cls)],
      school,
      released,
      visibleTerms,
      revisions,
      taken: taken.get(student.id) ?? [],
      order,
      components: scheme.components,
      sections: sections(student.id),
    });
  }

  /**
   * Before release an arm's cards (comments, ratings, attendance, fee balance) are for its form
   * teacher, its subject teachers and the admin; once released, for every staff member.
   * Who teaches the arm is the access scope's answer (`unreleased_cards`).
   */
  private async assertMayRead(actor: Actor, sessionId: number, cls: string, released: boolean): Promise<void> {
    if (released || actor.role === 'student') return;
    await this.scope.assertArm(actor, cls, 'unreleased_cards', sessionId);
  }

  /** Every report card of a class for a term (staff and admin), in register order (surname, first name). */
  async classCards(actor: Actor, q: { session_id: number; term: string; student_class: string }): Promise<ReportCard[]> {
    const [session, rows, published, scales, school, revisions, order, scheme] = await Promise.all([
      this.session(q.session_id),
      this.repo.cardRows(q.session_id, termsFor(q.term), { sessionClassTerm: { studentClass: q.student_class, term: q.term } }),
      this.repo.publishedInSession(q.session_id),
      this.grading.scales(q.session_id),
      this.settings.get(),
      this.repo.revisions({ studentClass: q.student_class }, q.session_id, q.term),
      this.teaching.subjectOrder(),
      this.assessment.schemeFor(q.session_id, q.student_class),
    ]);
    // The class's reads, its ranking, the cards' sections and the cards each in turns of their own:
    // on SQLite each group of reads runs in one piece.
    await yieldToEventLoop();
    const classRows = rows.filter((r) => r.term === q.term && r.student_class === q.student_class);
    if (!classRows.length) throw notFound(RESULT_MESSAGES.noStudentsFound);
    const ranking = rankClass(classRows);
    const perStudent = new Map<number, CardRow[]>();
    for (const r of rows) {
      if (r.term === q.term && r.student_class !== q.student_class) continue;
      const list = perStudent.get(r.student_id) ?? [];
      list.push(r);
      perStudent.set(r.student_id, list);
    }
    const publication = published.find((p) => p.term === q.term && p.student_class === q.student_class);
    const released = !!publication;
    await this.assertMayRead(actor, session.id, q.student_class, released);
    const visibleTerms = new Set<string>(TERM_VALUES);
    const ids = [...perStudent.keys()];
    await yieldToEventLoop();
    const [taken, sections] = await Promise.all([
      this.teaching.subjectsOf(ids.map((id) => ({ id, student_class: q.student_class }))),
      this.sections(session, q.term, q.student_class, ids, publication),
    ]);
    await yieldToEventLoop();
    return mapInSlices(
      [...perStudent.values()],
      (list) =>
        buildCard({
          rows: list,
          term: q.term,
          session,
          ranking,
          scale: scales[levelOfClass(q.student_class)],
          school,
          released,
          visibleTerms,
          revisions: revisions.filter((v) => v.student_id === list[0]!.student_id),
          taken: taken.get(list[0]!.student_id) ?? [],
          order,
          components: scheme.components,
          sections: sections(list[0]!.student_id),
        }),
      CARDS_PER_SLICE,
    );
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
    ctx: Awaited<ReturnType<ReportCardService['broadsheetContext']>>,
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
    for (const [studentClass, list] of perClass) {
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
        student_class: studentClass,
        components: schemes[levelOfClass(studentClass)].components,
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
export async function* broadsheetJson(sheet: Awaited<ReturnType<ReportCardService['broadsheetStream']>>): AsyncGenerator<string> {
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
