import { describe, expect, it } from 'vitest';
import {
  bandFor,
  DEFAULT_JSS_SCALE,
  DEFAULT_SCALES,
  DEFAULT_SSS_SCALE,
  gradeFor,
  LEVELS,
  normalizeScale,
  remarkFor,
  SCALE_MESSAGES,
  scaleProblems,
  scaleRanges,
} from './grading';

/** The SSS scale listed lowest band first, as an admin or an import might give it. */
const lowestFirst = [...DEFAULT_SSS_SCALE].reverse();

describe('bandFor and a scale in any order', () => {
  it('sorts a scale listed lowest first: 80 is A1, 72 is B2, 40 is E8, 39.99 is F9', () => {
    expect(lowestFirst[0]!.grade).toBe('F9');
    expect(gradeFor(80, lowestFirst)).toBe('A1');
    expect(gradeFor(72, lowestFirst)).toBe('B2');
    expect(gradeFor(40, lowestFirst)).toBe('E8');
    expect(gradeFor(39.99, lowestFirst)).toBe('F9');
    expect(remarkFor(100, lowestFirst)).toBe('Excellent');
    // The caller's list is left as it was.
    expect(lowestFirst[0]!.grade).toBe('F9');
  });

  it('a score below every band gets the lowest band; an empty scale is an error', () => {
    const noZero = [
      { grade: 'P', min: 50, max: 100, remark: 'Pass' },
      { grade: 'F', min: 10, max: 49.99, remark: 'Fail' },
    ];
    expect(bandFor(5, noZero).grade).toBe('F');
    expect(bandFor(5, [...noZero].reverse()).grade).toBe('F');
    expect(() => bandFor(50, [])).toThrow('Empty grading scale');
  });

  it('the default scales by level, and the levels', () => {
    expect(DEFAULT_SCALES.JSS).toBe(DEFAULT_JSS_SCALE);
    expect(DEFAULT_SCALES.SSS).toBe(DEFAULT_SSS_SCALE);
    expect(LEVELS).toEqual(['JSS', 'SSS']);
    expect(DEFAULT_SSS_SCALE.map((b) => `${b.grade} ${b.min}-${b.max} ${b.remark}`)).toEqual([
      'A1 75-100 Excellent',
      'B2 70-74.99 Very good',
      'B3 65-69.99 Good',
      'C4 60-64.99 Credit',
      'C5 55-59.99 Credit',
      'C6 50-54.99 Credit',
      'D7 45-49.99 Pass',
      'E8 40-44.99 Pass',
      'F9 0-39.99 Fail',
    ]);
    expect(DEFAULT_JSS_SCALE.map((b) => `${b.grade} ${b.min}-${b.max} ${b.remark}`)).toEqual([
      'A 70-100 Excellent',
      'B 60-69.99 Very good',
      'C 50-59.99 Good',
      'D 45-49.99 Fair',
      'E 40-44.99 Pass',
      'F 0-39.99 Fail',
    ]);
  });
});

describe('scaleProblems', () => {
  const band = (grade: string, min: number, remark: string) => ({ grade, min, remark });
  it.each([
    ['a band starting below 0', [band('A', 0, 'x'), band('B', -5, 'y')], ['A band must start between 0 and 100.']],
    ['a lone band at -0.01', [band('A', -0.01, 'x')], ['A band must start between 0 and 100.', 'The lowest band must start at 0.']],
    ['a band starting above 100', [band('A', 0, 'x'), band('B', 100.01, 'y')], ['A band must start between 0 and 100.']],
    ['bands at 0 and 100 (valid)', [band('A', 0, 'x'), band('B', 100, 'y')], []],
    ['a band starting at NaN', [band('A', 0, 'x'), band('B', Number.NaN, 'y')], ['A band must start between 0 and 100.']],
    ['grades differing only by case and spaces', [band(' b ', 0, 'x'), band('B', 50, 'y')], ['Each grade must be different.']],
    ['grades B1 and B (valid)', [band('B1', 0, 'x'), band('B', 50, 'y')], []],
  ])('%s', (_, bands, problems) => {
    expect(scaleProblems(bands)).toEqual(problems);
  });

  it('says each problem in its words', () => {
    // Every message word for word, function messages by name: __snapshots__/grading-rules.test.ts.snap.
    expect(SCALE_MESSAGES).toMatchSnapshot();
    expect(scaleProblems([])).toEqual(['A grading scale needs at least one band.']);
  });
});

describe('normalizeScale and scaleRanges', () => {
  it('stores highest first, trims names, and ends each band 0.01 below the next', () => {
    expect(
      normalizeScale([
        { grade: ' F ', min: 0, remark: ' Fail ' },
        { grade: 'A', min: 70, remark: 'Top' },
        { grade: 'C', min: 40.5, remark: 'Pass' },
      ]),
    ).toEqual([
      { grade: 'A', min: 70, max: 100, remark: 'Top' },
      { grade: 'C', min: 40.5, max: 69.99, remark: 'Pass' },
      { grade: 'F', min: 0, max: 40.49, remark: 'Fail' },
    ]);
  });

  it('ranges are half-open, highest first; the lowest reaches down without end', () => {
    const ranges = scaleRanges(lowestFirst.slice(0, 3)).map(({ band, from, below }) => [band.grade, from, below]);
    expect(ranges).toEqual([
      ['D7', 45, null],
      ['E8', 40, 45],
      ['F9', Number.NEGATIVE_INFINITY, 40],
    ]);
  });
});
