import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useChartId } from './chart-id';
import { GRID, MUTED, TEXT, seriesStyle } from './palette';
import { SeriesPatterns, Legend } from './series-patterns';
import { ChartSvg } from './chart-svg';
import { useWidth } from './use-width';

export interface BarDatum {
  label: string;
  /** Null: nothing to show yet (a dash is written instead of a bar). */
  value: number | null;
}

const ROW = 28;
const GAP = 8;
const LABEL_W = 96;
const VALUE_W = 64;

/**
 * Horizontal bars, one per row, each labelled with its name and its figure in text (rows read on a
 * phone; long names fit). `max` fixes the scale's end (100 for percentages).
 */
export function BarChart({
  data,
  labelledBy,
  format = String,
  max,
  testId,
}: {
  data: readonly BarDatum[];
  labelledBy: string;
  format?: (v: number) => string;
  max?: number;
  testId?: string;
}) {
  return (
    <GroupedBarChart
      categories={data.map((d) => d.label)}
      series={[{ name: '', values: data.map((d) => d.value) }]}
      labelledBy={labelledBy}
      format={format}
      max={max}
      testId={testId}
    />
  );
}

export interface BarSeries {
  name: string;
  values: readonly (number | null)[];
}

/**
 * Grouped (side by side) or stacked horizontal bars: one row per category, one bar or segment per
 * series, each series its own colour and pattern, with a key naming them. Stacked rows write their
 * total; grouped bars each write their figure.
 */
export function GroupedBarChart({
  categories,
  series,
  labelledBy,
  format = String,
  max,
  stacked = false,
  testId,
}: {
  categories: readonly string[];
  series: readonly BarSeries[];
  labelledBy: string;
  format?: (v: number) => string;
  max?: number;
  stacked?: boolean;
  testId?: string;
}) {
  const id = useChartId();
  const { ref, width } = useWidth<HTMLDivElement>();
  const perRow = stacked ? 1 : series.length;
  const rowH = ROW * perRow + GAP;
  const height = categories.length * rowH + GAP;
  const totals = categories.map((_, c) => series.reduce((sum, s) => sum + (s.values[c] ?? 0), 0));
  const top = max ?? Math.max(1, ...(stacked ? totals : series.flatMap((s) => s.values.map((v) => v ?? 0))));
  const plotW = Math.max(40, width - LABEL_W - VALUE_W);
  const x = scaleLinear<number>({ domain: [0, top], range: [0, plotW], clamp: true });
  const y = scaleBand<string>({ domain: [...categories], range: [GAP, height], paddingInner: 0, paddingOuter: 0 });
  const named = series.length > 1 || series[0]?.name;
  return (
    <div ref={ref} className="w-full min-w-0">
      <ChartSvg width={width} height={height} labelledBy={labelledBy} testId={testId}>
        <SeriesPatterns count={series.length} idPrefix={id} />
        {categories.map((cat, c) => {
          const y0 = y(cat) ?? 0;
          let offset = 0;
          return (
            <Group key={cat} top={y0}>
              <text x={LABEL_W - 6} y={(rowH - GAP) / 2} dy="0.35em" textAnchor="end" fontSize={13} fill={TEXT}>
                {cat.length > 14 ? `${cat.slice(0, 13)}…` : cat}
                <title>{cat}</title>
              </text>
              <line x1={LABEL_W} x2={LABEL_W} y1={0} y2={rowH - GAP} stroke={GRID} />
              {series.map((s, i) => {
                const v = s.values[c];
                const style = seriesStyle(i, id);
                const w = v ? x(v) : 0;
                const bx = LABEL_W + (stacked ? offset : 0);
                const by = stacked ? 0 : i * ROW;
                if (stacked) offset += w;
                return (
                  <g key={s.name || i}>
                    {w > 0 && <Bar x={bx} y={by + 3} width={w} height={ROW - 6} fill={style.fill} stroke={style.colour} />}
                    {!stacked && (
                      <text x={bx + w + 6} y={by + ROW / 2} dy="0.35em" fontSize={12} fill={MUTED}>
                        {v === null || v === undefined ? '–' : format(v)}
                      </text>
                    )}
                  </g>
                );
              })}
              {stacked && (
                <text x={LABEL_W + offset + 6} y={ROW / 2} dy="0.35em" fontSize={12} fill={MUTED}>
                  {format(totals[c] ?? 0)}
                </text>
              )}
            </Group>
          );
        })}
      </ChartSvg>
      {named && <Legend names={series.map((s) => s.name)} idPrefix={`${id}-key`} />}
    </div>
  );
}
