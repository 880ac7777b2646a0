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
  type ScoreSheetRow,
} from '@portal/domain/assessment';

/**
 * The grid's rows as the teacher sees them: the text typed in each cell, the stored result the
 * edits start from (its version goes with the save), and where the row's save stands.
 */
export type RowStatus = 'idle' | 'unsaved' | 'saving' | 'saved' | 'failed' | 'conflict';

export interface RowState {
  cells: Record<string, string>;
  /** The stored result these edits were made on (null: none yet). */
  base: ScoreSheetResult | null;
  status: RowStatus;
  /** Why the last save failed, in the server's or the screen's words. */
  message: string | null;
  /** The row as stored now by someone else (status `conflict`); null when they cleared it. */
  theirs?: ScoreSheetResult | null;
  /** Bumped on every edit: a save answered after a newer edit leaves the row unsaved. */
  seq: number;
}

export interface ParsedRow {
  values: ComponentScores;
  problems: Record<string, string>;
  /** The live total: the components typed, or a stored one-total result while no component is typed. */
  total: number | null;
}

export const cellText = (v: ComponentScores[string] | undefined): string => (v === undefined ? '' : String(v));

export function cellsOf(components: readonly AssessmentComponent[], result: ScoreSheetResult | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of components) out[c.label] = cellText(result?.components[c.label]);
  return out;
}

export function freshRow(components: readonly AssessmentComponent[], row: ScoreSheetRow): RowState {
  return { cells: cellsOf(components, row.result), base: row.result, status: 'idle', message: null, seq: 0 };
}

const cache = new WeakMap<RowState, ParsedRow>();

/** Reads a row's cells against the scheme (cached per row state: typing re-renders only what changed). */
export function parseRow(components: readonly AssessmentComponent[], precision: ScorePrecision, state: RowState): ParsedRow {
  const hit = cache.get(state);
  if (hit) return hit;
  const values: ComponentScores = {};
  const problems: Record<string, string> = {};
  for (const c of components) {
    const v = parseComponentCell(state.cells[c.label] ?? '');
    if (v === undefined) continue;
    const p = componentProblem(c, v, precision);
    if (p) problems[c.label] = p;
    else values[c.label] = v;
  }
  const typed = Object.keys(values).length > 0;
  const total = typed ? componentTotal(values) : state.base?.total_only ? state.base.score : null;
  const out = { values, problems, total };
  cache.set(state, out);
  return out;
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
