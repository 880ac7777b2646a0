/**
 * Positions and class statistics of report cards and broadsheets: pure functions, no I/O.
 *
 * Rules (docs/decisions/004-result-concurrency-and-ranking.md):
 * - Ties share a position and the next position skips ("competition ranking": 1, 1, 3).
 * - A student's average is over the subjects they took (missing subjects are not counted as 0);
 *   the overall position ranks students by that average. N in "position X out of N" is the number of
 *   students of the class with at least one result for the term.
 * - A subject position ranks only the students who took that subject.
 */

export interface ScoreRow {
  student_id: number;
  subject: string;
  score: number;
}

export interface SubjectStats {
  subject: string;
  /** Students who took the subject. */
  count: number;
  average: number;
  highest: number;
  lowest: number;
}

export interface StudentStanding {
  student_id: number;
  total: number;
  subjects_taken: number;
  /** Total / subjects taken, rounded to 2 decimals. */
  average: number;
  position: number;
  /** Position in each subject taken. */
  subject_positions: Record<string, number>;
}

export interface ClassRanking {
  /** Every student with at least one score, best first (ties in input order). */
  standings: StudentStanding[];
  byStudent: Map<number, StudentStanding>;
  subjects: Record<string, SubjectStats>;
  /** Mean of the students' averages, 2 decimals. */
  class_average: number;
  /** Students ranked (N of "position X out of N"). */
  size: number;
}

const EPS = 1e-9;

export function round2(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100;
}

/**
 * A sum of scores, settled to 6 decimals. Floating-point addition is not associative
 * (48.725 + 66 + 66.7 is 181.425, but 66 + 66.7 + 48.725 is 181.42499999999998), and an average on
 * a half-hundredth (60.475) then rounds down or up by the order the scores were added in. The card
 * adds in its row order and PostgreSQL's `sum()` in whatever order it reads the rows, so every total
 * that an average is taken of goes through here: scores carry far fewer than 6 decimals, so the
 * settled sum is the exact decimal total whatever the order.
 */
export function settleSum(total: number): number {
  return Math.round(total * 1e6) / 1e6;
}

/** A student's average before rounding: their settled total over the subjects they took (docs/decisions/004). */
export function averageOver(total: number, subjectsTaken: number): number {
  return settleSum(total) / subjectsTaken;
}

/**
 * Competition ranking of values, highest first: equal values (within floating-point noise) share a
 * position, and the next distinct value gets 1 + the number of values above it.
 */
export function competitionRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => b.v - a.v || a.i - b.i);
  const ranks = new Array<number>(values.length);
  let prev: number | undefined;
  let prevRank = 0;
  order.forEach(({ v, i }, k) => {
    const rank = prev !== undefined && Math.abs(prev - v) <= EPS * Math.max(1, Math.abs(v)) ? prevRank : k + 1;
    ranks[i] = rank;
    prev = v;
    prevRank = rank;
  });
  return ranks;
}

/** Ranks one class for one term from its score rows (one row per student and subject). */
export function rankClass(rows: readonly ScoreRow[]): ClassRanking {
  const perStudent = new Map<number, { total: number; count: number }>();
  const perSubject = new Map<string, { student_id: number; score: number }[]>();
  for (const r of rows) {
    const s = perStudent.get(r.student_id) ?? { total: 0, count: 0 };
    s.total += r.score;
    s.count += 1;
    perStudent.set(r.student_id, s);
    const list = perSubject.get(r.subject) ?? [];
    list.push({ student_id: r.student_id, score: r.score });
    perSubject.set(r.subject, list);
  }

  const ids = [...perStudent.keys()];
  const rawAverages = ids.map((id) => {
    const s = perStudent.get(id)!;
    return averageOver(s.total, s.count);
  });
  const ranks = competitionRanks(rawAverages);
  const byStudent = new Map<number, StudentStanding>();
  ids.forEach((id, k) => {
    const s = perStudent.get(id)!;
    byStudent.set(id, {
      student_id: id,
      total: round2(settleSum(s.total)),
      subjects_taken: s.count,
      average: round2(rawAverages[k]!),
      position: ranks[k]!,
      subject_positions: {},
    });
  });

  const subjects: Record<string, SubjectStats> = {};
  for (const [subject, list] of perSubject) {
    const scores = list.map((x) => x.score);
    const subjectRanks = competitionRanks(scores);
    list.forEach((x, k) => {
      byStudent.get(x.student_id)!.subject_positions[subject] = subjectRanks[k]!;
    });
    subjects[subject] = {
      subject,
      count: list.length,
      average: round2(
        averageOver(
          scores.reduce((a, b) => a + b, 0),
          scores.length,
        ),
      ),
      highest: Math.max(...scores),
      lowest: Math.min(...scores),
    };
  }

  const standings = [...byStudent.values()].sort((a, b) => a.position - b.position);
  const class_average = rawAverages.length ? round2(rawAverages.reduce((a, b) => a + b, 0) / rawAverages.length) : 0;
  return { standings, byStudent, subjects, class_average, size: ids.length };
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 101st... */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

/** "3rd out of 40" */
export function positionText(position: number, size: number): string {
  return `${ordinal(position)} out of ${size}`;
}

export interface TermSummary {
  term: string;
  total: number;
  subjects_taken: number;
  average: number;
}

/** Third-term cumulative view: the annual average is the mean of the averages of the terms with results. */
export function annualAverage(terms: readonly TermSummary[]): number | null {
  const taken = terms.filter((t) => t.subjects_taken > 0);
  if (!taken.length) return null;
  return round2(taken.reduce((a, t) => a + t.total / t.subjects_taken, 0) / taken.length);
}
