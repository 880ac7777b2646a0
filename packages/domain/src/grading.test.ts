import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bandFor,
  DEFAULT_JSS_SCALE,
  DEFAULT_SCALES,
  DEFAULT_SSS_SCALE,
  gradeFor,
  normalizeScale,
  remarkFor,
  SCALE_MESSAGES,
  scaleProblems,
  scaleRanges,
  type GradeBandInput,
  type GradingScale,
} from './grading';

const score = fc.double({ min: 0, max: 100, noNaN: true });
const twoDecimals = fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100);

/** Scales an admin could type: distinct starts, one at 0, distinct grade names. */
const validScale = fc
  .uniqueArray(fc.integer({ min: 1, max: 100 }), { maxLength: 10 })
  .map((mins) => [0, ...mins].map((min, i): GradeBandInput => ({ grade: `G${i}`, min, remark: `R${i}` })))
  .chain((bands) => fc.shuffledSubarray(bands, { minLength: bands.length, maxLength: bands.length }));

function containing(s: number, scale: GradingScale) {
  return scaleRanges(scale).filter(({ from, below }) => s >= from && (below === null || s < below));
}

describe('default scales', () => {
  it('are the WAEC bands for SSS and the JSS bands, at their boundaries', () => {
    const sss: [number, string][] = [
      [100, 'A1'],
      [75, 'A1'],
      [74.99, 'B2'],
      [70, 'B2'],
      [69.99, 'B3'],
      [65, 'B3'],
      [64, 'C4'],
      [60, 'C4'],
      [59, 'C5'],
      [55, 'C5'],
      [54, 'C6'],
      [50, 'C6'],
      [49, 'D7'],
      [45, 'D7'],
      [44, 'E8'],
      [40, 'E8'],
      [39.99, 'F9'],
      [0, 'F9'],
    ];
    for (const [s, g] of sss) expect(gradeFor(s, DEFAULT_SSS_SCALE)).toBe(g);
    const jss: [number, string][] = [
      [100, 'A'],
      [70, 'A'],
      [69, 'B'],
      [60, 'B'],
      [59, 'C'],
      [50, 'C'],
      [49, 'D'],
      [45, 'D'],
      [44, 'E'],
      [40, 'E'],
      [39, 'F'],
      [0, 'F'],
    ];
    for (const [s, g] of jss) expect(gradeFor(s, DEFAULT_JSS_SCALE)).toBe(g);
    expect(remarkFor(80, DEFAULT_SSS_SCALE)).toBe('Excellent');
    expect(remarkFor(10, DEFAULT_JSS_SCALE)).toBe('Fail');
  });

  it('are valid scales whose stored maxima match normalizeScale', () => {
    for (const scale of Object.values(DEFAULT_SCALES)) {
      expect(scaleProblems(scale)).toEqual([]);
      expect(normalizeScale(scale)).toEqual(scale);
    }
  });
});

describe('grading properties', () => {
  it('every score from 0 to 100 falls in exactly one band of a default scale, the one bandFor picks', () => {
    fc.assert(
      fc.property(fc.oneof(score, twoDecimals), fc.constantFrom(DEFAULT_JSS_SCALE, DEFAULT_SSS_SCALE), (s, scale) => {
        const hits = containing(s, scale);
        expect(hits).toHaveLength(1);
        expect(bandFor(s, scale)).toBe(hits[0]!.band);
        // With two decimals the stored [min, max] bounds agree too.
        if (Math.round(s * 100) === s * 100) expect(s >= hits[0]!.band.min && s <= hits[0]!.band.max).toBe(true);
      }),
    );
  });

  it('every score falls in exactly one band of any valid scale an admin can save', () => {
    fc.assert(
      fc.property(validScale, fc.oneof(score, twoDecimals), (input, s) => {
        expect(scaleProblems(input)).toEqual([]);
        const scale = normalizeScale(input);
        expect(containing(s, scale)).toHaveLength(1);
        expect(bandFor(s, scale)).toBe(containing(s, scale)[0]!.band);
        expect(scale[0]!.max).toBe(100);
        expect(scale[scale.length - 1]!.min).toBe(0);
      }),
    );
  });

  it('is monotonic: a higher score never gets a lower band', () => {
    fc.assert(
      fc.property(validScale, score, score, (input, a, b) => {
        const scale = normalizeScale(input);
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(bandFor(hi, scale).min).toBeGreaterThanOrEqual(bandFor(lo, scale).min);
      }),
    );
  });

  it('reports each problem of an invalid scale', () => {
    expect(scaleProblems([])).toEqual([SCALE_MESSAGES.empty]);
    expect(scaleProblems([{ grade: 'A', min: 50, remark: 'x' }])).toEqual([SCALE_MESSAGES.lowestAtZero]);
    expect(
      scaleProblems([
        { grade: 'A', min: 0, remark: 'x' },
        { grade: 'a', min: 0, remark: 'y' },
      ]),
    ).toEqual([SCALE_MESSAGES.distinctMins, SCALE_MESSAGES.distinctGrades]);
    expect(
      scaleProblems([
        { grade: 'A', min: 0, remark: 'x' },
        { grade: 'B', min: 101, remark: 'x' },
      ]),
    ).toEqual([SCALE_MESSAGES.minRange]);
  });
});
