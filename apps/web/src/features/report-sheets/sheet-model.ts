import { RATING_MAX, RATING_MIN, type Ratings, type RatingTrait } from '@portal/domain/report-cards';
import { REPORT_SHEET_MESSAGES } from '@portal/domain/report-sheet-screens';

/**
 * The rows of a report sheet as the screen holds them: the text of each cell, the stored text the
 * edits start from (with its version, sent with the save), and where the row's save stands.
 */
export type RowStatus = 'idle' | 'unsaved' | 'saving' | 'saved' | 'failed' | 'conflict';

export type Cells = Record<string, string>;

export interface RowState {
  cells: Cells;
  /** The stored values, as cell text. */
  base: Cells;
  /** The stored row's version (0: nothing stored yet). */
  version: number;
  status: RowStatus;
  /** Why the last save failed, in the server's or the screen's words. */
  message: string | null;
  /** Bumped on every edit: a save answered after a newer edit leaves the row unsaved. */
  seq: number;
}

export const DIRTY: ReadonlySet<RowStatus> = new Set(['unsaved', 'saving', 'failed', 'conflict']);

export function freshRow(cells: Cells, version: number): RowState {
  return { cells, base: cells, version, status: 'idle', message: null, seq: 0 };
}

/** The cells whose text differs from what is stored. */
export function changedKeys(r: Pick<RowState, 'cells' | 'base'>): string[] {
  return Object.keys(r.cells).filter((k) => (r.cells[k] ?? '').trim() !== (r.base[k] ?? '').trim());
}

/**
 * A row in conflict after the sheet is reloaded: the stored row and its version, with the cells the
 * teacher changed (against what they had loaded) put back on top, so the next save keeps the other
 * person's changes to the other cells. It waits for the teacher to save again.
 */
export function mergeReloaded(cur: RowState, stored: Cells, version: number): RowState {
  const mine = Object.fromEntries(changedKeys(cur).map((k) => [k, cur.cells[k] ?? '']));
  return { ...cur, cells: { ...stored, ...mine }, base: stored, version, status: 'unsaved', message: null };
}

/** Every trait of both domains, in the grid's column order. */
export function traitColumns(traits: Record<string, readonly RatingTrait[]>): RatingTrait[] {
  return [...(traits.affective ?? []), ...(traits.psychomotor ?? [])];
}

export function ratingCells(columns: readonly RatingTrait[], ratings: Ratings): Cells {
  const out: Cells = {};
  for (const t of columns) out[t.id] = ratings[t.id] === undefined ? '' : String(ratings[t.id]);
  return out;
}

/** A rating cell: '' is not rated (null), else a whole number 1 to 5; anything else is a problem. */
export function parseRating(text: string): { value: number | null } | { problem: string } {
  const t = text.trim();
  if (t === '') return { value: null };
  if (!/^\d+$/.test(t)) return { problem: REPORT_SHEET_MESSAGES.ratingCell };
  const n = Number(t);
  return n >= RATING_MIN && n <= RATING_MAX ? { value: n } : { problem: REPORT_SHEET_MESSAGES.ratingCell };
}

/** A row's ratings for the save (every trait: a number or null) and its cells' problems. */
export function parseRatingRow(columns: readonly RatingTrait[], cells: Cells): { ratings: Record<string, number | null>; problems: Cells } {
  const ratings: Record<string, number | null> = {};
  const problems: Cells = {};
  for (const t of columns) {
    const p = parseRating(cells[t.id] ?? '');
    if ('problem' in p) problems[t.id] = p.problem;
    else ratings[t.id] = p.value;
  }
  return { ratings, problems };
}

/** A pasted block: rows by line, cells by tab (a spreadsheet) or else by comma (a CSV line). */
export function parsePasted(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const byTab = text.includes('\t');
  return lines.map((l) => l.split(byTab ? '\t' : ',').map((c) => c.trim()));
}

/** Days present or absent: '' is not entered (null), else a whole number 0 to 200; null for a bad cell. */
export function parseDays(text: string): { value: number | null } | null {
  const t = text.trim();
  if (t === '') return { value: null };
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n <= 200 ? { value: n } : null;
}
