import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear, scalePoint } from '@visx/scale';
import { LinePath } from '@visx/shape';
import { GRID, MUTED, SERIES_COLOURS } from './palette';
import { ChartSvg } from './chart-svg';
import { useWidth } from './use-width';

export interface LinePoint {
  /** The x label (a date "2026-11-29", a term). */
  x: string;
  y: number;
}

const M = { top: 12, right: 16, bottom: 32, left: 56 };

/**
 * One line over labelled points, each point marked with a dot (the line is not the only mark). The
 * x axis shows a few labels only (`tickLabel` shortens them); the table view has every one.
 */
export function LineChart({
  points,
  labelledBy,
  format = String,
  tickLabel = (x: string) => x,
  height = 200,
  testId,
}: {
  points: readonly LinePoint[];
  labelledBy: string;
  format?: (v: number) => string;
  tickLabel?: (x: string) => string;
  height?: number;
  testId?: string;
}) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const innerW = Math.max(40, width - M.left - M.right);
  const innerH = height - M.top - M.bottom;
  const x = scalePoint<string>({ domain: points.map((p) => p.x), range: [0, innerW] });
  const top = Math.max(1, ...points.map((p) => p.y));
  const y = scaleLinear<number>({ domain: [0, top], range: [innerH, 0], nice: true });
  const ticks = Math.max(2, Math.min(points.length, Math.floor(innerW / 70)));
  const step = Math.max(1, Math.ceil(points.length / ticks));
  const shown = points.filter((_, i) => i % step === 0 || i === points.length - 1).map((p) => p.x);
  return (
    <div ref={ref} className="w-full min-w-0">
      <ChartSvg width={width} height={height} labelledBy={labelledBy} testId={testId}>
        <Group left={M.left} top={M.top}>
          <AxisLeft
            scale={y}
            numTicks={4}
            tickFormat={(v) => format(Number(v))}
            stroke={GRID}
            tickStroke={GRID}
            tickLabelProps={{ fill: MUTED, fontSize: 11, textAnchor: 'end', dx: -4, dy: '0.33em' }}
          />
          <AxisBottom
            top={innerH}
            scale={x}
            tickValues={shown}
            tickFormat={(v) => tickLabel(String(v))}
            stroke={GRID}
            tickStroke={GRID}
            tickLabelProps={{ fill: MUTED, fontSize: 11, textAnchor: 'middle' }}
          />
          <LinePath data={[...points]} x={(p) => x(p.x) ?? 0} y={(p) => y(p.y)} stroke={SERIES_COLOURS[0]} strokeWidth={2} />
          {points.map((p) => (
            <circle key={p.x} cx={x(p.x) ?? 0} cy={y(p.y)} r={3} fill="#fff" stroke={SERIES_COLOURS[0]} strokeWidth={2}>
              <title>{`${p.x}: ${format(p.y)}`}</title>
            </circle>
          ))}
        </Group>
      </ChartSvg>
    </div>
  );
}
