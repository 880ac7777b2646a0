import { describe, expect, it } from 'vitest';
import { MUTED, SERIES_COLOURS, TEXT, seriesStyle } from './palette';
import { progressBand } from './progress-grid';

/** WCAG relative luminance and contrast ratio against white. */
function contrastOnWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const l = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return 1.05 / (l + 0.05);
}

describe('chart colours', () => {
  it('every series colour and text colour has at least 4.5:1 on white', () => {
    for (const c of [...SERIES_COLOURS, TEXT, MUTED]) expect(contrastOnWhite(c), c).toBeGreaterThanOrEqual(4.5);
  });

  it('no two of the first 12 series look alike: each differs in colour or pattern', () => {
    const looks = Array.from({ length: 12 }, (_, i) => seriesStyle(i, 'x')).map((s) => `${s.colour}|${s.pattern}`);
    expect(new Set(looks).size).toBe(12);
  });

  it('a progress cell carries its state in a mark and words, not colour alone', () => {
    const bands = [progressBand({ done: 3, of: 3 }), progressBand({ done: 1, of: 3 }), progressBand({ done: 0, of: 3 })];
    expect(new Set(bands.map((b) => b.mark)).size).toBe(3);
    expect(bands.map((b) => b.words)).toEqual(['complete', 'in progress', 'not started']);
    expect(progressBand({ done: 0, of: 0 }).words).toBe('not started');
  });
});
