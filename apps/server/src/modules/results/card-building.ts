// The report card built from rows already loaded: pure (no queries, no HTTP), shared by the card
// service (one card, an arm's cards) and the report sheets (the session's figures for promotion).
import {
  absentComponents,
  annualAverage,
  bandFor,
  parseStoredComponents,
  positionText,
  round2,
  termLabel,
  TERM_VALUES,
  type AssessmentComponent,
  type ClassRanking,
  type GradingScale,
  type ReportCard,
  type ReportCardSubject,
  type SchoolSettings,
  classLevelOf,
  promotionDecision,
  promotionLabel,
  RATING_DOMAIN_LABELS,
  RATING_DOMAINS,
  type CardNextTerm,
  type CardStatus,
  type ReportSettings,
  type CardAttendance,
  unmarkedTimes,
} from '@portal/domain';
import { compareSubjects, type SubjectOrder } from './results.presenters';
import type { ResultsRepository } from './results.repository';
import type { ReportCardsRepository } from './report-cards.repository';

export type CardRow = Awaited<ReturnType<ResultsRepository['cardRows']>>[number];
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
export function termsFor(term: string): string[] {
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
