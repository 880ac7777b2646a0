import type { ReactNode } from 'react';

/**
 * Every chart's drawing surface: an image named by its panel's heading. The viewBox and max-width
 * let it scale down, never past its box, between a resize and the next measure of its width.
 */
export function ChartSvg({
  width,
  height,
  labelledBy,
  testId,
  children,
}: {
  width: number;
  height: number;
  labelledBy: string;
  testId?: string | undefined;
  children: ReactNode;
}) {
  return (
    <svg
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="h-auto max-w-full"
      role="img"
      aria-labelledby={labelledBy}
      data-testid={testId}
    >
      {children}
    </svg>
  );
}
