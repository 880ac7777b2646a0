import { useId } from 'react';

/** A page-unique id usable in SVG `url(#…)` references (React's ids may hold characters those refuse). */
export function useChartId(): string {
  return `c${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
}
