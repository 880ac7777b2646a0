import { seriesStyle } from './palette';

/** The <defs> of a chart's series patterns: stripes, dots, cross-hatch over the series colour. */
export function SeriesPatterns({ count, idPrefix }: { count: number; idPrefix: string }) {
  return (
    <defs>
      {Array.from({ length: count }, (_, i) => {
        const s = seriesStyle(i, idPrefix);
        if (!s.patternId) return null;
        return (
          <pattern key={s.patternId} id={s.patternId} width="8" height="8" patternUnits="userSpaceOnUse">
            <rect width="8" height="8" fill={s.colour} />
            {s.pattern === 'stripes' && <path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke="#fff" strokeWidth="2" />}
            {s.pattern === 'dots' && <circle cx="4" cy="4" r="1.6" fill="#fff" />}
            {s.pattern === 'cross' && <path d="M0,4 h8 M4,0 v8" stroke="#fff" strokeWidth="1.5" />}
          </pattern>
        );
      })}
    </defs>
  );
}

/** A series' key: its swatch (colour and pattern) and its name in text. */
export function Legend({ names, idPrefix }: { names: readonly string[]; idPrefix: string }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800" aria-label="Key">
      {names.map((name, i) => {
        const s = seriesStyle(i, idPrefix);
        return (
          <li key={name} className="flex items-center gap-1.5">
            <svg width="16" height="16" aria-hidden="true" focusable="false">
              <SeriesPatterns count={i + 1} idPrefix={`${idPrefix}-k${i}`} />
              <rect width="16" height="16" rx="2" fill={seriesStyle(i, `${idPrefix}-k${i}`).fill} stroke={s.colour} />
            </svg>
            {name}
          </li>
        );
      })}
    </ul>
  );
}
