import {
  ABSENT_MARK,
  componentProblem,
  componentTotal,
  parseComponentCell,
  subjectStatistics,
  type AssessmentComponent,
  type ComponentScores,
  type ScorePrecision,
  type ScoreSheetResult,
} from '@portal/domain/assessment';
import type { OutboxRow } from '../../../../lib/autosave/row-outbox';

export type { RowStatus } from '../../../../lib/autosave/row-outbox';

/** The text typed in each component cell, by label. */
export type Cells = Record<string, string>;

/**
 * A grid row as the teacher sees it (a row of the autosave outbox, lib/autosave): the text typed
 * in each cell (`value`), the stored result the edits start from (`base`, its version goes with the
 * save, null: none yet), and where the row's save stands.
 */
export type RowState = OutboxRow<Cells, ScoreSheetResult | null>;

export interface ParsedRow {
  values: ComponentScores;
  problems: Record<string, string>;
  /** The live total: the components typed, or a stored one-total result while no component is typed. */
  total: number | null;
  /**
   * Every component is in (marks or ABS; or a stored one-total result): only then are the grade and
   * position final. A row with CA1 alone has a running total and neither.
   */
  complete: boolean;
}

export const cellText = (v: ComponentScores[string] | undefined): string => (v === undefined ? '' : String(v));

export function cellsOf(components: readonly AssessmentComponent[], result: ScoreSheetResult | null): Cells {
  const out: Cells = {};
  for (const c of components) out[c.label] = cellText(result?.components[c.label]);
  return out;
}

interface ReadCells {
  components: readonly AssessmentComponent[];
  precision: ScorePrecision;
  values: ComponentScores;
  problems: Record<string, string>;
}
const cache = new WeakMap<Cells, ReadCells>();

/** Reads a row's cells against the scheme (cached per cells object: typing re-reads only the row typed in). */
export function readCells(
  components: readonly AssessmentComponent[],
  precision: ScorePrecision,
  cells: Cells,
): Pick<ParsedRow, 'values' | 'problems'> {
  const hit = cache.get(cells);
  if (hit && hit.components === components && hit.precision === precision) return hit;
  const values: ComponentScores = {};
  const problems: Record<string, string> = {};
  for (const c of components) {
    const v = parseComponentCell(cells[c.label] ?? '');
    if (v === undefined) continue;
    const p = componentProblem(c, v, precision);
    if (p) problems[c.label] = p;
    else values[c.label] = v;
  }
  const out = { components, precision, values, problems };
  cache.set(cells, out);
  return out;
}

/** A row's values, problems, live total and whether it is complete. */
export function parseRow(
  components: readonly AssessmentComponent[],
  precision: ScorePrecision,
  state: Pick<RowState, 'value' | 'base'>,
): ParsedRow {
  const { values, problems } = readCells(components, precision, state.value);
  const typed = Object.keys(values).length > 0;
  const totalOnly = !typed && !!state.base?.total_only;
  const total = typed ? componentTotal(values) : totalOnly ? state.base!.score : null;
  const complete = totalOnly || (components.length > 0 && components.every((c) => values[c.label] !== undefined));
  return { values, problems, total, complete };
}

/** Whether the typed values are what is stored (then there is nothing to save). */
export function sameAsStored(components: readonly AssessmentComponent[], values: ComponentScores, base: ScoreSheetResult | null): boolean {
  if (!base) return Object.keys(values).length === 0;
  if (base.total_only && Object.keys(values).length === 0) return true;
  return components.every((c) => values[c.label] === base.components[c.label]);
}

/** "CA1 15, CA2 12, Exam ABS" ("–" for an empty component); a one-total result says so. */
export function describeScores(components: readonly AssessmentComponent[], scores: ComponentScores, totalOnly?: number): string {
  if (totalOnly !== undefined && !Object.keys(scores).length) return `Total ${totalOnly}`;
  return components.map((c) => `${c.label} ${scores[c.label] ?? '–'}`).join(', ');
}

/** Live positions over the rows' current totals (ties 1, 1, 3), keyed by admission number. */
export function livePositions(totals: readonly { admission_number: string; total: number | null }[]): Map<string, number> {
  const scored = totals.filter((t): t is { admission_number: string; total: number } => t.total !== null);
  const { positions } = subjectStatistics(scored.map((t, i) => ({ student_id: i, score: t.total })));
  const out = new Map<string, number>();
  scored.forEach((t, i) => out.set(t.admission_number, positions.get(i)!));
  return out;
}

/** A pasted block: rows by line, cells by tab (a spreadsheet) or else by comma (a CSV line). */
export function parsePasted(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const byTab = text.includes('\t');
  return lines.map((l) => l.split(byTab ? '\t' : ',').map((c) => c.trim()));
}

export { ABSENT_MARK };
