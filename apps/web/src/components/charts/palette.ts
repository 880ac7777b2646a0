// The chart kit's colours and fills (docs/decisions/046). Every colour has a contrast of at least
// 4.5:1 on white (WCAG 1.4.11 asks 3:1 of graphics), and each series also has its own pattern, so
// no meaning is carried by colour alone; labels name every bar and segment in text as well.

/** Series colours, in order: green, slate, amber, sky, rose, violet (Tailwind's 700s). */
export const SERIES_COLOURS = ['#15803d', '#334155', '#b45309', '#0369a1', '#be123c', '#6d28d9'] as const;

/** Series patterns, in order; the nth series is colour n mod 6 with pattern n mod 4 ... paired so no two match. */
export const SERIES_PATTERNS = ['solid', 'stripes', 'dots', 'cross'] as const;
export type SeriesPattern = (typeof SERIES_PATTERNS)[number];

export interface SeriesStyle {
  colour: string;
  pattern: SeriesPattern;
  /** The `fill` of an SVG shape of this series (a pattern's url, or the colour). */
  fill: string;
  /** The id of the series' <pattern> element (null when solid). */
  patternId: string | null;
}

/** The style of series `i` of a chart whose patterns are defined under `idPrefix` (see <SeriesPatterns>). */
export function seriesStyle(i: number, idPrefix: string): SeriesStyle {
  const colour = SERIES_COLOURS[i % SERIES_COLOURS.length]!;
  // Colours cycle every 6 and patterns every 4: series 0..11 differ in colour or pattern (or both).
  const pattern = SERIES_PATTERNS[i % SERIES_PATTERNS.length]!;
  const patternId = pattern === 'solid' ? null : `${idPrefix}-p${i}`;
  return { colour, pattern, patternId, fill: patternId ? `url(#${patternId})` : colour };
}

/** Text on a bar, and axis text: slate-900 and slate-700 (15.4:1 and 10.4:1 on white). */
export const TEXT = '#0f172a';
export const MUTED = '#334155';
export const GRID = '#cbd5e1';
