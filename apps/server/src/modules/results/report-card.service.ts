import {
  levelOfClass,
  NOT_RELEASED_CODE,
  rankClass,
  RESULT_MESSAGES,
  termLabel,
  TERM_VALUES,
  type ReportCard,
  CARD_STATUSES,
  nextTermOf,
  personName,
  type CardStatus,
  type Term,
  effectiveTimesOpened,
} from '@portal/domain';
import { HttpError, notFound } from '../../http/errors';
import type { SettingsService } from '../settings/settings.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { SessionRows } from '../calendar/sessions.service';
import type { GradingService } from './grading.service';
import type { ResultsRepository } from './results.repository';
import type { Actor, ResultsService } from './results.service';
import type { AssessmentService } from './assessment.service';
import type { CardFees } from './results.ports';
import type { CardGate } from './card-gate.service';
import type { ReportCardsRepository } from './report-cards.repository';
import type { AttendanceService } from '../attendance/attendance.service';
import type { AccessScope } from '../access/scope.service';
import { mapInSlices, yieldToEventLoop } from '../../lib/yield';
import type { TableMemo } from '../../db/table-memo';
import { buildCard, nextSessionName, termsFor, type CardRow, type CardSections } from './card-building';

/** Report cards built between two turns of the event loop (a class's cards: 40 to 90). */
const CARDS_PER_SLICE = 20;

const notReleased = () => new HttpError(404, { detail: RESULT_MESSAGES.notReleased, code: NOT_RELEASED_CODE });

/** A term's place in the session (1st, 2nd, 3rd): the transcript's order. */
const termIndex = (t: string) => TERM_VALUES.indexOf(t as (typeof TERM_VALUES)[number]);

/** The session of a card or sheet by id (404 with the results' message when there is none). */
export async function sessionOf(sessions: SessionRows, id: number): Promise<{ id: number; name: string }> {
  const s = await sessions.get(id);
  if (!s) throw notFound(RESULT_MESSAGES.sessionNotFound);
  return { id: s.id, name: s.name };
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
  /** The fee gate (decision 042): every card a student or a parent reads passes it. */
  gate: CardGate;
  /**
   * Cards and arms' cards memoised per reader until a write changes a table they read (decision 053);
   * none: every card computed.
   */
  memo?: CardMemos;
  /** The app's "today" clock: part of each memo key, so fees that fall due at midnight are counted. */
  now?: () => number;
}

/** The two memos of `ReportCardService` (the composition root makes them; buildApp tells them other instances' changes). */
export interface CardMemos {
  card: TableMemo<ReportCard>;
  classCards: TableMemo<ReportCard[]>;
}

/**
 * A memo key's time: the quarter of an hour, so that every time zone's midnight (a whole number of
 * quarters from UTC's) starts a new key and a fee falling due "today" shows at once.
 */
const QUARTER_HOUR_MS = 15 * 60_000;

/** Report cards (one student's, an arm's): each computed from a couple of set-based queries, never per student. */
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
  private readonly gate: CardGate;
  private readonly memo: CardMemos | undefined;
  private readonly now: () => number;

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
    this.gate = deps.gate;
    this.memo = deps.memo;
    this.now = deps.now ?? Date.now;
  }

  /** A memo key: the reader (every access rule's answer depends on who asks), the card's address and the quarter hour. */
  private memoKey(actor: Actor, what: readonly (string | number)[]): string {
    return JSON.stringify([actor.role, actor.id, Math.floor(this.now() / QUARTER_HOUR_MS), ...what]);
  }

  /**
   * The sections of an arm's cards for a term: one query per table (entries, term dates, status,
   * form teacher, photos, report settings, fees, payments) whatever the number of students.
   */
  private async sections(
    session: { id: number; name: string },
    term: string,
    arm: string,
    studentIds: number[],
    publication: { published_at: string } | undefined,
    /** The students' entries and photos when the caller has read them already (one card's `oneCard`). */
    known?: { entries: Awaited<ReturnType<ReportCardsRepository['entries']>>; photos: { student_id: number; photo: string }[] },
  ): Promise<(studentId: number) => CardSections> {
    const next = nextTermOf(term as Term);
    const nextName = next.nextSession ? nextSessionName(session.name) : session.name;
    const [entries, termRow, statuses, teachers, photos, settings, nextSession, register] = await Promise.all([
      known ? known.entries : this.cardRepo.entries(session.id, term, { studentIds }),
      this.sessions.cardTerm(session.id, term),
      publication ? Promise.resolve([]) : this.cardRepo.statuses(session.id, term, [arm]),
      this.teaching.formTeachers(session.id, { classes: [arm] }),
      known ? known.photos : this.cardRepo.photos(studentIds),
      this.settings.reportSettings(session.id),
      next.nextSession ? (nextName ? this.sessions.byName(nextName) : Promise.resolve(undefined)) : Promise.resolve(session),
      this.attendance.cardAttendance(session.id, term, studentIds),
    ]);
    const fees = await this.fees({
      session,
      term: term as Term,
      arm,
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

  private session(id: number) {
    return sessionOf(this.sessions, id);
  }

  /**
   * One student's term card for `actor`: every access rule, the release and the fee gate decide first
   * (403/404 are never memoised). The answer is memoised for this reader until a write to any table it
   * was read from (decision 053).
   */
  async card(actor: Actor, q: { admission_number: string; session_id: number; term: string }): Promise<ReportCard> {
    if (!this.memo) return this.computeCard(actor, q);
    return this.memo.card.get(this.memoKey(actor, [q.admission_number, q.session_id, q.term]), () => this.computeCard(actor, q));
  }

  private async computeCard(actor: Actor, q: { admission_number: string; session_id: number; term: string }): Promise<ReportCard> {
    const student = (await this.results.studentFor(actor, q.admission_number))!;
    // The card's own rows in one statement (issue 37.4): read before the checks below, shown only after them.
    const [session, own] = await Promise.all([
      this.session(q.session_id),
      this.repo.oneCard(q.session_id, termsFor(q.term), student.id, q.term),
    ]);
    const { rows, published, revisions } = own;
    const termRows = rows.filter((r) => r.term === q.term);
    if (!termRows.length) throw notFound(RESULT_MESSAGES.noReportCard);
    const cls = termRows[0]!.student_class;
    const isStudent = actor.role === 'student';
    const [classScores, scales, school, taken, order, scheme] = await Promise.all([
      this.repo.classScores(q.session_id, q.term, cls),
      this.grading.scales(q.session_id),
      this.settings.get(),
      this.teaching.subjectsOf([{ id: student.id, student_class: cls }]),
      this.teaching.subjectOrder(),
      this.assessment.schemeFor(q.session_id, cls),
    ]);
    const isPub = (term: string, c: string) => published.some((p) => p.term === term && p.student_class === c);
    const publication = published.find((p) => p.term === q.term && p.student_class === cls);
    const released = !!publication;
    if (isStudent && !released) throw notReleased();
    await this.assertMayRead(actor, session.id, cls, released);
    // The fee gate (decision 042): after the release check, so a gated student learns nothing of an unreleased card.
    await this.gate.assertMaySee({ student: { id: student.id, student_class: cls }, session, term: q.term as Term, role: actor.role });
    const sections = await this.sections(session, q.term, cls, [student.id], publication, { entries: own.entries, photos: own.photos });
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
   * A student's transcript (issue 34, alumni): every session's released term cards, oldest session
   * first and in term order, each as the card of the arm the student was in then (the results keep
   * their arm; decision 038). 404 when none is released. One card read per released term (at most
   * three a session), not per subject.
   */
  async transcript(actor: Actor, admissionNumber: string): Promise<ReportCard[]> {
    const student = (await this.results.studentFor(actor, admissionNumber))!;
    const terms = await this.repo.termsOfStudent(student.id);
    const seen = new Set<string>();
    const released = terms
      .filter((t) => Number(t.released) === 1)
      .sort((a, b) => a.session_name.localeCompare(b.session_name) || a.session_id - b.session_id || termIndex(a.term) - termIndex(b.term))
      .filter((t) => {
        const key = `${t.session_id}|${t.term}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    if (!released.length) throw notFound(RESULT_MESSAGES.noTranscriptCards);
    const cards: ReportCard[] = [];
    for (const t of released) {
      cards.push(await this.card(actor, { admission_number: student.admission_number, session_id: t.session_id, term: t.term }));
    }
    return cards;
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
    if (!this.memo) return this.computeClassCards(actor, q);
    const key = this.memoKey(actor, [q.session_id, q.term, q.student_class]);
    return this.memo.classCards.get(key, () => this.computeClassCards(actor, q));
  }

  private async computeClassCards(actor: Actor, q: { session_id: number; term: string; student_class: string }): Promise<ReportCard[]> {
    const [session, rows, published, scales, school, revisions, order, scheme] = await Promise.all([
      this.session(q.session_id),
      this.repo.cardRows(q.session_id, termsFor(q.term), { sessionClassTerm: { arm: q.student_class, term: q.term } }),
      this.repo.publishedInSession(q.session_id),
      this.grading.scales(q.session_id),
      this.settings.get(),
      this.repo.revisions({ arm: q.student_class }, q.session_id, q.term),
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
    // The fee gate (decision 042): staff and the admin pass at once; a student or a parent never gets a gated card in a class PDF.
    await this.gate.assertMaySeeAll({
      students: ids.map((id) => ({ id, student_class: q.student_class })),
      session,
      term: q.term as Term,
      role: actor.role,
    });
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
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's report-card memos (tests read their hits and clear them; decision 053). */
    cardMemos: CardMemos;
  }
}
