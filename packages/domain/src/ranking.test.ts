import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annualAverage, competitionRanks, ordinal, positionText, rankClass, settleSum, type ScoreRow } from './ranking';

const SUBJECTS = ['Mathematics', 'English Language', 'French', 'Civic Education'];

/** A class: up to 30 students, each with a random subset of subjects (missing subjects happen). */
const classRows = fc
  .array(
    fc.record({
      taken: fc.subarray(SUBJECTS, { minLength: 1 }),
      scores: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: SUBJECTS.length, maxLength: SUBJECTS.length }),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((students) =>
    students.flatMap((s, id): ScoreRow[] =>
      s.taken.map((subject) => ({ student_id: id + 1, subject, score: s.scores[SUBJECTS.indexOf(subject)]! })),
    ),
  );

describe('competition ranking', () => {
  it('gives ties the same position and skips the next (1, 1, 3)', () => {
    expect(competitionRanks([90, 90, 80])).toEqual([1, 1, 3]);
    expect(competitionRanks([50, 70, 70, 70, 10])).toEqual([4, 1, 1, 1, 5]);
    expect(competitionRanks([])).toEqual([]);
    expect(competitionRanks([0.1 + 0.2, 0.3])).toEqual([1, 1]);
  });

  it('ranks consistently: position = 1 + number of strictly better values', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 60 }), (values) => {
        const ranks = competitionRanks(values);
        values.forEach((v, i) => expect(ranks[i]).toBe(1 + values.filter((w) => w > v).length));
      }),
    );
  });
});

describe('class ranking', () => {
  it('ranks by average over the subjects taken, with statistics per subject', () => {
    const rows: ScoreRow[] = [
      { student_id: 1, subject: 'Mathematics', score: 90 },
      { student_id: 1, subject: 'French', score: 70 },
      { student_id: 2, subject: 'Mathematics', score: 70 },
      { student_id: 2, subject: 'French', score: 90 },
      { student_id: 3, subject: 'Mathematics', score: 85 }, // one subject only: average 85
    ];
    const r = rankClass(rows);
    expect(r.size).toBe(3);
    expect(r.byStudent.get(3)).toMatchObject({ total: 85, subjects_taken: 1, average: 85, position: 1 });
    expect(r.byStudent.get(1)).toMatchObject({ total: 160, average: 80, position: 2, subject_positions: { Mathematics: 1, French: 2 } });
    expect(r.byStudent.get(2)).toMatchObject({ position: 2, subject_positions: { Mathematics: 3, French: 1 } });
    expect(r.subjects.Mathematics).toEqual({ subject: 'Mathematics', count: 3, average: 81.67, highest: 90, lowest: 70 });
    expect(r.subjects.French).toMatchObject({ count: 2, average: 80 });
    expect(r.class_average).toBe(81.67);
    expect(r.standings.map((s) => s.student_id)).toEqual([3, 1, 2]);
  });

  it('positions are 1..N, tied averages share a position, and better averages rank strictly higher', () => {
    fc.assert(
      fc.property(classRows, (rows) => {
        const r = rankClass(rows);
        const st = [...r.byStudent.values()];
        expect(r.size).toBe(new Set(rows.map((x) => x.student_id)).size);
        expect(Math.min(...st.map((s) => s.position))).toBe(1);
        for (const a of st) {
          expect(a.position).toBeGreaterThanOrEqual(1);
          expect(a.position).toBeLessThanOrEqual(r.size);
          const rawA = a.total / a.subjects_taken;
          expect(a.position).toBe(1 + st.filter((b) => b.total / b.subjects_taken > rawA + 1e-9).length);
        }
      }),
    );
  });

  it('students with equal totals over the same number of subjects share a position', () => {
    fc.assert(
      fc.property(classRows, fc.integer({ min: 0, max: 100 }), (rows, s) => {
        // Add two students with identical totals made of different scores.
        const extra: ScoreRow[] = [
          { student_id: 1001, subject: 'Mathematics', score: s },
          { student_id: 1001, subject: 'French', score: 100 - s },
          { student_id: 1002, subject: 'Mathematics', score: 100 - s },
          { student_id: 1002, subject: 'French', score: s },
        ];
        const r = rankClass([...rows, ...extra]);
        expect(r.byStudent.get(1001)!.position).toBe(r.byStudent.get(1002)!.position);
        expect(r.byStudent.get(1001)!.total).toBe(100);
      }),
    );
  });

  it('a missing subject is not a zero: the average is over subjects taken', () => {
    fc.assert(
      fc.property(classRows, (rows) => {
        const r = rankClass(rows);
        for (const s of r.byStudent.values()) {
          const mine = rows.filter((x) => x.student_id === s.student_id);
          expect(s.subjects_taken).toBe(mine.length);
          expect(s.average).toBeCloseTo(mine.reduce((a, b) => a + b.score, 0) / mine.length, 2);
        }
      }),
    );
  });

  it('subject statistics and positions cover exactly the students who took the subject', () => {
    fc.assert(
      fc.property(classRows, (rows) => {
        const r = rankClass(rows);
        for (const subject of SUBJECTS) {
          const taken = rows.filter((x) => x.subject === subject);
          if (!taken.length) {
            expect(r.subjects[subject]).toBeUndefined();
            continue;
          }
          const scores = taken.map((x) => x.score);
          expect(r.subjects[subject]).toMatchObject({ count: taken.length, highest: Math.max(...scores), lowest: Math.min(...scores) });
          expect(r.subjects[subject]!.average).toBeGreaterThanOrEqual(Math.min(...scores));
          expect(r.subjects[subject]!.average).toBeLessThanOrEqual(Math.max(...scores));
          for (const x of taken) {
            expect(r.byStudent.get(x.student_id)!.subject_positions[subject]).toBe(1 + scores.filter((v) => v > x.score).length);
          }
          const topScorers = taken.filter((x) => x.score === Math.max(...scores));
          for (const x of topScorers) expect(r.byStudent.get(x.student_id)!.subject_positions[subject]).toBe(1);
        }
      }),
    );
  });

  it('a student’s total and average, and each subject’s average, do not depend on the order the scores are added in', () => {
    // Scores with up to 3 decimals (a weighted total such as 48.725): 48.725 + 66 + 66.7 and
    // 66 + 66.7 + 48.725 differ in the last bit, and 60.475 then rounded to 60.48 or 60.47 by order
    // (the student dashboard against the card, PostgreSQL's sum against the card's, CI of stop 47).
    const score = fc.oneof(
      fc.integer({ min: 0, max: 100_000 }).map((m) => m / 1000),
      fc.constantFrom(48.725, 66, 66.7),
    );
    const rowsOf = fc
      .array(fc.array(fc.option(score, { nil: null }), { minLength: SUBJECTS.length, maxLength: SUBJECTS.length }), {
        minLength: 1,
        maxLength: 8,
      })
      .map((students) =>
        students.flatMap((scores, id): ScoreRow[] =>
          scores.flatMap((sc, j) => (sc === null ? [] : [{ student_id: id + 1, subject: SUBJECTS[j]!, score: sc }])),
        ),
      );
    fc.assert(
      fc.property(
        rowsOf.chain((rows) => fc.tuple(fc.constant(rows), fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length }))),
        ([rows, shuffled]) => {
          const a = rankClass(rows);
          const b = rankClass(shuffled);
          for (const [id, s] of a.byStudent) {
            expect(b.byStudent.get(id)).toMatchObject({ total: s.total, average: s.average, position: s.position });
          }
          for (const [subject, st] of Object.entries(a.subjects)) expect(b.subjects[subject]!.average).toBe(st.average);
        },
      ),
      {
        examples: [
          [
            [
              [
                { student_id: 1, subject: 'A', score: 48.725 },
                { student_id: 1, subject: 'B', score: 66 },
                { student_id: 1, subject: 'C', score: 66.7 },
              ],
              [
                { student_id: 1, subject: 'B', score: 66 },
                { student_id: 1, subject: 'C', score: 66.7 },
                { student_id: 1, subject: 'A', score: 48.725 },
              ],
            ],
          ],
        ],
      },
    );
    expect(settleSum(66 + 66.7 + 48.725)).toBe(181.425);
  });

  it('raising one score never lowers that student’s position (monotonicity)', () => {
    fc.assert(
      fc.property(classRows, fc.nat(), fc.integer({ min: 1, max: 100 }), (rows, pick, raise) => {
        const i = pick % rows.length;
        const before = rankClass(rows);
        const target = rows[i]!;
        const raised = rows.map((x, k) => (k === i ? { ...x, score: Math.min(100, x.score + raise) } : x));
        const after = rankClass(raised);
        expect(after.byStudent.get(target.student_id)!.position).toBeLessThanOrEqual(before.byStudent.get(target.student_id)!.position);
        expect(after.byStudent.get(target.student_id)!.subject_positions[target.subject]).toBeLessThanOrEqual(
          before.byStudent.get(target.student_id)!.subject_positions[target.subject]!,
        );
      }),
    );
  });
});

describe('wording and the annual average', () => {
  it('writes positions as ordinals out of N', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
    expect(positionText(3, 40)).toBe('3rd out of 40');
  });

  it('averages the terms that have results', () => {
    expect(annualAverage([])).toBeNull();
    expect(
      annualAverage([
        { term: '1st', total: 240, subjects_taken: 3, average: 80 },
        { term: '2nd', total: 0, subjects_taken: 0, average: 0 },
        { term: '3rd', total: 150, subjects_taken: 2, average: 75 },
      ]),
    ).toBe(77.5);
  });
});
