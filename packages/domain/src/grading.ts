import type { Level } from './constants';

/** One band of a grading scale: scores from `min` to `max` inclusive get `grade`. */
export interface GradeBand {
  grade: string;
  min: number;
  max: number;
  remark: string;
}
export type GradingScale = readonly GradeBand[];

/** WAEC bands, the default for senior classes. */
export const DEFAULT_SSS_SCALE: GradingScale = [
  { grade: 'A1', min: 75, max: 100, remark: 'Excellent' },
  { grade: 'B2', min: 70, max: 74.99, remark: 'Very good' },
  { grade: 'B3', min: 65, max: 69.99, remark: 'Good' },
  { grade: 'C4', min: 60, max: 64.99, remark: 'Credit' },
  { grade: 'C5', min: 55, max: 59.99, remark: 'Credit' },
  { grade: 'C6', min: 50, max: 54.99, remark: 'Credit' },
  { grade: 'D7', min: 45, max: 49.99, remark: 'Pass' },
  { grade: 'E8', min: 40, max: 44.99, remark: 'Pass' },
  { grade: 'F9', min: 0, max: 39.99, remark: 'Fail' },
];

/** The default for junior classes. */
export const DEFAULT_JSS_SCALE: GradingScale = [
  { grade: 'A', min: 70, max: 100, remark: 'Excellent' },
  { grade: 'B', min: 60, max: 69.99, remark: 'Very good' },
  { grade: 'C', min: 50, max: 59.99, remark: 'Good' },
  { grade: 'D', min: 45, max: 49.99, remark: 'Fair' },
  { grade: 'E', min: 40, max: 44.99, remark: 'Pass' },
  { grade: 'F', min: 0, max: 39.99, remark: 'Fail' },
];

export const DEFAULT_SCALES: Record<Level, GradingScale> = { JSS: DEFAULT_JSS_SCALE, SSS: DEFAULT_SSS_SCALE };

export const LEVELS: readonly Level[] = ['JSS', 'SSS'];

/** The band a score falls in: the highest band whose minimum the score reaches. */
export function bandFor(score: number, scale: GradingScale): GradeBand {
  const sorted = [...scale].sort((a, b) => b.min - a.min);
  const band = sorted.find((b) => score >= b.min) ?? sorted[sorted.length - 1];
  if (!band) throw new Error('Empty grading scale');
  return band;
}

export function gradeFor(score: number, scale: GradingScale): string {
  return bandFor(score, scale).grade;
}

export function remarkFor(score: number, scale: GradingScale): string {
  return bandFor(score, scale).remark;
}

/** What an admin edits: a band is its grade, its lowest score and its remark; `max` is derived. */
export interface GradeBandInput {
  grade: string;
  min: number;
  remark: string;
}

export const SCALE_MESSAGES = {
  empty: 'A grading scale needs at least one band.',
  lowestAtZero: 'The lowest band must start at 0.',
  distinctMins: 'Each band must start at a different score.',
  distinctGrades: 'Each grade must be different.',
  minRange: 'A band must start between 0 and 100.',
  gradeRequired: 'Grade is required',
  remarkRequired: 'Remark is required',
  levelInvalid: 'Level must be JSS or SSS.',
} as const;

/**
 * Problems with a scale an admin typed, or [] when it is valid. A valid scale covers every score
 * from 0 to 100 exactly once: bands start at distinct scores, the lowest at 0, and each band runs
 * up to just below the next one's start (the top band to 100).
 */
export function scaleProblems(bands: readonly GradeBandInput[]): string[] {
  const out: string[] = [];
  if (!bands.length) return [SCALE_MESSAGES.empty];
  if (bands.some((b) => !(b.min >= 0 && b.min <= 100))) out.push(SCALE_MESSAGES.minRange);
  if (!bands.some((b) => b.min === 0)) out.push(SCALE_MESSAGES.lowestAtZero);
  if (new Set(bands.map((b) => b.min)).size !== bands.length) out.push(SCALE_MESSAGES.distinctMins);
  if (new Set(bands.map((b) => b.grade.trim().toUpperCase())).size !== bands.length) out.push(SCALE_MESSAGES.distinctGrades);
  return out;
}

/** A valid input scale as stored: highest band first, each `max` just below the next band's start. */
export function normalizeScale(bands: readonly GradeBandInput[]): GradeBand[] {
  const sorted = [...bands].sort((a, b) => b.min - a.min);
  return sorted.map((b, i) => {
    const above = sorted[i - 1];
    return {
      grade: b.grade.trim(),
      min: b.min,
      max: above ? Math.round((above.min - 0.01) * 100) / 100 : 100,
      remark: b.remark.trim(),
    };
  });
}

/** Score ranges of a scale as half-open intervals [from, below); the top band's `below` is null. */
export function scaleRanges(scale: GradingScale): { band: GradeBand; from: number; below: number | null }[] {
  const sorted = [...scale].sort((a, b) => b.min - a.min);
  return sorted.map((band, i) => ({
    band,
    from: i === sorted.length - 1 ? Number.NEGATIVE_INFINITY : band.min,
    below: sorted[i - 1]?.min ?? null,
  }));
}
