import { describe, expect, it } from 'vitest';
import { annualAverage, competitionRanks, ordinal, rankClass, round2 } from './ranking';

describe('ranking: literal values', () => {
  it('rounds to 2 decimals, halves up', () => {
    expect(round2(1.005)).toBe(1.01);
    expect(round2(81.666)).toBe(81.67);
    expect(round2(2)).toBe(2);
  });

  it('ties within floating-point noise share; a real difference does not', () => {
    expect(competitionRanks([70.000000001, 70, 69.99])).toEqual([1, 1, 3]);
    expect(competitionRanks([0.3, 0.1 + 0.2, 0.30001])).toEqual([2, 2, 1]);
    expect(competitionRanks([5, 5, 5])).toEqual([1, 1, 1]);
    expect(competitionRanks([1e-12, 0])).toEqual([1, 1]);
  });

  it('an empty class has no standings and a class average of 0', () => {
    expect(rankClass([])).toEqual({ standings: [], byStudent: new Map(), subjects: {}, class_average: 0, size: 0 });
  });

  it('a class: totals, averages, positions, subject statistics, literal', () => {
    const r = rankClass([
      { student_id: 7, subject: 'English', score: 55.5 },
      { student_id: 7, subject: 'Maths', score: 40 },
      { student_id: 9, subject: 'English', score: 80 },
      { student_id: 4, subject: 'Maths', score: 47.75 },
      { student_id: 4, subject: 'English', score: 47.75 },
    ]);
    expect(r.standings).toEqual([
      { student_id: 9, total: 80, subjects_taken: 1, average: 80, position: 1, subject_positions: { English: 1 } },
      { student_id: 7, total: 95.5, subjects_taken: 2, average: 47.75, position: 2, subject_positions: { English: 2, Maths: 2 } },
      { student_id: 4, total: 95.5, subjects_taken: 2, average: 47.75, position: 2, subject_positions: { Maths: 1, English: 3 } },
    ]);
    expect(r.subjects).toEqual({
      English: { subject: 'English', count: 3, average: 61.08, highest: 80, lowest: 47.75 },
      Maths: { subject: 'Maths', count: 2, average: 43.88, highest: 47.75, lowest: 40 },
    });
    expect(r.class_average).toBe(58.5);
    expect(r.size).toBe(3);
    expect(r.byStudent.get(4)?.position).toBe(2);
  });

  it('ordinals past the hundreds', () => {
    expect([0, 112, 113, 1011, 1002, 1023, 5].map(ordinal)).toEqual(['0th', '112th', '113th', '1011th', '1002nd', '1023rd', '5th']);
  });

  it('the annual average: terms with results only, 2 decimals', () => {
    expect(annualAverage([{ term: '1st', total: 200, subjects_taken: 3, average: 66.67 }])).toBe(66.67);
    expect(annualAverage([{ term: '1st', total: 0, subjects_taken: 0, average: 0 }])).toBeNull();
    expect(
      annualAverage([
        { term: '1st', total: 100, subjects_taken: 2, average: 50 },
        { term: '2nd', total: 41, subjects_taken: 1, average: 41 },
      ]),
    ).toBe(45.5);
  });
});
