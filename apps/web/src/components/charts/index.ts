// The chart kit (issue 36, item 5; docs/decisions/046): visx under it, imported only by lazily
// loaded screens (a dashboard's chunk), never by a route's first JavaScript.
export { ChartPanel, CHART_WORDS, type ChartTable } from './chart-panel';
export { BarChart, GroupedBarChart, type BarDatum, type BarSeries } from './bar-chart';
export { LineChart, type LinePoint } from './line-chart';
export { ProgressGrid, progressBand, PROGRESS_KEY, type ProgressCell } from './progress-grid';
export { SERIES_COLOURS, seriesStyle } from './palette';
